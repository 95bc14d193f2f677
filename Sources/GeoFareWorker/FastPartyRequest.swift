import Foundation
import GeoFareParties
import GeoFareCore
import GeoFareText

/// The party ops' hot path: `party.upsert`, `party.remove`, `party.get`, `nearby`, `clusters`
/// and `cluster.leaves` requests read straight from their bytes into their typed form
/// (``PartyWrite`` or ``PartyQuery``), without a JSON tree, with the fare path's
/// ``JSONByteCursor``.
///
/// One decoder per op. Each accepts only the plain common form: `id` an integer or a string
/// without escapes, every key known and given once, strings printable ASCII without escapes,
/// numbers without exponents, integers where the general path wants integers, and every value
/// already valid (a party that passes ``Party/validate()``, a limit in its range, a well-formed
/// bounding box). Anything else — another key, a `null`, an `attributes` object, a value out of
/// range — returns `nil`, and the request takes the general path, which answers it, errors
/// included. Both paths then answer through the same code (``PartyQuery/answer(from:into:)``,
/// ``LivePartyIndex/commit(_:)``, ``PartyJSON/write(_:distanceMeters:into:)``), so they write the
/// same bytes.
struct FastPartyRequest: Sendable {
    enum Body: Sendable {
        case write(PartyWrite)
        case query(PartyQuery)
    }

    /// The id token exactly as sent (what the response echoes).
    var idToken: [UInt8]
    var body: Body

    /// Whether the request is a party write (committed with the writes around it).
    var isWrite: Bool {
        if case .write = body { return true }
        return false
    }

    /// Decodes one request line, or returns `nil` for anything outside the fast form (including
    /// every op that is not a party op).
    static func decode(_ line: UnsafeRawBufferPointer) -> FastPartyRequest? {
        let bytes = line.bindMemory(to: UInt8.self)
        guard let op = guessOp(bytes) else { return nil }
        switch op {
        case .partyUpsert: return upsert(bytes)
        case .partyRemove, .partyGet: return byID(bytes, op: op)
        case .nearby: return nearby(bytes)
        case .clusters: return clusters(bytes)
        case .clusterLeaves: return leaves(bytes)
        default: return nil
        }
    }

    /// The op a line most likely names: the string after its first `"op"` key. Only a guess
    /// (the bytes could sit inside a nested value): each decoder checks the op again at the top
    /// level and declines when it differs.
    static func guessOp(_ b: UnsafeBufferPointer<UInt8>) -> WorkerOp? {
        // `"op"` (a quote, o, p, a quote) followed by `:` and a string.
        var at = 0
        while at + 4 <= b.count {
            if b[at] == 0x22 && b[at + 1] == 0x6F && b[at + 2] == 0x70 && b[at + 3] == 0x22 {
                var c = JSONByteCursor(bytes: b, position: at + 4)
                if c.take(0x3A), let name = c.simpleString() {
                    return name.count <= 14 ? WorkerOp(rawValue: String(decoding: name, as: UTF8.self)) : nil
                }
            }
            at += 1
        }
        return nil
    }

    /// Reads the top-level object: `id` and `op` (which must be `op`) here, every other key
    /// through `field`, which returns false for a key it does not take (or a bad value).
    /// - Returns: the id token, or `nil` when the line is not in the fast form.
    @inline(__always)
    static func object(_ bytes: UnsafeBufferPointer<UInt8>, op: WorkerOp,
                       _ field: (UnsafeBufferPointer<UInt8>, inout JSONByteCursor) -> Bool) -> [UInt8]? {
        var p = JSONByteCursor(bytes: bytes)
        var id: [UInt8]?, sawOp = false
        guard p.take(0x7B), p.peek() != 0x7D else { return nil }
        repeat {
            guard let key = p.simpleString(), p.take(0x3A) else { return nil }
            if JSONByteCursor.equal(key, "id") {
                guard id == nil, let token = p.idToken() else { return nil }
                id = token
            } else if JSONByteCursor.equal(key, "op") {
                guard !sawOp, let s = p.simpleString(), s.count == op.rawValue.utf8.count,
                      op.rawValue.utf8.elementsEqual(s) else { return nil }
                sawOp = true
            } else {
                guard field(key, &p) else { return nil }
            }
        } while p.take(0x2C)
        guard p.take(0x7D), p.atEnd, sawOp, let id else { return nil }
        return id
    }

    // MARK: - One decoder per op

    /// `party.upsert` with `party` `{id, origin, destination, depart_at, seats_total,
    /// seats_taken?, status?}` (no `attributes`: their text is re-encoded by the general path).
    static func upsert(_ bytes: UnsafeBufferPointer<UInt8>) -> FastPartyRequest? {
        var party: Party?
        let id = object(bytes, op: .partyUpsert) { key, p in
            guard party == nil, JSONByteCursor.equal(key, "party"), let v = p.party() else { return false }
            party = v
            return true
        }
        guard let id, let party else { return nil }
        return FastPartyRequest(idToken: id, body: .write(.upsert(party)))
    }

