import Foundation
@testable import GeoFareCore
import Testing

/// `ISO8601.parseFixedShape` (the batch files' `YYYY-MM-DDTHH:MM:SS±HH:MM` / `Z`, read eight
/// bytes at a time) answers exactly as the general parser, and takes every time of its shape.
struct ISO8601FixedShapeTests {
    static func fixed(_ b: [UInt8]) -> Double? { b.withUnsafeBufferPointer { ISO8601.parseFixedShape($0)?.timeIntervalSince1970 } }
    static func general(_ b: [UInt8]) -> Double? { b.withUnsafeBufferPointer { ISO8601.parseGeneral($0)?.timeIntervalSince1970 } }

    /// A random time of the fixed shape, fields within their ranges (offsets of any minute).
    static func validTime(_ rng: inout SeededGenerator) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let y = Int.random(in: 0...9999, using: &rng)
        let year = String(repeating: "0", count: 4 - String(y).count) + String(y)
        var text = "\(year)-\(two(Int.random(in: 1...12, using: &rng)))-\(two(Int.random(in: 1...31, using: &rng)))T"
        text += "\(two(Int.random(in: 0...23, using: &rng))):\(two(Int.random(in: 0...59, using: &rng))):\(two(Int.random(in: 0...60, using: &rng)))"
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: text += "Z"
        case 1: text += "+\(two(Int.random(in: 0...99, using: &rng))):\(two(Int.random(in: 0...99, using: &rng)))"
        default: text += "-\(two(Int.random(in: 0...99, using: &rng))):\(two(Int.random(in: 0...99, using: &rng)))"
        }
        return text
    }

    @Test("every valid time of the fixed shape is taken by the fast path, with the general parser's instant bit for bit")
    func validTimesAgree() {
        var rng = SeededGenerator(seed: 41)
        for _ in 0..<20_000 {
            let b = Array(Self.validTime(&rng).utf8)
            let f = Self.fixed(b), g = Self.general(b)
            // A fast path that gave up (nil) would be right but slow: it must take them all.
            #expect(f != nil, "\(String(decoding: b, as: UTF8.self))")
            #expect(f?.bitPattern == g?.bitPattern, "\(String(decoding: b, as: UTF8.self))")
        }
    }

    @Test("on 60,000 times with a byte replaced, inserted or removed, the fast path answers as the general parser or passes")
    func mutatedTimesAgree() {
        var rng = SeededGenerator(seed: 43)
        // Digits out of range, separators of other shapes, bytes next to the digits ('/' and
        // ':' around "0"–"9"), high bytes that overflow a byte's addition.
        let alphabet = Array("0123456789/:;-+TtZz .,\u{00}".utf8) + [0x7F, 0x80, 0x8A, 0xC6, 0xF9, 0xFF]
        var taken = 0, rejectedByBoth = 0
        for _ in 0..<60_000 {
            var b = Array(Self.validTime(&rng).utf8)
            for _ in 0..<Int.random(in: 1...2, using: &rng) {
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: b.remove(at: Int.random(in: 0..<b.count, using: &rng))
                case 1: b.insert(alphabet.randomElement(using: &rng)!, at: Int.random(in: 0...b.count, using: &rng))
                default: b[Int.random(in: 0..<b.count, using: &rng)] = alphabet.randomElement(using: &rng)!
                }
            }
            let f = Self.fixed(b), g = Self.general(b)
            if let f {
                taken += 1
                #expect(f.bitPattern == g?.bitPattern, "\(String(decoding: b, as: UTF8.self).debugDescription)")
            } else if g == nil {
                rejectedByBoth += 1
            }
            // What the fast path passes on, the general parser decides: `parse` is that.
            let p = b.withUnsafeBufferPointer { ISO8601.parse(bytes: $0)?.timeIntervalSince1970 }
            #expect(p?.bitPattern == g?.bitPattern)
        }
        // Both kinds occur often enough for the comparison to mean something.
        #expect(taken > 3_000)
        #expect(rejectedByBoth > 20_000)
    }

    @Test("each digit position rejects every non-digit byte, and each separator every other byte")
    func everyPositionEveryByte() {
        for seed in ["2024-05-13T06:20:00+09:00", "2024-05-13T06:20:00-09:30", "2024-05-13T06:20:00Z"] {
            let good = Array(seed.utf8)
            #expect(Self.fixed(good) != nil)
            for i in good.indices {
                for byte in UInt8.min...UInt8.max where byte != good[i] {
                    var b = good
                    b[i] = byte
                    let f = Self.fixed(b), g = Self.general(b)
                    if let f { #expect(f.bitPattern == g?.bitPattern, "\(i) \(byte)") }
                    // A non-digit in a digit's place or a wrong separator: never taken.
                    let isDigit = (48...57).contains(good[i])
                    if !isDigit || !(48...57).contains(byte) {
                        #expect(f == nil || (i == 19 && (byte == 43 || byte == 45) && good[i] != 90), "\(seed) \(i) \(byte)")
                    }
                }
            }
        }
    }
}
