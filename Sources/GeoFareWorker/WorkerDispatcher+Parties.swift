import Foundation
import GeoFareCluster
import GeoFareCore
import GeoFareStore
import GeoFareText

/// The party ops: each request is read with ``PartyJSON``, answered by the ``PartyService``
/// (which keeps the store and the index together) and written back with ``PartyJSON``.
extension WorkerDispatcher {
    /// Answers one party op, after catching up with other processes' changes.
    func runPartyOp(_ op: WorkerOp, _ f: RequestFields, on parties: PartyService) throws -> JSONValue {
        if op.isPartyWrite {
            let write = try Self.partyWrite(op, f)
            try parties.sync()
            return Self.json(try parties.commit([write])[0])
        }
        try parties.sync()
        let index = parties.index
        switch op {
        case .partyGet:
            let id = try f.string("party_id")
            guard let p = index.party(id: id) else { throw GeoFareError(code: .notFound, message: "no party '\(id)'", field: "party_id") }
            return .object(["party": PartyJSON.json(p)])
        case .nearby:
            let center = try f.coordinate("center")
            let filter = try PartyJSON.filter(f)
            let limit = Int(try f.optionalInt("limit", range: 1...10_000) ?? 50)
            let found: [(party: Party, distanceMeters: Double)]
            let radius = f.has("radius_m") ? try f.double("radius_m") : nil
            do {
                if let radius {
                    found = try index.nearby(center: center, radiusMeters: radius, limit: limit, filter: filter)
                } else {
                    found = try index.nearest(center: center, k: limit, filter: filter)
                }
            } catch { throw error }
            return .object(["parties": .array(found.map { item in
                var o = PartyJSON.fields(item.party)
                o["distance_m"] = .double((item.distanceMeters * 100).rounded() / 100)
                return .object(o)
            })])
        case .clusters:
            let b = try f.nested("bbox")
            let bbox: BoundingBox
            let (west, south, east, north) = (try b.double("west"), try b.double("south"), try b.double("east"), try b.double("north"))
            do { bbox = try BoundingBox(west: west, south: south, east: east, north: north) } catch {
                throw error.prefixed("bbox")
            }
            let zoom = Int(try f.int("zoom", range: 0...20))
            let idsLimit = Int(try f.optionalInt("ids_limit", range: 0...1_000) ?? 10)
            let items: [ClusterItem]
            let filter = try PartyJSON.filter(f)
            do { items = try index.clusters(bbox: bbox, zoom: zoom, filter: filter, idsLimit: idsLimit) } catch {
                throw error
            }
            // Streamed (a viewport can hold hundreds of items): the same bytes as the JSONValue
            // form, keys sorted, without building a dictionary per item.
            var w = ByteWriter(capacity: 256 + items.count * 160)
            defer { w.deallocate() }
            w.append(UInt8(ascii: "{"))
            w.jsonKey("items", first: true)
            w.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { w.append(UInt8(ascii: ",")) }
                PartyJSON.write(item, into: &w)
            }
            w.append(UInt8(ascii: "]"))
            w.jsonKey("zoom"); w.appendDecimal(Int64(zoom))
            w.append(UInt8(ascii: "}"))
            return .raw(Array(w.bytes))
        case .clusterLeaves:
            let id = try f.string("cluster_id")
            let limit = Int(try f.optionalInt("limit", range: 1...10_000) ?? 100)
            let offset = Int(try f.optionalInt("offset", range: 0...10_000_000) ?? 0)
            let leaves: [Party]
            let filter = try PartyJSON.filter(f)
            do { leaves = try index.leaves(clusterID: id, limit: limit, offset: offset, filter: filter) } catch {
                throw error.at(error.field ?? "cluster_id")
            }
            return .object(["parties": .array(leaves.map(PartyJSON.json))])
        default:
            throw GeoFareError(code: .unknownOp, message: "'\(op.rawValue)' is not a party op", field: "op")
        }
    }

    /// Answers a run of `party.upsert`/`party.remove` requests that arrived together: every
    /// valid write of the run is committed in ONE transaction, and each is answered only after
    /// that commit, in request order. A request that fails validation gets its own error and
    /// is left out of the group; when the store fails, every write of the group gets the
    /// store's error (`storage_error`) and none is acknowledged.
    /// - Returns: one response line per request, in order.
    func respond(toWrites requests: [JSONValue]) -> [[UInt8]] {
        guard let parties, requests.count > 1 else { return requests.map { respond(to: $0) } }
        var responses = [[UInt8]](repeating: [], count: requests.count)
        var group: [(slot: Int, id: JSONValue, write: PartyWrite)] = []
        group.reserveCapacity(requests.count)
        for (slot, request) in requests.enumerated() {
            switch unwrap(request) {
            case let .answered(bytes): responses[slot] = bytes
            case let .request(id, op, fields):
                do {
                    guard op.isPartyWrite else { throw GeoFareError(code: .internalError, message: "'\(op.rawValue)' is not a party write", field: "op") }
                    group.append((slot, id, try Self.partyWrite(op, fields)))
                } catch {
                    responses[slot] = response(id: id, thrown: error)
                }
            }
        }
        guard !group.isEmpty else { return responses }
        do {
            try parties.sync()
            let results = try parties.commit(group.map(\.write))
            for (g, result) in zip(group, results) { responses[g.slot] = response(id: g.id, result: Self.json(result)) }
        } catch {
            for g in group { responses[g.slot] = response(id: g.id, thrown: error) }
        }
        return responses
    }

    /// The write a `party.upsert` or `party.remove` request asks for.
    /// - Throws: ``GeoFareError`` naming the bad field.
    static func partyWrite(_ op: WorkerOp, _ f: RequestFields) throws -> PartyWrite {
        switch op {
        case .partyUpsert: .upsert(try PartyJSON.party(try f.nested("party")))
        case .partyRemove: .remove(id: try f.string("party_id"))
        default: throw GeoFareError(code: .internalError, message: "'\(op.rawValue)' is not a party write", field: "op")
        }
    }

    /// The result object of a committed write.
    static func json(_ result: PartyWriteResult) -> JSONValue {
        switch result {
        case let .upserted(party, _): .object(["party": PartyJSON.json(party)])
        case let .removed(id, seq): .object(["removed": .bool(seq != nil), "party_id": .string(id)])
        }
    }
}
