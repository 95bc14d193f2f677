import Foundation
import GeoFareCore
import GeoFareText

/// The party ops' JSON, both ways: a request's party, filter and viewport fields to model
/// values (errors name the field's JSON path), and a ``Party`` or a ``ClusterItem`` to the
/// protocol's objects. Pure functions: no store, no index (those are ``LivePartyIndex``'s).
public enum PartyJSON {
    /// A party from its JSON object (`party.upsert`); errors name `party.<field>`.
    public static func party(_ f: RequestFields) throws(GeoFareError) -> Party {
        let statusText = try f.optionalString("status") ?? "open"
        guard let status = PartyStatus(rawValue: statusText) else {
            throw .notOneOf("status", "open, full or closed", got: statusText, field: f.at("status"))
        }
        var attributes: String?
        if f.has("attributes") {
            let a = try f.value("attributes")
            guard case .object = a else { throw GeoFareError.wrongType(f.at("attributes"), expected: "an object", got: a) }
            attributes = JSONWriter.string(a)
            guard attributes!.utf8.count <= 16_384 else { throw .attributesTooLarge(f.at("attributes")) }
        }
        guard let departure = try f.time("depart_at") else { throw GeoFareError.missing(f.at("depart_at")) }
        let p = Party(
            id: try f.string("id"), origin: try f.coordinate("origin"), destination: try f.coordinate("destination"),
            departure: departure, seatsTotal: Int(try f.int("seats_total", range: -1_000...1_000)),
            seatsTaken: Int(try f.optionalInt("seats_taken", range: -1_000...1_000) ?? 0), status: status, attributesJSON: attributes
        )
        do { try p.validate() } catch { throw error.prefixed(f.path) }
        return p
    }

    /// A filter from the request's `depart_from`, `depart_until`, `min_free_seats`, `status`
    /// (a string or an array) and `destination` `{"center", "radius_m"}`.
    public static func filter(_ f: RequestFields) throws(GeoFareError) -> PartyFilter {
        var filter = PartyFilter.none
        filter.departFrom = try f.time("depart_from")
        filter.departUntil = try f.time("depart_until")
        if let n = try f.optionalInt("min_free_seats", range: 0...20) { filter.minFreeSeats = Int(n) }
        if f.has("status") {
            let v = try f.value("status")
            let names: [String]
            if let s = v.string { names = [s] } else if let a = v.array {
                names = try a.enumerated().map { i, x throws(GeoFareError) in
                    guard let s = x.string else { throw GeoFareError.wrongType("status[\(i)]", expected: "a string", got: x) }
                    return s
                }
            } else { throw GeoFareError.wrongType("status", expected: "a string or an array of strings", got: v) }
            var set = Set<PartyStatus>()
            for n in names {
                guard let s = PartyStatus(rawValue: n) else { throw GeoFareError.notOneOf("status", "open, full or closed", got: n) }
                set.insert(s)
            }
            filter.statuses = set
        }
        if f.has("destination") {
            let d = try f.nested("destination")
            filter.destination = try d.coordinate("center")
            let r = try d.double("radius_m")
            guard r >= 0 && r <= 1_000_000 else { throw GeoFareError.destinationRadiusOutOfRange() }
            filter.destinationRadiusMeters = r
        }
        return filter
    }

    static func fields(_ p: Party) -> [String: JSONValue] {
        var o: [String: JSONValue] = [
            "id": .string(p.id), "origin": .coordinate(p.origin), "destination": .coordinate(p.destination),
            "depart_at": .string(ISO8601.utcString(p.departure)), "seats_total": .int(Int64(p.seatsTotal)),
            "seats_taken": .int(Int64(p.seatsTaken)), "free_seats": .int(Int64(p.freeSeats)), "status": .string(p.status.rawValue),
            "updated_at": .string(ISO8601.utcString(p.updatedAt)), "version": .int(p.version),
        ]
        if let a = p.attributesJSON, let value = try? JSONParser.parse(Array(a.utf8)) { o["attributes"] = value }
        return o
    }

    /// A party as the protocol's JSON object.
    public static func json(_ p: Party) -> JSONValue { .object(fields(p)) }

    /// Parses one JSON party object (as in `party.upsert`), for imports.
    public static func partyFromJSON(_ line: [UInt8]) throws(GeoFareError) -> Party {
        let v = try JSONParser.parse(line)
        guard let o = v.object else { throw GeoFareError.partyNotObject() }
        return try party(RequestFields(o))
    }

    /// A party as the protocol's object, keys sorted, straight to bytes: the same bytes as
    /// ``json(_:)`` through ``JSONWriter``, with `distance_m` (metres) among them when given
    /// (`nearby`).
    public static func write(_ p: Party, distanceMeters: Double? = nil, into w: inout ByteWriter) {
        w.append(UInt8(ascii: "{"))
        var first = true
        if let a = p.attributesJSON, let value = try? JSONParser.parse(Array(a.utf8)) {
            var text: [UInt8] = []
            JSONWriter.append(value, to: &text)
            w.jsonKey("attributes", first: true); w.append(text)
            first = false
        }
        w.jsonKey("depart_at", first: first); w.jsonInstant(p.departure)
        w.jsonKey("destination"); w.jsonCoordinate(p.destination)
        if let distanceMeters { w.jsonKey("distance_m"); w.jsonDouble(distanceMeters) }
        w.jsonKey("free_seats"); w.appendDecimal(Int64(p.freeSeats))
        w.jsonKey("id"); w.jsonString(p.id)
        w.jsonKey("origin"); w.jsonCoordinate(p.origin)
        w.jsonKey("seats_taken"); w.appendDecimal(Int64(p.seatsTaken))
        w.jsonKey("seats_total"); w.appendDecimal(Int64(p.seatsTotal))
        w.jsonKey("status"); w.jsonString(p.status.rawValue)
        w.jsonKey("updated_at"); w.jsonInstant(p.updatedAt)
        w.jsonKey("version"); w.appendDecimal(p.version)
        w.append(UInt8(ascii: "}"))
    }

    /// A cluster item `{bounds, center, count, expansion_zoom, id, party_ids}`, keys sorted,
    /// straight to bytes.
    public static func write(_ item: ClusterItem, into w: inout ByteWriter) {
        w.append(UInt8(ascii: "{"))
        w.jsonKey("bounds", first: true); w.append(UInt8(ascii: "{"))
        w.jsonKey("east", first: true); w.jsonDouble(item.bounds.east)
        w.jsonKey("north"); w.jsonDouble(item.bounds.north)
        w.jsonKey("south"); w.jsonDouble(item.bounds.south)
        w.jsonKey("west"); w.jsonDouble(item.bounds.west)
        w.append(UInt8(ascii: "}"))
        w.jsonKey("center"); w.jsonCoordinate(item.center)
        w.jsonKey("count"); w.appendDecimal(Int64(item.count))
        w.jsonKey("expansion_zoom")
        if let z = item.expansionZoom { w.appendDecimal(Int64(z)) } else { w.append("null") }
        w.jsonKey("id"); w.jsonString(item.id)
        w.jsonKey("party_ids")
        if let ids = item.partyIDs { w.jsonArray(ids) { $0.jsonString($1) } } else { w.append("null") }
        w.append(UInt8(ascii: "}"))
    }
}
