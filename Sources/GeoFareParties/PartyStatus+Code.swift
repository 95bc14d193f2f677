import GeoFareCore

/// The index's dense form of a status (its columns hold one byte per party).
extension PartyStatus {
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
