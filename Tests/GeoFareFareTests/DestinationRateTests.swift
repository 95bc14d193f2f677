import Foundation
import Testing
import GeoFareCore
import GeoFareRoute
@testable import GeoFareFare

/// `out_of_zone_by_destination`: Gwangju's tariff from 2025-10-22 charges 시계외 40 %
/// to the adjacent Naju, Damyang, Jangseong and Hampyeong and 35 % elsewhere. The file format and
/// its errors, the embedded rule and zones, and worked examples to the won through the public
/// pricer; every amount is computed by hand in the comment above it, never by the engine.
///
/// Gwangju 2025-10-22: 4,800 KRW / 1,700 m, 100 KRW per 132 m or 32 s; night 23–24 +20 %,
/// 00–02 +30 %, 02–04 +20 %; night + 시계외 capped at 50 %; surcharged base and unit prices
/// rounded half-up to 10 KRW, the total to 100 KRW. Unit k ticks at 1,700 + (k − 1) × 132 m of
/// the counter. A surcharged unit at 35 % is 135 → 140 KRW and at 40 % 140 KRW: the rule changes a
/// unit's price only where the rounding does not hide it, so it shows in the base fare of a trip
/// that boards outside the city on the Gwangju tariff (4,800 × 1.35 = 6,480; × 1.40 = 6,720).
struct DestinationRateTests {
    static let gwangju = "kr-gwangju/regular"
    static let v2025 = "2025-10-22T00:00:00+09:00", v2023 = "2023-07-01T00:00:00+09:00"
    static let day = "2025-11-12T14:00:00+09:00", night = "2025-11-13T00:30:00+09:00", day2024 = "2024-05-15T14:00:00+09:00"

    /// 시·군 offices (the research table's coordinates, as in `make_zones.py`'s checks).
    static let gwangjuHall = Coordinate(uncheckedLatitude: 35.1601, longitude: 126.8514)
    static let naju = Coordinate(uncheckedLatitude: 35.0159, longitude: 126.7108)
    static let damyang = Coordinate(uncheckedLatitude: 35.3213, longitude: 126.9882)
    static let jangseong = Coordinate(uncheckedLatitude: 35.3019, longitude: 126.7848)
    static let hampyeong = Coordinate(uncheckedLatitude: 35.0659, longitude: 126.5164)
    static let mokpo = Coordinate(uncheckedLatitude: 34.8118, longitude: 126.3922)
    static let seoul = Coordinate(uncheckedLatitude: 37.5665, longitude: 126.9780)

    struct Case: NamedCase {
        let name: String, at: String, version: String
        let segments: [(meters: Double, seconds: Double, outside: Bool)]
        let to: Coordinate?
        let units: Int64, baseSurcharge: Int64, total: Int64
    }

