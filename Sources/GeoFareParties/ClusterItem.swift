import GeoFareCore

/// One item of a clustered map view: a single party or a cluster of parties in one grid cell.
///
/// Coordinates are WGS84 degrees. Wire keys: `id`, `count`, `center`, `bounds`,
/// `expansion_zoom`, `party_ids`.
public struct ClusterItem: Sendable, Hashable, Codable {
    /// A single party: the party's id. A cluster: a stable id of the deepest quadtree cell that
    /// holds all its members, `c<level>-<hex>` (see ``PartyIndex/clusters(bbox:zoom:filter:idsLimit:)``);
    /// the same members give the same id at every zoom where they stay one cluster.
    public var id: String
    /// How many parties the item stands for (≥ 1).
    public var count: Int
    /// The mean latitude and mean longitude of the members' origins (a single party: its origin).
    /// Computed from sums of the coordinates truncated to 1e-9°, so it is exact to 1e-9°
    /// and does not depend on the order of updates.
    public var center: Coordinate
    /// The smallest box holding every member's origin (exact min/max; never wraps).
    public var bounds: BoundingBox
    /// The first zoom at which the members fall into more than one cell; ``neverSplits`` (21)
    /// when they share one cell even at zoom 20 (identical or nearly identical origins);
    /// `nil` for a single party.
    public var expansionZoom: Int?
    /// The members' ids, sorted by their UTF-8 bytes, when `count <= idsLimit`; else `nil`.
    public var partyIDs: [String]?

    /// The ``expansionZoom`` of a cluster whose members never split up to zoom 20.
    public static let neverSplits = 21

    /// Creates an item (the index makes them; this is for tests and decoding adapters).
    public init(id: String, count: Int, center: Coordinate, bounds: BoundingBox, expansionZoom: Int?, partyIDs: [String]?) {
        self.id = id
        self.count = count
        self.center = center
        self.bounds = bounds
        self.expansionZoom = expansionZoom
        self.partyIDs = partyIDs
    }

    private enum CodingKeys: String, CodingKey {
        case id, count, center, bounds, expansionZoom = "expansion_zoom", partyIDs = "party_ids"
    }
}
