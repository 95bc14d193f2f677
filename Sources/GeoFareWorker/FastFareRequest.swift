import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareText

/// The worker's hot path: a two-point `fare` request read straight from its bytes, without
/// building a JSON tree.
///
/// It accepts only the plain common form — `id` (an integer or a string without escapes),
/// `op` = `"fare"`, `from`/`to` as `{"lat", "lon"}` decimal numbers, and optional `depart_at`,
/// `tariff`, `party_size` (1...20), `split`, `route`, `strict` — with every value already valid. Anything
/// else (another key, a duplicate, an escape, an exponent, a value out of range, ...) returns
/// `nil` and the request takes the general path, which answers it, errors included. Both
/// paths then price through the same ``TripPricer/quote(_:)`` and write the same bytes.
struct FastFareRequest: Sendable {
    /// The id token exactly as sent (what the response echoes).
    var idToken: [UInt8]
    var request: FareRequest
    /// `"route": true` asks for the route in the result.
    var includeRoute = false

    /// Decodes one request line, or returns `nil` for anything outside the fast form.
    /// - Parameter names: known tariff ids with their `String`s, so a request naming one
    ///   reuses it instead of allocating a new string.
    static func decode(_ line: UnsafeRawBufferPointer, names: [(bytes: [UInt8], string: String)] = []) -> FastFareRequest? {
        var p = Cursor(bytes: line.bindMemory(to: UInt8.self))
        var id: [UInt8]?, op = false, from: Coordinate?, to: Coordinate?, departure: Date?
        var tariff: String?, party: Int?, split: SplitMethod?, route: Bool?, strict: Bool?
        guard p.take(0x7B) else { return nil }
        if p.peek() == 0x7D { return nil }
        repeat {
            guard let key = p.simpleString() else { return nil }
            guard p.take(0x3A) else { return nil }
            switch key.count {
            case 2 where Self.equal(key, "id"):
                guard id == nil else { return nil }
                if p.peek() == 0x22 {
                    guard let s = p.simpleString() else { return nil }
                    id = [0x22] + Array(s) + [0x22]
                } else {
                    guard let n = p.integerToken() else { return nil }
                    id = Array(n)
                }
            case 2 where Self.equal(key, "op"):
                guard !op, let s = p.simpleString(), Self.equal(s, "fare") else { return nil }
                op = true
            case 4 where Self.equal(key, "from"):
                guard from == nil, let c = p.coordinate() else { return nil }
                from = c
            case 2 where Self.equal(key, "to"):
                guard to == nil, let c = p.coordinate() else { return nil }
                to = c
            case 9 where Self.equal(key, "depart_at"):
                guard departure == nil, let s = p.simpleString(), let d = ISO8601.parse(bytes: s) else { return nil }
                departure = d
            case 6 where Self.equal(key, "tariff"):
                guard tariff == nil, let s = p.simpleString() else { return nil }
                tariff = names.first { $0.bytes.count == s.count && memcmp($0.bytes, s.baseAddress!, s.count) == 0 }?.string
                    ?? String(decoding: s, as: UTF8.self)
            case 6 where Self.equal(key, "strict"):
                guard strict == nil, let b = p.boolean() else { return nil }
                strict = b
            case 10 where Self.equal(key, "party_size"):
                guard party == nil, let t = p.integerToken(), let n = ByteNumber.int(t), (1...20).contains(n) else { return nil }
                party = n
            case 5 where Self.equal(key, "split"):
                guard split == nil, let s = p.simpleString(), let m = SplitMethod(rawValue: String(decoding: s, as: UTF8.self)) else { return nil }
                split = m
            case 5 where Self.equal(key, "route"):
                guard route == nil, let b = p.boolean() else { return nil }
                route = b
            default:
                return nil
            }
        } while p.take(0x2C)
        guard p.take(0x7D), p.atEnd, let id, op, let from, let to, let departure else { return nil }
        var request = FareRequest(from: from, to: to, departure: departure, tariff: tariff)
        request.partySize = party ?? 1
        request.split = split ?? .equal
        request.strict = strict ?? false
        return FastFareRequest(idToken: id, request: request, includeRoute: route ?? false)
    }

