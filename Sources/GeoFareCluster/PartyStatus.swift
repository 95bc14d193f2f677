/// Whether a party still takes riders.
///
/// The raw values (`open`, `full`, `closed`) are the wire names.
public enum PartyStatus: String, Sendable, Codable, CaseIterable {
    /// Taking riders.
    case open
    /// Every seat is taken (or the organiser stopped taking riders).
    case full
    /// Departed or cancelled; kept until the store removes it.
    case closed

    /// A dense code for the index's columns (0, 1, 2).
    @inlinable
    var code: UInt8 {
        switch self {
        case .open: 0
        case .full: 1
        case .closed: 2
        }
    }

    /// The status of a dense code from ``code``.
    @inlinable
    init(code: UInt8) {
        switch code {
        case 0: self = .open
        case 1: self = .full
        default: self = .closed
        }
    }
}