    /// `party.remove` and `party.get`: `party_id`.
    static func byID(_ bytes: UnsafeBufferPointer<UInt8>, op: WorkerOp) -> FastPartyRequest? {
        var partyID: String?
        let id = object(bytes, op: op) { key, p in
            guard partyID == nil, JSONByteCursor.equal(key, "party_id"), let s = p.simpleString() else { return false }
            partyID = String(decoding: s, as: UTF8.self)
            return true
        }
        guard let id, let partyID else { return nil }
        return FastPartyRequest(idToken: id, body: op == .partyRemove ? .write(.remove(id: partyID)) : .query(.get(partyID: partyID)))
    }

    /// `nearby`: `center`, `radius_m?`, `limit?` (1...10,000) and the filter fields.
    static func nearby(_ bytes: UnsafeBufferPointer<UInt8>) -> FastPartyRequest? {
        var center: Coordinate?, radius: Double?, limit: Int?
        var filter = FilterReader()
        let id = object(bytes, op: .nearby) { key, p in
            if JSONByteCursor.equal(key, "center") {
                guard center == nil, let c = p.coordinate() else { return false }
                center = c
            } else if JSONByteCursor.equal(key, "radius_m") {
                guard radius == nil, let r = p.finiteDecimal() else { return false }
                radius = r
            } else if JSONByteCursor.equal(key, "limit") {
                guard limit == nil, let n = p.integer(in: 1...10_000) else { return false }
                limit = n
            } else {
                return filter.read(key, &p)
            }
            return true
        }
        guard let id, let center else { return nil }
        return FastPartyRequest(idToken: id, body: .query(.nearby(center: center, radiusMeters: radius, limit: limit ?? 50, filter: filter.filter)))
    }

    /// `clusters`: `bbox` `{west, south, east, north}`, `zoom` (0...20), `ids_limit?`
    /// (0...1,000) and the filter fields.
    static func clusters(_ bytes: UnsafeBufferPointer<UInt8>) -> FastPartyRequest? {
        var bbox: BoundingBox?, zoom: Int?, idsLimit: Int?
        var filter = FilterReader()
        let id = object(bytes, op: .clusters) { key, p in
            if JSONByteCursor.equal(key, "bbox") {
                guard bbox == nil, let b = p.bbox() else { return false }
                bbox = b
            } else if JSONByteCursor.equal(key, "zoom") {
                guard zoom == nil, let z = p.integer(in: 0...20) else { return false }
                zoom = z
            } else if JSONByteCursor.equal(key, "ids_limit") {
                guard idsLimit == nil, let n = p.integer(in: 0...1_000) else { return false }
                idsLimit = n
            } else {
                return filter.read(key, &p)
            }
            return true
        }
        guard let id, let bbox, let zoom else { return nil }
        return FastPartyRequest(idToken: id, body: .query(.clusters(bbox: bbox, zoom: zoom, idsLimit: idsLimit ?? 10, filter: filter.filter)))
    }

    /// `cluster.leaves`: `cluster_id`, `limit?` (1...10,000), `offset?` (0...10,000,000) and
    /// the filter fields.
    static func leaves(_ bytes: UnsafeBufferPointer<UInt8>) -> FastPartyRequest? {
        var clusterID: String?, limit: Int?, offset: Int?
        var filter = FilterReader()
        let id = object(bytes, op: .clusterLeaves) { key, p in
            if JSONByteCursor.equal(key, "cluster_id") {
                guard clusterID == nil, let s = p.simpleString() else { return false }
                clusterID = String(decoding: s, as: UTF8.self)
            } else if JSONByteCursor.equal(key, "limit") {
                guard limit == nil, let n = p.integer(in: 1...10_000) else { return false }
                limit = n
            } else if JSONByteCursor.equal(key, "offset") {
                guard offset == nil, let n = p.integer(in: 0...10_000_000) else { return false }
                offset = n
            } else {
                return filter.read(key, &p)
            }
            return true
        }
        guard let id, let clusterID else { return nil }
        return FastPartyRequest(idToken: id, body: .query(.leaves(clusterID: clusterID, limit: limit ?? 100, offset: offset ?? 0, filter: filter.filter)))
    }

    /// The filter fields of `nearby`, `clusters` and `cluster.leaves` (as ``PartyJSON/filter(_:)``
    /// reads them): `depart_from`, `depart_until`, `min_free_seats` (0...20), `status` (a
    /// string or an array of strings) and `destination` `{center, radius_m}` (0...1,000,000 m).
    struct FilterReader {
        var filter = PartyFilter.none
        private var seen: UInt8 = 0