    static let cases: [Case] = [
        // Base: 1,500 m inside → 4,800.
        Case(name: "base", at: day, version: v2025, segments: [(1_500, 180, false)], to: gwangjuHall, units: 0, baseSurcharge: 0, total: 4_800),
        // Over base: 5,050 m, N = ⌊3,350 / 132⌋ + 1 = 26 → 4,800 + 2,600 = 7,400.
        Case(name: "over base", at: day, version: v2025, segments: [(5_050, 500, false)], to: gwangjuHall, units: 26, baseSurcharge: 0, total: 7_400),
        // Night (00:30, +30 %): base 6,240; 26 × 130 = 3,380: 9,620 → 9,600.
        Case(name: "night", at: night, version: v2025, segments: [(5_050, 500, false)], to: gwangjuHall, units: 26, baseSurcharge: 1_440, total: 9_600),
        // Out of city to Seoul (35 %): 4,950 m inside (units 1–25: unit 25 ticks at 4,868 m), then 10,000 m
        // outside: N = ⌊13,250 / 132⌋ + 1 = 101, units 26–101 (76) at 135 → 140: 4,800 + 2,500 + 10,640 = 17,940 → 17,900.
        Case(name: "out of city to Seoul", at: day, version: v2025, segments: [(4_950, 450, false), (10_000, 900, true)], to: seoul,
             units: 101, baseSurcharge: 0, total: 17_900),
        // The same to Naju (40 %): 76 at 140, the same price: 17,900.
        Case(name: "out of city to Naju", at: day, version: v2025, segments: [(4_950, 450, false), (10_000, 900, true)], to: naju,
             units: 101, baseSurcharge: 0, total: 17_900),
        // Boarding outside on the Gwangju tariff, 5,050 m, to Seoul: base 4,800 × 1.35 = 6,480; 26 × 140 = 3,640:
        // 10,120 → 10,100.
        Case(name: "boarding outside, to Seoul", at: day, version: v2025, segments: [(5_050, 500, true)], to: seoul, units: 26, baseSurcharge: 1_680, total: 10_100),
        // The same to Naju: base 4,800 × 1.40 = 6,720; 6,720 + 3,640 = 10,360 → 10,400; Damyang, Jangseong, Hampyeong alike.
        Case(name: "boarding outside, to Naju", at: day, version: v2025, segments: [(5_050, 500, true)], to: naju, units: 26, baseSurcharge: 1_920, total: 10_400),
        Case(name: "boarding outside, to Damyang", at: day, version: v2025, segments: [(5_050, 500, true)], to: damyang, units: 26, baseSurcharge: 1_920, total: 10_400),
        Case(name: "boarding outside, to Jangseong", at: day, version: v2025, segments: [(5_050, 500, true)], to: jangseong, units: 26, baseSurcharge: 1_920, total: 10_400),
        Case(name: "boarding outside, to Hampyeong", at: day, version: v2025, segments: [(5_050, 500, true)], to: hampyeong, units: 26, baseSurcharge: 1_920, total: 10_400),
        // Mokpo is in Jeonnam but not one of the four: 35 %, 10,100. No destination known: the version's 35 %.
        Case(name: "boarding outside, to Mokpo", at: day, version: v2025, segments: [(5_050, 500, true)], to: mokpo, units: 26, baseSurcharge: 1_680, total: 10_100),
        Case(name: "boarding outside, no destination", at: day, version: v2025, segments: [(5_050, 500, true)], to: nil, units: 26, baseSurcharge: 1_680, total: 10_100),
        // Night (00:30) + 시계외: 30 + 40 = 70 % and 30 + 35 = 65 % are both capped at 50 %: base 7,200, 26 × 150 = 3,900: 11,100.
        Case(name: "night boarding outside, to Naju", at: night, version: v2025, segments: [(5_050, 500, true)], to: naju, units: 26, baseSurcharge: 2_400, total: 11_100),
        Case(name: "night boarding outside, to Seoul", at: night, version: v2025, segments: [(5_050, 500, true)], to: seoul, units: 26, baseSurcharge: 2_400, total: 11_100),
        // 2023-07-01 version (no source gives the 40 % before 2025-10-22): 4,300 / 2,000 m, 134 m; 5,050 m,
        // N = ⌊3,050 / 134⌋ + 1 = 23; base 4,300 × 1.35 = 5,805 → 5,810; 23 × 140 = 3,220: 9,030 → 9,000, to Naju as to Seoul.
        Case(name: "2023 version, boarding outside, to Naju", at: day2024, version: v2023, segments: [(5_050, 500, true)], to: naju, units: 23, baseSurcharge: 1_510, total: 9_000),
        Case(name: "2023 version, boarding outside, to Seoul", at: day2024, version: v2023, segments: [(5_050, 500, true)], to: seoul, units: 23, baseSurcharge: 1_510, total: 9_000),
    ]

    static func request(_ c: Case, byIndex: Bool) throws -> FareRequest {
        var start = at(c.at)
        var list: [TripSegment] = []
        for s in c.segments {
            list.append(TripSegment(distanceMeters: s.meters, durationSeconds: s.seconds, slowSeconds: 0, start: start, outsideZone: s.outside))
            start = start.addingTimeInterval(s.seconds)
        }
        var r = FareRequest(trip: .segments(list), departure: at(c.at), tariff: byIndex ? nil : gwangju)
        if byIndex { r.tariffIndex = try sharedCatalog.tariffIndex(gwangju) }
        r.destination = c.to
        r.strict = true
        return r
    }

