import Foundation
import GeoFareCore

/// The protocol's JSON of the values every result shares: a coordinate `{"lat", "lon"}` and an
/// instant as ISO 8601 UTC text, straight to bytes.
extension ByteWriter {
    /// A coordinate as `{"lat", "lon"}`, keys sorted.
    public mutating func jsonCoordinate(_ c: Coordinate) {
        append(UInt8(ascii: "{"))
        jsonKey("lat", first: true); jsonDouble(c.latitude)
        jsonKey("lon"); jsonDouble(c.longitude)
        append(UInt8(ascii: "}"))
    }

    /// ``ISO8601/utcString(_:)`` as a JSON string, straight to bytes (the same bytes as
    /// `jsonString(ISO8601.utcString(date))` for years 0...9999; others take that path).
    public mutating func jsonInstant(_ date: Date) {
        let t = date.timeIntervalSince1970
        guard t.isFinite, t >= -62_135_596_800, t < 253_402_300_800 else { jsonString(ISO8601.utcString(date)); return }
        let (whole, y, m, d, secs) = ISO8601.civil(seconds: t)
        guard y >= 1000 else { jsonString(ISO8601.utcString(date)); return }
        var b: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)
            = (0x22, 0, 0, 0, 0, 0x2D, 0, 0, 0x2D, 0, 0, 0x54, 0, 0, 0x3A, 0, 0, 0x3A, 0, 0, 0)
        withUnsafeMutableBytes(of: &b) { p in
            func put(_ v: Int, at i: Int, digits: Int) {
                var v = v
                for k in stride(from: digits - 1, through: 0, by: -1) { p[i + k] = UInt8(48 + v % 10); v /= 10 }
            }
            put(y, at: 1, digits: 4); put(m, at: 6, digits: 2); put(d, at: 9, digits: 2)
            put(secs / 3600, at: 12, digits: 2); put(secs % 3600 / 60, at: 15, digits: 2); put(secs % 60, at: 18, digits: 2)
            append(UnsafeBufferPointer(start: p.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 20))
        }
        let frac = t - whole
        if frac > 0.0005 {
            let ms = Int((frac * 1000).rounded())
            if ms >= 1000 { append(".000") } else {
                append(UInt8(ascii: "."))
                append(UInt8(48 + ms / 100)); append(UInt8(48 + ms / 10 % 10)); append(UInt8(48 + ms % 10))
            }
        }
        append("Z\"")
    }
}

extension ISO8601 {
    /// Seconds since 1970 (UTC) as the whole second, the civil year, month and day, and the
    /// second of that day, for both ISO writers.
    static func civil(seconds t: Double) -> (whole: Double, year: Int, month: Int, day: Int, second: Int) {
        let whole = t.rounded(.down)
        let c = ISO8601.civil(Int(whole))
        return (whole, c.year, c.month, c.day, c.second)
    }

    /// An instant as ISO 8601 UTC with seconds (`2024-05-15T13:30:00Z`), fractional when needed.
    public static func utcString(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        let (whole, y, m, d, secs) = civil(seconds: t)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var s = "\(y)-\(two(m))-\(two(d))T\(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60))"
        let frac = t - whole
        if frac > 0.0005 { s += "." + String(String(Int((frac * 1000).rounded()) + 1000).dropFirst()) }
        return s + "Z"
    }
}

extension JSONValue {
    /// A coordinate as the protocol's `{"lat", "lon"}` object.
    public static func coordinate(_ c: Coordinate) -> JSONValue {
        .object(["lat": .double(c.latitude), "lon": .double(c.longitude)])
    }
}
