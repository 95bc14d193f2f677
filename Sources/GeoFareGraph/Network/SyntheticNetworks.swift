import Foundation
import GeoFareCore

/// Seeded synthetic road networks: the city grid that `geofare graph build --synthetic-city`
/// contracts for the speed benchmarks (a graph of any size without an OSM extract), and the
/// builder the graph tests make their odd shapes with. Coordinates sit around Seoul (37.5 N,
/// 127.0 E) in 1e-7 degrees; arc distances come from the polyline's length (equirectangular,
/// rounded to cm, at least 1) and times from a speed per arc (ms, at least 1).
public enum SyntheticNetworks {
    static let baseLat = 37.5, baseLon = 127.0
    static let metersPerDegreeLat = 111_320.0

    /// A network builder: add nodes at metre offsets and arcs between them.
    struct Builder {
        var net = RoadNetwork()
        var lon0 = baseLon, lat0 = baseLat

        mutating func node(xMeters x: Double, yMeters y: Double) -> UInt32 {
            let lat = lat0 + y / metersPerDegreeLat
            let lon = lon0 + x / (metersPerDegreeLat * cos(lat0 * .pi / 180))
            net.nodeLatitudes.append(Int32((lat * 1e7).rounded()))
            net.nodeLongitudes.append(Int32((lon * 1e7).rounded()))
            return UInt32(net.nodeCount - 1)
        }

        /// Adds arc `u → v` with optional shape points (in 1e-7 degrees); speed in km/h;
        /// `distance`/`time` override the geometric weights.
        mutating func arc(_ u: UInt32, _ v: UInt32, speedKmh: Double = 50, shape: [(Int32, Int32)] = [],
                          distance: UInt32? = nil, time: UInt32? = nil, roadClass: UInt8 = 3) {
            var pts = [(net.nodeLatitudes[Int(u)], net.nodeLongitudes[Int(u)])]
            pts += shape
            pts.append((net.nodeLatitudes[Int(v)], net.nodeLongitudes[Int(v)]))
            var metres = 0.0
            for i in 1..<pts.count { metres += Self.metres(pts[i - 1], pts[i]) }
            let cm = distance ?? UInt32(max(1, (metres * 100).rounded()))
            let ms = time ?? UInt32(max(1, (Double(cm) / 100 / (speedKmh / 3.6) * 1000).rounded()))
            net.arcTail.append(u)
            net.arcHead.append(v)
            net.arcDistanceCentimeters.append(cm)
            net.arcTimeMilliseconds.append(ms)
            net.arcRoadClass.append(roadClass)
            net.arcFlags.append(0)
            for p in shape { net.shapeLatitudes.append(p.0); net.shapeLongitudes.append(p.1) }
            net.shapeStart.append(UInt32(net.shapeLatitudes.count))
        }

        static func metres(_ a: (Int32, Int32), _ b: (Int32, Int32)) -> Double {
            let lat = (Double(a.0) + Double(b.0)) / 2e7
            let dy = Double(b.0 - a.0) / 1e7 * metersPerDegreeLat
            let dx = Double(b.1 - a.1) / 1e7 * metersPerDegreeLat * cos(lat * .pi / 180)
            return (dx * dx + dy * dy).squareRoot()
        }
    }

    /// A city-like grid of `side × side` nodes with a road hierarchy: motorways every 48 lines
    /// (90 km/h), arterials every 12 (60 km/h), local streets (20–35 km/h) of which a quarter are
    /// missing and a sixth one-way, blocks about 100 m with jitter and some bent streets.
    /// Not every node need be reachable from every other (missing streets can cut a corner off).
    /// - Complexity: O(side²); `side` 316 gives about 100,000 nodes.
    public static func city(seed: UInt64, side: Int) -> RoadNetwork {
        var rng = SeededGenerator(seed: seed)
        var b = Builder()
        for y in 0..<side {
            for x in 0..<side {
                _ = b.node(xMeters: Double(x) * 100 + Double.random(in: -15...15, using: &rng),
                           yMeters: Double(y) * 100 + Double.random(in: -15...15, using: &rng))
            }
        }
        func link(_ u: UInt32, _ v: UInt32, line: Int, rng: inout SeededGenerator) {
            let motorway = line % 48 == 0, arterial = line % 12 == 0
            if !arterial && Double.random(in: 0..<1, using: &rng) < 0.25 { return }
            let speed = motorway ? 90.0 : arterial ? 60.0 : Double.random(in: 20...35, using: &rng)
            var shape: [(Int32, Int32)] = []
            if !arterial && Int.random(in: 0..<4, using: &rng) == 0 {
                shape = [((b.net.nodeLatitudes[Int(u)] / 2 + b.net.nodeLatitudes[Int(v)] / 2) + Int32.random(in: -100...100, using: &rng),
                          (b.net.nodeLongitudes[Int(u)] / 2 + b.net.nodeLongitudes[Int(v)] / 2) + Int32.random(in: -100...100, using: &rng))]
            }
            let r = Double.random(in: 0..<1, using: &rng)
            let roadClass: UInt8 = motorway ? 0 : arterial ? 2 : 5
            if !arterial && r < 1.0 / 12 {
                b.arc(u, v, speedKmh: speed, shape: shape, roadClass: roadClass)
            } else if !arterial && r < 1.0 / 6 {
                b.arc(v, u, speedKmh: speed, shape: shape.reversed(), roadClass: roadClass)
            } else {
                b.arc(u, v, speedKmh: speed, shape: shape, roadClass: roadClass)
                b.arc(v, u, speedKmh: speed, shape: shape.reversed(), roadClass: roadClass)
            }
        }
        for y in 0..<side {
            for x in 0..<side {
                let u = UInt32(y * side + x)
                if x + 1 < side { link(u, u + 1, line: y, rng: &rng) }
                if y + 1 < side { link(u, u + UInt32(side), line: x, rng: &rng) }
            }
        }
        return b.net
    }
}
