import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare

/// Cases beyond the Seoul regular tariff: deluxe (mode S) and New York with flat surcharges.
struct OtherTariffTests {
    @Test("Seoul deluxe (mode S): above the changeover only distance counts, below only time")
    func deluxe() throws {
        // 7,000 KRW / 3 km, 200 per 151 m or 36 s; changeover 151/36 = 4.19 m/s.
        let free = try quote("kr-seoul/deluxe", segments: [(5_000, 600, 0, false)], at: "2024-05-15T14:00:00+09:00")
        #expect(free.breakdown.units == 14)  // ⌊(5,000 − 3,000)/151⌋ + 1
        #expect(free.total == 7_000 + 14 * 200)
        // 3 km crawling at 10 km/h (1,080 s): time only, F = 151/36 × 1,080 = 4,530 m → 11 units.
        let crawl = try quote("kr-seoul/deluxe", segments: [(3_000, 1_080, nil, false)], at: "2024-05-15T14:00:00+09:00")
        #expect(crawl.breakdown.units == 11)
        #expect(crawl.total == 9_200)
        // The same crawl on the regular tariff (mode D) counts distance and time together.
        let regular = try quote("kr-seoul/regular", segments: [(3_000, 1_080, nil, false)], at: "2024-05-15T14:00:00+09:00")
        #expect(regular.breakdown.counterMeters > crawl.breakdown.counterMeters)
        // jumbo is an alias of the deluxe tariff; before 2022-12 deluxe had no night surcharge.
        #expect(try quote("kr-seoul/jumbo", segments: [(5_000, 600, 0, false)], at: "2024-05-15T14:00:00+09:00").total == free.total)
        let oldNight = try quote("kr-seoul/deluxe", segments: [(5_000, 600, 0, false)], at: "2021-05-15T23:30:00+09:00")
        #expect(oldNight.breakdown.unitSurcharges == 0 && oldNight.breakdown.baseSurcharge == 0)
        let newNight = try quote("kr-seoul/deluxe", segments: [(5_000, 600, 0, false)], at: "2024-05-15T23:30:00+09:00")
        #expect(newNight.breakdown.baseSurcharge == 1_400 && newNight.breakdown.unitSurcharges == 14 * 40)
    }

