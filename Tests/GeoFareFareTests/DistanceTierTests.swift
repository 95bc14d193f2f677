import Foundation
import Testing
import GeoFareCore
import GeoFareTestSupport
@testable import GeoFareFare

/// `distance_tiers` (복합할증 beyond a distance): the file format, its errors, and how the meter
/// prices units past a tier's start. Expected amounts are computed by hand (comments) or by a
/// unit-by-unit reference written here, never by the engine.
struct DistanceTierTests {
    /// A test tariff: 4,300 KRW / 2,000 m, 100 KRW per 134 m or 32 s, night 00–04 +20 %,
    /// out of zone +20 % (capped with night at `cap`), and the given tiers.
    static func tariff(tiers: String, cap: String = "null", chargeUnit: String = "on_start") -> String {
        """
        {"id": "xx-tier/regular", "name": "Tier test", "currency": "KRW", "time_zone": "Asia/Seoul", "region": null,
         "business_zone": null, "default_cruise_kmh": 25,
         "versions": [{"effective_from": "2023-01-01T00:00:00+09:00", "sources": ["test"], "base_fare": 4300,
           "base_distance_m": 2000, "unit_price": 100, "unit_distance_m": 134, "unit_time_s": 32, "mode": "concurrent",
           "charge_unit": "\(chargeUnit)", "night": [{"from": "00:00", "to": "04:00", "rate_percent": 20}],
           "out_of_zone_rate_percent": 20, "max_combined_rate_percent": \(cap), "surcharged_base_step": 10,
           "surcharged_unit_step": 10, "flat_surcharges": [], \(tiers) "rounding": {"step": 100, "mode": "half_up"}}]}
        """
    }

    static func meter(_ text: String) throws -> Meter {
        let t = try TariffFile.load(Data(text.utf8), origin: "tier.json")
        return Meter(tariff: t, version: t.versions[0], clock: LocalClock(timeZone: t.timeZone))
    }

    /// Segments laid end to end from `time`.
    static func segments(_ list: [(meters: Double, seconds: Double, slow: Double, outside: Bool)], from time: String) -> [TripSegment] {
        var start = at(time)
        return list.map { s in
            defer { start = start.addingTimeInterval(s.seconds) }
            return TripSegment(distanceMeters: s.meters, durationSeconds: s.seconds, slowSeconds: s.slow, start: start, outsideZone: s.outside)
        }
    }

