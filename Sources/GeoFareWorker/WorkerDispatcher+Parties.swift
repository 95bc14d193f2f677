import Foundation
import GeoFareParties
import GeoFareCore
import GeoFareText

/// The party ops: each request is read with ``PartyJSON``, answered by the ``LivePartyIndex``
/// (which keeps the store and the index together) and written back with ``PartyJSON``.
extension WorkerDispatcher {
    /// Answers one party op, after catching up with other processes' changes.
    func runPartyOp(_ op: WorkerOp, _ f: RequestFields, on parties: LivePartyIndex) throws -> JSONValue {
        if op == .match { return try match(f, on: parties) }
        if op.isPartyWrite {
            let write = try Self.partyWrite(op, f)
            try parties.sync()
            let result = try parties.commit([write])[0]
            return JSONValue.raw(capacity: 400) { Self.write(result, into: &$0) }
        }
        try parties.sync()
        let query = try Self.partyQuery(op, f)
        var w = ByteWriter(capacity: 512)
        defer { w.deallocate() }
        try query.answer(from: parties.index, into: &w)
        return .raw(Array(w.bytes))
    }

    /// The query a `party.get`, `nearby`, `clusters` or `cluster.leaves` request asks for, read
    /// from its fields (the general path; ``FastPartyRequest`` reads the same from bytes).
    /// - Throws: ``GeoFareError`` naming the bad field.
    static func partyQuery(_ op: WorkerOp, _ f: RequestFields) throws -> PartyQuery {
        switch op {
        case .partyGet:
            return .get(partyID: try f.string("party_id"))
        case .nearby:
            let center = try f.coordinate("center")
            let filter = try PartyJSON.filter(f)
            let limit = Int(try f.optionalInt("limit", range: 1...10_000) ?? 50)
            let radius = f.has("radius_m") ? try f.double("radius_m") : nil
            return .nearby(center: center, radiusMeters: radius, limit: limit, filter: filter)
        case .clusters:
            let b = try f.nested("bbox")
            let bbox: BoundingBox
            let (west, south, east, north) = (try b.double("west"), try b.double("south"), try b.double("east"), try b.double("north"))
            do { bbox = try BoundingBox(west: west, south: south, east: east, north: north) } catch {
                throw error.prefixed("bbox")
            }
            let zoom = Int(try f.int("zoom", range: 0...20))
            let idsLimit = Int(try f.optionalInt("ids_limit", range: 0...1_000) ?? 10)
            return .clusters(bbox: bbox, zoom: zoom, idsLimit: idsLimit, filter: try PartyJSON.filter(f))
        case .clusterLeaves:
            let id = try f.string("cluster_id")
            let limit = Int(try f.optionalInt("limit", range: 1...10_000) ?? 100)
            let offset = Int(try f.optionalInt("offset", range: 0...10_000_000) ?? 0)
            return .leaves(clusterID: id, limit: limit, offset: offset, filter: try PartyJSON.filter(f))
        default:
            throw GeoFareError.notAPartyOp(op.rawValue)
        }
    }

    /// A party write as the loop read it: a parsed request (the general path) or one read by
    /// ``FastPartyRequest``.
    enum WriteLine {
        case parsed(JSONValue)
        case fast(FastPartyRequest)
    }

    /// Answers a run of `party.upsert`/`party.remove` requests that arrived together: every
    /// valid write of the run is committed in ONE transaction, and each is answered only after
    /// that commit, in request order. A request that fails validation gets its own error and
    /// is left out of the group; when the store fails, every write of the group gets the
    /// store's error (`storage_error`) and none is acknowledged.
    /// - Returns: one response line per request, in order.
    func respond(toWrites requests: [JSONValue]) -> [[UInt8]] {
        respond(toWrites: requests.map(WriteLine.parsed))
    }

