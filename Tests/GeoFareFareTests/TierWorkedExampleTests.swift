import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare

/// Worked examples, to the won, for every tariff with a distance tier (복합할증 or long-distance
/// surcharge), through the public pricer: base, over base, past the tier, night and out of city.
/// Each amount is computed by hand in the comment above its case (the same arithmetic is in
/// `docs/tariffs.md`, "Distance tiers"); units are charged when they start, unit k ticking at
/// counter F = base distance + (k − 1) × unit distance, and a unit that ticks at or beyond the
/// tier's start carries the tier's rate, added to night and out-of-zone rates. Segments move at
/// 8–15 m/s (above every changeover speed) with the given standing seconds, so F = distance +
/// standing × unit distance ÷ unit time.
struct TierWorkedExampleTests {
    struct Case: NamedCase {
        let name: String, tariff: String, version: String, at: String
        let segments: [Segment]
        let units: Int64, total: Int64
    }
    struct Segment: Sendable { let meters: Double; let seconds: Double; let slow: Double; let outside: Bool }
    static func s(_ m: Double, _ t: Double, slow: Double = 0, outside: Bool = false) -> Segment { .init(meters: m, seconds: t, slow: slow, outside: outside) }

    static let gunsan23 = "2023-08-01T00:00:00+09:00", gunsan19 = "2019-05"
    static let jeju23 = "2023-11-20T00:00:00+09:00", jeju19 = "2019-07-15T00:00:00+09:00"
    static let yeosu23 = "2023-11-01T00:00:00+09:00", yeosu19 = "2019-04-20T00:00:00+09:00"
    static let day23 = "2026-11-18T14:00:00+09:00", night23 = "2026-11-19T00:30:00+09:00"
    static let day19 = "2021-05-12T14:00:00+09:00", night19 = "2021-05-13T00:30:00+09:00"

