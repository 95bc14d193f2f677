import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare

/// The origin picks the tariff: a city hall in each of the seventeen regions, a point in each
/// province city group, New York's five boroughs, and points where no tariff applies (at sea,
/// outside New York, or in a 시·군 whose group no source names) with their clear error.
struct TariffByLocationTests {
    struct Place: NamedCase {
        let name: String, lat: Double, lon: Double, tariff: String
    }

    static let cityHalls: [Place] = [
        Place(name: "Seoul City Hall", lat: 37.5665, lon: 126.9780, tariff: "kr-seoul/regular"),
        Place(name: "Busan City Hall", lat: 35.1796, lon: 129.0756, tariff: "kr-busan/regular"),
        Place(name: "Daegu City Hall", lat: 35.8714, lon: 128.6014, tariff: "kr-daegu/regular"),
        Place(name: "Incheon City Hall", lat: 37.4563, lon: 126.7052, tariff: "kr-incheon/regular"),
        Place(name: "Gwangju City Hall", lat: 35.1601, lon: 126.8514, tariff: "kr-gwangju/regular"),
        Place(name: "Daejeon City Hall", lat: 36.3504, lon: 127.3845, tariff: "kr-daejeon/regular"),
        Place(name: "Ulsan City Hall", lat: 35.5396, lon: 129.3115, tariff: "kr-ulsan/regular"),
        Place(name: "Sejong City Hall", lat: 36.4800, lon: 127.2890, tariff: "kr-sejong/regular"),
        Place(name: "Suwon City Hall (Gyeonggi 표준형)", lat: 37.2636, lon: 127.0286, tariff: "kr-gyeonggi/regular"),
        Place(name: "Chuncheon City Hall (Gangwon)", lat: 37.8813, lon: 127.7298, tariff: "kr-gangwon/regular"),
        Place(name: "Cheongju City Hall (Chungbuk)", lat: 36.6424, lon: 127.4890, tariff: "kr-chungbuk/regular"),
        Place(name: "Cheonan City Hall (Chungnam)", lat: 36.8151, lon: 127.1139, tariff: "kr-chungnam/regular-cheonan"),
        Place(name: "Jeonju City Hall (Jeonbuk)", lat: 35.8242, lon: 127.1480, tariff: "kr-jeonbuk/regular-jeonju"),
        Place(name: "Suncheon City Hall (Jeonnam)", lat: 34.9506, lon: 127.4872, tariff: "kr-jeonnam/regular-suncheon"),
        Place(name: "Pohang City Hall (Gyeongbuk)", lat: 36.0190, lon: 129.3435, tariff: "kr-gyeongbuk/regular-pohang"),
        Place(name: "Changwon City Hall (Gyeongnam)", lat: 35.2280, lon: 128.6811, tariff: "kr-gyeongnam/regular-changwon"),
        Place(name: "Jeju City Hall", lat: 33.4996, lon: 126.5312, tariff: "kr-jeju/regular"),
    ]

    /// Province groups whose tariffs differ, each picked by its 시·군 polygon.
    static let groups: [Place] = [
        Place(name: "Seongnam City Hall (Gyeonggi 표준형)", lat: 37.4200, lon: 127.1265, tariff: "kr-gyeonggi/regular"),
        Place(name: "Yongin City Hall (Gyeonggi 가형)", lat: 37.2411, lon: 127.1776, tariff: "kr-gyeonggi/regular-1800"),
        Place(name: "Hwaseong City Hall (Gyeonggi 가형)", lat: 37.1995, lon: 126.8313, tariff: "kr-gyeonggi/regular-1800"),
        Place(name: "Icheon City Hall (Gyeonggi 나형)", lat: 37.2720, lon: 127.4350, tariff: "kr-gyeonggi/regular-2000"),
        Place(name: "Anseong City Hall (Gyeonggi 나형)", lat: 37.0080, lon: 127.2797, tariff: "kr-gyeonggi/regular-2000"),
        Place(name: "Gunsan City Hall (Jeonbuk)", lat: 35.9676, lon: 126.7366, tariff: "kr-jeonbuk/regular-gunsan"),
        Place(name: "Wanju-gun Office (Jeonbuk)", lat: 35.9045, lon: 127.1622, tariff: "kr-jeonbuk/regular-wanju"),
        Place(name: "Gunwi-gun Office (Daegu since 2023)", lat: 36.2400, lon: 128.5700, tariff: "kr-daegu/regular"),
        Place(name: "Gwangmyeong City Hall (Gyeonggi, on Seoul's tariff)", lat: 37.4786, lon: 126.8646, tariff: "kr-seoul/regular"),
        Place(name: "Gwangmyeong Station (KTX)", lat: 37.4163, lon: 126.8848, tariff: "kr-seoul/regular"),
    ]