    @Test("Worked examples to the won, by tariff name and by index (the batch path)", arguments: cases, [false, true])
    func workedExample(_ c: Case, byIndex: Bool) throws {
        let q = try sharedPricer.quote(try Self.request(c, byIndex: byIndex)).quote
        #expect(q.tariffVersion == c.version, "\(c.name): \(q.tariffVersion)")
        #expect(q.breakdown.units == c.units, "\(c.name): \(q.breakdown.units) units")
        #expect(q.breakdown.baseSurcharge == c.baseSurcharge, "\(c.name): base surcharge \(q.breakdown.baseSurcharge)")
        #expect(q.total == c.total, "\(c.name): \(q.total)")
        #expect(q.tariffBasis == .sourced)
        let f = try sharedPricer.figures(try Self.request(c, byIndex: byIndex)).figures
        #expect(f.total == c.total, "\(c.name): figures \(f.total)")
    }

    @Test("The embedded rule: 2025-10-22 only, the four 시·군 at 40 %; each zone holds its office and not Gwangju's or Mokpo's")
    func embedded() throws {
        let t = try sharedCatalog.tariff(Self.gwangju)
        #expect(t.versions.map(\.label) == [Self.v2023, Self.v2025])
        #expect(t.versions[0].outOfZoneByDestination.isEmpty && t.versions[0].outOfZoneRatePercent == 35)
        let zones = ["kr-jeonnam-naju", "kr-jeonnam-damyang", "kr-jeonnam-jangseong", "kr-jeonnam-hampyeong"]
        #expect(t.versions[1].outOfZoneByDestination == [.init(zones: zones, ratePercent: 40)] && t.versions[1].outOfZoneRatePercent == 35)
        for (zone, office) in zip(zones, [Self.naju, Self.damyang, Self.jangseong, Self.hampyeong]) {
            let polygon = try #require(sharedCatalog.zones.zone(zone)?.polygon, "\(zone)")
            #expect(polygon.contains(office), "\(zone)")
            #expect(!polygon.contains(Self.gwangjuHall) && !polygon.contains(Self.mokpo) && !polygon.contains(Self.seoul), "\(zone)")
        }
        // The areas are no origin zone: an origin in Damyang is still an unplaced Jeonnam county (assumed).
        var r = FareRequest(from: Self.damyang, to: Self.gwangjuHall, departure: at(Self.day))
        r.strict = true
        #expect(throws: GeoFareError.self) { try sharedPricer.quote(r) }
    }

    /// By coordinates: leaving Naju for Damyang on the Gwangju tariff boards outside at 40 %; for
    /// Mokpo at 35 %; from Gwangju the destination picks nothing at boarding.
    @Test("By coordinates: Naju to Damyang boards outside at 40 %, to Mokpo at 35 %; from Gwangju the destination picks nothing")
    func byCoordinates() throws {
        func priced(_ from: Coordinate, _ to: Coordinate, _ when: String, tariff: String? = DestinationRateTests.gwangju) throws -> (FareQuote, Route) {
            var r = FareRequest(from: from, to: to, departure: at(when), tariff: tariff)
            r.strict = true
            let (q, route) = try sharedPricer.quote(r)
            return (q, try #require(route))
        }
        let (toDamyang, route) = try priced(Self.naju, Self.damyang, Self.day)
        // It boards outside Gwangju (the route crosses the city on its way: some segments are inside).
        #expect(route.segments.first?.outsideZone == true)
        #expect(toDamyang.breakdown.baseSurcharge == 1_920 && toDamyang.tariffBasis == .sourced)
        // The same segments without a destination: the version's 35 %, base surcharge 1,680, and the
        // units at 140 either way, so the totals differ by the base's 240 (rounded to 100 on both).
        var plain = FareRequest(trip: .segments(route.segments), departure: at(Self.day), tariff: Self.gwangju)
        plain.strict = true
        let q35 = try sharedPricer.quote(plain).quote
        #expect(q35.breakdown.baseSurcharge == 1_680 && q35.breakdown.units == toDamyang.breakdown.units)
        #expect(q35.breakdown.unitSurcharges == toDamyang.breakdown.unitSurcharges)
        #expect(toDamyang.meter - q35.meter == 240, "\(toDamyang.meter) vs \(q35.meter)")
        #expect(try priced(Self.naju, Self.mokpo, Self.day).0.breakdown.baseSurcharge == 1_680)
        // 2023 version: 4,300 × 1.35 = 5,805 → 5,810, to Damyang as anywhere.
        #expect(try priced(Self.naju, Self.damyang, Self.day2024).0.breakdown.baseSurcharge == 1_510)
        // From Gwangju City Hall (its own tariff by origin) to Naju: boards inside, sourced.
        let fromCity = try priced(Self.gwangjuHall, Self.naju, Self.day, tariff: nil).0
        #expect(fromCity.tariff == Self.gwangju && fromCity.breakdown.baseSurcharge == 0 && fromCity.tariffBasis == .sourced)
    }

    /// The Gwangju file with the 2025 version's `out_of_zone_by_destination` (and, optionally, its
    /// general rate) replaced.
    static func gwangjuFile(rule: String, generalRate: String = "35") throws -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/tariffs/kr-gwangju-regular.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var versions = try #require(json["versions"] as? [[String: Any]])
        versions[1]["out_of_zone_by_destination"] = try JSONSerialization.jsonObject(with: Data(rule.utf8))
        versions[1]["out_of_zone_rate_percent"] = try JSONSerialization.jsonObject(with: Data(generalRate.utf8), options: .fragmentsAllowed)
        json["versions"] = versions
        return try JSONSerialization.data(withJSONObject: json)
    }

