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

/// The shortcut of ``TripPricer/checkedMeter`` for a tariff given by index with a version in
/// force (the batch path's common case) against the general path
/// (the same tariff given by name): the same meter, money, basis and assumption, or the same
/// error, at every version boundary of every tariff.
struct CheckedMeterShortcutTests {
    @Test("A tariff by index and by name price alike one second before, at and after every version start and uncertain month, strict or not")
    func indexAndNameAgreeAtVersionBoundaries() throws {
        let catalog = pricer.catalog
        var compared = 0, inForce = 0, notInForce = 0
        for (i, tariff) in catalog.tariffs.enumerated() {
            var instants: [Date] = [Date(timeIntervalSince1970: 0), at("2024-05-15T23:30:00+09:00")]
            for v in tariff.versions {
                for edge in [v.effectiveFrom, v.uncertainFrom].compactMap({ $0 }) {
                    instants += [-1, 0, 1, 86_400 * 20].map { edge.addingTimeInterval($0) }
                }
            }
            for when in instants {
                for strict in [false, true] {
                    var named = FareRequest(trip: .totals(distanceMeters: 7_000, durationSeconds: 1_500), departure: when, tariff: tariff.id)
                    named.strict = strict
                    named.partySize = 2
                    var indexed = named
                    indexed.tariff = nil
                    indexed.tariffIndex = i
                    let a = Result { try pricer.figures(named) }, b = Result { try pricer.figures(indexed) }
                    switch (a, b) {
                    case let (.success(x), .success(y)):
                        #expect(x.meter === y.meter, "\(tariff.id) at \(when)")
                        #expect([x.figures.total, x.figures.low, x.figures.high, x.figures.reading.amount]
                                == [y.figures.total, y.figures.low, y.figures.high, y.figures.reading.amount], "\(tariff.id) at \(when)")
                        #expect(x.figures.tariffBasis == y.figures.tariffBasis && x.figures.assumption == y.figures.assumption, "\(tariff.id) at \(when)")
                    case let (.failure(x), .failure(y)):
                        #expect("\(x)" == "\(y)", "\(tariff.id) at \(when)")
                    default:
                        Issue.record("\(tariff.id) at \(when), strict \(strict): by name \(a), by index \(b)")
                    }
                    if case .inForce = catalog.versionLookup(tariffAt: i, at: when) { inForce += 1 } else { notInForce += 1 }
                    compared += 1
                }
            }
        }
        // Both sides of the shortcut were taken.
        #expect(inForce > 100 && notInForce > 20, "\(compared) compared: \(inForce) in force, \(notInForce) not")
    }

    @Test("meterInForce is versionLookup's meter in force and nil otherwise, also for a month-only version after another (not in the data today)")
    func meterInForceAgrees() throws {
        let tariff = try TariffFile.load(Data(FareErrorTests.withMonthVersion("2024-02").utf8), origin: "month.json")
        let month = try TariffCatalog(tariffs: [tariff], zones: ZoneSet())
        var rng = SeededGenerator(seed: 5)
        var uncertain = 0
        for catalog in [pricer.catalog, month] {
            for (i, tariff) in catalog.tariffs.enumerated() {
                for date in CatalogLookupTests.dates(tariff, rng: &rng) {
                    let m = catalog.meterInForce(tariffAt: i, at: date)
                    switch catalog.versionLookup(tariffAt: i, at: date) {
                    case .inForce: #expect(m != nil && m === (try? catalog.meter(tariffAt: i, at: date)), "\(tariff.id) at \(date)")
                    case .uncertainMonth: uncertain += 1; #expect(m == nil, "\(tariff.id) at \(date)")
                    case .beforeFirst: #expect(m == nil, "\(tariff.id) at \(date)")
                    }
                }
            }
            #expect(catalog.meterInForce(tariffAt: -1, at: Date()) == nil && catalog.meterInForce(tariffAt: catalog.tariffs.count, at: Date()) == nil)
        }
        #expect(uncertain > 0)
    }
}
