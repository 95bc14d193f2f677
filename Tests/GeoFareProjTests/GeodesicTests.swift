import Testing
import GeoFareCore
import GeoFareProj

/// Karney's published test cases (GeographicLib's GeodTest set, as used by PROJ's
/// src/tests/geodtest.cpp; © Charles Karney, MIT/X11 licence): lat1, lon1, azi1, lat2, lon2,
/// azi2, s12 (metres).
struct GeodesicTests {
    static let cases: [(Double, Double, Double, Double, Double, Double, Double)] = [
        (35.60777, -139.44815, 111.098748429560326, -11.17491, -69.95921, 129.289270889708762, 8935244.5604818305),
        (55.52454, 106.05087, 22.020059880982801, 77.03196, 197.18234, 109.112041110671519, 4105086.1713924406),
        (-21.97856, 142.59065, -32.44456876433189, 41.84138, 98.56635, -41.84359951440466, 8394328.894657671),
        (-66.99028, 112.2363, 173.73491240878403, -12.70631, 285.90344, 2.512956620913668, 11150344.2312080241),
        (-17.42761, 173.34268, -159.033557661192928, -15.84784, 5.93557, -20.787484651536988, 16076603.1631180673),
        (32.84994, 48.28919, 150.492927788121982, -56.28556, 202.29132, 48.113449399816759, 16727068.9438164461),
        (6.96833, 52.74123, 92.581585386317712, -7.39675, 206.17291, 90.721692165923907, 17102477.2496958388),
        (-50.56724, -16.30485, -105.439679907590164, -33.56571, -94.97412, -47.348547835650331, 6455670.5118668696),
        (-58.93002, -8.90775, 140.965397902500679, -8.91104, 133.13503, 19.255429433416599, 11756066.0219864627),
        (-68.82867, -74.28391, 93.774347763114881, -50.63005, -8.36685, 34.65564085411343, 3956936.926063544),
        (-10.62672, -32.0898, -86.426713286747751, 5.883, -134.31681, -80.473780971034875, 11470869.3864563009),
        (-21.76221, 166.90563, 29.319421206936428, 48.72884, 213.97627, 43.508671946410168, 9098627.3986554915),
        (-19.79938, -174.47484, 71.167275780171533, -11.99349, -154.35109, 65.589099775199228, 2319004.8601169389),
        (-11.95887, -116.94513, 92.712619830452549, 4.57352, 7.16501, 78.64960934409585, 13834722.5801401374),
        (-87.85331, 85.66836, -65.120313040242748, 66.48646, 16.09921, -4.888658719272296, 17286615.3147144645),
        (1.74708, 128.32011, -101.584843631173858, -11.16617, 11.87109, -86.325793296437476, 12942901.1241347408),
        (-25.72959, -144.90758, -153.647468693117198, -57.70581, -269.17879, -48.343983158876487, 9413446.7452453107),
        (-41.22777, 122.32875, 14.285113402275739, -7.57291, 130.37946, 10.805303085187369, 3812686.035106021),
        (11.01307, 138.25278, 79.43682622782374, 6.62726, 247.05981, 103.708090215522657, 11911190.819018408),
        (-29.47124, 95.14681, -163.779130441688382, -27.46601, -69.15955, -15.909335945554969, 13487015.8381145492),
    ]

    @Test("Inverse: distance within 1e-6 m and azimuths within 1e-9° of GeographicLib", arguments: cases.indices)
    func inverse(index: Int) throws {
        let (lat1, lon1, azi1, lat2, lon2, azi2, s12) = Self.cases[index]
        let r = try Geodesic.wgs84.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
        #expect(abs(r.distanceMeters - s12) <= 1e-6)
        #expect(abs(r.initialAzimuthDegrees - azi1) <= 1e-9)
        #expect(abs(r.finalAzimuthDegrees - azi2) <= 1e-9)
    }

    @Test("Direct: the end point within 1e-9° of GeographicLib", arguments: cases.indices)
    func direct(index: Int) throws {
        let (lat1, lon1, azi1, lat2, lon2, azi2, s12) = Self.cases[index]
        let start = try Coordinate(latitude: lat1, longitude: (lon1 + 540).truncatingRemainder(dividingBy: 360) - 180)
        let r = try Geodesic.wgs84.direct(from: start, azimuthDegrees: azi1, distanceMeters: s12)
        var dLon = (r.longitude - lon2).truncatingRemainder(dividingBy: 360)
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        #expect(abs(r.latitude - lat2) <= 1e-9)
        #expect(abs(dLon) <= 1e-9)
        #expect(abs(r.finalAzimuthDegrees - azi2) <= 1e-9)
    }

    @Test("GeodSolve0: JFK to CDG is 5,853,226 m")
    func jfkToCdg() throws {
        let r = try Geodesic.wgs84.inverse(latitude1: 40.6, longitude1: -73.8, latitude2: 49.01666667, longitude2: 2.55)
        #expect(abs(r.distanceMeters - 5853226) <= 0.5)
        #expect(abs(r.initialAzimuthDegrees - 53.47022) <= 0.5e-5)
    }

    @Test("Bad input to the geodesic is rejected with the field")
    func invalid() {
        #expect(throws: GeoFareError.self) { try Geodesic.wgs84.inverse(latitude1: .nan, longitude1: 0, latitude2: 0, longitude2: 0) }
        let error = #expect(throws: GeoFareError.self) { try Geodesic.wgs84.inverse(latitude1: 0, longitude1: 0, latitude2: 90.5, longitude2: 0) }
        #expect(error?.field == "lat2" && error?.code == .latitudeOutOfRange)
    }

    @Test("Fast distances stay within their documented error of the geodesic in Korea")
    func fastDistanceError() throws {
        var rng = SeededGenerator(seed: 3)
        var worstHaversine = 0.0, worstRuler = 0.0
        for _ in 0..<2_000 {
            let a = try Coordinate(latitude: .random(in: 33...38.6, using: &rng), longitude: .random(in: 124.5...131, using: &rng))
            let b = try Coordinate(latitude: a.latitude + .random(in: -0.5...0.5, using: &rng), longitude: a.longitude + .random(in: -0.5...0.5, using: &rng))
            let exact = Geodesic.wgs84.distanceMeters(a, b)
            guard exact > 100 else { continue }
            worstHaversine = max(worstHaversine, abs(FastDistance.haversineMeters(a, b) - exact) / exact)
            worstRuler = max(worstRuler, abs(CheapRuler(latitude: (a.latitude + b.latitude) / 2).distanceMeters(a, b) - exact) / exact)
        }
        #expect(worstHaversine < 0.003)
        #expect(worstRuler < 0.001)
    }
}