    /// ``respond(toWrites:)`` over requests read either way; fast-path answers are written
    /// straight to bytes and counted as successes here.
    func respond(toWrites requests: [WriteLine]) -> [[UInt8]] {
        guard let parties else {
            return requests.map { line in
                switch line {
                case let .parsed(r): respond(to: r)
                case let .fast(f): response(id: Self.idValue(f.idToken), error: .noPartyStore())
                }
            }
        }
        var responses = [[UInt8]](repeating: [], count: requests.count)
        // The id as a token (fast) or a value (general).
        enum ID { case token([UInt8]), value(JSONValue) }
        var group: [(slot: Int, id: ID)] = []
        var writes: [PartyWrite] = []
        group.reserveCapacity(requests.count)
        writes.reserveCapacity(requests.count)
        for (slot, line) in requests.enumerated() {
            switch line {
            case let .fast(f):
                guard case let .write(write) = f.body else { responses[slot] = respond(toQuery: f); continue }
                group.append((slot, .token(f.idToken)))
                writes.append(write)
            case let .parsed(request):
                switch unwrap(request) {
                case let .answered(bytes): responses[slot] = bytes
                case let .request(id, op, fields):
                    do {
                        guard op.isPartyWrite else { throw GeoFareError.notAPartyWrite(op.rawValue) }
                        writes.append(try Self.partyWrite(op, fields))
                        group.append((slot, .value(id)))
                    } catch {
                        responses[slot] = response(id: id, thrown: error)
                    }
                }
            }
        }
        guard !group.isEmpty else { return responses }
        do {
            try parties.sync()
            let results = try parties.commit(writes)
            var fastOK = 0
            var w = ByteWriter(capacity: 512)
            defer { w.deallocate() }
            for (g, result) in zip(group, results) {
                switch g.id {
                case let .token(token):
                    w.removeAll()
                    w.append(#"{"id":"#)
                    w.append(token)
                    w.append(#","ok":true,"result":"#)
                    Self.write(result, into: &w)
                    w.append("}\n")
                    responses[g.slot] = Array(w.bytes)
                    fastOK += 1
                case let .value(id):
                    responses[g.slot] = response(id: id, result: JSONValue.raw(capacity: 400) { Self.write(result, into: &$0) })
                }
            }
            countSuccesses(fastOK)
        } catch {
            for g in group {
                switch g.id {
                case let .token(token): responses[g.slot] = response(id: Self.idValue(token), thrown: error)
                case let .value(id): responses[g.slot] = response(id: id, thrown: error)
                }
            }
        }
        return responses
    }

    /// Answers a party request read by ``FastPartyRequest`` on its own (a query, or a write
    /// committed alone): the same code and the same bytes as the general path.
    func respond(toQuery fast: FastPartyRequest) -> [UInt8] {
        if case .write = fast.body { return respond(toWrites: [WriteLine.fast(fast)])[0] }
        guard case let .query(query) = fast.body else { return [] }
        var w = ByteWriter(capacity: 512)
        defer { w.deallocate() }
        do {
            guard let parties else { throw GeoFareError.noPartyStore() }
            try parties.sync()
            w.append(#"{"id":"#)
            w.append(fast.idToken)
            w.append(#","ok":true,"result":"#)
            try query.answer(from: parties.index, into: &w)
            w.append("}\n")
            countSuccesses(1)
            return Array(w.bytes)
        } catch {
            return response(id: Self.idValue(fast.idToken), thrown: error)
        }
    }

    /// A fast path's id token as the value the general path would have parsed.
    static func idValue(_ token: [UInt8]) -> JSONValue {
        (try? token.withUnsafeBytes { try JSONParser.parse($0) }) ?? .null
    }

    /// The write a `party.upsert` or `party.remove` request asks for.
    /// - Throws: ``GeoFareError`` naming the bad field.
    static func partyWrite(_ op: WorkerOp, _ f: RequestFields) throws -> PartyWrite {
        switch op {
        case .partyUpsert: .upsert(try PartyJSON.party(try f.nested("party")))
        case .partyRemove: .remove(id: try f.string("party_id"))
        default: throw GeoFareError.notAPartyWrite(op.rawValue)
        }
    }

    /// The result object of a committed write, straight to bytes: `{"party": ...}` or
    /// `{"party_id", "removed"}`.
    static func write(_ result: PartyWriteResult, into w: inout ByteWriter) {
        switch result {
        case let .upserted(party, _):
            w.append(#"{"party":"#)
            PartyJSON.write(party, into: &w)
            w.append(UInt8(ascii: "}"))
        case let .removed(id, seq):
            w.append(#"{"party_id":"#)
            w.jsonString(id)
            w.append(seq != nil ? #","removed":true}"# : #","removed":false}"#)
        }
    }
}
