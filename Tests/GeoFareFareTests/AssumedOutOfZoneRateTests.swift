import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare
import GeoFareRoute

/// A trip leaving the business zone of a tariff version whose out-of-zone (시계외) rate no
/// source gives is priced without the surcharge and says so, with `high` reaching the highest
/// out-of-zone rate in the data; `strict` keeps `unknown_out_of_zone_rate`. Real
/// data: the embedded tariffs and zones.
struct AssumedOutOfZoneRateTests {
    /// Gimje city hall: Jeonbuk, outside Jeonju, Gunsan, Wanju and Iksan, so on the provincial tariff.
    /// (Iksan, the origin here before its 복합할증 got its own file, is on `kr-jeonbuk/regular-iksan`.)
    static let gimje = Coordinate(uncheckedLatitude: 35.8036, longitude: 126.8808)
    static let seoul = Coordinate(uncheckedLatitude: 37.5665, longitude: 126.9780)
    static let day = "2024-05-15T14:00:00+09:00"
    /// The highest out-of-zone rate of any KRW tariff in the data (Jeonju's, Pohang's 2019 one).
    static let top = 50

    /// The embedded catalog with every version of `kr-jeonbuk/regular` charging `percent` outside
    /// its zone, as if a source gave it.
    static func jeonbukPricer(outOfZoneRate percent: Int) throws -> TripPricer {
        let tariffs = sharedCatalog.tariffs.map { t in
            guard t.id == "kr-jeonbuk/regular" else { return t }
            let versions = t.versions.map { v in
                var v = v
                v.outOfZoneRatePercent = percent
                return v
            }
            var copy = Tariff(id: t.id, aliases: t.aliases, name: t.name, currency: t.currency, timeZone: t.timeZone, region: t.region, alsoRegions: t.alsoRegions,
                              businessZone: t.businessZone, assumedFor: t.assumedFor, defaultCruiseKmh: t.defaultCruiseKmh, versions: versions, origin: t.origin)
            copy.slowTimeModel = t.slowTimeModel  // the same meter but for the rate: Korea's slow-time model too
            return copy
        }
        return TripPricer(catalog: try TariffCatalog(tariffs: tariffs, zones: sharedCatalog.zones, slowTime: sharedCatalog.slowTime, slowTimeModels: sharedCatalog.slowTimeModels, tolls: sharedCatalog.tolls), estimator: sharedPricer.estimator)
    }