    static let cases: [Case] = [
        // Gunsan 2023: 4,300 KRW / 2,000 m, 100 KRW per 134 m or 32 s; 복합할증 +40 % from 5,026 m of
        // the counter: the first unit past it is unit 24 (ticks at 2,000 + 23 × 134 = 5,082 m).
        // Base: 1,500 m → 4,300.
        Case(name: "Gunsan 2023 base", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan23, at: day23, segments: [s(1_500, 180)], units: 0, total: 4_300),
        // Over base: 4,000 m, N = ⌊2,000 / 134⌋ + 1 = 15 → 4,300 + 1,500 = 5,800.
        Case(name: "Gunsan 2023 over base", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan23, at: day23, segments: [s(4_000, 480)], units: 15, total: 5_800),
        // Past the tier: 10,000 m, N = ⌊8,000 / 134⌋ + 1 = 60; units 1–23 at 100, 24–60 (37) at 140:
        // 4,300 + 2,300 + 5,180 = 11,780 → 11,800 (10,300 without the tier).
        Case(name: "Gunsan 2023 past the tier", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan23, at: day23, segments: [s(10_000, 900)], units: 60, total: 11_800),
        // Past the tier by slow time: 4,800 m with 320 s standing, F = 4,800 + 320 × 134/32 = 6,140 m,
        // N = ⌊4,140 / 134⌋ + 1 = 31; units 24–31 (8) at 140: 4,300 + 2,300 + 1,120 = 7,720 → 7,700.
        Case(name: "Gunsan 2023 past the tier by slow time", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan23, at: day23, segments: [s(4_800, 900, slow: 320)], units: 31, total: 7_700),
        // Night (00:30, +20 %): base 4,300 × 1.2 = 5,160; units 1–23 at 120, 24–60 at 100 × 1.6 = 160:
        // 5,160 + 2,760 + 5,920 = 13,840 → 13,800.
        Case(name: "Gunsan 2023 night", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan23, at: night23, segments: [s(10_000, 900)], units: 60, total: 13_800),
        // Out of city (+20 %): 3,000 m inside (units 1–8, N = ⌊1,000 / 134⌋ + 1) then 7,000 m outside:
        // units 9–23 (15) at 120, 24–60 (37) at 100 × 1.6 = 160: 4,300 + 800 + 1,800 + 5,920 = 12,820 → 12,800.
        Case(name: "Gunsan 2023 out of city", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan23, at: day23, segments: [s(3_000, 270), s(7_000, 630, outside: true)], units: 60, total: 12_800),

        // Gunsan 2019 (from 2019-06-01): 3,300 / 2,000 m, 100 per 137 m or 33 s; the first unit past
        // 5,026 m is unit 24 (2,000 + 23 × 137 = 5,151 m; unit 23 ticks at 5,014 m).
        Case(name: "Gunsan 2019 base", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan19, at: day19, segments: [s(1_500, 180)], units: 0, total: 3_300),
        // Over base: 4,000 m, N = ⌊2,000 / 137⌋ + 1 = 15 → 3,300 + 1,500 = 4,800.
        Case(name: "Gunsan 2019 over base", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan19, at: day19, segments: [s(4_000, 480)], units: 15, total: 4_800),
        // Past the tier: 10,000 m, N = ⌊8,000 / 137⌋ + 1 = 59; units 24–59 (36) at 140:
        // 3,300 + 2,300 + 5,040 = 10,640 → 10,600.
        Case(name: "Gunsan 2019 past the tier", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan19, at: day19, segments: [s(10_000, 900)], units: 59, total: 10_600),
        // Night: base 3,960; 23 × 120 + 36 × 160 = 2,760 + 5,760: 12,480 → 12,500.
        Case(name: "Gunsan 2019 night", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan19, at: night19, segments: [s(10_000, 900)], units: 59, total: 12_500),
        // Out of city: 3,000 m inside (8 units), then units 9–23 (15) at 120 and 24–59 (36) at 160:
        // 3,300 + 800 + 1,800 + 5,760 = 11,660 → 11,700.
        Case(name: "Gunsan 2019 out of city", tariff: "kr-jeonbuk/regular-gunsan", version: gunsan19, at: day19, segments: [s(3_000, 270), s(7_000, 630, outside: true)], units: 59, total: 11_700),

        // Iksan 2023: Jeonbuk's 4,300 / 2,000 m, 100 per 134 m or 32 s; 복합할증 +40 % from 6,020 m of the
        // counter: unit 31 ticks exactly there (2,000 + 30 × 134), after the meter shows 7,300.
        Case(name: "Iksan 2023 base", tariff: "kr-jeonbuk/regular-iksan", version: gunsan23, at: day23, segments: [s(1_500, 180)], units: 0, total: 4_300),
        // Over base: 4,000 m, 15 units → 5,800.
        Case(name: "Iksan 2023 over base", tariff: "kr-jeonbuk/regular-iksan", version: gunsan23, at: day23, segments: [s(4_000, 480)], units: 15, total: 5_800),
        // Past the tier: 10,000 m, 60 units; 1–30 at 100, 31–60 (30) at 140: 4,300 + 3,000 + 4,200 = 11,500.
        Case(name: "Iksan 2023 past the tier", tariff: "kr-jeonbuk/regular-iksan", version: gunsan23, at: day23, segments: [s(10_000, 900)], units: 60, total: 11_500),
        // Night: 5,160 + 30 × 120 + 30 × 160 = 13,560 → 13,600.
        Case(name: "Iksan 2023 night", tariff: "kr-jeonbuk/regular-iksan", version: gunsan23, at: night23, segments: [s(10_000, 900)], units: 60, total: 13_600),
        // Iksan 2019: 3,300 / 2,000 m, 137 m / 33 s; 복합할증 +40 % from 5,288 m (= 2,000 + 24 × 137: unit 25).
        // 5,287 m: 24 units, the meter shows 5,700 (the notice's "5,700원부터 140원").
        Case(name: "Iksan 2019 just before the tier", tariff: "kr-jeonbuk/regular-iksan", version: gunsan19, at: day19, segments: [s(5_287, 500)], units: 24, total: 5_700),
        // 5,288 m: unit 25 at 140: 5,840 → 5,800.
        Case(name: "Iksan 2019 at the tier", tariff: "kr-jeonbuk/regular-iksan", version: gunsan19, at: day19, segments: [s(5_288, 500)], units: 25, total: 5_800),
        // Over base: 4,000 m, 15 units → 4,800.
        Case(name: "Iksan 2019 over base", tariff: "kr-jeonbuk/regular-iksan", version: gunsan19, at: day19, segments: [s(4_000, 480)], units: 15, total: 4_800),
        // Past the tier: 10,000 m, 59 units; 1–24 at 100, 25–59 (35) at 140: 3,300 + 2,400 + 4,900 = 10,600.
        Case(name: "Iksan 2019 past the tier", tariff: "kr-jeonbuk/regular-iksan", version: gunsan19, at: day19, segments: [s(10_000, 900)], units: 59, total: 10_600),
        // Night: 3,960 + 24 × 120 + 35 × 160 = 12,440 → 12,400.
        Case(name: "Iksan 2019 night", tariff: "kr-jeonbuk/regular-iksan", version: gunsan19, at: night19, segments: [s(10_000, 900)], units: 59, total: 12_400),

        // Yeosu 2023: 4,300 / 2,000 m, 100 per 130 m or 30 s; 140 KRW (+40 %) from 9 km of the counter:
        // unit 55 is the first (2,000 + 54 × 130 = 9,020 m); 시계외 +35 %, night + 시계외 capped at 40 %.
        Case(name: "Yeosu 2023 base", tariff: "kr-jeonnam/regular-yeosu", version: yeosu23, at: day23, segments: [s(1_500, 180)], units: 0, total: 4_300),
        // Over base: 6,000 m, N = ⌊4,000 / 130⌋ + 1 = 31 → 4,300 + 3,100 = 7,400.
        Case(name: "Yeosu 2023 over base", tariff: "kr-jeonnam/regular-yeosu", version: yeosu23, at: day23, segments: [s(6_000, 600)], units: 31, total: 7_400),
        // Past the tier: 15,050 m, N = ⌊13,050 / 130⌋ + 1 = 101; 1–54 at 100, 55–101 (47) at 140:
        // 4,300 + 5,400 + 6,580 = 16,280 → 16,300.
        Case(name: "Yeosu 2023 past the tier", tariff: "kr-jeonnam/regular-yeosu", version: yeosu23, at: day23, segments: [s(15_050, 1_200)], units: 101, total: 16_300),
        // Night: 5,160 + 54 × 120 + 47 × 160 = 5,160 + 6,480 + 7,520 = 19,160 → 19,200.
        Case(name: "Yeosu 2023 night", tariff: "kr-jeonnam/regular-yeosu", version: yeosu23, at: night23, segments: [s(15_050, 1_200)], units: 101, total: 19_200),
        // Out of city: 5,000 m inside (N = ⌊3,000 / 130⌋ + 1 = 24 at 100), 10,050 m outside: units 25–54
        // (30) at 135 → 140, 55–101 (47) at 100 × 1.75 = 175 → 180: 4,300 + 2,400 + 4,200 + 8,460 = 19,360 → 19,400.
        Case(name: "Yeosu 2023 out of city", tariff: "kr-jeonnam/regular-yeosu", version: yeosu23, at: day23, segments: [s(5_000, 400), s(10_050, 800, outside: true)], units: 101, total: 19_400),
        // The same at 00:30: night + outside 55 % capped at 40 %: base 5,160, 24 × 120, then 30 × 140 and
        // 47 × (40 + 40 % → 180): 5,160 + 2,880 + 4,200 + 8,460 = 20,700.
        Case(name: "Yeosu 2023 night out of city", tariff: "kr-jeonnam/regular-yeosu", version: yeosu23, at: night23, segments: [s(5_000, 400), s(10_050, 800, outside: true)], units: 101, total: 20_700),
        // Yeosu 2019: 3,300 / 2,000 m, 134 m / 32 s; the first unit from 9 km is unit 54 (9,102 m).
        // Over base: 6,000 m, N = ⌊4,000 / 134⌋ + 1 = 30 → 6,300.
        Case(name: "Yeosu 2019 over base", tariff: "kr-jeonnam/regular-yeosu", version: yeosu19, at: day19, segments: [s(6_000, 600)], units: 30, total: 6_300),
        // Past the tier: 15,050 m, N = ⌊13,050 / 134⌋ + 1 = 98; 1–53 at 100, 54–98 (45) at 140: 3,300 + 5,300 + 6,300 = 14,900.
        Case(name: "Yeosu 2019 past the tier", tariff: "kr-jeonnam/regular-yeosu", version: yeosu19, at: day19, segments: [s(15_050, 1_200)], units: 98, total: 14_900),
        // Night: 3,960 + 53 × 120 + 45 × 160 = 17,520 → 17,500.
        Case(name: "Yeosu 2019 night", tariff: "kr-jeonnam/regular-yeosu", version: yeosu19, at: night19, segments: [s(15_050, 1_200)], units: 98, total: 17_500),
        // Out of city: 5,000 m inside (N = ⌊3,000 / 134⌋ + 1 = 23), then units 24–53 (30) at 140 and 54–98 (45) at 180:
        // 3,300 + 2,300 + 4,200 + 8,100 = 17,900.
        Case(name: "Yeosu 2019 out of city", tariff: "kr-jeonnam/regular-yeosu", version: yeosu19, at: day19, segments: [s(5_000, 400), s(10_050, 800, outside: true)], units: 98, total: 17_900),

        // Jeju 2023: 4,100 / 2,000 m, 100 per 126 m or 31 s; long-distance +20 % from 20,000 m of the
        // counter: the first unit past it is unit 144 (2,000 + 143 × 126 = 20,018 m).
        Case(name: "Jeju 2023 base", tariff: "kr-jeju/regular", version: jeju23, at: day23, segments: [s(1_500, 180)], units: 0, total: 4_100),
        // Over base: 10,000 m, N = ⌊8,000 / 126⌋ + 1 = 64 → 4,100 + 6,400 = 10,500.
        Case(name: "Jeju 2023 over base", tariff: "kr-jeju/regular", version: jeju23, at: day23, segments: [s(10_000, 900)], units: 64, total: 10_500),
        // Past the tier: 30,000 m, N = ⌊28,000 / 126⌋ + 1 = 223; units 1–143 at 100, 144–223 (80) at 120:
        // 4,100 + 14,300 + 9,600 = 28,000.
        Case(name: "Jeju 2023 past the tier", tariff: "kr-jeju/regular", version: jeju23, at: day23, segments: [s(30_000, 2_100)], units: 223, total: 28_000),
        // Night (00:30, +20 %): base 4,920; 143 × 120 + 80 × 140 = 17,160 + 11,200: 33,280 → 33,300.
        Case(name: "Jeju 2023 night", tariff: "kr-jeju/regular", version: jeju23, at: night23, segments: [s(30_000, 2_100)], units: 223, total: 33_300),

        // Jeju 2019: 3,300 / 2,000 m, 100 per 126 m or 30 s; +20 % from 20,000 m as in 2023.
        Case(name: "Jeju 2019 base", tariff: "kr-jeju/regular", version: jeju19, at: day19, segments: [s(1_500, 180)], units: 0, total: 3_300),
        // Over base: 10,000 m, 64 units → 3,300 + 6,400 = 9,700.
        Case(name: "Jeju 2019 over base", tariff: "kr-jeju/regular", version: jeju19, at: day19, segments: [s(10_000, 900)], units: 64, total: 9_700),
        // Past the tier: 30,000 m, 223 units: 3,300 + 14,300 + 80 × 120 = 27,200.
        Case(name: "Jeju 2019 past the tier", tariff: "kr-jeju/regular", version: jeju19, at: day19, segments: [s(30_000, 2_100)], units: 223, total: 27_200),
        // Night: base 3,960; 143 × 120 + 80 × 140: 3,960 + 17,160 + 11,200 = 32,320 → 32,300.
        Case(name: "Jeju 2019 night", tariff: "kr-jeju/regular", version: jeju19, at: night19, segments: [s(30_000, 2_100)], units: 223, total: 32_300),
    ]

