import GeoFareCore
/// Numbers and trimmed text read straight from bytes, for hot parsing loops.
///
/// Every function gives exactly what the `String` route gives (`Double(String)`,
/// `Int(String)`, ``Swift/String/trimmingSpaces()``): common forms take a fast path, anything
/// else falls back to the standard parser.
public enum ByteNumber {
    /// `Double(String(decoding: bytes, as: UTF8.self))`.
    ///
    /// Fast path (Clinger): `[+-]digits[.digits]` with a mantissa below 2⁵³ and at most 22
    /// fraction digits is one exact integer divided by one exact power of ten, so the IEEE
    /// division rounds it correctly, as `strtod` does.
    @inlinable
    public static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = bytes.count
        var negative = false
        if n > 0, bytes[0] == 0x2D || bytes[0] == 0x2B { negative = bytes[0] == 0x2D; i = 1 }
        var mantissa: UInt64 = 0
        var intDigits = 0, fracDigits = 0
        while i < n, bytes[i] &- 0x30 < 10, mantissa < 1 << 53 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
            intDigits += 1
            i += 1
        }
        if i < n, bytes[i] == 0x2E {
            i += 1
            while i < n, bytes[i] &- 0x30 < 10, mantissa < 1 << 53 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 0x30)
                fracDigits += 1
                i += 1
            }
            if fracDigits == 0 { return slowDouble(bytes) }
        }
        guard i == n, intDigits > 0, mantissa <= 1 << 53, fracDigits <= 22 else { return slowDouble(bytes) }
        // 10^fracDigits by repeated multiplication, exact up to 10²² (no lazily made table:
        // its accessor was a call on every field).
        var power = 1.0
        for _ in 0..<fracDigits { power *= 10 }
        // Through Int64 (mantissa ≤ 2⁵³): the same exact conversion, without the unsigned one's
        // extra steps on x86-64.
        let value = Double(Int64(bitPattern: mantissa)) / power
        return negative ? -value : value
    }

    @usableFromInline
    static func slowDouble(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        Double(String(decoding: bytes, as: UTF8.self))
    }

    /// `Int(String(decoding: bytes, as: UTF8.self))`.
    @inlinable
    public static func int(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = bytes.count
        guard n > 0, n <= 18 else { return slowInt(bytes) }
        var v = 0
        for b in bytes {
            let d = b &- 0x30
            guard d < 10 else { return slowInt(bytes) }
            v = v * 10 + Int(d)
        }
        return v
    }

    @usableFromInline
    static func slowInt(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        Int(String(decoding: bytes, as: UTF8.self))
    }

    /// The bytes without leading spaces/tabs and trailing spaces/tabs/CRs, as
    /// ``Swift/String/trimmingSpaces()`` trims text.
    @inlinable @inline(__always)
    public static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var a = 0, b = bytes.count
        while a < b, bytes[a] == 0x20 || bytes[a] == 0x09 { a += 1 }
        while b > a, bytes[b - 1] == 0x20 || bytes[b - 1] == 0x09 || bytes[b - 1] == 0x0D { b -= 1 }
        if a == 0 && b == bytes.count { return bytes }
        return UnsafeBufferPointer(rebasing: bytes[a..<b])
    }
}
