import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare
import GeoFareRoute

/// Where no source settles the tariff, the pricer prices on the most likely one and says so
/// (`tariff_basis: assumed`, an `assumption`, a band over the candidates); `strict` gives back
/// the errors of before (no assumed tariffs). Real data: the embedded tariffs and zones.
struct AssumedTariffTests {
    static let gangnam = Coordinate(uncheckedLatitude: 37.4979, longitude: 127.0276)
    /// City halls of Gyeonggi cities no source places in a tariff group.
    static let unplaced: [(name: String, at: Coordinate)] = [
        ("Uijeongbu", Coordinate(uncheckedLatitude: 37.7381, longitude: 127.0337)),
        ("Gwacheon", Coordinate(uncheckedLatitude: 37.4292, longitude: 126.9876)),
    ]
    static let groups = ["kr-gyeonggi/regular", "kr-gyeonggi/regular-1800", "kr-gyeonggi/regular-2000"]

    @Test("An unplaced Gyeonggi city prices on the standard group, assumed, naming it, with a band over all three groups' fares",
          arguments: ["2019-06-01T14:00:00+09:00", "2023-08-01T23:30:00+09:00", "2025-10-01T09:00:00+09:00"])
    func unplacedGyeonggiCity(when: String) throws {
        for place in Self.unplaced {
            let (q, route) = try sharedPricer.quote(FareRequest(from: place.at, to: Self.gangnam, departure: at(when)))
            #expect(q.tariffBasis == .assumed, "\(place.name)")
            #expect(q.tariff == "kr-gyeonggi/regular")
            let assumption = try #require(q.assumption)
            #expect(assumption.hasPrefix("Gyeonggi standard group (kr-gyeonggi/regular): no source names the tariff group of this city or county in Gyeonggi-do"), "\(assumption)")
            #expect(assumption.contains("low/high cover kr-gyeonggi/regular-1800 ") && assumption.contains(", kr-gyeonggi/regular-2000 "), "\(assumption)")
            // The same trip on each group named: the standard one is the fare; the band holds every group's band.
            var lows: [Int64] = [], highs: [Int64] = []
            for group in Self.groups {
                var named = FareRequest(from: place.at, to: Self.gangnam, departure: at(when), tariff: group)
                named.strict = true
                let n = try sharedPricer.quote(named).quote
                #expect(n.tariffBasis == .sourced && n.assumption == nil)
                lows.append(n.low)
                highs.append(n.high)
                if group == "kr-gyeonggi/regular" {
                    #expect(n.total == q.total && n.meter == q.meter && n.breakdown == q.breakdown && n.tariffVersion == q.tariffVersion)
                    #expect(n.low >= q.low && n.high <= q.high)
                }
            }
            #expect(q.low == lows.min()! && q.high == highs.max()!, "\(place.name): \(q.low)–\(q.high) vs \(lows) \(highs)")
            // 가형 and 나형 charge more per km than 표준형: the band really widened upwards.
            #expect(q.high > highs[0], "\(place.name) \(when)")
            // The route is the one the fare was priced on: inside Gyeonggi's business zone, then Seoul (outside).
            #expect(route?.segments.contains(where: \.outsideZone) == true)
        }
    }

    @Test("strict: an unplaced Gyeonggi city is unknown_tariff_group exactly as before (the catalog's own error), for quote, figures and tariffID")
    func unplacedStrict() throws {
        for place in Self.unplaced {
            let before = try #require(throws: GeoFareError.self) { try sharedCatalog.tariffIndex(forOrigin: place.at) }
            #expect(before.code == .unknownTariffGroup)
            var r = FareRequest(from: place.at, to: Self.gangnam, departure: at("2024-05-15T14:00:00+09:00"))
            r.strict = true
            #expect(throws: before) { try sharedPricer.quote(r) }
            #expect(throws: before) { try sharedPricer.figures(r) }
            #expect(throws: before) { try sharedPricer.tariffID(for: r) }
            r.strict = false
            #expect(try sharedPricer.tariffID(for: r) == "kr-gyeonggi/regular")
        }
    }