    static func request(_ c: Case, strict: Bool = true) -> FareRequest {
        var start = at(c.at)
        var list: [TripSegment] = []
        for x in c.segments {
            list.append(TripSegment(distanceMeters: x.meters, durationSeconds: x.seconds, slowSeconds: x.slow, start: start, outsideZone: x.outside))
            start = start.addingTimeInterval(x.seconds)
        }
        var r = FareRequest(trip: .segments(list), departure: at(c.at), tariff: c.tariff)
        r.strict = strict
        return r
    }

    @Test("Worked examples to the won through the public pricer", arguments: cases)
    func workedExample(_ c: Case) throws {
        let q = try sharedPricer.quote(Self.request(c)).quote
        #expect(q.tariffVersion == c.version, "\(c.name): priced with \(q.tariffVersion)")
        #expect(q.breakdown.units == c.units, "\(c.name): \(q.breakdown.units) units")
        #expect(q.total == c.total, "\(c.name): \(q.total) (meter \(q.meter))")
        #expect(q.tariffBasis == .sourced)
    }

    @Test("Jeju out of its zone: no source gives a 시계외 rate, so assumed at 0 % (the tier still applies), and strict refuses")
    func jejuOutOfZone() throws {
        // 25,000 m inside then 5,000 m outside: the same counter as "Jeju 2023 past the tier", the
        // outside units at 0 % → 28,000 KRW, assumed.
        let c = Case(name: "Jeju 2023 out of zone", tariff: "kr-jeju/regular", version: Self.jeju23, at: Self.day23,
                     segments: [Self.s(25_000, 1_750), Self.s(5_000, 350, outside: true)], units: 223, total: 28_000)
        let q = try sharedPricer.quote(Self.request(c, strict: false)).quote
        #expect(q.total == 28_000)
        #expect(q.tariffBasis == .assumed)
        #expect(q.high > q.total)
        let error = try #require(throws: GeoFareError.self) { try sharedPricer.quote(Self.request(c)) }
        #expect(error.code == .unknownOutOfZoneRate)
    }