    @Test("Gimje to Seoul: priced at 0 % out of Jeonbuk, assumed and saying so, high = the same route priced on a copy of the tariff at 50 %")
    func jeonbukToSeoul() throws {
        let (q, route) = try sharedPricer.quote(FareRequest(from: Self.gimje, to: Self.seoul, departure: at(Self.day)))
        #expect(q.tariff == "kr-jeonbuk/regular" && q.tariffVersion == "2023-08-01T00:00:00+09:00")
        #expect(q.tariffBasis == .assumed)
        let assumption = try #require(q.assumption)
        #expect(assumption == "no source gives kr-jeonbuk/regular's out-of-zone (시계외) rate in version 2023-08-01T00:00:00+09:00: priced without it (0 %), "
                + "band up to 50 % (the highest out-of-zone rate in the data, kr-gyeongbuk/regular-pohang, kr-jeonbuk/regular-jeonju); "
                + "low/high cover kr-jeonbuk/regular 2023-08-01T00:00:00+09:00 at 50 % out of zone", "\(assumption)")
        #expect(try #require(route).segments.contains(where: \.outsideZone))
        // The same request on copies of the tariff that give a rate (sourced there): 0 % is the fare and the low,
        // 50 % the high, and it is well above the 0 % one (most of the 230 km is outside Jeonbuk).
        var strict = FareRequest(from: Self.gimje, to: Self.seoul, departure: at(Self.day))
        strict.strict = true
        let zero = try Self.jeonbukPricer(outOfZoneRate: 0).quote(strict).quote
        let fifty = try Self.jeonbukPricer(outOfZoneRate: Self.top).quote(strict).quote
        #expect(zero.tariffBasis == .sourced && fifty.tariffBasis == .sourced)
        #expect(q.total == zero.total && q.meter == zero.meter && q.breakdown == zero.breakdown && q.low == zero.low)
        #expect(q.high == fifty.high && fifty.high > zero.high + 50_000, "\(q.high) \(fifty.high) \(zero.high)")
        #expect(fifty.total > q.total)
    }

    @Test("By hand, on segments: 2,050 m inside and 3,000 m outside Jeonbuk by day, 2023 version (4,300 KRW / 2 km, 134 m / 32 s)")
    func jeonbukSegmentsByHand() throws {
        let segments: [(meters: Double, seconds: Double, slow: Double?, outside: Bool)] = [(2_050, 240, 0, false), (3_000, 300, 0, true)]
        let q = try quote("kr-jeonbuk/regular", segments: segments, at: Self.day, strict: false)
        // N(5,050) = ⌊3,050 / 134⌋ + 1 = 23 units at 100 (0 % outside): 4,300 + 2,300 = 6,600.
        #expect(q.meter == 6_600 && q.total == 6_600 && q.tariffBasis == .assumed)
        // high: all of the time slow, F = 5,050 + 540 s × 134 / 32 m/s = 7,311.25 m; inside F = 2,050 + 240 × 4.1875 = 3,055:
        // N = ⌊1,055 / 134⌋ + 1 = 8 inside at 100; N(7,311.25) = ⌊5,311.25 / 134⌋ + 1 = 40, so 32 outside at 150:
        // 4,300 + 800 + 4,800 = 9,900.
        #expect(q.high == 9_900, "\(q.high)")
        // The same segments on a copy of the tariff at 50 %: its estimate is 1 inside + 22 outside at 150 = 7,700, its high the band's.
        let list = [TripSegment(distanceMeters: 2_050, durationSeconds: 240, slowSeconds: 0, start: at(Self.day), outsideZone: false),
                    TripSegment(distanceMeters: 3_000, durationSeconds: 300, slowSeconds: 0, start: at(Self.day).addingTimeInterval(240), outsideZone: true)]
        var r = FareRequest(trip: .segments(list), departure: at(Self.day), tariff: "kr-jeonbuk/regular")
        r.strict = true
        let fifty = try Self.jeonbukPricer(outOfZoneRate: Self.top).quote(r).quote
        #expect(fifty.meter == 4_300 + 100 + 22 * 150 && fifty.high == q.high)
    }

    @Test("strict: unknown_out_of_zone_rate, byte for byte as before")
    func strictKeepsTheError() throws {
        var r = FareRequest(from: Self.gimje, to: Self.seoul, departure: at(Self.day))
        r.strict = true
        let error = try #require(throws: GeoFareError.self) { try sharedPricer.quote(r) }
        #expect(error.code == .unknownOutOfZoneRate)
        let field = try #require(error.field)
        #expect(field.hasPrefix("segments[") && field.hasSuffix("].outside"))
        let i = field.dropFirst("segments[".count).dropLast("].outside".count)
        #expect(error.message == "tariff 'kr-jeonbuk/regular' version 2023-08-01T00:00:00+09:00 has no known out-of-zone (시계외) rate, and segments[\(i)] runs outside its business zone; no source gives the rate")
        let segments = try quote("kr-jeonbuk/regular", segments: [(2_050, 240, 0, false), (3_000, 300, 0, true)], at: Self.day, strict: false)
        #expect(segments.tariffBasis == .assumed)
        #expect(throws: GeoFareError.self) { try quote("kr-jeonbuk/regular", segments: [(2_050, 240, 0, false), (3_000, 300, 0, true)], at: Self.day) }
    }

    @Test("Inside the zone nothing changes: sourced, no assumption, the same figures strict or not")
    func insideUnchanged() throws {
        let to = Coordinate(uncheckedLatitude: 35.7900, longitude: 126.9000)
        let q = try sharedPricer.quote(FareRequest(from: Self.gimje, to: to, departure: at(Self.day))).quote
        var r = FareRequest(from: Self.gimje, to: to, departure: at(Self.day))
        r.strict = true
        let s = try sharedPricer.quote(r).quote
        #expect(q.tariff == "kr-jeonbuk/regular" && q.tariffBasis == .sourced && q.assumption == nil)
        #expect(q.total == s.total && q.low == s.low && q.high == s.high && q.breakdown == s.breakdown)
    }

    @Test("An assumed version and an assumed rate at once (Jeonbuk in 2018, before its first modelled version): the text names both")
    func bothAssumptions() throws {
        let (q, _) = try sharedPricer.quote(FareRequest(from: Self.gimje, to: Self.seoul, departure: at("2018-06-01T14:00:00+09:00")))
        #expect(q.tariffBasis == .assumed && q.tariffVersion == "2019-05")
        let assumption = try #require(q.assumption)
        #expect(assumption.hasPrefix("no version of kr-jeonbuk/regular is modelled at the departure (its first modelled version starts 2019-05): priced on its earliest modelled version, 2019-05; fares before it were likely lower; "
                                     + "no source gives kr-jeonbuk/regular's out-of-zone (시계외) rate in version 2019-05: priced without it (0 %)"), "\(assumption)")
        #expect(assumption.hasSuffix("low/high cover kr-jeonbuk/regular 2019-05 at 50 % out of zone"), "\(assumption)")
        #expect(q.high > q.total + 50_000)
    }

    @Test("The top of the band is read from the data: the highest out-of-zone rate per currency, and the tariffs giving it")
    func topFromData() throws {
        let h = try #require(sharedCatalog.highestOutOfZoneRate["KRW"])
        let expected = sharedCatalog.tariffs.filter { $0.currency == "KRW" }.flatMap { $0.versions.compactMap(\.outOfZoneRatePercent) }.max()
        #expect(h.percent == expected && h.percent == Self.top)
        #expect(h.tariffs == ["kr-gyeongbuk/regular-pohang", "kr-jeonbuk/regular-jeonju"])
        // A version that gives a rate is never assumed.
        let seoul = try sharedCatalog.meter(tariff: "kr-seoul/regular", at: at(Self.day))
        #expect(sharedCatalog.assumedOutOfZoneRate(seoul) == nil)
    }
}