    @Test("A bad rule is invalid_tariff naming the file and the JSON path", arguments: [
        (#"[{"zones":["kr-jeonnam-naju"],"rate_percent":-5}]"#, "35", "versions[1].out_of_zone_by_destination[0].rate_percent"),
        (#"[{"zones":["kr-jeonnam-naju"],"rate_percent":501}]"#, "35", "versions[1].out_of_zone_by_destination[0].rate_percent"),
        (#"[{"zones":["kr-jeonnam-naju"],"rate_percent":"40 %"}]"#, "35", "versions[1].out_of_zone_by_destination[0].rate_percent"),
        (#"[{"zones":[],"rate_percent":40}]"#, "35", "versions[1].out_of_zone_by_destination[0].zones"),
        (#"[{"zones":[""],"rate_percent":40}]"#, "35", "versions[1].out_of_zone_by_destination[0].zones[0]"),
        (#"[{"zones":["kr-jeonnam-naju"],"rate_percent":40},{"zones":["kr-jeonnam-damyang","kr-jeonnam-naju"],"rate_percent":45}]"#, "35",
         "versions[1].out_of_zone_by_destination[1].zones[1]"),
        (#"[{"rate_percent":40}]"#, "35", "versions[1].out_of_zone_by_destination[0].zones"),
        (#"[{"zones":["kr-jeonnam-naju"],"rate_percent":40}]"#, "null", "versions[1].out_of_zone_by_destination"),
    ])
    func fileValidated(rule: String, generalRate: String, field: String) throws {
        let error = try #require(throws: GeoFareError.self) { try TariffFile.load(try Self.gwangjuFile(rule: rule, generalRate: generalRate), origin: "gj.json") }
        #expect(error.code == .invalidTariff && error.field == "gj.json: \(field)", "\(error)")
    }

    @Test("The catalog checks that every zone a rule names is loaded")
    func catalogValidated() throws {
        let file = try Self.gwangjuFile(rule: #"[{"zones":["kr-jeonnam-naju","kr-jeonnam-nowhere"],"rate_percent":40}]"#)
        let gwangju = try TariffFile.load(file, origin: "gj.json")
        var tariffs = sharedCatalog.tariffs
        let i = try #require(tariffs.firstIndex { $0.id == Self.gwangju })
        tariffs[i] = gwangju
        let error = try #require(throws: GeoFareError.self) { try TariffCatalog(tariffs: tariffs, zones: sharedCatalog.zones) }
        #expect(error.code == .invalidTariff && error.field == "gj.json: versions[1].out_of_zone_by_destination[0].zones[1]" && error.message.contains("kr-jeonnam-nowhere"), "\(error)")
        // The embedded file itself loads, and a rule at the version's own rate changes nothing.
        let same = try TariffFile.load(try Self.gwangjuFile(rule: #"[{"zones":["kr-jeonnam-naju"],"rate_percent":35}]"#), origin: "gj.json")
        tariffs[i] = same
        let catalog = try TariffCatalog(tariffs: tariffs, zones: sharedCatalog.zones)
        let m = try catalog.meter(tariffAt: i, at: at(Self.day))
        #expect(catalog.destinationMeter(m, to: Self.naju) == nil)
    }
}