    @Test("Incheon deluxe/jumbo: only by name, out of city +20 %, nothing before 2023-07-01 04:00")
    func incheonDeluxe() throws {
        // An origin in Incheon that names no tariff keeps the regular tariff.
        let byLocation = try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: 37.4563, longitude: 126.7052))
        #expect(byLocation.id == "kr-incheon/regular")
        // 3,100 m inside then 1,900 m outside, free flow: F = 5,000 m, N = ⌊2,000 / 151⌋ + 1 = 14 units
        // starting at 3,000 + 151 k m; the first (3,000 m) ticks inside, the other 13 outside at
        // 200 × 1.2 = 240: 7,000 + 14 × 200 + 13 × 40 = 10,320 → 10,300.
        let out = try quote("kr-incheon/deluxe", segments: [(3_100, 300, 0, false), (1_900, 200, 0, true)], at: "2024-05-15T14:00:00+09:00")
        #expect(out.breakdown.units == 14 && out.breakdown.unitSurcharges == 13 * 40)
        #expect(out.total == 10_300, "\(out.total)")
        #expect(try quote("kr-incheon/jumbo", segments: [(3_100, 300, 0, false), (1_900, 200, 0, true)], at: "2024-05-15T14:00:00+09:00").total == out.total)
        // The 2019 version's night and out-of-city rules are in no source: refused, not priced with 2023's.
        let error = try #require(throws: GeoFareError.self) {
            try quote("kr-incheon/deluxe", segments: [(2_000, 200, 0, false)], at: "2023-07-01T03:59:59+09:00")
        }
        #expect(error.code == .noTariffVersion && error.field == "depart_at")
        #expect(try quote("kr-incheon/deluxe", segments: [(2_000, 200, 0, false)], at: "2023-07-01T04:00:00+09:00").total == 7_000)
    }

    @Test("Busan deluxe/jumbo: only by name, no out-of-city rate in any source, nothing before 2023-06-01")
    func busanDeluxe() throws {
        // An origin in Busan (city hall) that names no tariff keeps the regular tariff.
        let byLocation = try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: 35.1798, longitude: 129.0750))
        #expect(byLocation.id == "kr-busan/regular")
        // Inside Busan, free flow: F = 5,000 m, N = ⌊2,000 / 140⌋ + 1 = 15: 7,500 + 15 × 200 = 10,500; jumbo is the same tariff.
        let inside = try quote("kr-busan/jumbo", segments: [(3_100, 300, 0, false), (1_900, 200, 0, false)], at: "2024-05-15T14:00:00+09:00")
        #expect(inside.breakdown.units == 15 && inside.total == 10_500, "\(inside.total)")
        // Leaving Busan: the deluxe out-of-city rate is in no source, so the trip is refused, not priced with a guess.
        let outside = try #require(throws: GeoFareError.self) {
            try quote("kr-busan/deluxe", segments: [(3_100, 300, 0, false), (1_900, 200, 0, true)], at: "2024-05-15T14:00:00+09:00")
        }
        #expect(outside.code == .unknownOutOfZoneRate && outside.field == "segments[1].outside")
        // Before 2023-06-01 00:00 the older versions' night rule is in no source: refused.
        let early = try #require(throws: GeoFareError.self) {
            try quote("kr-busan/deluxe", segments: [(2_000, 200, 0, false)], at: "2023-05-31T23:59:59+09:00")
        }
        #expect(early.code == .noTariffVersion && early.field == "depart_at")
    }

    @Test("NYC 2022 tariff: units on completion, MTA, improvement, rush hour and congestion surcharges")
    func nycWithSurcharges() throws {
        // 5 miles in 20 minutes, a weekday 17:30 in May, Times Square → Wall Street.
        var r = FareRequest(trip: .totals(distanceMeters: 5 * 1_609.344, durationSeconds: 1_200), departure: at("2024-05-15T17:30:00-04:00"), tariff: "us-nyc/yellow")
        // The cruise speed is given so the worked arithmetic below holds: without it the
        // slow-time model prices the slow time (SlowTimeModelTests); this test is about the
        // surcharges and units on completion, which either slow time exercises.
        r.cruiseKmh = 29.8
        r.origin = try Coordinate(latitude: 40.7580, longitude: -73.9855)
        r.destination = try Coordinate(latitude: 40.7060, longitude: -74.0088)
        let q = try sharedPricer.quote(r).quote
        // Cruise 29.8 km/h: 227.9 s slow → F = 9,269 m → 28 completed fifth-miles at $0.70.
        #expect(q.breakdown.units == 28)
        #expect(q.meter == 300 + 28 * 70)
        #expect(Set(q.breakdown.flatSurcharges.map(\.name)) == ["mta_tax", "improvement", "rush_hour", "congestion"])
        #expect(q.surcharges == 50 + 100 + 250 + 250)
        #expect(q.total == 2_260 + 650)
        #expect(q.currency == "USD")
        // Saturday night from Brooklyn to Brooklyn: overnight, no rush hour, no congestion.
        r.departure = at("2024-05-18T23:00:00-04:00")
        r.origin = try Coordinate(latitude: 40.6782, longitude: -73.9442)
        r.destination = try Coordinate(latitude: 40.6892, longitude: -73.9857)
        let n = try sharedPricer.quote(r).quote
        #expect(Set(n.breakdown.flatSurcharges.map(\.name)) == ["mta_tax", "improvement", "overnight"])
        // The 2012 tariff: $2.50 and $0.50 units.
        r.departure = at("2014-05-14T12:00:00-04:00")
        let old = try sharedPricer.quote(r).quote
        #expect(old.meter == 250 + 28 * 50 && old.tariffVersion.hasPrefix("2012-09-04"))
        #expect(old.surcharges == 50)
    }
}
