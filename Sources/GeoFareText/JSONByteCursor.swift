import Foundation
import GeoFareCore

/// A read position in one line of JSON bytes, for decoders that read the plain common form of a
/// request straight from its bytes (the worker's fast paths) without building a ``JSONValue``.
///
/// Every reader skips the whitespace before its token and returns `nil` (or `false`) for anything
/// outside the simple form it reads: an escape in a string, an exponent, a number the general
/// parser (``JSONParser``) would refuse. A decoder that meets `nil` gives up and lets the general
/// parser answer, so what the cursor accepts it must read exactly as ``JSONParser`` does.
public struct JSONByteCursor {
    /// The line.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    public var position: Int

    @inlinable
    public init(bytes: UnsafeBufferPointer<UInt8>, position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Whether the bytes spell `word` (one memcmp, no generic sequence comparison).
    @inlinable @inline(__always)
    public static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && memcmp(bytes.baseAddress!, word.utf8Start, bytes.count) == 0
    }

    /// Whether only whitespace is left.
    @inlinable
    public var atEnd: Bool {
        mutating get { skipSpace(); return position == bytes.count }
    }

    @inlinable
    public mutating func skipSpace() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0D || bytes[position] == 0x0A {
            position += 1
        }
    }

    /// The next byte after whitespace, not consumed.
    @inlinable
    public mutating func peek() -> UInt8? {
        skipSpace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Consumes `b` when it is the next byte after whitespace.
    @inlinable
    public mutating func take(_ b: UInt8) -> Bool {
        guard peek() == b else { return false }
        position += 1
        return true
    }

    /// A string of printable ASCII without escapes (its bytes, without the quotes).
    @inlinable
    public mutating func simpleString() -> UnsafeBufferPointer<UInt8>? {
        guard take(0x22) else { return nil }
        let start = position
        while position < bytes.count {
            let b = bytes[position]
            if b == 0x22 {
                position += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)])
            }
            guard b >= 0x20, b < 0x80, b != 0x5C else { return nil }
            position += 1
        }
        return nil
    }

    /// Reads `-?(0|[1-9][0-9]*)`: where the token starts and how many digits it has, or `nil`
    /// for no digits or a leading zero.
    @inlinable @inline(__always)
    mutating func integerPart() -> (start: Int, digits: Int)? {
        skipSpace()
        let start = position
        if position < bytes.count, bytes[position] == 0x2D { position += 1 }
        let digitsStart = position
        while position < bytes.count, bytes[position] &- 0x30 < 10 { position += 1 }
        let digits = position - digitsStart
        guard digits > 0, !(digits > 1 && bytes[digitsStart] == 0x30) else { return nil }
        return (start, digits)
    }

    /// `-?(0|[1-9][0-9]*)`, at most 18 digits, as its token.
    @inlinable
    public mutating func integerToken() -> UnsafeBufferPointer<UInt8>? {
        guard let (start, digits) = integerPart(), digits <= 18 else { return nil }
        if position < bytes.count, bytes[position] == 0x2E || bytes[position] == 0x65 || bytes[position] == 0x45 { return nil }
        return UnsafeBufferPointer(rebasing: bytes[start..<position])
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?` as a Double (exactly `Double(String)` of the token).
    @inlinable
    public mutating func decimal() -> Double? {
        guard let (start, _) = integerPart() else { return nil }
        if position < bytes.count, bytes[position] == 0x2E {
            position += 1
            let fractionStart = position
            while position < bytes.count, bytes[position] &- 0x30 < 10 { position += 1 }
            guard position > fractionStart else { return nil }
        }
        // An exponent, or a number the general parser refuses (over 400 characters).
        if position < bytes.count, bytes[position] == 0x65 || bytes[position] == 0x45 { return nil }
        guard position - start <= 400 else { return nil }
        return ByteNumber.double(UnsafeBufferPointer(rebasing: bytes[start..<position]))
    }

    /// `true` or `false`.
    @inlinable
    public mutating func boolean() -> Bool? {
        skipSpace()
        for (word, value) in [("true", true), ("false", false)] {
            let w = Array(word.utf8)
            if bytes.count - position >= w.count, bytes[position..<(position + w.count)].elementsEqual(w) {
                position += w.count
                return value
            }
        }
        return nil
    }

    /// An `id`: an integer or a string without escapes, as its token (quotes included).
    @inlinable
    public mutating func idToken() -> [UInt8]? {
        if peek() == 0x22 {
            guard let s = simpleString() else { return nil }
            var token = [UInt8](repeating: 0x22, count: s.count + 2)
            token.withUnsafeMutableBufferPointer { t in _ = memcpy(t.baseAddress! + 1, s.baseAddress!, s.count) }
            return token
        }
        guard let n = integerToken() else { return nil }
        return Array(n)
    }

    /// An integer token within `range`.
    @inlinable
    public mutating func integer(in range: ClosedRange<Int>) -> Int? {
        guard let t = integerToken(), let n = ByteNumber.int(t), range.contains(n) else { return nil }
        return n
    }

    /// A decimal number (no exponent) that is finite.
    @inlinable
    public mutating func finiteDecimal() -> Double? {
        guard let d = decimal(), d.isFinite else { return nil }
        return d
    }

    /// An ISO 8601 time with an offset, as ``ISO8601/parse(bytes:)`` reads it.
    @inlinable
    public mutating func time() -> Date? {
        guard let s = simpleString() else { return nil }
        return ISO8601.parse(bytes: s)
    }

    /// `{"lat": n, "lon": n}` (either order) as a valid coordinate.
    @inlinable
    public mutating func coordinate() -> Coordinate? {
        guard take(0x7B) else { return nil }
        var lat: Double?, lon: Double?
        repeat {
            guard let key = simpleString(), take(0x3A), let v = decimal() else { return nil }
            if Self.equal(key, "lat"), lat == nil { lat = v } else if Self.equal(key, "lon"), lon == nil { lon = v } else { return nil }
        } while take(0x2C)
        guard take(0x7D), let lat, let lon else { return nil }
        return try? Coordinate(latitude: lat, longitude: lon)
    }

    /// `{"west", "south", "east", "north"}` that make a valid ``BoundingBox``.
    @inlinable
    public mutating func bbox() -> BoundingBox? {
        guard take(0x7B) else { return nil }
        var v: [Double?] = [nil, nil, nil, nil]
        repeat {
            guard let key = simpleString(), take(0x3A) else { return nil }
            let k: Int
            if Self.equal(key, "west") { k = 0 } else if Self.equal(key, "south") { k = 1 } else if Self.equal(key, "east") { k = 2 } else if Self.equal(key, "north") { k = 3 } else { return nil }
            guard v[k] == nil, let d = finiteDecimal() else { return nil }
            v[k] = d
        } while take(0x2C)
        guard take(0x7D), let west = v[0], let south = v[1], let east = v[2], let north = v[3] else { return nil }
        return try? BoundingBox(west: west, south: south, east: east, north: north)
    }
}
