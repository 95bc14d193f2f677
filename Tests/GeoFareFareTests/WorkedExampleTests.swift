import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare

/// The worked examples of GeoFare's fare rules (Seoul regular), reproduced to the won.
struct WorkedExampleTests {
    struct Example: NamedCase {
        let name: String
        let meters: Double, seconds: Double, cruiseKmh: Double
        let time: String, total: Int64
    }

    static let examples: [Example] = [
        // 5 km: 12 min at 25 km/h + 180 s stopped: F = 5,786 m, N = 32.
        Example(name: "5 km by day", meters: 5_000, seconds: 900, cruiseKmh: 25, time: "2024-05-15T14:00:00+09:00", total: 8_000),
        Example(name: "5 km boarding 22:30 (+20 %)", meters: 5_000, seconds: 900, cruiseKmh: 25, time: "2024-05-15T22:30:00+09:00", total: 9_600),
        Example(name: "5 km boarding 23:30 (+40 %)", meters: 5_000, seconds: 900, cruiseKmh: 25, time: "2024-05-15T23:30:00+09:00", total: 11_200),
        // 20 km: 40 min at 30 km/h + 600 s stopped: F = 22,620 m, N = 161.
        Example(name: "20 km by day with stops", meters: 20_000, seconds: 3_000, cruiseKmh: 30, time: "2024-05-15T14:00:00+09:00", total: 20_900),
        Example(name: "20 km by day, no stops", meters: 20_000, seconds: 2_400, cruiseKmh: 30, time: "2024-05-15T14:00:00+09:00", total: 18_900),
        // Free flow: 1,600 m reaches the base distance (first unit), 1,731 m the second.
        Example(name: "1,600 m free flow", meters: 1_600, seconds: 120, cruiseKmh: 48, time: "2024-05-15T14:00:00+09:00", total: 4_900),
        Example(name: "1,731 m free flow", meters: 1_731, seconds: 130, cruiseKmh: 48, time: "2024-05-15T14:00:00+09:00", total: 5_000),
        Example(name: "1,599 m free flow", meters: 1_599, seconds: 120, cruiseKmh: 48, time: "2024-05-15T14:00:00+09:00", total: 4_800),
        // Press check Jongno→Sinsa ≈ 7 km with ~610 s of slow time: 11,000 (2023), 9,600 (old tariff).
        Example(name: "Jongno→Sinsa 2023", meters: 7_000, seconds: 7_000 / (25 / 3.6) + 610, cruiseKmh: 25, time: "2024-05-15T14:00:00+09:00", total: 11_000),
        Example(name: "Jongno→Sinsa 2019 tariff", meters: 7_000, seconds: 7_000 / (25 / 3.6) + 610, cruiseKmh: 25, time: "2021-05-12T14:00:00+09:00", total: 9_600),
    ]

    @Test("Worked example", arguments: examples)
    func workedExample(_ e: Example) throws {
        let q = try quote("kr-seoul/regular", meters: e.meters, seconds: e.seconds, at: e.time, cruiseKmh: e.cruiseKmh)
        #expect(q.total == e.total, "\(e.name): \(q.total) (meter \(q.meter), units \(q.breakdown.units))")
        #expect(q.currency == "KRW")
    }

    @Test("The counter and unit counts of the 5 km and 20 km examples")
    func counters() throws {
        let five = try quote("kr-seoul/regular", meters: 5_000, seconds: 900, at: "2024-05-15T14:00:00+09:00", cruiseKmh: 25)
        #expect(abs(five.breakdown.counterMeters - 5_786) < 0.5)
        #expect(five.breakdown.units == 32)
        let twenty = try quote("kr-seoul/regular", meters: 20_000, seconds: 3_000, at: "2024-05-15T14:00:00+09:00", cruiseKmh: 30)
        #expect(abs(twenty.breakdown.counterMeters - 22_620) < 0.5)
        #expect(twenty.breakdown.units == 161)
        #expect(twenty.breakdown.distanceUnits == 141)
        #expect(twenty.breakdown.timeUnits == 20)
        #expect(twenty.tariffVersion == "2023-02-01T04:00:00+09:00")
    }