    @Test("Gwangju 2020 (before its first modelled version, 2023-07-01) prices on that version, assumed; strict is no_tariff_version as before")
    func gwangjuBeforeFirstVersion() throws {
        let cityHall = Coordinate(uncheckedLatitude: 35.1601, longitude: 126.8514)
        let station = Coordinate(uncheckedLatitude: 35.1654, longitude: 126.9092)
        let (q, _) = try sharedPricer.quote(FareRequest(from: cityHall, to: station, departure: at("2020-06-01T14:00:00+09:00")))
        #expect(q.tariff == "kr-gwangju/regular" && q.tariffVersion == "2023-07-01T00:00:00+09:00")
        #expect(q.tariffBasis == .assumed)
        #expect(q.assumption == "no version of kr-gwangju/regular is modelled at the departure (its first modelled version starts 2023-07-01T00:00:00+09:00): priced on its earliest modelled version, 2023-07-01T00:00:00+09:00; fares before it were likely lower")
        // By distance and duration: exactly the 2023 version's fare at the same clock time.
        var old = FareRequest(trip: .totals(distanceMeters: 6_200, durationSeconds: 1_100), departure: at("2020-06-01T14:00:00+09:00"), tariff: "kr-gwangju/regular")
        var then = old
        then.departure = at("2023-07-03T14:00:00+09:00")
        let a = try sharedPricer.quote(old).quote, b = try sharedPricer.quote(then).quote
        #expect(b.tariffBasis == .sourced && b.assumption == nil)
        #expect(a.total == b.total && a.low == b.low && a.high == b.high && a.breakdown == b.breakdown)
        #expect(try sharedPricer.figures(old).figures.tariffBasis == .assumed)
        // strict: the meter's own error, unchanged.
        let before = try #require(throws: GeoFareError.self) { try sharedCatalog.meter(tariff: "kr-gwangju/regular", at: at("2020-06-01T14:00:00+09:00")) }
        #expect(before.code == .noTariffVersion)
        old.strict = true
        #expect(throws: before) { try sharedPricer.quote(old) }
        #expect(throws: before) { try sharedPricer.figures(old) }
        var routed = FareRequest(from: cityHall, to: station, departure: at("2020-06-01T14:00:00+09:00"))
        routed.strict = true
        #expect(throws: before) { try sharedPricer.quote(routed) }
    }

    /// A departure in the month a tariff took effect on a day no source gives (Jeonju, May 2019):
    /// priced on that version, assumed; strict is tariff_version_uncertain.
    @Test("A departure in a tariff's first month on an unsourced day (Jeonju, May 2019): that version, assumed; strict refuses")
    func uncertainMonth() throws {
        var r = FareRequest(trip: .totals(distanceMeters: 5_000, durationSeconds: 900), departure: at("2019-05-15T14:00:00+09:00"), tariff: "kr-jeonbuk/regular-jeonju")
        let q = try sharedPricer.quote(r).quote
        #expect(q.tariffBasis == .assumed && q.tariffVersion == "2019-05")
        #expect(q.assumption?.contains("took effect during 2019-05 on a day no source gives") == true, "\(q.assumption ?? "")")
        r.strict = true
        let error = try #require(throws: GeoFareError.self) { try sharedPricer.quote(r) }
        #expect(error.code == .tariffVersionUncertain && error.field == "depart_at")
    }

