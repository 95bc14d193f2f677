import GeoFareCore

/// Why a place matched and how well, best last (the first rank of a search's order): a name's
/// match (`typo` … `exact`), or an address, intersection or category the query names.
public enum MatchQuality: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// One edit (a letter or jamo left out, added, changed or two swapped) from a prefix of a
    /// name: a Latin query of three or more letters, or a Hangul one of three or more syllables.
    case typo = 1
    /// A prefix of a later word onward (스타벅스 공덕역점 for "공덕").
    case wordPrefix = 2
    /// A later word onward, whole.
    case word = 3
    /// Not the house number asked for, but the nearest one on each side of it on that street (the
    /// place to walk from): never another number's typo.
    case interpolated = 4
    /// A prefix of the name (or of its 초성 or romanised form).
    case prefix = 5
    /// The whole name (or its whole 초성 or romanised form).
    case exact = 6
    /// The node two streets the query names share.
    case intersection = 7
    /// The house number on the street the query names (`addr:housenumber`, `addr:street`).
    case address = 8
    /// A place of the category the whole query names (약국, pharmacy), nearest first.
    case category = 9

    public static func < (a: MatchQuality, b: MatchQuality) -> Bool { a.rawValue < b.rawValue }

    /// The order of a match of this quality on a place of `kind` among a search's results:
    /// the quality's, except that a later word of a park, market, hospital, campus or station
    /// (the short name people use for it: 시민공원 of 부산시민공원) comes before a street or a stop
    /// whose name only starts with the query (시민공원로, a street named after the place), and the
    /// whole rest of such a name (`Penn Station` of New York Penn Station) before any other
    /// name's prefix (the Penn Station Eagle), after an exact name.
    public func rank(for kind: PlaceKind) -> Int {
        switch self {
        case .prefix where kind == .street || kind == .busStop: return 45
        // the whole rest of the name (Penn Station of New York Penn Station): before a prefix of another name
        case .word where kind == .station || kind == .landmark || kind == .amenity || kind == .area: return 55
        case .wordPrefix where kind == .station || kind == .landmark || kind == .amenity || kind == .area: return 47
        default: return rawValue * 10
        }
    }

    /// The wire name (`category`, `address`, `intersection`, `exact`, `prefix`, `interpolated`,
    /// `word`, `word_prefix`, `typo`).
    public var description: String {
        switch self {
        case .typo: "typo"
        case .wordPrefix: "word_prefix"
        case .word: "word"
        case .prefix: "prefix"
        case .exact: "exact"
        case .interpolated: "interpolated"
        case .intersection: "intersection"
        case .address: "address"
        case .category: "category"
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
    /// Metres from the search's `near` point (WGS84 ellipsoid) to the place, or to the junction
    /// of an intersection; `nil` without `near`.
    public let distanceMeters: Double?
    /// For an `intersection`: the other street and the node both share (``place`` is the first street).
    public var junction: Junction? = nil
    /// For a `category` match: the category's id (`pharmacy`).
    public var category: String? = nil
}

/// Where two streets meet: the other street and their shared node (WGS84).
public struct Junction: Sendable, Hashable {
    public let street: Place
    public let coordinate: Coordinate
}

/// The answer of a reverse look-up.
public struct ReverseResult: Sendable {
    /// The nearest named place that is not a street, and its distance in metres, within the radius.
    public let place: (place: Place, distanceMeters: Double)?
    /// The nearest named street (distance to its line), within the radius.
    public let street: (place: Place, distanceMeters: Double)?
    /// The addressed building whose outline holds the point (distance 0), else the nearest
    /// place with a house number within ``PlacesIndex/addressReachMeters`` (and the radius).
    public var address: (place: Place, distanceMeters: Double)? = nil
}
