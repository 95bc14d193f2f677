import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare

struct FarePropertyTests {
    static let tariffs = ["kr-seoul/regular"]

    @Test("A longer trip never costs less; low ≤ estimate ≤ high; shares sum to the total", arguments: tariffs)
    func properties(tariff: String) throws {
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<1_500 {
            let meters = Double.random(in: 0...40_000, using: &rng)
            let speed = Double.random(in: 2...20, using: &rng)
            let seconds = meters / speed + Double.random(in: 0...900, using: &rng)
            let hour = Int.random(in: 0...23, using: &rng)
            let time = "2024-05-15T\(hour < 10 ? "0" : "")\(hour):\(Int.random(in: 10...59, using: &rng)):00+09:00"
            let party = Int.random(in: 1...8, using: &rng)
            let q = try quote(tariff, meters: meters, seconds: seconds, at: time, party: party)
            let extra = Double.random(in: 0...3_000, using: &rng)
            let longer = try quote(tariff, meters: meters + extra, seconds: seconds + extra / speed, at: time)
            #expect(longer.total >= q.total, "\(meters)+\(extra) m at \(time)")
            #expect(q.low <= q.total && q.total <= q.high)
            #expect(q.perPerson.reduce(0, +) == q.total)
            #expect(q.perPerson.count == party)
            #expect(q.meter + q.surcharges + q.tolls + q.callFee + q.breakdown.rounding == q.total)
            #expect(q.breakdown.base + q.breakdown.baseSurcharge + q.breakdown.unitsAmount + q.breakdown.unitSurcharges == q.meter)
        }
    }

    @Test("Low and high bound the counter: max(D, v*·T) ≤ F ≤ D + v*·T")
    func bounds() throws {
        let q = try quote("kr-seoul/regular", meters: 5_000, seconds: 900, at: "2024-05-15T14:00:00+09:00", cruiseKmh: 25)
        // Low: F = max(5,000, 4.3667 × 900 = 3,930) = 5,000 → N = 26 → 7,400; high: F = 8,930 → N = 56 → 10,400.
        #expect(q.low == 7_400)
        #expect(q.high == 10_400)
    }
}
