import GeoFareCore

/// One named place of the index: what it is called, what it is, where it is.
public struct Place: Sendable, Hashable {
    /// The place's position in the index (stable for one file).
    public let index: Int
    /// The OSM element it was read from: `n123` (node) or `w456` (way; for a street, the first
    /// of the ways merged into it).
    public let osmID: String
    public let kind: PlaceKind
    /// A node's position, or a way's representative point (its node nearest the centroid of
    /// its nodes), WGS84.
    public let coordinate: Coordinate
    /// Every name, as OSM tags it: (`name`, value), (`name:en`, value), ... in ``PlaceTags/nameKeys`` order.
    public let names: [(key: String, value: String)]
    /// Address parts without the `addr:` prefix (`street`, `housenumber`, `city`, ...), as tagged.
    public let address: [(key: String, value: String)]

    /// The name to show: `name`, else `name:ko`, else the first name; an unnamed place (kept for
    /// its address or category) shows its ``addressLine``, else nothing.
    public var name: String {
        names.first { $0.key == "name" }?.value ?? names.first { $0.key == "name:ko" }?.value ?? names.first?.value ?? addressLine ?? ""
    }

    /// Whether OSM names it (one of ``PlaceTags/nameKeys``); the index also keeps unnamed
    /// places with a house number or a category (``PlaceCategories``).
    public var isNamed: Bool { names.contains { PlaceTags.nameKeys.contains($0.key) } }

    /// `350 5th Avenue` or `동천로 92` from `addr:housenumber` and `addr:street` (or `addr:place`),
    /// or `nil` (``StreetText/addressLine(_:)``).
    public var addressLine: String? { StreetText.addressLine(address) }

    public static func == (a: Place, b: Place) -> Bool { a.index == b.index && a.osmID == b.osmID }
    public func hash(into hasher: inout Hasher) { hasher.combine(index); hasher.combine(osmID) }
}

/// Which tags a place keeps.
public enum PlaceTags {
    /// The name tags that make a place named, in the order a place lists them. After them a
    /// named place lists its other `name:xx` languages (``isLanguageName(_:)``), `brand` (when it
    /// differs from the name), and `name+branch` / `brand+branch` / `brand:ko+branch` (`롯데백화점 부산본점 (서면)`, `홈플러스 서면`): all searched.
    public static let nameKeys = ["name", "name:ko", "name:en", "name:ko-Latn", "alt_name", "old_name", "short_name", "official_name", "alt_name:ko"]
    /// The synthesised names: a brand's name, and the name or brand with the branch after it.
    public static let brandKeys = ["brand", "name+branch", "brand+branch", "brand:ko+branch"]

    /// Whether `key` is a name in one language: `name:` and a 2–3 letter code, optionally a
    /// script or region (`name:ja`, `name:zh-Hant`), not `name:etymology:wikidata` or `name:pronunciation`.
    public static func isLanguageName(_ key: String) -> Bool {
        guard key.hasPrefix("name:") else { return false }
        let code = key.dropFirst(5).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard let lang = code.first, (2...3).contains(lang.count), lang.allSatisfy({ $0.isASCII && $0.isLowercase }) else { return false }
        return code.count == 1 || (code[1].count >= 2 && code[1].allSatisfy { $0.isASCII && $0.isLetter })
    }

    /// The position of a name key in a place's list: ``nameKeys``, then languages, then ``brandKeys``.
    static func order(of key: String) -> Int {
        if let i = nameKeys.firstIndex(of: key) { return i }
        if let i = brandKeys.firstIndex(of: key) { return 1_000 + i }
        return 500
    }
    /// The prefix of the address tags kept.
    public static let addressPrefix = "addr:"
}
