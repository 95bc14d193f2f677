import Foundation
import Testing
import GeoFareCore
import GeoFareData
@testable import GeoFareFare

/// Road tolls as data (`Data/tolls/kr-tolls.json`, issue 41): the airport's crossings by date,
/// the expressway estimate of a long trip, the caller's own tolls, and broken toll files.
struct TollTests {
    static let cityHall = Coordinate(uncheckedLatitude: 37.5665, longitude: 126.9780)
    static let airportT1 = Coordinate(uncheckedLatitude: 37.4492, longitude: 126.4505)
    static let unseo = Coordinate(uncheckedLatitude: 37.4928, longitude: 126.4935)          // on Yeongjong too
    static let songdo = Coordinate(uncheckedLatitude: 37.3925, longitude: 126.6389)
    static let gangnam = Coordinate(uncheckedLatitude: 37.4979, longitude: 127.0276)
    static let seongnamCityHall = Coordinate(uncheckedLatitude: 37.4200, longitude: 127.1267)
    static let busanCityHall = Coordinate(uncheckedLatitude: 35.1796, longitude: 129.0756)

    static func quote(_ a: Coordinate, _ b: Coordinate, _ time: String, party: Int = 1) throws -> FareQuote {
        var r = FareRequest(from: a, to: b, departure: at(time))
        r.partySize = party
        return try sharedPricer.quote(r).quote
    }

    @Test("Seoul City Hall → Incheon Airport T1 pays the airport expressway's toll in force: 3,200 KRW in 2026, 6,600 in 2019, 7,600 in 2014; both ways")
    func airportByDate() throws {
        for (time, toll) in [("2026-11-25T15:00:00+09:00", Int64(3_200)), ("2019-11-25T15:00:00+09:00", 6_600), ("2014-11-25T15:00:00+09:00", 7_600)] {
            let q = try Self.quote(Self.cityHall, Self.airportT1, time, party: 3)
            #expect(q.tolls == toll && q.breakdown.tolls == toll && q.tollBasis == .sourced, "\(time): \(q.tolls)")
            #expect(q.tollItems.count == 1 && q.tollItems[0].name.contains("Incheon Airport plaza"), "\(q.tollItems)")
            #expect(q.total == Meter.roundHalfUp(q.meter + q.surcharges + toll + q.callFee, divisor: 1, step: 100))
            #expect(q.perPerson.reduce(0, +) == q.total && q.low <= q.total && q.total <= q.high)
            let back = try Self.quote(Self.airportT1, Self.cityHall, time)
            #expect(back.tolls == toll, "\(time) back: \(back.tolls)")
        }
    }

    @Test("From Songdo the Incheon Bridge is taken (5,500 KRW in 2024, 2,000 from 2025-12-18); on the island and in the city no toll")
    func otherCrossingsAndNone() throws {
        let q2024 = try Self.quote(Self.songdo, Self.airportT1, "2024-05-15T14:00:00+09:00")
        let q2026 = try Self.quote(Self.songdo, Self.airportT1, "2026-05-15T14:00:00+09:00")
        #expect(q2024.tolls == 5_500 && q2024.tollItems.first?.name.contains("Incheon Bridge") == true, "\(q2024.tollItems)")
        #expect(q2026.tolls == 2_000)
        for (a, b) in [(Self.airportT1, Self.unseo), (Self.cityHall, Self.gangnam)] {
            let q = try Self.quote(a, b, "2026-05-15T14:00:00+09:00")
            #expect(q.tolls == 0 && q.tollBasis == nil && q.tollItems.isEmpty, "\(q.tollItems)")
        }
    }

