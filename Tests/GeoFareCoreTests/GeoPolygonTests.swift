import Foundation
import Testing
import GeoFareCore

/// The band index must give exactly what a scan of every edge gives.
struct GeoPolygonTests {
    /// A star-shaped ring with a hole, many edges, crossing many bands.
    static let polygon: GeoPolygon = {
        var outer: [XYPoint] = [], hole: [XYPoint] = []
        for i in 0..<400 {
            let a = Double(i) / 400 * 2 * .pi
            let r = 1 + 0.3 * sin(7 * a)
            outer.append(XYPoint(x: 127 + r * cos(a), y: 37 + r * sin(a)))
            hole.append(XYPoint(x: 127 + 0.2 * cos(-a), y: 37 + 0.2 * sin(-a)))
        }
        return GeoPolygon(rings: [outer, hole])
    }()

    static func bruteContains(_ x: Double, _ y: Double) -> Bool {
        var inside = false
        for ring in polygon.rings {
            var j = ring.count - 1
            for i in ring.indices {
                let a = ring[i], b = ring[j]
                if (a.y > y) != (b.y > y) && x < (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
                j = i
            }
        }
        return inside
    }

    @Test("Point-in-polygon with the band index equals a full scan")
    func pointInPolygon() {
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<20_000 {
            let x = Double.random(in: 125.5...128.5, using: &rng), y = Double.random(in: 35.5...38.5, using: &rng)
            #expect(Self.polygon.contains(longitude: x, latitude: y) == Self.bruteContains(x, y))
        }
        #expect(Self.polygon.contains(longitude: 127.5, latitude: 37))
        #expect(!Self.polygon.contains(longitude: 127, latitude: 37))  // in the hole
    }

    @Test("Crossings flip inside/outside exactly where the state changes along the segment")
    func crossings() {
        var rng = SeededGenerator(seed: 6)
        for _ in 0..<3_000 {
            let a = Coordinate(uncheckedLatitude: .random(in: 35.5...38.5, using: &rng), longitude: .random(in: 125.5...128.5, using: &rng))
            let b = Coordinate(uncheckedLatitude: .random(in: 35.5...38.5, using: &rng), longitude: .random(in: 125.5...128.5, using: &rng))
            let cuts = Self.polygon.crossings(from: a, to: b)
            // The parity of the crossings matches the change of state between the ends.
            let startIn = Self.bruteContains(a.longitude, a.latitude), endIn = Self.bruteContains(b.longitude, b.latitude)
            #expect((cuts.count % 2 == 1) == (startIn != endIn))
            #expect(cuts == cuts.sorted())
            // Between consecutive crossings the state is constant and alternates.
            var state = startIn
            for (lo, hi) in zip([0.0] + cuts, cuts + [1.0]) where hi - lo > 1e-9 {
                let m = (lo + hi) / 2
                #expect(Self.bruteContains(a.longitude + (b.longitude - a.longitude) * m, a.latitude + (b.latitude - a.latitude) * m) == state)
                state.toggle()
            }
        }
    }
}
