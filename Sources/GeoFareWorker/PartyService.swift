import Foundation
import GeoFareCluster
import GeoFareCore
import GeoFareStore
import GeoFareText

/// The party ops of the worker: the store (the truth: a SQLite file or a PostgreSQL database,
/// any ``PartyStorage``) and the in-memory index (for queries), kept together.
///
/// - At start the index is loaded from the store.
/// - A write goes to the store first and is acknowledged only after its commit; then the index is
///   updated in place (no rebuild).
/// - Before every party request the service asks the store whether another process wrote
///   (SQLite: `PRAGMA data_version`; PostgreSQL: always, as one feed query) and, if so, applies
///   the change feed to the index, so several workers on one store see each other's writes by
///   their next request. When the store fails (PostgreSQL down), the request gets
///   `storage_error` and the next one reconnects and catches up from the last sequence number.
///
/// Used from the worker loop's thread only (the loop runs party ops in order there).
public final class PartyService: @unchecked Sendable {
    public let store: any PartyStorage
    let index: PartyIndex
    private var lastSeq: Int64

    /// The number of parties in the index (= in the store, after a sync).
    public var count: Int { index.count }

    /// Opens the service over a store, loading every stored party into the index.
    /// - Throws: ``StoreError`` or ``InvalidInput`` (a bad cell size).
    public init(store: any PartyStorage, cellSizePixels: Int = 64) throws {
        self.store = store
        index = try PartyIndex(cellSizePixels: cellSizePixels)
        lastSeq = try store.lastChange()
        // The bulk path lays the index out in cell order (faster queries than one-by-one inserts).
        index.upsert(contentsOf: try store.allParties())
        try store.pruneChanges(olderThan: 86_400, now: Date())
    }

    /// Applies other processes' changes, if any.
    func sync() throws {
        guard try store.externallyChanged() else { return }
        let (changes, last) = try store.changes(after: lastSeq)
        for change in changes {
            if let party = change.party { index.upsert(party) } else { index.remove(id: change.id) }
        }
        lastSeq = last
    }

    /// After a write of ours: when it was the next change in the feed, the feed need not be read
    /// back for it.
    private func ownWrite() {
        if let seq = store.lastWrittenSeq, seq == lastSeq + 1 { lastSeq = seq }
    }

