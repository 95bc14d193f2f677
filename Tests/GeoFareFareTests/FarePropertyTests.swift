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

/// The one-pass meter used by quotes equals three separate runs.
struct MeterScenarioTests {
    @Test("runScenarios gives exactly the three run(scenario:) readings: night windows, DST, zones, both modes",
          arguments: ["kr-seoul/regular", "kr-seoul/deluxe", "us-nyc/yellow", "kr-daegu/regular"])
    func oneRunEqualsThree(tariff: String) throws {
        var rng = SeededGenerator(seed: 99)
        let starts = ["2024-03-10T01:30:00-05:00", "2024-11-03T00:50:00-04:00", "2024-05-13T21:45:00+09:00",
                      "2024-05-13T03:55:00+09:00", "2023-02-01T03:30:00+09:00", "2024-05-14T12:00:00+09:00"]
        for k in 0..<2_000 {
            let start = at(starts[k % starts.count])
            let meter = try sharedCatalog.meter(tariff: tariff, at: start)
            var t = start
            var segments: [TripSegment] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let seconds = Double.random(in: 0...7_200, using: &rng).rounded()
                let meters = Double.random(in: 0...40_000, using: &rng).rounded()
                let slow: Double? = Bool.random(using: &rng) ? nil : Double.random(in: 0...seconds, using: &rng)
                segments.append(TripSegment(distanceMeters: meters, durationSeconds: seconds, slowSeconds: slow, start: t, outsideZone: Bool.random(using: &rng)))
                t = t.addingTimeInterval(seconds)
            }
            let all = segments.withUnsafeBufferPointer { meter.runScenarios(buffer: $0) }
            #expect(all.estimate == meter.run(segments, scenario: .estimate))
            #expect(all.low == meter.run(segments, scenario: .low))
            #expect(all.high == meter.run(segments, scenario: .high))
        }
    }

    @Test("Figures and quotes agree; equal shares by index equal the split array")
    func figuresAgree() throws {
        var rng = SeededGenerator(seed: 3)
        for k in 0..<3_000 {
            var r = FareRequest(trip: .totals(distanceMeters: Double.random(in: 0...60_000, using: &rng).rounded(),
                                              durationSeconds: Double.random(in: 0...7_200, using: &rng).rounded()),
                                departure: at("2024-05-1\(k % 7 + 3)T\(10 + k % 14):05:00+09:00"),
                                tariff: ["kr-seoul/regular", "us-nyc/yellow", "kr-busan/regular"][k % 3])
            r.partySize = k % 6 + 1
            r.tolls = k % 5 == 0 ? Int64(k % 3_000) : 0
            let q = try sharedPricer.quote(r).quote
            let f = try sharedPricer.figures(r).figures
            #expect(f.total == q.total && f.low == q.low && f.high == q.high && f.reading.amount == q.meter && f.surcharges == q.surcharges)
            #expect((0..<r.partySize).map { f.equalShare($0, riders: r.partySize) } == q.perPerson)
            let plain = FareSplit.EqualShares(total: q.total, riders: r.partySize, unit: f.splitUnit)
            #expect((0..<r.partySize).map { plain[$0] } == (try FareSplit.equal(total: q.total, riders: r.partySize, unit: f.splitUnit)))
        }
    }
}
