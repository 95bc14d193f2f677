import Foundation

/// ISO 8601 times with an offset, parsed without a shared formatter (thread-safe, fast).
public enum ISO8601 {
    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fff]](Z|±HH:MM|±HHMM)`; a time without an offset is rejected.
    public static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// ``parse(_:)`` over UTF-8 bytes (no `String` needed: the batch CSV path).
    public static func parse(bytes u: UnsafeBufferPointer<UInt8>) -> Date? {
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
        // Days from civil (Howard Hinnant's algorithm), proleptic Gregorian.
        let yy = mo <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        let epoch = Double(days * 86_400 + h * 3600 + mi * 60 - offset) + seconds
        return Date(timeIntervalSince1970: epoch)
    }
}
