import GeoFareCore
import GeoFareProj
import Testing

@Suite("WGS84 geodesic")
struct GeodesicTests {
    @Test("Vincenty agrees with Karney (PROJ geod_inverse) to 0.1 mm on road-sized and longer segments")
    func againstKarney() throws {
        var rng = SeededGenerator(seed: 12)
        for i in 0..<5000 {
            let lat = Double.random(in: -80...80, using: &rng), lon = Double.random(in: -180...180, using: &rng)
            // segments from 1 cm to 50 km, any bearing
            let scale = [1e-7, 1e-5, 1e-3, 0.05, 0.5][i % 5]
            let lat2 = lat + Double.random(in: -scale...scale, using: &rng), lon2 = lon + Double.random(in: -scale...scale, using: &rng)
            let karney = try Geodesic.wgs84.inverse(latitude1: lat, longitude1: lon, latitude2: lat2, longitude2: lon2).distanceMeters
            let ours = WGS84Geodesic.distanceMeters(latitude1: lat, longitude1: lon, latitude2: lat2, longitude2: lon2)
            #expect(abs(ours - karney) < 1e-4, "\(lat),\(lon) → \(lat2),\(lon2): \(ours) vs \(karney)")
        }
    }

    @Test("known values")
    func known() {
        #expect(WGS84Geodesic.distanceMeters(latitude1: 1, longitude1: 2, latitude2: 1, longitude2: 2) == 0)
        // one degree of longitude on the equator is a·π/180
        #expect(abs(WGS84Geodesic.distanceMeters(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 1) - 111_319.490_793_273_57) < 1e-6)
    }
}
