import Foundation

/// ISO 8601 times with an offset, parsed without a shared formatter (thread-safe, fast).
public enum ISO8601 {
    /// Whole seconds since 1970 as the civil (proleptic Gregorian) year, month, day and second of
    /// the day (Howard Hinnant's civil-from-days): the one conversion every ISO writer uses.
    @inlinable
    public static func civil(_ seconds: Int) -> (year: Int, month: Int, day: Int, second: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secs = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d, secs)
    }

    /// `YYYY-MM-DDTHH:MM:SS±HH:MM`: `epochSeconds` rounded to the second, written in the given
    /// UTC offset (seconds).
    public static func string(epochSeconds: Double, offsetSeconds: Int) -> String {
        let c = civil(Int((epochSeconds + Double(offsetSeconds)).rounded()))
        let o = abs(offsetSeconds)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02d%@%02d:%02d", c.year, c.month, c.day, c.second / 3600, c.second % 3600 / 60,
                      c.second % 60, offsetSeconds < 0 ? "-" : "+", o / 3600, o % 3600 / 60)
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM|±HHMM)`; a time without an offset is rejected.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// ``parse(_:)`` over UTF-8 bytes (no `String` needed: the batch CSV path).
    public static func parse(bytes u: UnsafeBufferPointer<UInt8>) -> Date? {
        if let date = parseFixedShape(u) { return date }
        return parseGeneral(u)
    }

    /// The batch files' usual shape, `YYYY-MM-DDTHH:MM:SS` then `Z` or `±HH:MM` (20 or 25
    /// bytes), read at fixed offsets: what ``parseGeneral(_:)`` returns for it, bit for bit (the
    /// same checks and the same arithmetic), or nil for anything else, which the general parser
    /// then reads (or rejects). About a third of the general parser's instructions.
    @inline(__always)
    static func parseFixedShape(_ u: UnsafeBufferPointer<UInt8>) -> Date? {
        let n = u.count
        guard n == 25 || n == 20, let base = u.baseAddress else { return nil }
        // Eight bytes at a time, XORed with the shape's template: a digit becomes its value
        // (0...9), a separator in its place becomes 0.
        @inline(__always) func word(_ at: Int, _ template: UInt64) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self)) ^ template
        }
        // True when every byte of `x` is 0...9 and those under `separators` are 0. A byte of
        // 10...127 gets its top bit from the addition, one of 128... has it already (a carry
        // out of such a byte only spoils a word that fails anyway).
        @inline(__always) func fits(_ x: UInt64, _ separators: UInt64) -> Bool {
            ((x | (x &+ 0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080) | (x & separators) == 0
        }
        @inline(__always) func digit(_ x: UInt64, _ k: Int) -> Int { Int(truncatingIfNeeded: (x >> (8 &* k)) & 0xFF) }
        @inline(__always) func pair(_ x: UInt64, _ k: Int) -> Int { digit(x, k) &* 10 &+ digit(x, k &+ 1) }
        let sep1: UInt64 = 0xFF << 8, sep2: UInt64 = 0xFF << 16
        let sep4: UInt64 = 0xFF << 32, sep5: UInt64 = 0xFF << 40, sep7: UInt64 = 0xFF << 56
        // Bytes 0...7 "YYYY-MM-" and 8...15 "DDTHH:MM" (templates little-endian: byte 0 lowest).
        let a = word(0, 0x2D30_302D_3030_3030), b = word(8, 0x3030_3A30_3054_3030)
        guard fits(a, sep4 | sep7), fits(b, sep2 | sep5) else { return nil }
        let s: Int, offset: Int
        if n == 25 {
            // Bytes 17...24 "SS±HH:MM": the sign byte is XORed with itself and checked here.
            let sign = u[19]
            guard sign == 43 || sign == 45 else { return nil }
            let c = word(17, 0x3030_3A30_3000_3030 | UInt64(sign) << 16)
            guard fits(c, sep2 | sep5), u[16] == 58 else { return nil }
            s = pair(c, 0)
            let magnitude = pair(c, 3) &* 3600 &+ pair(c, 6) &* 60
            offset = sign == 43 ? magnitude : -magnitude
        } else {
            // Bytes 12...19 "H:MM:SSZ".
            let c = word(12, 0x5A30_303A_3030_3A30)
            guard fits(c, sep1 | sep4 | sep7) else { return nil }
            s = pair(c, 5)
            offset = 0
        }
        let y = pair(a, 0) &* 100 &+ pair(a, 2), mo = pair(a, 5), d = pair(b, 0), h = pair(b, 3), mi = pair(b, 6)
        guard mo >= 1, mo <= 12, d >= 1, d <= 31, h <= 23, mi <= 59, s <= 60 else { return nil }
        return Date(timeIntervalSince1970: epoch(y: y, mo: mo, d: d, h: h, mi: mi, offset: offset) + Double(s))
    }

    /// Seconds since 1970 of a civil date and time at `offset` seconds east of UTC, before
    /// seconds: days from civil (Howard Hinnant's algorithm), proleptic Gregorian.
    @inline(__always)
    static func epoch(y: Int, mo: Int, d: Int, h: Int, mi: Int, offset: Int) -> Double {
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Double(days * 86_400 + h * 3600 + mi * 60 - offset)
    }

    /// Every shape ``parse(_:)`` accepts (the reference for ``parseFixedShape(_:)``).
    static func parseGeneral(_ u: UnsafeBufferPointer<UInt8>) -> Date? {
        // Inlined: it was a call per field, 40 % of a parse.
        @inline(__always) func num(_ a: Int, _ n: Int) -> Int? {
            guard a + n <= u.count else { return nil }
            var v = 0
            for i in a..<(a + n) {
                let d = u[i] &- 48
                guard d < 10 else { return nil }
                v = v &* 10 &+ Int(d)
            }
            return v
        }
        guard u.count >= 17, let y = num(0, 4), u[4] == 45, let mo = num(5, 2), u[7] == 45, let d = num(8, 2),
              u[10] == 84 || u[10] == 32 || u[10] == 116, let h = num(11, 2), u[13] == 58, let mi = num(14, 2) else { return nil }
        var i = 16
        var seconds = 0.0
        if i < u.count, u[i] == 58 {
            guard let s = num(i + 1, 2) else { return nil }
            seconds = Double(s)
            i += 3
            if i < u.count, u[i] == 46 || u[i] == 44 {
                i += 1
                var scale = 0.1
                while i < u.count, (48...57).contains(u[i]) {
                    seconds += Double(u[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
            }
        }
        guard i < u.count else { return nil }
        var offset = 0
        if u[i] == 90 || u[i] == 122 {
            i += 1
        } else if u[i] == 43 || u[i] == 45 {
            let sign = u[i] == 43 ? 1 : -1
            guard let oh = num(i + 1, 2) else { return nil }
            var om = 0
            if let m = num(i + 4, 2), u[i + 3] == 58 { om = m; i += 6 } else if let m = num(i + 3, 2) { om = m; i += 5 } else { i += 3 }
            offset = sign * (oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == u.count, (1...12).contains(mo), (1...31).contains(d), h <= 23, mi <= 59, seconds < 61 else { return nil }
        return Date(timeIntervalSince1970: epoch(y: y, mo: mo, d: d, h: h, mi: mi, offset: offset) + seconds)
    }
}
