import GeoFareCore
import GeoFareText

/// A party read in typed form: what `party.get`, `nearby`, `clusters` and `cluster.leaves` ask
/// the index. The worker reads it from a request (its general path from the JSON tree, its fast
/// path from the bytes); ``answer(from:into:)`` writes the result.
public enum PartyQuery: Sendable {
    /// One party by its id.
    case get(partyID: String)
    /// Parties whose origin lies within `radiusMeters` of `center` (metres; WGS84), or the
    /// `limit` nearest when no radius is given.
    case nearby(center: Coordinate, radiusMeters: Double?, limit: Int, filter: PartyFilter)
    /// The clusters of a viewport at a zoom (0...20), each with at most `idsLimit` party ids.
    case clusters(bbox: BoundingBox, zoom: Int, idsLimit: Int, filter: PartyFilter)
    /// The parties of a cluster, `limit` from `offset`.
    case leaves(clusterID: String, limit: Int, offset: Int, filter: PartyFilter)

    /// Answers a party query from the index, writing its result object straight to bytes (keys
    /// sorted: the bytes the protocol has always sent). The worker's both paths and `geofare cluster` answer here.
    /// - Throws: ``GeoFareError`` (`not_found`, or what the index refuses, naming the field).
    public func answer(from index: PartyIndex, into w: inout ByteWriter) throws(GeoFareError) {
        switch self {
        case let .get(id):
            guard let p = index.party(id: id) else { throw GeoFareError.noParty(id) }
            w.append(#"{"party":"#)
            PartyJSON.write(p, into: &w)
            w.append(UInt8(ascii: "}"))
        case let .nearby(center, radius, limit, filter):
            let found = if let radius {
                try index.nearby(center: center, radiusMeters: radius, limit: limit, filter: filter)
            } else {
                try index.nearest(center: center, k: limit, filter: filter)
            }
            w.append(#"{"parties":"#)
            w.jsonArray(found) { w, item in PartyJSON.write(item.party, distanceMeters: (item.distanceMeters * 100).rounded() / 100, into: &w) }
            w.append(UInt8(ascii: "}"))
        case let .clusters(bbox, zoom, idsLimit, filter):
            let items = try index.clusters(bbox: bbox, zoom: zoom, filter: filter, idsLimit: idsLimit)
            // A viewport can hold hundreds of items: streamed, without a dictionary per item.
            w.append(#"{"items":"#)
            w.jsonArray(items) { w, item in PartyJSON.write(item, into: &w) }
            w.jsonKey("zoom"); w.appendDecimal(Int64(zoom))
            w.append(UInt8(ascii: "}"))
        case let .leaves(id, limit, offset, filter):
            let leaves: [Party]
            do { leaves = try index.leaves(clusterID: id, limit: limit, offset: offset, filter: filter) } catch {
                throw error.at(error.field ?? "cluster_id")
            }
            w.append(#"{"parties":"#)
            w.jsonArray(leaves) { w, p in PartyJSON.write(p, into: &w) }
            w.append(UInt8(ascii: "}"))
        }
    }
}
