import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareText

/// The worker's hot path: a two-point `fare` request read straight from its bytes, without
/// building a JSON tree.
///
/// It reads the same ``FareCall`` the general path reads, for the plain common form only —
/// `id` (an integer or a string without escapes), `op` = `"fare"`, `from`/`to` as
/// `{"lat", "lon"}` decimal numbers, `depart_at`, and optional `tariff`, `party_size` (in
/// ``FareCall/partySizeRange``), `split`, `route`, `strict`. Anything else (another key, a
/// duplicate, an escape, an exponent, a value a reader refuses, ...) returns `nil` and the
/// request takes the general path, which answers it, errors included. What the fields mean
/// together is ``FareCall/workOrder(now:)``'s on both paths; both then price through the same
/// ``TripPricer/quote(_:)`` and write the same bytes.
struct FastFareRequest: Sendable {
    /// The id token exactly as sent (what the response echoes).
    var idToken: [UInt8]
    /// The request as read: the general path's type.
    var call: FareCall

    /// Decodes one request line, or returns `nil` for anything outside the fast form.
    /// - Parameter names: known tariff ids with their `String`s, so a request naming one
    ///   reuses it instead of allocating a new string.
    /// - Parameter body: an HTTP body (`POST /v1/fare`): no `id` and `op` needed (an `op` must
    ///   still be `fare`; the id token is then `null`).
    static func decode(_ line: UnsafeRawBufferPointer, names: [(bytes: [UInt8], string: String)] = [], body: Bool = false) -> FastFareRequest? {
        var p = JSONByteCursor(bytes: line.bindMemory(to: UInt8.self))
        var id: [UInt8]?, op = false, from: Coordinate?, to: Coordinate?, departure: Date?
        var tariff: String?, party: Int64?, split: String?, route: Bool?, strict: Bool?
        guard p.take(0x7B) else { return nil }
        if p.peek() == 0x7D { return nil }
        repeat {
            guard let key = p.simpleString() else { return nil }
            guard p.take(0x3A) else { return nil }
            switch key.count {
            case 2 where JSONByteCursor.equal(key, "id"):
                guard id == nil, let token = p.idToken() else { return nil }
                id = token
            case 2 where JSONByteCursor.equal(key, "op"):
                guard !op, let s = p.simpleString(), JSONByteCursor.equal(s, "fare") else { return nil }
                op = true
            case 4 where JSONByteCursor.equal(key, "from"):
                guard from == nil, let c = p.coordinate() else { return nil }
                from = c
            case 2 where JSONByteCursor.equal(key, "to"):
                guard to == nil, let c = p.coordinate() else { return nil }
                to = c
            case 9 where JSONByteCursor.equal(key, "depart_at"):
                guard departure == nil, let s = p.simpleString(), let d = ISO8601.parse(bytes: s) else { return nil }
                departure = d
            case 6 where JSONByteCursor.equal(key, "tariff"):
                guard tariff == nil, let s = p.simpleString() else { return nil }
                tariff = names.first { $0.bytes.count == s.count && memcmp($0.bytes, s.baseAddress!, s.count) == 0 }?.string
                    ?? String(decoding: s, as: UTF8.self)
            case 6 where JSONByteCursor.equal(key, "strict"):
                guard strict == nil, let b = p.boolean() else { return nil }
                strict = b
            case 10 where JSONByteCursor.equal(key, "party_size"):
                guard party == nil, let n = p.integer(in: Int(FareCall.partySizeRange.lowerBound)...Int(FareCall.partySizeRange.upperBound)) else { return nil }
                party = Int64(n)
            case 5 where JSONByteCursor.equal(key, "split"):
                guard split == nil, let s = p.simpleString() else { return nil }
                split = String(decoding: s, as: UTF8.self)
            case 5 where JSONByteCursor.equal(key, "route"):
                guard route == nil, let b = p.boolean() else { return nil }
                route = b
            default:
                return nil
            }
        } while p.take(0x2C)
        guard p.take(0x7D), p.atEnd, body || (id != nil && op), let from, let to, let departure else { return nil }
        let idToken = id ?? Array("null".utf8)
        var call = FareCall()
        call.from = FareCall.Stop(point: from)
        call.to = FareCall.Stop(point: to)
        call.departAt = departure
        call.tariff = tariff
        call.partySize = party
        call.split = split
        call.strict = strict ?? false
        call.includeRoute = route ?? false
        return FastFareRequest(idToken: idToken, call: call)
    }
}