    @Test("A sourced origin (Seoul, Suwon, Busan) says sourced, with no assumption, and strict changes nothing")
    func sourcedUnchanged() throws {
        let trips: [(Coordinate, Coordinate, String)] = [
            (Coordinate(uncheckedLatitude: 37.5665, longitude: 126.9780), Self.gangnam, "2024-05-15T22:30:00+09:00"),
            (Coordinate(uncheckedLatitude: 37.2636, longitude: 127.0286), Self.gangnam, "2019-06-01T14:00:00+09:00"),
            (Coordinate(uncheckedLatitude: 35.1796, longitude: 129.0756), Coordinate(uncheckedLatitude: 35.1587, longitude: 129.1604), "2024-05-15T23:30:00+09:00"),
        ]
        for (from, to, when) in trips {
            var r = FareRequest(from: from, to: to, departure: at(when))
            r.partySize = 3
            let q = try sharedPricer.quote(r).quote
            #expect(q.tariffBasis == .sourced && q.assumption == nil)
            r.strict = true
            #expect(try sharedPricer.quote(r).quote == q)
            let f = try sharedPricer.figures(r).figures
            #expect(f.tariffBasis == .sourced && f.assumption == nil && f.total == q.total && f.low == q.low && f.high == q.high)
        }
        // The fare-csv golden's Seoul row (Tests/GeoFareCLITests/Fixtures/trips.expected.csv, A1): the same figures.
        var a1 = FareRequest(from: Coordinate(uncheckedLatitude: 37.5665, longitude: 126.9780), to: Self.gangnam, departure: at("2024-05-15T22:30:00+09:00"))
        a1.partySize = 3
        let q = try sharedPricer.quote(a1).quote
        #expect((q.meter, q.total, q.low, q.high, q.perPerson) == (17_520, 17_500, 15_200, 20_800, [5_900, 5_800, 5_800]))
    }

    /// A province whose data names no assumed tariff still refuses (Jeonnam with its assumed_for
    /// taken out: Haenam), and an origin at sea is no_tariff_for_location, strict or not.
    @Test("A province naming no assumed tariff still refuses (Haenam), and an origin at sea is no_tariff_for_location")
    func stillRefused() throws {
        // Every group-only province names an assumed tariff, so the catalog is rebuilt without Jeonnam's.
        let tariffs = sharedCatalog.tariffs.map { t in
            t.assumedFor.isEmpty || t.id != "kr-jeonnam/regular-county" ? t
                : Tariff(id: t.id, aliases: t.aliases, name: t.name, currency: t.currency, timeZone: t.timeZone, region: t.region, alsoRegions: t.alsoRegions,
                         businessZone: t.businessZone, assumedFor: [], defaultCruiseKmh: t.defaultCruiseKmh, versions: t.versions, origin: t.origin)
        }
        let pricer = TripPricer(catalog: try TariffCatalog(tariffs: tariffs, zones: sharedCatalog.zones, slowTime: sharedCatalog.slowTime, slowTimeModels: sharedCatalog.slowTimeModels, tolls: sharedCatalog.tolls), estimator: sharedPricer.estimator)
        let haenam = FareRequest(from: Coordinate(uncheckedLatitude: 34.5732, longitude: 126.5989), to: Coordinate(uncheckedLatitude: 34.5812, longitude: 126.5989),
                                 departure: at("2024-05-15T14:00:00+09:00"))
        let error = try #require(throws: GeoFareError.self) { try pricer.quote(haenam) }
        #expect(error.code == .unknownTariffGroup)
        #expect(try sharedPricer.quote(haenam).quote.tariffBasis == .assumed)
        let sea = FareRequest(from: Coordinate(uncheckedLatitude: 35.0, longitude: 125.0), to: Self.gangnam, departure: at("2024-05-15T14:00:00+09:00"))
        #expect { try sharedPricer.quote(sea) } throws: { ($0 as? GeoFareError)?.code == .noTariffForLocation }
    }

    @Test("assumed_for is validated: a zone that is not a group-only province is an invalid_tariff naming the file")
    func assumedForValidated() throws {
        let base = sharedCatalog.tariffs.first { $0.id == "kr-gyeonggi/regular" }!
        // Gangwon has a tariff of its own: nothing there is unplaced.
        let bad = Tariff(id: "kr-test/regular", aliases: [], name: "test", currency: "KRW", timeZone: base.timeZone, region: nil, alsoRegions: [],
                         businessZone: nil, assumedFor: [.init(zone: "kr-gangwon", label: "x", why: "y")], defaultCruiseKmh: 25, versions: base.versions, origin: "test.json")
        let error = try #require(throws: GeoFareError.self) { try TariffCatalog(tariffs: sharedCatalog.tariffs + [bad], zones: sharedCatalog.zones) }
        #expect(error.code == .invalidTariff && error.field == "test.json: assumed_for[0].zone")
    }
}
