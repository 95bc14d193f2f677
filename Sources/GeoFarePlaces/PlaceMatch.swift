import GeoFareCore

/// How well a query matched a place's name, best last (the first rank of a search's order).
public enum MatchQuality: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// One edit (a letter or jamo left out, added, changed or two swapped) from a prefix of a
    /// name: a Latin query of three or more letters, or a Hangul one of three or more syllables.
    case typo = 1
    /// A prefix of a later word onward (스타벅스 공덕역점 for "공덕").
    case wordPrefix = 2
    /// A later word onward, whole.
    case word = 3
    /// A prefix of the name (or of its 초성 or romanised form).
    case prefix = 4
    /// The whole name (or its whole 초성 or romanised form).
    case exact = 5

    public static func < (a: MatchQuality, b: MatchQuality) -> Bool { a.rawValue < b.rawValue }

    /// The wire name (`exact`, `prefix`, `word`, `word_prefix`, `typo`).
    public var description: String {
        switch self {
        case .typo: "typo"
        case .wordPrefix: "word_prefix"
        case .word: "word"
        case .prefix: "prefix"
        case .exact: "exact"
        }
    }
}

/// One search result.
public struct PlaceMatch: Sendable, Hashable {
    public let place: Place
    public let quality: MatchQuality
    /// The name tag that matched (`name`, `name:en`, ...).
    public let matchedName: String
    /// Which form of that name matched: `name` (the name or a later word of it), `initials`
    /// (its 초성) or `romanized`.
    public let matchedForm: String
    /// Metres from the search's `near` point (WGS84 ellipsoid), or `nil` without one.
    public let distanceMeters: Double?
}

/// The answer of a reverse look-up.
public struct ReverseResult: Sendable {
    /// The nearest named place that is not a street, and its distance in metres, within the radius.
    public let place: (place: Place, distanceMeters: Double)?
    /// The nearest named street (distance to its line), within the radius.
    public let street: (place: Place, distanceMeters: Double)?
}
