import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// Reverse look-up at addressed buildings gives their house number and street.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct ReverseAddressTests {
    /// A point inside a closed way's outline (degrees): its vertices' centroid when inside, else
    /// the first midpoint of the centroid and a vertex that is.
    static func inside(_ ring: [(Double, Double)]) -> (Double, Double)? {
        func holds(_ p: (Double, Double)) -> Bool {
            var c = false
            var j = ring.count - 1
            for i in ring.indices {
                let (yi, xi) = ring[i], (yj, xj) = ring[j]
                if (yi > p.0) != (yj > p.0), p.1 < (xj - xi) * (p.0 - yi) / (yj - yi) + xi { c.toggle() }
                j = i
            }
            return c
        }
        let centroid = (ring.map(\.0).reduce(0, +) / Double(ring.count), ring.map(\.1).reduce(0, +) / Double(ring.count))
        if holds(centroid) { return centroid }
        for i in ring.indices {
            let p = ((ring[i].0 + centroid.0) / 2, (ring[i].1 + centroid.1) / 2)
            if holds(p) { return p }
        }
        return nil
    }

    @Test("A point inside an addressed building gives that building's number and street (or a smaller addressed building's around it)",
          arguments: ["busan_seomyeon_1km.osm.pbf", PlacesData.midtown, "seoul_mapo.osm.pbf"])
    func buildings(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        let osm = try OSMElements.of(extract)
        let buildings = osm.ways.filter {
            $0.tags["building"] != nil && $0.tags["addr:housenumber"] != nil && $0.tags["addr:street"] != nil
                && $0.refs.count > 3 && $0.refs.first == $0.refs.last && $0.points.count == $0.refs.count
        }
        var rng = SeededGenerator(seed: 4)
        var tried = 0, same = 0
        for _ in 0..<min(80, buildings.count) {
            let b = buildings[Int.random(in: 0..<buildings.count, using: &rng)]
            guard let p = Self.inside(b.points) else { continue }
            tried += 1
            let r = try index.reverse(try Coordinate(latitude: p.0, longitude: p.1), radiusMeters: 100)
            let a = try #require(r.address, "\(extract): no address at \(p) inside \(b.id)")
            #expect(a.distanceMeters == 0)
            let n = a.place.address.first { $0.key == "housenumber" }?.value, s = a.place.address.first { $0.key == "street" }?.value
            if a.place.osmID == b.id {
                #expect(n == b.tags["addr:housenumber"] && s == b.tags["addr:street"])
                same += 1
            }
        }
        #expect(tried >= 20, "\(extract): \(tried) buildings")
        #expect(Double(same) >= 0.9 * Double(tried), "\(extract): \(same) of \(tried) give their own building")
    }

    @Test("The Empire State Building's address under a pin on it")
    func empireState() throws {
        let index = try PlacesData.index(PlacesData.midtown)
        let r = try index.reverse(try Coordinate(latitude: 40.74852, longitude: -73.98604), radiusMeters: 200)
        #expect(r.address?.place.osmID == "w34633854")
        #expect(r.address?.place.addressLine == "350 5th Avenue")
    }
}