    @Test("A file without distance_tiers loads with none; one with tiers keeps them in order")
    func loads() throws {
        let plain = try TariffFile.load(Data(Self.tariff(tiers: "").utf8), origin: "plain.json")
        #expect(plain.versions[0].distanceTiers.isEmpty)
        let tiered = try TariffFile.load(Data(Self.tariff(tiers: #""distance_tiers": [{"from_m": 5026, "rate_percent": 40}, {"from_m": 9000, "rate_percent": 100}],"#).utf8), origin: "t.json")
        #expect(tiered.versions[0].distanceTiers == [.init(fromMeters: 5026, ratePercent: 40), .init(fromMeters: 9000, ratePercent: 100)])
    }

    @Test("A bad tier is invalid_tariff naming the file and the JSON path", arguments: [
        (#""distance_tiers": [{"from_m": 1999, "rate_percent": 40}],"#, "versions[0].distance_tiers[0].from_m"),
        (#""distance_tiers": [{"from_m": 6000, "rate_percent": 40}, {"from_m": 6000, "rate_percent": 50}],"#, "versions[0].distance_tiers[1].from_m"),
        (#""distance_tiers": [{"from_m": 6000, "rate_percent": 40}, {"from_m": 5000, "rate_percent": 50}],"#, "versions[0].distance_tiers[1].from_m"),
        (#""distance_tiers": [{"from_m": 6000, "rate_percent": -10}],"#, "versions[0].distance_tiers[0].rate_percent"),
        (#""distance_tiers": [{"from_m": 6000, "rate_percent": 501}],"#, "versions[0].distance_tiers[0].rate_percent"),
        (#""distance_tiers": [{"from_m": "6 km", "rate_percent": 40}],"#, "versions[0].distance_tiers[0].from_m"),
        (#""distance_tiers": [{"rate_percent": 40}],"#, "versions[0].distance_tiers[0].from_m"),
        (#""distance_tiers": {"from_m": 6000, "rate_percent": 40},"#, "versions[0].distance_tiers"),
    ])
    func malformed(tiers: String, field: String) throws {
        let error = try #require(throws: GeoFareError.self) { try TariffFile.load(Data(Self.tariff(tiers: tiers).utf8), origin: "bad.json") }
        #expect(error.code == .invalidTariff)
        #expect(error.field == "bad.json: \(field)", "field was \(error.field ?? "nil")")
    }

    @Test("Units past the tier's start cost the tier's rate more; the unit that ticks exactly at it is the first")
    func threshold() throws {
        let m = try Self.meter(Self.tariff(tiers: #""distance_tiers": [{"from_m": 6020, "rate_percent": 40}],"#))
        // Unit k ticks at 2,000 + (k − 1) × 134 m: unit 30 at 5,886, unit 31 at 6,020 (the tier's start).
        // 6,019 m free flow: 30 units at 100 → 4,300 + 3,000 = 7,300.
        let below = m.run(Self.segments([(6_019, 600, 0, false)], from: "2024-05-15T14:00:00+09:00"))
        #expect(below.units == 30 && below.amount == 7_300)
        // 6,020 m: unit 31 ticks at the tier's start and costs 140 → 7,440 (Iksan: "7300원부터 140원").
        let at = m.run(Self.segments([(6_020, 600, 0, false)], from: "2024-05-15T14:00:00+09:00"))
        #expect(at.units == 31 && at.amount == 7_440)
        #expect(at.unitSurcharges == 40)
    }

    @Test("The tier's start is on the counter: slow time brings it nearer")
    func counterNotDistance() throws {
        let m = try Self.meter(Self.tariff(tiers: #""distance_tiers": [{"from_m": 5026, "rate_percent": 40}],"#))
        // 4,800 m with 320 s standing: F = 4,800 + 320 × 134/32 = 6,140 m; N = ⌊4,140 / 134⌋ + 1 = 31.
        // First tier unit: the first to tick at ≥ 5,026 m, unit 24 (5,082 m). 23 × 100 + 8 × 140 = 3,420;
        // 4,300 + 3,420 = 7,720. Had the tier counted distance alone (4,800 < 5,026): 7,400.
        let r = m.run(Self.segments([(4_800, 900, 320, false)], from: "2024-05-15T14:00:00+09:00"))
        #expect(r.units == 31)
        #expect(r.amount == 7_720)
    }

    @Test("A later tier replaces an earlier one; night and out-of-zone rates add; the cap leaves the tier alone")
    func combined() throws {
        let two = try Self.meter(Self.tariff(tiers: #""distance_tiers": [{"from_m": 4000, "rate_percent": 100}, {"from_m": 7000, "rate_percent": 50}],"#))
        // 10,000 m free flow, day: N = ⌊8,000 / 134⌋ + 1 = 60. Units 1–15 (ticks to 3,876 m) at 100,
        // units 16–38 (4,010 … 6,958 m) at 200, units 39–60 (7,092 m …) at 150:
        // 4,300 + 1,500 + 23 × 200 + 22 × 150 = 4,300 + 1,500 + 4,600 + 3,300 = 13,700.
        let day = two.run(Self.segments([(10_000, 900, 0, false)], from: "2024-05-15T14:00:00+09:00"))
        #expect(day.units == 60 && day.amount == 13_700)
        // Night 20 % + outside 20 % capped at 30 %, boarding 00:30 outside the zone: base
        // 4,300 × 1.3 = 5,590; units 1–15 at 130, 16–38 at 100 × (1 + 0.3 + 1.0) = 230, 39–60 at 180:
        // 5,590 + 1,950 + 5,290 + 3,960 = 16,790. (Capping the tier too would give 5,590 + 60 × 130.)
        let capped = try Self.meter(Self.tariff(tiers: #""distance_tiers": [{"from_m": 4000, "rate_percent": 100}, {"from_m": 7000, "rate_percent": 50}],"#, cap: "30"))
        let night = capped.run(Self.segments([(10_000, 900, 0, true)], from: "2024-05-16T00:30:00+09:00"))
        #expect(night.amount == 16_790)
    }

    @Test("A unit charged when it completes (on_complete) meets the tier at its own tick")
    func onComplete() throws {
        let m = try Self.meter(Self.tariff(tiers: #""distance_tiers": [{"from_m": 2268, "rate_percent": 50}],"#, chargeUnit: "on_complete"))
        // Unit k ticks at 2,000 + k × 134: unit 1 at 2,134 (before 2,268), unit 2 at 2,268 (the start).
        // 2,500 m: 3 units (2,134, 2,268, 2,402): 100 + 150 + 150 → 4,300 + 400 = 4,700.
        let r = m.run(Self.segments([(2_500, 300, 0, false)], from: "2024-05-15T14:00:00+09:00"))
        #expect(r.units == 3 && r.amount == 4_700)
    }

    /// The price of each unit from where it ticks, one unit at a time (the reference for the
    /// randomized test): trips of one segment inside one rate period, so the rate is fixed.
    static func reference(counterMeters f: Double, tiers: [(Double, Int)], rate: Int) -> Int64 {
        var amount: Int64 = 4_300 + Meter.roundHalfUp(4_300 * Int64(100 + rate), divisor: 100, step: 10) - 4_300
        var k = 1
        while true {
            let tick = 2_000 + Double(k - 1) * 134
            if tick > f + 1e-6 { break }
            let tier = tiers.last { tick >= $0.0 - 1e-6 }?.1 ?? 0
            amount += Meter.roundHalfUp(100 * Int64(100 + rate + tier), divisor: 100, step: 10)
            k += 1
        }
        return amount
    }

    @Test("Random trips: every unit priced by the tier where it ticks, as a unit-by-unit count gives")
    func randomAgainstReference() throws {
        var rng = SeededGenerator(seed: 19)
        let tiers: [(Double, Int)] = [(5_026, 40), (9_000, 100), (14_000, 50)]
        let m = try Self.meter(Self.tariff(tiers: #""distance_tiers": [{"from_m": 5026, "rate_percent": 40}, {"from_m": 9000, "rate_percent": 100}, {"from_m": 14000, "rate_percent": 50}],"#))
        for _ in 0..<500 {
            let d = Double.random(in: 100...20_000, using: &rng).rounded()
            let slow = Double.random(in: 0...600, using: &rng).rounded()
            let night = Bool.random(using: &rng)
            // Moving well above the changeover speed (4.19 m/s), so F = d + slow × 134/32 exactly.
            let seconds = slow + (d / 12).rounded(.up) + 1
            let r = m.run(Self.segments([(d, seconds, slow, false)], from: night ? "2024-05-16T00:10:00+09:00" : "2024-05-15T10:00:00+09:00"))
            #expect(seconds < 3 * 3600)
            let f = d + slow * 134 / 32
            #expect(r.amount == Self.reference(counterMeters: f, tiers: tiers, rate: night ? 20 : 0), "d \(d) slow \(slow) night \(night)")
        }
    }

    @Test("Tiers at 0 % price every trip as the same tariff without tiers")
    func zeroRateIsNoTier() throws {
        var rng = SeededGenerator(seed: 7)
        let plain = try Self.meter(Self.tariff(tiers: ""))
        let zero = try Self.meter(Self.tariff(tiers: #""distance_tiers": [{"from_m": 3000, "rate_percent": 0}, {"from_m": 8000, "rate_percent": 0}],"#))
        for _ in 0..<300 {
            var list: [(meters: Double, seconds: Double, slow: Double, outside: Bool)] = []
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                let d = Double.random(in: 0...4_000, using: &rng), t = Double.random(in: 1...900, using: &rng)
                list.append((d, t, Double.random(in: 0...t, using: &rng), Bool.random(using: &rng)))
            }
            let segments = Self.segments(list, from: "2024-05-15T23:40:00+09:00")
            #expect(plain.run(segments) == zero.run(segments))
        }
    }
}
