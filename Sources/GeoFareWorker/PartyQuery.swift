import GeoFareParties
import GeoFareCore

/// A party read in typed form: what `party.get`, `nearby`, `clusters` and `cluster.leaves` ask
/// the index. The general path reads it from the JSON tree
/// (``WorkerDispatcher/partyQuery(_:_:)``), the fast path from the bytes (``FastPartyRequest``);
/// both are answered by ``WorkerDispatcher/answer(_:index:into:)``.
enum PartyQuery: Sendable {
    /// One party by its id.
    case get(partyID: String)
    /// Parties whose origin lies within `radiusMeters` of `center` (metres; WGS84), or the
    /// `limit` nearest when no radius is given.
    case nearby(center: Coordinate, radiusMeters: Double?, limit: Int, filter: PartyFilter)
    /// The clusters of a viewport at a zoom (0...20), each with at most `idsLimit` party ids.
    case clusters(bbox: BoundingBox, zoom: Int, idsLimit: Int, filter: PartyFilter)
    /// The parties of a cluster, `limit` from `offset`.
    case leaves(clusterID: String, limit: Int, offset: Int, filter: PartyFilter)
}
