import Foundation
import Testing
import GeoFareCore
import GeoFareData
@testable import GeoFareFare
import GeoFareRoute

/// A province's tariff whose 시계외 starts at the boundary of the origin's 시·군
/// (`business_zones`): Jeonnam's counties and cities, Gangwon, Gyeongbuk.
struct OriginBusinessZoneTests {
    static let hampyeong = Coordinate(uncheckedLatitude: 35.0659, longitude: 126.5166)   // county office
    static let hampyeongStation = Coordinate(uncheckedLatitude: 35.0870, longitude: 126.5300)
    static let muan = Coordinate(uncheckedLatitude: 34.9904, longitude: 126.4817)        // county office, next county
    static let gwangju = Coordinate(uncheckedLatitude: 35.1595, longitude: 126.8526)
    static let chuncheon = Coordinate(uncheckedLatitude: 37.8813, longitude: 127.7298)
    static let hongcheon = Coordinate(uncheckedLatitude: 37.6970, longitude: 127.8888)
    static let day = "2025-05-14T14:00:00+09:00"

    func route(_ a: Coordinate, _ b: Coordinate) throws -> (quote: FareQuote, outside: Double, total: Double) {
        let (q, r) = try sharedPricer.quote(FareRequest(from: a, to: b, departure: at(Self.day)))
        let segments = try #require(r).segments
        return (q, segments.filter(\.outsideZone).reduce(0) { $0 + $1.distanceMeters }, segments.reduce(0) { $0 + $1.distanceMeters })
    }

    /// Hampyeong to Muan (the next county, same province) carries 시계외 beyond Hampyeong's boundary;
    /// inside Hampyeong none; to Gwangju from the county line, not only inside Gwangju.
    @Test("Hampyeong to Muan carries 시계외 beyond Hampyeong's boundary, none inside it; to Gwangju from the county line")
    func jeonnamCounty() throws {
        let muan = try route(Self.hampyeong, Self.muan)
        #expect(muan.quote.tariff == "kr-jeonnam/regular-county")
        #expect(muan.outside > 0.2 * muan.total && muan.outside < 0.95 * muan.total, "\(muan.outside) of \(muan.total)")
        let inside = try route(Self.hampyeong, Self.hampyeongStation)
        #expect(inside.outside == 0)
        // Into Gwangju: the part between Hampyeong's boundary and Gwangju's is outside too now.
        let zone = try #require(sharedPricer.catalog.businessZone(ofTariffAt: try sharedPricer.catalog.tariffIndex("kr-jeonnam/regular-county"), origin: Self.hampyeong))
        let province = try #require(sharedCatalog.zones.zone("kr-jeonnam")).polygon
        #expect(zone.contains(Self.hampyeong) && !zone.contains(Self.muan) && province.contains(Self.muan))
        let gwangju = try route(Self.hampyeong, Self.gwangju)
        #expect(gwangju.outside > 0.5 * gwangju.total, "\(gwangju.outside) of \(gwangju.total)")
    }

    @Test("Gangwon: Chuncheon to Hongcheon leaves Chuncheon's zone; an origin in no listed zone keeps the province")
    func gangwon() throws {
        let trip = try route(Self.chuncheon, Self.hongcheon)
        #expect(trip.quote.tariff == "kr-gangwon/regular" && trip.outside > 0)
        let i = try sharedPricer.catalog.tariffIndex("kr-gangwon/regular")
        let sea = Coordinate(uncheckedLatitude: 37.9, longitude: 129.5)
        #expect(sharedPricer.catalog.businessZone(ofTariffAt: i, origin: sea) == sharedPricer.catalog.businessZone(ofTariffAt: i))
    }

    @Test("business_zones needs business_zone and distinct ids; the catalog checks every zone is loaded")
    func validated() throws {
        let bytes = try DataCatalog.embedded.file("tariffs/kr-gangwon-regular.json").bytes
        var json = try JSONSerialization.jsonObject(with: bytes) as! [String: Any]
        json["business_zones"] = ["kr-sgg-gangwon-chuncheon", "kr-sgg-gangwon-chuncheon"]
        var error = try #require(throws: GeoFareError.self) { try TariffFile.load(try JSONSerialization.data(withJSONObject: json), origin: "gw.json") }
        #expect(error.code == .invalidTariff && error.field == "gw.json: business_zones", "\(error)")
        json["business_zones"] = ["kr-sgg-gangwon-chuncheon"]
        json["business_zone"] = NSNull()
        error = try #require(throws: GeoFareError.self) { try TariffFile.load(try JSONSerialization.data(withJSONObject: json), origin: "gw.json") }
        #expect(error.code == .invalidTariff && error.field == "gw.json: business_zones", "\(error)")
        json["business_zone"] = "kr-gangwon"
        json["business_zones"] = ["kr-sgg-gangwon-chuncheon", "kr-sgg-gangwon-nowhere"]
        let gangwon = try TariffFile.load(try JSONSerialization.data(withJSONObject: json), origin: "gw.json")
        var tariffs = sharedCatalog.tariffs
        tariffs[try #require(tariffs.firstIndex { $0.id == "kr-gangwon/regular" })] = gangwon
        error = try #require(throws: GeoFareError.self) { try TariffCatalog(tariffs: tariffs, zones: sharedCatalog.zones) }
        #expect(error.code == .invalidTariff && error.message.contains("kr-sgg-gangwon-nowhere"), "\(error)")
    }

    @Test("Every zone id is defined once across the zone files (a later feature with the same id would silently replace an earlier one)")
    func uniqueZoneIDs() throws {
        var seen: [String: String] = [:]
        for path in DataCatalog.embeddedPaths where path.hasPrefix("zones/") && path.hasSuffix(".geojson") {
            let json = try JSONSerialization.jsonObject(with: try DataCatalog.embedded.file(path).bytes) as! [String: Any]
            for feature in json["features"] as! [[String: Any]] {
                let id = (feature["properties"] as! [String: Any])["id"] as! String
                #expect(seen[id] == nil, "\(id) in \(path) and \(seen[id] ?? "")")
                seen[id] = path
            }
        }
        #expect(seen.keys.filter { $0.hasPrefix("kr-sgg-") }.count == 92)
    }
}