    @Test("Seongnam → Busan in 2018: the expressway toll estimated within 25 % of Naver's 24,500 KRW, with a band the fare carries")
    func longTrip() throws {
        let q = try Self.quote(Self.seongnamCityHall, Self.busanCityHall, "2018-05-02T10:00:00+09:00")
        let item = try #require(q.tollItems.first)
        #expect(q.tollBasis == .estimated && item.basis == .estimated)
        #expect(abs(Double(q.tolls) / 24_500 - 1) <= 0.25, "\(q.tolls)")
        #expect(item.low < item.amount && item.amount < item.high)
        // Seoul TG → Busan TG is 20,100 KRW (2015-12-29 on): the band holds it.
        #expect(item.low <= 20_100 && 20_100 <= item.high, "\(item)")
        // The same trip with the caller's own tolls: taken as given, nothing looked up.
        var r = FareRequest(from: Self.seongnamCityHall, to: Self.busanCityHall, departure: at("2018-05-02T10:00:00+09:00"))
        r.tolls = 24_500
        r.estimateTolls = false
        let given = try sharedPricer.quote(r).quote
        #expect(given.tolls == 24_500 && given.tollBasis == .given && given.tollItems.isEmpty)
        #expect(given.total - q.total == 24_500 - q.tolls)
    }

    @Test("A known trip with its ends pays its tolls too, from its own distance")
    func knownTrip() throws {
        var r = FareRequest(trip: .totals(distanceMeters: 60_000, durationSeconds: 3_600), departure: at("2026-11-25T15:00:00+09:00"))
        r.origin = Self.cityHall
        r.destination = Self.airportT1
        let q = try sharedPricer.quote(r).quote
        #expect(q.tolls == 3_200 && q.distanceMeters == 60_000)
        // Without the ends nothing says where the trip went: no toll.
        r.origin = nil
        r.destination = nil
        r.tariff = "kr-seoul/regular"
        #expect(try sharedPricer.quote(r).quote.tolls == 0)
    }

    static let valid = #"""
    {"currency": "KRW", "crossings": [{"id": "a", "name": "A", "area": "kr-incheon-yeongjong", "mainland": {"lat": 37.5, "lon": 126.7},
      "island": {"lat": 37.5, "lon": 126.5}, "versions": [{"effective_from": "2020-01-01T00:00:00+09:00", "amount": 1000, "sources": ["s"]}]}],
     "expressway": {"min_straight_km": 50, "access_km": 10, "versions": [{"effective_from": "2020-01-01T00:00:00+09:00", "base": 900,
      "per_km_tenths": 443, "typical_per_km_tenths": 486, "high_per_km_tenths": 532, "sources": ["s"]}]}}
    """#

    @Test("A broken toll file is invalid_tariff naming the file and the field", arguments: [
        ("\"amount\": 1000", "\"amount\": -1", "crossings[0].versions[0].amount"),
        ("\"2020-01-01T00:00:00+09:00\", \"amount\"", "\"2020-13-01\", \"amount\"", "crossings[0].versions[0].effective_from"),
        ("\"sources\": [\"s\"]}]}]", "\"sources\": []}]}]", "crossings[0].versions[0].sources"),
        ("\"lat\": 37.5, \"lon\": 126.7", "\"lat\": 97.5, \"lon\": 126.7", "crossings[0].mainland"),
        ("\"per_km_tenths\": 443", "\"per_km_tenths\": 600", "expressway.versions[0]"),
        ("\"currency\": \"KRW\"", "\"currency\": \"won\"", "currency"),
        ("\"access_km\": 10", "\"access_km\": \"ten\"", "expressway.access_km"),
    ])
    func malformed(old: String, new: String, field: String) throws {
        _ = try TollTable(json: Data(Self.valid.utf8), origin: "t.json")
        let broken = Self.valid.replacingOccurrences(of: old, with: new)
        #expect(broken != Self.valid)
        do {
            _ = try TollTable(json: Data(broken.utf8), origin: "t.json")
            Issue.record("\(field): loaded")
        } catch {
            #expect(error.code == .invalidTariff && error.field?.hasPrefix("t.json") == true && error.field?.contains(field) == true, "\(error)")
        }
    }

    @Test("A crossing whose area is no loaded zone fails the catalog")
    func unknownArea() throws {
        let table = try TollTable(json: Data(Self.valid.replacingOccurrences(of: "kr-incheon-yeongjong", with: "kr-nowhere").utf8), origin: "t.json")
        #expect(throws: GeoFareError.self) {
            _ = try TariffCatalog(tariffs: [], zones: sharedCatalog.zones, tolls: [table])
        }
        #expect(sharedCatalog.tolls.count == 1 && sharedCatalog.tolls[0].crossings.count == 4)
    }
}