    @Test("The origin picks its region's tariff: a city hall per Korean region, a point per province group, New York's boroughs",
          arguments: cityHalls + groups + newYork)
    func picksByLocation(_ p: Place) throws {
        let t = try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: p.lat, longitude: p.lon))
        #expect(t.id == p.tariff, "\(p.name): \(t.id)")
    }

    @Test("Each group zone is inside its province's zone and the group tariffs point at it")
    func groupZones() throws {
        let zones = sharedCatalog.zones
        for (group, province) in [("kr-gyeonggi-standard", "kr-gyeonggi"), ("kr-gyeonggi-gwangmyeong", "kr-gyeonggi"), ("kr-gyeonggi-ga", "kr-gyeonggi"), ("kr-gyeonggi-na", "kr-gyeonggi"),
                                  ("kr-chungnam-cheonan", "kr-chungnam"), ("kr-jeonbuk-jeonju", "kr-jeonbuk"), ("kr-jeonbuk-gunsan", "kr-jeonbuk"),
                                  ("kr-jeonbuk-wanju", "kr-jeonbuk"), ("kr-jeonnam-suncheon", "kr-jeonnam"),
                                  ("kr-gyeongbuk-pohang", "kr-gyeongbuk"), ("kr-gyeongnam-changwon", "kr-gyeongnam")] {
            let g = try #require(zones.zone(group), "\(group)")
            let p = try #require(zones.zone(province), "\(province)")
            let point = try #require(g.polygon.rings.first?.first)
            #expect(p.polygon.contains(Coordinate(uncheckedLatitude: point.y, longitude: point.x)) || p.polygon.distanceMeters(to: Coordinate(uncheckedLatitude: point.y, longitude: point.x)) < 50, "\(group) vertex outside \(province)")
            #expect(sharedCatalog.tariffs.contains { $0.region == group || $0.alsoRegions.contains(group) }, "no tariff for \(group)")
        }
    }

    @Test("At sea, far from land: no_tariff_for_location naming the field")
    func atSea() throws {
        for (lat, lon) in [(34.2, 128.6), (36.0, 124.5), (38.5, 131.5)] {
            let error = try #require(throws: GeoFareError.self) {
                try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: lat, longitude: lon))
            }
            #expect(error.code == .noTariffForLocation)
            #expect(error.field == "from")
        }
    }

    @Test("A 시·군 whose tariff group the sources do not name: unknown_tariff_group naming the province and the modelled groups, never a guessed group")
    func unnamedGroup() throws {
        // Named members keep their groups: Suwon (표준형), Yongin (가형), Icheon (나형).
        #expect(try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: 37.2636, longitude: 127.0286)).id == "kr-gyeonggi/regular")
        #expect(try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: 37.2411, longitude: 127.1776)).id == "kr-gyeonggi/regular-1800")
        #expect(try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: 37.2722, longitude: 127.4350)).id == "kr-gyeonggi/regular-2000")
        // Placed by a source: Goyang and Paju (표준형), Hanam (가형), Pocheon (나형), Gimhae, Andong, Mokpo and Hampyeong.
        for (lat, lon, tariff) in [(37.6584, 126.8320, "kr-gyeonggi/regular"), (37.7600, 126.7800, "kr-gyeonggi/regular"),
                                   (37.5392, 127.2149, "kr-gyeonggi/regular-1800"), (37.8949, 127.2003, "kr-gyeonggi/regular-2000"),
                                   (35.2285, 128.8894, "kr-gyeongnam/regular"), (36.5684, 128.7296, "kr-gyeongbuk/regular"),
                                   (34.8118, 126.3922, "kr-jeonnam/regular"), (35.0659, 126.5164, "kr-jeonnam/regular-county"),
                                   (35.8036, 126.8808, "kr-jeonbuk/regular"),
                                   // Iksan and Yeosu have their own files for their distance tiers.
                                   (35.9403, 126.9545, "kr-jeonbuk/regular-iksan"), (34.7604, 127.6622, "kr-jeonnam/regular-yeosu")] {
            #expect(try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: lat, longitude: lon)).id == tariff, "\(lat),\(lon)")
        }
        // Every province whose cities set their own tariffs and has 시·군 no source places. Gyeonggi: Uijeongbu,
        // Gimpo, Pyeongtaek (placed for 2019 only); Hongseong (Chungnam: only Cheonan), Haenam (Jeonnam), Uiseong
        // (Gyeongbuk), Hapcheon (Gyeongnam). Jeonbuk has a provincial tariff.
        let gyeonggi = "kr-gyeonggi/regular, kr-gyeonggi/regular-1800, kr-gyeonggi/regular-2000"
        for (lat, lon, province, modelled) in [(37.7381, 127.0337, "kr-gyeonggi", gyeonggi), (37.6150, 126.7158, "kr-gyeonggi", gyeonggi),
                                               (36.9921, 127.1129, "kr-gyeonggi", gyeonggi),
                                               (36.6011, 126.6608, "kr-chungnam", "kr-chungnam/regular-cheonan"),
                                               (34.5732, 126.5989, "kr-jeonnam", "kr-jeonnam/regular-suncheon"),
                                               (36.3527, 128.6970, "kr-gyeongbuk", "kr-gyeongbuk/regular-pohang"),
                                               (35.5665, 128.1658, "kr-gyeongnam", "kr-gyeongnam/regular-changwon")] {
            let error = try #require(throws: GeoFareError.self) {
                try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: lat, longitude: lon))
            }
            #expect(error.code == .unknownTariffGroup, "\(province): \(error)")
            #expect(error.field == "from")
            #expect(error.message.contains("(\(province))") && error.message.contains(modelled) && error.message.contains("tariff group"), "\(error.message)")
        }
        // A province with a default (Gangwon, Chungbuk) or a city (Busan) never gives it; the sea neither (atSea).
        #expect(try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: 37.7519, longitude: 128.8761)).id == "kr-gangwon/regular")
    }

    /// New York City (the five boroughs, Data/zones/us-nyc.geojson) and points just outside it.
    static let newYork: [Place] = [
        Place(name: "Times Square (Manhattan)", lat: 40.7580, lon: -73.9855, tariff: "us-nyc/yellow"),
        Place(name: "JFK Terminal 4 (Queens)", lat: 40.6441, lon: -73.7822, tariff: "us-nyc/yellow"),
        Place(name: "St. George ferry terminal (Staten Island)", lat: 40.6437, lon: -74.0736, tariff: "us-nyc/yellow"),
        Place(name: "Tottenville (Staten Island's south tip)", lat: 40.5083, lon: -74.2390, tariff: "us-nyc/yellow"),
        Place(name: "Bronx Zoo", lat: 40.8506, lon: -73.8770, tariff: "us-nyc/yellow"),
        Place(name: "Coney Island (Brooklyn)", lat: 40.5755, lon: -73.9707, tariff: "us-nyc/yellow"),
    ]

    @Test("Hoboken, Newark, Jersey City and Yonkers are outside New York City: no_tariff_for_location")
    func outsideNewYork() throws {
        // Hoboken Terminal (1.3 km across the Hudson from Manhattan), Newark Penn Station,
        // Journal Square (Jersey City), Yonkers City Hall (just north of the Bronx).
        for (lat, lon) in [(40.7350, -74.0275), (40.7347, -74.1644), (40.7328, -74.0627), (40.9345, -73.8988)] {
            let error = try #require(throws: GeoFareError.self) {
                try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: lat, longitude: lon))
            }
            #expect(error.code == .noTariffForLocation, "\(lat),\(lon)")
        }
    }

    @Test("A trip from Times Square names no tariff and is priced as if it named us-nyc/yellow, also to Newark")
    func newYorkByLocation() throws {
        let timesSquare = Coordinate(uncheckedLatitude: 40.7580, longitude: -73.9855)
        for to in [Coordinate(uncheckedLatitude: 40.7060, longitude: -74.0088), Coordinate(uncheckedLatitude: 40.7347, longitude: -74.1644)] {
            let byPlace = FareRequest(from: timesSquare, to: to, departure: at("2024-05-15T14:00:00-04:00"))
            var named = byPlace
            named.tariff = "us-nyc/yellow"
            let (q, _) = try pricer.quote(byPlace)
            let (n, _) = try pricer.quote(named)
            #expect(q.tariff == "us-nyc/yellow")
            #expect(q.total == n.total && q.total > 0)
            // The tariff has no business zone: leaving the city adds nothing (as when named).
            #expect(q.breakdown.unitSurcharges == 0)
        }
    }

    @Test("A border sliver still snaps to the nearest region within 500 m")
    func snap() throws {
        // The sub-metre Seoul–Gyeonggi sliver of TripPricerTests: either neighbour's tariff, never an error.
        let sliver = try sharedCatalog.tariff(forOrigin: Coordinate(uncheckedLatitude: 37.575954, longitude: 127.101542))
        #expect(["kr-seoul/regular", "kr-gyeonggi/regular"].contains(sliver.id), "\(sliver.id)")
    }

    @Test("Gwangmyeong prices on Seoul's tariff, inside Seoul's business zone: as if the tariff were named, and without the Gyeonggi tariff's out-of-city rate")
    func gwangmyeongOnSeoulTariff() throws {
        let gwangmyeong = Coordinate(uncheckedLatitude: 37.4786, longitude: 126.8646)
        let cityHall = Coordinate(uncheckedLatitude: 37.5665, longitude: 126.9780)
        for when in ["2018-03-14T14:00:00+09:00", "2021-05-12T14:00:00+09:00", "2024-05-15T23:30:00+09:00"] {
            let (q, _) = try pricer.quote(FareRequest(from: gwangmyeong, to: cityHall, departure: at(when)))
            let (named, _) = try pricer.quote(FareRequest(from: gwangmyeong, to: cityHall, departure: at(when), tariff: "kr-seoul/regular"))
            let (gyeonggi, _) = try pricer.quote(FareRequest(from: gwangmyeong, to: cityHall, departure: at(when), tariff: "kr-gyeonggi/regular"))
            #expect(q.tariff == "kr-seoul/regular", "\(when)")
            #expect(q.total == named.total && q.total > 0, "\(when)")
            // Seoul's business zone holds Gwangmyeong: by day no surcharged unit at all, while
            // Gyeonggi's tariff (whose zone Seoul is outside of) adds its out-of-city rate.
            #expect(gyeonggi.breakdown.unitSurcharges > q.breakdown.unitSurcharges, "\(when)")
            if !when.contains("T23:") { #expect(q.breakdown.unitSurcharges == 0, "\(when)") }
        }
    }

    @Test("A routed trip leaving a zone whose out-of-city rate no source gives is refused under strict, else priced at 0 % and assumed; inside it is priced")
    func routedOutOfZone() throws {
        let chuncheon = Coordinate(uncheckedLatitude: 37.8813, longitude: 127.7298)
        let seoul = Coordinate(uncheckedLatitude: 37.5665, longitude: 126.9780)
        var strict = FareRequest(from: chuncheon, to: seoul, departure: at("2025-05-14T14:00:00+09:00"))
        strict.strict = true
        let error = try #require(throws: GeoFareError.self) { try pricer.quote(strict) }
        #expect(error.code == .unknownOutOfZoneRate)
        // Not strict: priced without the surcharge, and it says so.
        let assumed = try pricer.quote(FareRequest(from: chuncheon, to: seoul, departure: at("2025-05-14T14:00:00+09:00"))).quote
        #expect(assumed.tariffBasis == .assumed && assumed.assumption?.hasPrefix("no source gives kr-gangwon/regular's out-of-zone (시계외) rate") == true)
        // Inside Chuncheon the 2024 Gangwon tariff prices the trip.
        let (q, _) = try pricer.quote(FareRequest(from: chuncheon, to: Coordinate(uncheckedLatitude: 37.8650, longitude: 127.7200),
                                            departure: at("2025-05-14T14:00:00+09:00")))
        #expect(q.tariff == "kr-gangwon/regular")
        #expect(q.tariffVersion == "2024-08-05T00:00:00+09:00")
        // Under the 2022 version (20 % restated by the province) the same long trip is priced, with a surcharge.
        let (old, _) = try pricer.quote(FareRequest(from: chuncheon, to: seoul, departure: at("2023-05-10T14:00:00+09:00")))
        #expect(old.breakdown.unitSurcharges > 0)
    }
}
