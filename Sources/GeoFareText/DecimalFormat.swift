import GeoFareCore
/// Fast fixed-point decimal text for hot output loops (no Foundation formatting).
public enum DecimalFormat {
    @usableFromInline
    static let powersOfTen: [Double] = (0...12).map { p in (0..<p).reduce(1.0) { r, _ in r * 10 } }

    /// Appends `value` with exactly `decimals` digits after the point (0...12), rounded half
    /// away from zero. Values too large for this (|v|·10^d ≥ 9.2e18) and non-finite values fall
    /// back to Swift's shortest representation.
    @inlinable
    public static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        let d = min(max(decimals, 0), 12)
        let scaled = (abs(value) * powersOfTen[d]).rounded()
        guard value.isFinite, scaled < 9.2e18 else {
            out.append(contentsOf: "\(value)".utf8)
            return
        }
        let n = UInt64(scaled)
        if value < 0 && n != 0 { out.append(UInt8(ascii: "-")) }
        let unit = UInt64(powersOfTen[d])
        append(Int64(n / unit), to: &out)
        guard d > 0 else { return }
        out.append(UInt8(ascii: "."))
        var fraction = n % unit
        var divisor = unit / 10
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    /// `value` as text with exactly `decimals` digits after the point.
    public static func string(_ value: Double, decimals: Int) -> String {
        var out: [UInt8] = []
        append(value, decimals: decimals, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends an integer in decimal.
    @inlinable
    public static func append(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var n = value.magnitude
        var buffer: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &buffer) { raw in
            let digits = raw.bindMemory(to: UInt8.self)
            repeat {
                digits[19 - count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            } while n > 0
            // A few digits: byte appends beat a generic append(contentsOf:) call.
            for j in (20 - count)..<20 { out.append(digits[j]) }
        }
    }
}
