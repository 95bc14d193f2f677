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

}