    @Test("Night base fares: 5,760 at +20 %, 6,720 at +40 %")
    func nightBase() throws {
        let a = try quote("kr-seoul/regular", meters: 1_000, seconds: 100, at: "2024-05-15T22:30:00+09:00")
        #expect(a.breakdown.base + a.breakdown.baseSurcharge == 5_760)
        let b = try quote("kr-seoul/regular", meters: 1_000, seconds: 100, at: "2024-05-16T00:30:00+09:00")
        #expect(b.breakdown.base + b.breakdown.baseSurcharge == 6_720)
        // The 2019 night base was rounded to 100 won: 3,800 × 1.2 = 4,560 → 4,600.
        let c = try quote("kr-seoul/regular", meters: 1_000, seconds: 100, at: "2020-03-03T01:00:00+09:00")
        #expect(c.breakdown.base + c.breakdown.baseSurcharge == 4_600)
    }

    @Test("Crawling: 3 km at 10 km/h costs 9,500, at a steady 16 km/h 5,900 (uniform-speed segments)")
    func crawling() throws {
        let slow = try quote("kr-seoul/regular", segments: [(3_000, 1_080, nil, false)], at: "2024-05-15T14:00:00+09:00")
        #expect(slow.total == 9_500)
        let steady = try quote("kr-seoul/regular", segments: [(3_000, 675, nil, false)], at: "2024-05-15T14:00:00+09:00")
        #expect(steady.total == 5_900)
    }

    @Test("Standing still from the start, the first unit comes after 366.4 s")
    func standing() throws {
        let before = try quote("kr-seoul/regular", segments: [(0, 366, 366, false)], at: "2024-05-15T14:00:00+09:00")
        #expect(before.breakdown.units == 0)
        let after = try quote("kr-seoul/regular", segments: [(0, 366.5, 366.5, false)], at: "2024-05-15T14:00:00+09:00")
        #expect(after.breakdown.units == 1)
        #expect(after.breakdown.timeUnits == 1)
    }

    @Test("A night tier that starts mid-trip prices only the later units at +20 %")
    func nightMidTrip() throws {
        // 20 km in 3,000 s with 600 s slow, boarding 21:50: a uniform counter rate of 7.54 m/s
        // reaches 4,524 m at 22:00: 23 units by day, the other 138 of 161 at 120 won.
        let q = try quote("kr-seoul/regular", meters: 20_000, seconds: 3_000, at: "2024-05-15T21:50:00+09:00", cruiseKmh: 30)
        #expect(q.breakdown.units == 161)
        #expect(q.breakdown.baseSurcharge == 0)
        #expect(q.breakdown.unitSurcharges == 138 * 20)
        #expect(q.meter == 4_800 + 23 * 100 + 138 * 120)
        #expect(q.total == 23_700)
        // Re-pricing the whole trip at the tier in force at the end would give 4,800 + 161 × 120.
        #expect(q.total != 24_100)
    }

    @Test("A 40 % tier starting mid-trip at 23:00 after a 20 % hour")
    func fortyPercentMidTrip() throws {
        // Two segments of 5 km, 10 minutes each, free flow, boarding 22:50: the first at +20 %,
        // the second (from 23:00) at +40 %; the base at +20 %.
        let q = try quote("kr-seoul/regular", segments: [(5_000, 600, 0, false), (5_000, 600, 0, false)], at: "2024-05-15T22:50:00+09:00")
        // Units: N(5,000) = 26 at 120, N(10,000) − 26 = 65 − 26 = 39 at 140.
        #expect(q.breakdown.units == 65)
        #expect(q.meter == 5_760 + 26 * 120 + 39 * 140)
    }

    @Test("Leaving Seoul: units that tick outside the business zone cost 20 % more")
    func leavingSeoul() throws {
        let q = try quote("kr-seoul/regular", segments: [(10_000, 1_200, 0, false), (10_000, 1_200, 0, true)], at: "2024-05-15T14:00:00+09:00")
        #expect(q.breakdown.units == 141)
        #expect(q.meter == 4_800 + 65 * 100 + 76 * 120)
        #expect(q.total == 20_400)
        // Outside at night the rates add: 40 % + 20 % = 60 % → 160 won a unit.
        let n = try quote("kr-seoul/regular", segments: [(1_600, 200, 0, true), (131, 20, 0, true)], at: "2024-05-16T00:30:00+09:00")
        #expect(n.breakdown.units == 2)
        #expect(n.meter == 4_800 * 160 / 100 + 2 * 160)
    }

    @Test("Payment rounding is half-up to 100 won")
    func rounding() {
        #expect(Meter.roundHalfUp(4_040, divisor: 1, step: 100) == 4_000)
        #expect(Meter.roundHalfUp(4_050, divisor: 1, step: 100) == 4_100)
        #expect(Meter.roundHalfUp(100 * 140, divisor: 100, step: 10) == 140)
    }
}
