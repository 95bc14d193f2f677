import Foundation
import GeoFareCore
import Testing

/// ``LocalClock/secondOfDay(_:)`` takes its floor from a truncation (an instruction,
/// not a libm call); it must give what `x − ⌊x / 86,400⌋ · 86,400` gives for every input.
struct LocalClockTests {
    static func reference(_ x: Double) -> Double { x - (x / 86_400).rounded(.down) * 86_400 }

    @Test("secondOfDay equals the floor formula: day edges, negatives, fractions, huge and non-finite values")
    func secondOfDayMatchesFloor() {
        var values: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 86_399.999, 86_400, -86_400, 86_400.0001, -86_400.0001,
                                1.7e9, -1.7e9, 4e18, -4e18, 8.5e23, -8.5e23, .infinity, -.infinity, .nan,
                                .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 86_400 * 9e18, -86_400 * 9e18]
        var rng = SeededGenerator(seed: 86_400)
        for _ in 0..<20_000 {
            let day = Double(Int.random(in: -40_000...60_000, using: &rng)) * 86_400
            values.append(day + Double.random(in: -2...2, using: &rng))
            values.append(Double.random(in: -1e12...1e12, using: &rng))
            values.append(day)
        }
        for x in values {
            let got = LocalClock.secondOfDay(x), want = Self.reference(x)
            #expect(got.bitPattern == want.bitPattern || (got.isNaN && want.isNaN), "\(x): \(got) vs \(want)")
        }
    }
}