    func run(_ op: WorkerOp, _ f: RequestFields) throws -> JSONValue {
        try sync()
        switch op {
        case .partyUpsert:
            let p = try Self.party(try f.nested("party"))
            let stored = try store.upsert(p, now: Date())
            index.upsert(stored)
            ownWrite()
            return .object(["party": Self.json(stored)])
        case .partyRemove:
            let id = try f.string("party_id")
            let removed = try store.remove(id: id, now: Date())
            index.remove(id: id)
            if removed { ownWrite() }
            return .object(["removed": .bool(removed), "party_id": .string(id)])
        case .partyGet:
            let id = try f.string("party_id")
            guard let p = index.party(id: id) else { throw WorkerError(code: .notFound, message: "no party '\(id)'", field: "party_id") }
            return .object(["party": Self.json(p)])
        case .nearby:
            let center = try f.coordinate("center")
            let filter = try Self.filter(f)
            let limit = Int(try f.optionalInt("limit", range: 1...10_000) ?? 50)
            let found: [(party: Party, distanceMeters: Double)]
            let radius = f.has("radius_m") ? try f.double("radius_m") : nil
            do {
                if let radius {
                    found = try index.nearby(center: center, radiusMeters: radius, limit: limit, filter: filter)
                } else {
                    found = try index.nearest(center: center, k: limit, filter: filter)
                }
            } catch { throw WorkerError(code: error.code, message: error.message, field: error.field) }
            return .object(["parties": .array(found.map { item in
                var o = Self.fields(item.party)
                o["distance_m"] = .double((item.distanceMeters * 100).rounded() / 100)
                return .object(o)
            })])
        case .clusters:
            let b = try f.nested("bbox")
            let bbox: BoundingBox
            let (west, south, east, north) = (try b.double("west"), try b.double("south"), try b.double("east"), try b.double("north"))
            do { bbox = try BoundingBox(west: west, south: south, east: east, north: north) } catch {
                throw WorkerError(code: error.code, message: error.message, field: error.prefixed("bbox").field)
            }
            let zoom = Int(try f.int("zoom", range: 0...20))
            let idsLimit = Int(try f.optionalInt("ids_limit", range: 0...1_000) ?? 10)
            let items: [ClusterItem]
            let filter = try Self.filter(f)
            do { items = try index.clusters(bbox: bbox, zoom: zoom, filter: filter, idsLimit: idsLimit) } catch {
                throw WorkerError(code: error.code, message: error.message, field: error.field)
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
                Self.write(item, into: &w)
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
            let filter = try Self.filter(f)
            do { leaves = try index.leaves(clusterID: id, limit: limit, offset: offset, filter: filter) } catch {
                throw WorkerError(code: error.code, message: error.message, field: error.field ?? "cluster_id")
            }
            return .object(["parties": .array(leaves.map(Self.json))])
        default:
            throw WorkerError(code: .unknownOp, message: "'\(op.rawValue)' is not a party op", field: "op")
        }
    }

    // MARK: - JSON

    /// A party from its JSON object (`party.upsert`); errors name `party.<field>`.
    static func party(_ f: RequestFields) throws -> Party {
        let statusText = try f.optionalString("status") ?? "open"
        guard let status = PartyStatus(rawValue: statusText) else {
            throw WorkerError(code: .invalidValue, message: "status is open, full or closed, got '\(statusText)'", field: f.at("status"))
        }
        var attributes: String?
        if f.has("attributes") {
            let a = try f.value("attributes")
            guard case .object = a else { throw WorkerError.wrongType(f.at("attributes"), expected: "an object", got: a) }
            attributes = JSONWriter.string(a)
            guard attributes!.utf8.count <= 16_384 else { throw WorkerError(code: .tooLarge, message: "attributes are limited to 16 KiB of JSON", field: f.at("attributes")) }
        }
        guard let departure = try f.time("depart_at") else { throw WorkerError.missing(f.at("depart_at")) }
        let p = Party(
            id: try f.string("id"), origin: try f.coordinate("origin"), destination: try f.coordinate("destination"),
            departure: departure, seatsTotal: Int(try f.int("seats_total", range: -1_000...1_000)),
            seatsTaken: Int(try f.optionalInt("seats_taken", range: -1_000...1_000) ?? 0), status: status, attributesJSON: attributes
        )
        do { try p.validate() } catch { throw WorkerError(code: error.code, message: error.message, field: error.prefixed(f.path).field) }
        return p
    }

    /// A filter from the request's `depart_from`, `depart_until`, `min_free_seats`, `status`
    /// (a string or an array) and `destination` `{"center", "radius_m"}`.
    static func filter(_ f: RequestFields) throws -> PartyFilter {
        var filter = PartyFilter.none
        filter.departFrom = try f.time("depart_from")
        filter.departUntil = try f.time("depart_until")
        if let n = try f.optionalInt("min_free_seats", range: 0...20) { filter.minFreeSeats = Int(n) }
        if f.has("status") {
            let v = try f.value("status")
            let names: [String]
            if let s = v.string { names = [s] } else if let a = v.array {
                names = try a.enumerated().map { i, x throws(WorkerError) in
                    guard let s = x.string else { throw WorkerError.wrongType("status[\(i)]", expected: "a string", got: x) }
                    return s
                }
            } else { throw WorkerError.wrongType("status", expected: "a string or an array of strings", got: v) }
            var set = Set<PartyStatus>()
            for n in names {
                guard let s = PartyStatus(rawValue: n) else { throw WorkerError(code: .invalidValue, message: "status is open, full or closed, got '\(n)'", field: "status") }
                set.insert(s)
            }
            filter.statuses = set
        }
        if f.has("destination") {
            let d = try f.nested("destination")
            filter.destination = try d.coordinate("center")
            let r = try d.double("radius_m")
            guard r >= 0 && r <= 1_000_000 else { throw WorkerError(code: .outOfRange, message: "must be within 0...1000000 m", field: "destination.radius_m") }
            filter.destinationRadiusMeters = r
        }
        return filter
    }

    static func fields(_ p: Party) -> [String: JSONValue] {
        var o: [String: JSONValue] = [
            "id": .string(p.id), "origin": ResultEncoding.coordinate(p.origin), "destination": ResultEncoding.coordinate(p.destination),
            "depart_at": .string(ResultEncoding.isoString(p.departure)), "seats_total": .int(Int64(p.seatsTotal)),
            "seats_taken": .int(Int64(p.seatsTaken)), "free_seats": .int(Int64(p.freeSeats)), "status": .string(p.status.rawValue),
            "updated_at": .string(ResultEncoding.isoString(p.updatedAt)), "version": .int(p.version),
        ]
        if let a = p.attributesJSON, let value = try? JSONParser.parse(Array(a.utf8)) { o["attributes"] = value }
        return o
    }

    /// A party as the protocol's JSON object.
    public static func json(_ p: Party) -> JSONValue { .object(fields(p)) }

    /// Parses one JSON party object (as in `party.upsert`), for imports.
    public static func partyFromJSON(_ line: [UInt8]) throws -> Party {
        let v = try JSONParser.parse(line)
        guard let o = v.object else { throw WorkerError(code: .wrongType, message: "a party is a JSON object", field: nil) }
        return try party(RequestFields(o))
    }

    /// An instant as ISO 8601 UTC text.
    public static func isoString(_ d: Date) -> String { ResultEncoding.isoString(d) }

    /// A cluster item `{bounds, center, count, expansion_zoom, id, party_ids}`, keys sorted,
    /// straight to bytes.
    static func write(_ item: ClusterItem, into w: inout ByteWriter) {
        w.append(UInt8(ascii: "{"))
        w.jsonKey("bounds", first: true); w.append(UInt8(ascii: "{"))
        w.jsonKey("east", first: true); w.jsonDouble(item.bounds.east)
        w.jsonKey("north"); w.jsonDouble(item.bounds.north)
        w.jsonKey("south"); w.jsonDouble(item.bounds.south)
        w.jsonKey("west"); w.jsonDouble(item.bounds.west)
        w.append(UInt8(ascii: "}"))
        w.jsonKey("center"); ResultEncoding.writeCoordinate(item.center, into: &w)
        w.jsonKey("count"); w.appendDecimal(Int64(item.count))
        w.jsonKey("expansion_zoom")
        if let z = item.expansionZoom { w.appendDecimal(Int64(z)) } else { w.append("null") }
        w.jsonKey("id"); w.jsonString(item.id)
        w.jsonKey("party_ids")
        if let ids = item.partyIDs {
            w.append(UInt8(ascii: "["))
            for (k, id) in ids.enumerated() {
                if k > 0 { w.append(UInt8(ascii: ",")) }
                w.jsonString(id)
            }
            w.append(UInt8(ascii: "]"))
        } else {
            w.append("null")
        }
        w.append(UInt8(ascii: "}"))
    }

}