    @Test("Iksan out of Jeonbuk: no source gives the 시계외 rate, so assumed at 0 % with the tier; strict refuses")
    func iksanOutOfZone() throws {
        // 3,000 m inside, 7,000 m outside: the counter of "Iksan 2023 past the tier", outside at 0 % → 11,500.
        let c = Case(name: "Iksan 2023 out of zone", tariff: "kr-jeonbuk/regular-iksan", version: Self.gunsan23, at: Self.day23,
                     segments: [Self.s(3_000, 270), Self.s(7_000, 630, outside: true)], units: 60, total: 11_500)
        let q = try sharedPricer.quote(Self.request(c, strict: false)).quote
        #expect(q.total == 11_500 && q.tariffBasis == .assumed && q.high > q.total)
        let error = try #require(throws: GeoFareError.self) { try sharedPricer.quote(Self.request(c)) }
        #expect(error.code == .unknownOutOfZoneRate)
    }

    @Test("The version before Jeju's tier (in force on 2018-01-01) has none: 30 km is 195 units at 100")
    func jejuBeforeTier() throws {
        // 2,800 / 2,000 m, 100 per 144 m or 35 s: 30,000 m, N = ⌊28,000 / 144⌋ + 1 = 195 → 2,800 + 19,500 = 22,300.
        let c = Case(name: "Jeju 2018", tariff: "kr-jeju/regular", version: "in force on 2018-01-01", at: "2018-03-14T14:00:00+09:00",
                     segments: [Self.s(30_000, 2_100)], units: 195, total: 22_300)
        let q = try sharedPricer.quote(Self.request(c)).quote
        #expect(q.breakdown.units == 195 && q.total == 22_300 && q.breakdown.unitSurcharges == 0)
    }
}
