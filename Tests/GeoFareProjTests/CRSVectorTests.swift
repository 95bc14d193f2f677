import Testing
import GeoFareCore
@testable import GeoFareProj

/// The published test vectors of GeoFare's CRS notes: Seoul City Hall (lat 37.5665,
/// lon 126.9780) computed with PROJ 9.1.1 cs2cs and pyproj 9.5.1, which agree to 0.0 mm.
struct CRSVectorTests {
    static let seoulCityHall = XYPoint(x: 126.9780, y: 37.5665)

    static let vectors: [(target: String, easting: Double, northing: Double)] = [
        ("EPSG:3857", 14135126.302, 4518366.510),
        ("EPSG:5179", 953901.165, 1952032.081),
        ("EPSG:5186", 198056.367, 551885.031),
        ("EPSG:5187", 21352.827, 553807.144),
        ("EPSG:5185", 374759.293, 553724.369),
        ("EPSG:5181", 198056.367, 451885.031),
        ("EPSG:2097", 198242.072, 451579.793),
        ("EPSG:5174", 197986.746, 451579.851),
        ("katec", 309910.139, 552073.350),
        ("wcongnamul", 495140.917, 1129712.576),
        ("EPSG:32652", 321424.286, 4159640.641),
        // The aliases of the same EPSG systems must give the same numbers.
        ("utmk", 953901.165, 1952032.081),
        ("webmercator", 14135126.302, 4518366.510),
        ("korea-central-2010", 198056.367, 551885.031),
        ("korea-east-2010", 21352.827, 553807.144),
        ("korea-west-2010", 374759.293, 553724.369),
        ("wtm", 198056.367, 451885.031),
        ("tm128", 309910.139, 552073.350),
    ]

    @Test("Seoul City Hall matches every published vector to 1 mm", arguments: vectors)
    func matchesVector(target: String, easting: Double, northing: Double) throws {
        let t = try CoordinateTransformer(from: "wgs84", to: target)
        let p = try t.transform(Self.seoulCityHall)
        #expect(abs(p.x - easting) <= 0.0011, "easting \(p.x) vs \(easting)")
        #expect(abs(p.y - northing) <= 0.0011, "northing \(p.y) vs \(northing)")
    }

    @Test("KATEC → WGS84 of Naver's guide example (311277, 552097)")
    func naverKatecExample() throws {
        let p = try CoordinateTransformer(from: "katec", to: "wgs84").transform(XYPoint(x: 311277, y: 552097))
        #expect(abs(p.x - 126.9934677) < 0.6e-7)
        #expect(abs(p.y - 37.5668458) < 0.6e-7)
    }

    @Test("The east-sea belt (EPSG:5188) is a real, distinct system")
    func eastSeaBelt() throws {
        let p = try CoordinateTransformer(from: "wgs84", to: "korea-eastsea-2010").transform(XYPoint(x: 130.9, y: 37.5))
        let q = try CoordinateTransformer(from: "wgs84", to: "EPSG:5188").transform(XYPoint(x: 130.9, y: 37.5))
        #expect(p == q)
        // 0.1° west of its central meridian 131°E (false easting 200 km): about 8.8 km.
        #expect(abs(p.x - (200_000 - 8_842.5)) < 1)
        #expect(p != (try CoordinateTransformer(from: "wgs84", to: "EPSG:5187").transform(XYPoint(x: 130.9, y: 37.5))))
    }

    static let koreanPoints: [XYPoint] = [
        XYPoint(x: 126.9780, y: 37.5665),  // Seoul
        XYPoint(x: 129.0756, y: 35.1796),  // Busan
        XYPoint(x: 126.5312, y: 33.4996),  // Jeju
        XYPoint(x: 128.8761, y: 37.7519),  // Gangneung
        XYPoint(x: 130.9057, y: 37.4844),  // Ulleungdo
        XYPoint(x: 126.7052, y: 37.4563),  // Incheon
        XYPoint(x: 126.8526, y: 35.1595),  // Gwangju
        XYPoint(x: 128.6014, y: 35.8714),  // Daegu
        XYPoint(x: 124.7150, y: 37.9700),  // Baengnyeongdo, far west
    ]

    static let aliases = ["wgs84", "webmercator", "utmk", "korea-central-2010", "korea-west-2010", "korea-east-2010",
                          "korea-eastsea-2010", "wtm", "wcongnamul", "katec", "tm128", "EPSG:2097", "EPSG:5174", "EPSG:32652"]

    @Test("WGS84 → alias → WGS84 returns within 1 mm across Korea", arguments: aliases)
    func roundTrip(alias: String) throws {
        let forward = try CoordinateTransformer(from: "wgs84", to: alias)
        let back = try CoordinateTransformer(from: alias, to: "wgs84")
        let projected = try forward.transform(Self.koreanPoints)
        let returned = try back.transform(projected)
        for (a, b) in zip(Self.koreanPoints, returned) {
            let d = Geodesic.wgs84.distanceMeters(Coordinate(uncheckedLatitude: a.y, longitude: a.x), Coordinate(uncheckedLatitude: b.y, longitude: b.x))
            #expect(d < 0.001, "\(alias): \(a) came back as \(b), \(d) m away")
        }
        // And the other way: alias → WGS84 → alias, in the alias's own units (metres).
        if !forward.target.isGeographic {
            let again = try forward.transform(returned)
            for (a, b) in zip(projected, again) {
                #expect(abs(a.x - b.x) < 0.001 && abs(a.y - b.y) < 0.001, "\(alias): \(a) vs \(b)")
            }
        }
    }

    @Test("Alias names are case-insensitive and a PROJ string works as a CRS")
    func namesAndProjStrings() throws {
        #expect(try CRS.resolve("UTMK").definition == "EPSG:5179")
        #expect(try CRS.resolve("epsg:5179").name == "EPSG:5179")
        let p = try CoordinateTransformer(from: "wgs84", to: "+proj=utm +zone=52 +datum=WGS84 +units=m +no_defs").transform(Self.seoulCityHall)
        #expect(abs(p.x - 321424.286) < 0.001 && abs(p.y - 4159640.641) < 0.001)
        #expect(try CRS.resolve("EPSG:4326").isGeographic)
        #expect(try !CRS.resolve("katec").isGeographic)
    }
}