    /// Whether the bytes spell `word` (one memcmp, no generic sequence comparison).
    @inline(__always)
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && memcmp(bytes.baseAddress!, word.utf8Start, bytes.count) == 0
    }

    /// A read position in a request line; every reader skips the whitespace before its token.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        var atEnd: Bool {
            mutating get { skipSpace(); return i == bytes.count }
        }

        mutating func skipSpace() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0D || bytes[i] == 0x0A { i += 1 }
        }

        mutating func peek() -> UInt8? {
            skipSpace()
            return i < bytes.count ? bytes[i] : nil
        }

        mutating func take(_ b: UInt8) -> Bool {
            guard peek() == b else { return false }
            i += 1
            return true
        }

        /// A string of printable ASCII without escapes (its bytes, without the quotes).
        mutating func simpleString() -> UnsafeBufferPointer<UInt8>? {
            guard take(0x22) else { return nil }
            let start = i
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x22 {
                    i += 1
                    return UnsafeBufferPointer(rebasing: bytes[start..<(i - 1)])
                }
                guard b >= 0x20, b < 0x80, b != 0x5C else { return nil }
                i += 1
            }
            return nil
        }

        /// `-?(0|[1-9][0-9]*)`, at most 18 digits.
        mutating func integerToken() -> UnsafeBufferPointer<UInt8>? {
            skipSpace()
            let start = i
            if i < bytes.count, bytes[i] == 0x2D { i += 1 }
            let digitsStart = i
            while i < bytes.count, bytes[i] &- 0x30 < 10 { i += 1 }
            let digits = i - digitsStart
            guard digits > 0, digits <= 18, !(digits > 1 && bytes[digitsStart] == 0x30) else { return nil }
            if i < bytes.count, bytes[i] == 0x2E || bytes[i] == 0x65 || bytes[i] == 0x45 { return nil }
            return UnsafeBufferPointer(rebasing: bytes[start..<i])
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?` as a Double (exactly `Double(String)` of the token).
        mutating func decimal() -> Double? {
            skipSpace()
            let start = i
            if i < bytes.count, bytes[i] == 0x2D { i += 1 }
            let digitsStart = i
            while i < bytes.count, bytes[i] &- 0x30 < 10 { i += 1 }
            let digits = i - digitsStart
            guard digits > 0, !(digits > 1 && bytes[digitsStart] == 0x30) else { return nil }
            if i < bytes.count, bytes[i] == 0x2E {
                i += 1
                let fractionStart = i
                while i < bytes.count, bytes[i] &- 0x30 < 10 { i += 1 }
                guard i > fractionStart else { return nil }
            }
            // An exponent, or a number the general parser refuses (over 400 characters).
            if i < bytes.count, bytes[i] == 0x65 || bytes[i] == 0x45 { return nil }
            guard i - start <= 400 else { return nil }
            return ByteNumber.double(UnsafeBufferPointer(rebasing: bytes[start..<i]))
        }

        mutating func boolean() -> Bool? {
            skipSpace()
            for (word, value) in [("true", true), ("false", false)] {
                let w = Array(word.utf8)
                if bytes.count - i >= w.count, bytes[i..<(i + w.count)].elementsEqual(w) {
                    i += w.count
                    return value
                }
            }
            return nil
        }

        /// `{"lat": n, "lon": n}` (either order) as a valid coordinate.
        mutating func coordinate() -> Coordinate? {
            guard take(0x7B) else { return nil }
            var lat: Double?, lon: Double?
            repeat {
                guard let key = simpleString(), take(0x3A), let v = decimal() else { return nil }
                if FastFareRequest.equal(key, "lat"), lat == nil { lat = v } else if FastFareRequest.equal(key, "lon"), lon == nil { lon = v } else { return nil }
            } while take(0x2C)
            guard take(0x7D), let lat, let lon else { return nil }
            return try? Coordinate(latitude: lat, longitude: lon)
        }
    }
}