        /// Reads the value of `key` when it is a filter field seen for the first time, valid.
        mutating func read(_ key: UnsafeBufferPointer<UInt8>, _ p: inout JSONByteCursor) -> Bool {
            let bit: UInt8
            if JSONByteCursor.equal(key, "depart_from") {
                bit = 1
                guard let d = p.time() else { return false }
                filter.departFrom = d
            } else if JSONByteCursor.equal(key, "depart_until") {
                bit = 2
                guard let d = p.time() else { return false }
                filter.departUntil = d
            } else if JSONByteCursor.equal(key, "min_free_seats") {
                bit = 4
                guard let n = p.integer(in: 0...20) else { return false }
                filter.minFreeSeats = n
            } else if JSONByteCursor.equal(key, "status") {
                bit = 8
                guard let s = p.statuses() else { return false }
                filter.statuses = s
            } else if JSONByteCursor.equal(key, "destination") {
                bit = 16
                guard let (center, radius) = p.destination() else { return false }
                filter.destination = center
                filter.destinationRadiusMeters = radius
            } else {
                return false
            }
            guard seen & bit == 0 else { return false }
            seen |= bit
            return true
        }
    }
}

/// The readers the party decoders add to the JSON byte cursor: each returns `nil` for
/// anything outside the fast form.
extension JSONByteCursor {
    /// `open`, `full` or `closed`.
    mutating func status() -> PartyStatus? {
        guard let s = simpleString() else { return nil }
        if JSONByteCursor.equal(s, "open") { return .open }
        if JSONByteCursor.equal(s, "full") { return .full }
        if JSONByteCursor.equal(s, "closed") { return .closed }
        return nil
    }

    /// A filter's `status`: one status or an array of them.
    mutating func statuses() -> Set<PartyStatus>? {
        guard take(0x5B) else { return status().map { [$0] } }
        var set = Set<PartyStatus>()
        if take(0x5D) { return set }
        repeat {
            guard let s = status() else { return nil }
            set.insert(s)
        } while take(0x2C)
        return take(0x5D) ? set : nil
    }

    /// A filter's `destination`: `{"center": {lat, lon}, "radius_m": 0...1e6}`.
    mutating func destination() -> (Coordinate, Double)? {
        guard take(0x7B) else { return nil }
        var center: Coordinate?, radius: Double?
        repeat {
            guard let key = simpleString(), take(0x3A) else { return nil }
            if JSONByteCursor.equal(key, "center"), center == nil, let c = coordinate() {
                center = c
            } else if JSONByteCursor.equal(key, "radius_m"), radius == nil, let r = finiteDecimal(), r >= 0, r <= 1_000_000 {
                radius = r
            } else {
                return nil
            }
        } while take(0x2C)
        guard take(0x7D), let center, let radius else { return nil }
        return (center, radius)
    }

    /// A `party.upsert` party object that passes ``Party/validate()``.
    mutating func party() -> Party? {
        guard take(0x7B), peek() != 0x7D else { return nil }
        var id: String?, origin: Coordinate?, destination: Coordinate?, departure: Date?
        var total: Int?, taken: Int?, status: PartyStatus?
        repeat {
            guard let key = simpleString(), take(0x3A) else { return nil }
            switch key.count {
            case 2 where JSONByteCursor.equal(key, "id"):
                guard id == nil, let s = simpleString() else { return nil }
                id = String(decoding: s, as: UTF8.self)
            case 6 where JSONByteCursor.equal(key, "origin"):
                guard origin == nil, let c = coordinate() else { return nil }
                origin = c
            case 11 where JSONByteCursor.equal(key, "destination"):
                guard destination == nil, let c = coordinate() else { return nil }
                destination = c
            case 9 where JSONByteCursor.equal(key, "depart_at"):
                guard departure == nil, let d = time() else { return nil }
                departure = d
            case 11 where JSONByteCursor.equal(key, "seats_total"):
                guard total == nil, let n = integer(in: -1_000...1_000) else { return nil }
                total = n
            case 11 where JSONByteCursor.equal(key, "seats_taken"):
                guard taken == nil, let n = integer(in: -1_000...1_000) else { return nil }
                taken = n
            case 6 where JSONByteCursor.equal(key, "status"):
                guard status == nil, let s = self.status() else { return nil }
                status = s
            default:
                return nil
            }
        } while take(0x2C)
        guard take(0x7D), let id, let origin, let destination, let departure, let total else { return nil }
        let p = Party(id: id, origin: origin, destination: destination, departure: departure, seatsTotal: total,
                      seatsTaken: taken ?? 0, status: status ?? .open)
        guard (try? p.validate()) != nil else { return nil }
        return p
    }
}
