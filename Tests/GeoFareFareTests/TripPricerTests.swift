import Foundation
import Testing
import GeoFareCore
import GeoFareRoute
@testable import GeoFareFare

let pricer: TripPricer = {
    do { return try TripPricer.standard() } catch { fatalError("\(error)") }
}()

struct TripPricerTests {
    static let cityHall = Coordinate(uncheckedLatitude: 37.5665, longitude: 126.9780)
    static let suwon = Coordinate(uncheckedLatitude: 37.2636, longitude: 127.0286)
    static let gangnam = Coordinate(uncheckedLatitude: 37.4979, longitude: 127.0276)

    @Test("The origin picks the tariff; leaving Seoul carries the out-of-city rate on the units outside")
    func seoulToSuwon() throws {
        let (q, routed) = try pricer.quote(FareRequest(from: Self.cityHall, to: Self.suwon, departure: at("2024-05-15T14:00:00+09:00")))
        let route = try #require(routed)
        #expect(q.tariff == "kr-seoul/regular")
        #expect(q.breakdown.unitSurcharges > 0)
        #expect(route.segments.contains { $0.outsideZone })
        #expect(q.distanceMeters == route.distanceMeters)
        let busan = Coordinate(uncheckedLatitude: 35.1796, longitude: 129.0756)
        let (b, _) = try pricer.quote(FareRequest(from: busan, to: Coordinate(uncheckedLatitude: 35.1587, longitude: 129.1604), departure: at("2024-05-15T14:00:00+09:00")))
        #expect(b.tariff == "kr-busan/regular")
        // A point in the sub-metre sliver the simplified Seoul and Gyeonggi borders leave
        // between them (found by a 500,000-row run) still takes the nearest region's tariff.
        let sliver = Coordinate(uncheckedLatitude: 37.575954, longitude: 127.101542)
        #expect(try pricer.catalog.tariff(forOrigin: sliver).id.hasPrefix("kr-"))
        // At sea in the Korea Strait (36.5N 127.5E was "nowhere" while only five regions had zones;
        // it lies in Chungbuk).
        let nowhere = Coordinate(uncheckedLatitude: 34.2, longitude: 128.6)
        #expect(throws: GeoFareError.self) { try pricer.quote(FareRequest(from: nowhere, to: Self.suwon, departure: at("2024-05-15T14:00:00+09:00"))) }
    }

    /// `figures` takes a short path for trips not given by coordinates (the batch path's rows):
    /// it must pick the same meter and give the same money as the full quote, and check the
    /// request before resolving its tariff, as ``TripPricer/prepare(_:)`` does.
    @Test("figures for distance/duration trips: the quote's tariff and money, and validation before the tariff")
    func figuresOfTotals() throws {
        let when = at("2024-05-15T23:30:00+09:00")
        var requests: [FareRequest] = []
        for (d, t) in [(800.0, 300.0), (5_000, 900), (18_000, 2_400), (30_000, 1_500)] {
            var named = FareRequest(trip: .totals(distanceMeters: d, durationSeconds: t), departure: when, tariff: "kr-gyeonggi/regular")
            named.partySize = 3
            requests.append(named)
            var indexed = FareRequest(trip: .totals(distanceMeters: d, durationSeconds: t), departure: when)
            indexed.tariffIndex = try pricer.catalog.tariffIndex("kr-busan/regular")
            indexed.tolls = 1_200
            requests.append(indexed)
            var byOrigin = FareRequest(trip: .totals(distanceMeters: d, durationSeconds: t), departure: when)
            byOrigin.origin = Self.cityHall
            byOrigin.cruiseKmh = 25
            requests.append(byOrigin)
        }
        for r in requests {
            let (f, meter) = try pricer.figures(r)
            let (q, route) = try pricer.quote(r)
            #expect(route == nil)
            #expect(meter.tariffID == q.tariff)
            #expect(try meter === pricer.catalog.meter(tariffAt: pricer.resolveTariff(r).index, at: r.departure))
            #expect([f.total, f.low, f.high, f.tolls, f.surcharges] == [q.total, q.low, q.high, q.tolls, q.surcharges])
            #expect(f.distanceMeters == q.distanceMeters && f.durationSeconds == q.durationSeconds)
            #expect((0..<r.partySize).map { f.equalShare($0, riders: r.partySize) } == q.perPerson)
        }
        // A bad party size is reported before an unknown tariff, as on every other path.
        var bad = FareRequest(trip: .totals(distanceMeters: 1_000, durationSeconds: 300), departure: when, tariff: "no-such/tariff")
        bad.partySize = 0
        #expect { try pricer.figures(bad) } throws: { ($0 as? GeoFareError)?.code == .invalidPartySize }
        bad.partySize = 1
        #expect { try pricer.figures(bad) } throws: { ($0 as? GeoFareError)?.code == .unknownTariff }
    }

    @Test("Riders getting off at the stops: Shapley shares grow with the distance ridden and sum to the total")
    func shapleyWithStops() throws {
        var r = FareRequest(from: Self.cityHall, via: [Self.gangnam], to: Self.suwon, departure: at("2024-05-15T14:00:00+09:00"))
        r.partySize = 3
        r.split = .shapley
        let (q, _) = try pricer.quote(r)
        #expect(q.perPerson.reduce(0, +) == q.total)
        #expect(q.perPerson[0] < q.perPerson[1])
        // Riders 1 and 2 both ride to the end: equal entitlements, so their shares differ by at
        // most the one leftover unit (100 KRW) largest remainder gives the rider listed first.
        // (With the cruise rule's slow time the total happened to split evenly; the slow-time
        // model's total, 23,600 + 23,500 for these two, does not.)
        #expect(q.perPerson[1] - q.perPerson[2] >= 0 && q.perPerson[1] - q.perPerson[2] <= 100)
    }
}
