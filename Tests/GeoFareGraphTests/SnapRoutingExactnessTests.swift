import Foundation
import GeoFareCore
import Testing
@testable import GeoFareGraph
@testable import GeoFareGraphBuild

/// On real extracts: snapping through the grid's rings finds what a scan of every segment finds,
/// and a full route between coordinates weighs what plain Dijkstra gives for the best of every
/// pair of snapped candidates (so a search that settled for a worse pair fails).
struct SnapRoutingExactnessTests {
    static let meta = GraphMetadata(profileID: "car", profileFingerprint: "t", osmTimestamp: "", buildTime: "")

    /// The distance in metres from `point` to every arc within `maxDistance`, by a scan of every
    /// segment of every arc in the snapper's local frame (best segment per arc), in arc order.
    static func arcDistances(_ net: NetworkView, _ point: Coordinate, maxDistance: Double) -> [(arc: UInt32, distance: Double)] {
        let mx = Snapper.metersPerDegree * cos(point.latitude * .pi / 180), my = Snapper.metersPerDegree
        var points: [(lat: Int32, lon: Int32)] = []
        var found: [(arc: UInt32, distance: Double)] = []
        for arc in 0..<net.arcCount {
            net.polyline(arc, into: &points)
            var arcBest = Double.infinity
            for k in 1..<points.count {
                let ax = (Double(points[k - 1].lon) / 1e7 - point.longitude) * mx, ay = (Double(points[k - 1].lat) / 1e7 - point.latitude) * my
                let bx = (Double(points[k].lon) / 1e7 - point.longitude) * mx, by = (Double(points[k].lat) / 1e7 - point.latitude) * my
                let dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy
                let t = len2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / len2)) : 0
                let px = ax + t * dx, py = ay + t * dy
                arcBest = min(arcBest, px * px + py * py)
            }
            if arcBest <= maxDistance * maxDistance { found.append((UInt32(arc), arcBest.squareRoot())) }
        }
        return found
    }

    /// The reference snap, the taxi rule: every arc within `maxDistance` whose distance is within
    /// the tie of the nearest arc's (the nearest road, both its directions, and any road in the
    /// tie: 1 m, or the nearest distance when smaller, at least 1 cm), nearest first (ties by arc).
    /// Returns (arc, distance in metres).
    static func bruteForceSnap(_ net: NetworkView, _ point: Coordinate, maxDistance: Double) -> [(arc: UInt32, distance: Double)] {
        let found = arcDistances(net, point, maxDistance: maxDistance)
        guard let nearest = found.map(\.distance).min() else { return [] }
        let tie = max(0.01, min(1, nearest))
        return found.filter { $0.distance <= nearest + tie }.sorted { ($0.distance, $0.arc) < ($1.distance, $1.arc) }
    }

    static func randomPoint(_ m: GraphMetadata, _ rng: inout SeededGenerator) -> Coordinate {
        // a margin of 0.005° around the box, so that some points fall outside the grid
        Coordinate(uncheckedLatitude: .random(in: (m.south - 0.005)...(m.north + 0.005), using: &rng),
                   longitude: .random(in: (m.west - 0.005)...(m.east + 0.005), using: &rng))
    }

    @Test("Snapping equals a scan of every segment (arcs, order, distances) on 600 seeded points per extract and radius",
          .needsExtracts, arguments: ["valhalla_baltimore.osm.pbf", "nyc_lower_manhattan.osm.pbf"])
    func snapEqualsBruteForce(extract: String) throws {
        let (network, _) = try OSMRoadNetworkBuilder(profile: TestData.carProfile()).build(pbfAt: TestData.extract(extract))
        let graph = try RoadGraph(network: network, metadata: Self.meta)
        var rng = SeededGenerator(seed: 20_261_124)
        #expect(Self.expectSnapEqualsBruteForce(graph, pointsPerRadius: 600, label: extract, &rng) > 600)
    }

    /// Snaps `pointsPerRadius` seeded points within 30, 200 and 500 m and expects what
    /// ``bruteForceSnap(_:_:maxDistance:)`` gives (arcs, order, distances), each candidate's
    /// weights splitting its arc's; returns how many points snapped.
    static func expectSnapEqualsBruteForce(_ graph: RoadGraph, pointsPerRadius: Int, label: String, _ rng: inout SeededGenerator,
                                           sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var snapped = 0
        for radius in [30.0, 200, 500] {
            for _ in 0..<pointsPerRadius {
                let p = randomPoint(graph.metadata, &rng)
                let got = graph.snapper.candidates(near: p, maxDistanceMeters: radius)
                let want = bruteForceSnap(graph.network, p, maxDistance: radius)
                #expect(got.map(\.arc) == want.map(\.arc), "\(label) \(p) within \(radius) m", sourceLocation: sourceLocation)
                #expect(got.map(\.distanceMeters) == want.map(\.distance), "\(label) \(p) within \(radius) m", sourceLocation: sourceLocation)
                for c in got {
                    for m in GraphMetric.allCases {
                        #expect(c.fromTail[m.index] + c.toHead[m.index] == graph.network.weights(m)[Int(c.arc)], sourceLocation: sourceLocation)
                    }
                }
                if !got.isEmpty { snapped += 1 }
            }
        }
        return snapped
    }

    /// Long diagonal segments (up to 28 km, a hundred cells each way) are indexed row by row,
    /// not by their whole rectangle of cells (the graph-file fuzz target's timeout): the snap
    /// must still find every one of them from any cell it crosses.
    @Test("Snapping equals a scan of every segment on long diagonal segments (indexed row by row)")
    func snapEqualsBruteForceOnLongDiagonals() throws {
        var rng = SeededGenerator(seed: 2_026_112_9)
        var b = TestNetworks.Builder()
        for _ in 0..<60 { _ = b.node(xMeters: .random(in: 0...20_000, using: &rng), yMeters: .random(in: 0...20_000, using: &rng)) }
        for _ in 0..<120 {
            let u = UInt32.random(in: 0..<60, using: &rng), v = UInt32.random(in: 0..<60, using: &rng)
            guard u != v else { continue }
            b.arc(u, v)
            if Bool.random(using: &rng) { b.arc(v, u) }
        }
        let graph = try RoadGraph(network: b.net, metadata: Self.meta)
        #expect(Self.expectSnapEqualsBruteForce(graph, pointsPerRadius: 400, label: "long diagonals", &rng) > 200)
    }

    @Test("A full route weighs the best over every candidate pair by plain Dijkstra, and its pieces sum to it",
          .needsExtracts, arguments: ["valhalla_baltimore.osm.pbf", "seoul_mapo.osm.pbf"])
    func fullRouteEqualsBestCandidatePair(extract: String) throws {
        let (network, _) = try OSMRoadNetworkBuilder(profile: TestData.carProfile()).build(pbfAt: TestData.extract(extract))
        let graph = try RoadGraph(network: network, metadata: Self.meta)
        let router = graph.makeRouter()
        let net = graph.network
        var rng = SeededGenerator(seed: 77)
        var routed = 0, multiCandidate = 0, pairsBeatFirst = 0
        for metric in GraphMetric.allCases {
            let k = metric.index
            let dijkstra = DijkstraQuery(graph: ArcGraph(network: network, metric: metric))
            for _ in 0..<150 {
                let a = Self.randomPoint(graph.metadata, &rng), b = Self.randomPoint(graph.metadata, &rng)
                guard let starts = try? graph.snap(a, maxDistanceMeters: 500), let ends = try? graph.snap(b, maxDistanceMeters: 500) else { continue }
                // every pair on its own: one source, one target
                var pairWeights: [UInt64] = []
                for s in starts {
                    for t in ends {
                        var w = dijkstra.oneToOne(sources: [RouteEndpoint(node: net.arcHead[Int(s.arc)], offset: s.toHead[k])],
                                                  targets: [RouteEndpoint(node: net.arcTail[Int(t.arc)], offset: t.fromTail[k])],
                                                  withPath: false)?.weight
                        if s.arc == t.arc && t.fraction >= s.fraction && t.fromTail[k] >= s.fromTail[k] {
                            w = min(w ?? .max, UInt64(t.fromTail[k] - s.fromTail[k]))
                        }
                        if let w { pairWeights.append(w) }
                    }
                }
                let expected = pairWeights.min()
                let p = try? router.route(from: a, to: b, metric: metric, maxSnapMeters: 500)
                let got = p.map { UInt64(((metric == .fastest ? $0.timeSeconds * 1000 : $0.distanceMeters * 100)).rounded()) }
                #expect(got == expected, "\(extract) \(metric) \(a) → \(b)")
                if starts.count * ends.count > 1 { multiCandidate += 1 }
                if let first = pairWeights.first, let e = expected, e < first { pairsBeatFirst += 1 }
                guard let p else { continue }
                routed += 1
                #expect(starts.contains(p.from) && ends.contains(p.to))
                for (x, y) in zip(p.pieces, p.pieces.dropFirst()) { #expect(net.arcHead[Int(x.arc)] == net.arcTail[Int(y.arc)]) }
                // the pieces' weights sum to the answer
                var sum: UInt64 = 0
                if p.pieces.count == 1 {
                    sum = UInt64(p.to.fromTail[k] - p.from.fromTail[k])
                } else {
                    sum = UInt64(p.from.toHead[k]) + UInt64(p.to.fromTail[k])
                    for piece in p.pieces.dropFirst().dropLast() { sum += UInt64(net.weights(metric)[Int(piece.arc)]) }
                }
                #expect(sum == got)
            }
        }
        #expect(routed > 100)
        #expect(multiCandidate > 100)
        // the test would catch a search that kept the first pair
        #expect(pairsBeatFirst > 10)
    }
}
