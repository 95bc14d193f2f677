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

    /// The name to show: `name`, else `name:ko`, else the first name.
    public var name: String {
        names.first { $0.key == "name" }?.value ?? names.first { $0.key == "name:ko" }?.value ?? names.first?.value ?? ""
    }

    public static func == (a: Place, b: Place) -> Bool { a.index == b.index && a.osmID == b.osmID }
    public func hash(into hasher: inout Hasher) { hasher.combine(index); hasher.combine(osmID) }
}

/// Which tags a place keeps.
public enum PlaceTags {
    /// The name tags indexed for search, in the order a place lists them.
    public static let nameKeys = ["name", "name:ko", "name:en", "name:ko-Latn", "alt_name", "old_name", "short_name", "official_name"]
    /// The prefix of the address tags kept.
    public static let addressPrefix = "addr:"
}
