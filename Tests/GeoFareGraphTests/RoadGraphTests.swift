import Foundation
import GeoFareCore
import Testing
@testable import GeoFareGraph
@testable import GeoFareGraphBuild

/// Snapping and routing between coordinates: snapped points, partial arcs, one-ways, the same-arc
/// case, and agreement with Dijkstra over the same snapped endpoints.
@Suite struct RoadGraphTests {
    static let meta = GraphMetadata(profileID: "car", profileFingerprint: "t", osmTimestamp: "", buildTime: "")

    /// Degrees for metre offsets around the test networks' origin.
    static func coordinate(xMeters x: Double, yMeters y: Double) -> Coordinate {
        let lat = TestNetworks.baseLat + y / TestNetworks.metersPerDegreeLat
        let lon = TestNetworks.baseLon + x / (TestNetworks.metersPerDegreeLat * cos(TestNetworks.baseLat * .pi / 180))
        return Coordinate(uncheckedLatitude: lat, longitude: lon)
    }

    /// A straight two-way street 0—1—2 along x (500 m arcs), and a one-way 3 → 4 parallel at y = 300.
    static func streets() throws -> (RoadNetwork, RoadGraph) {
        var b = TestNetworks.Builder()
        let n0 = b.node(xMeters: 0, yMeters: 0), n1 = b.node(xMeters: 500, yMeters: 0), n2 = b.node(xMeters: 1000, yMeters: 0)
        b.arc(n0, n1); b.arc(n1, n0); b.arc(n1, n2); b.arc(n2, n1)
        let n3 = b.node(xMeters: 0, yMeters: 300), n4 = b.node(xMeters: 1000, yMeters: 300)
        b.arc(n3, n4, speedKmh: 30)
        return (b.net, try RoadGraph(network: b.net, metadata: meta))
    }

    @Test func snapsAPointOffTheRoadOntoBothDirections() throws {
        let (net, graph) = try Self.streets()
        for off in [5.0, 17, 30] {
            let c = try graph.snap(Self.coordinate(xMeters: 250, yMeters: off), maxDistanceMeters: 50)
            #expect(Set(c.map(\.arc)) == [0, 1], "\(off) m: \(c.map(\.arc))")
            for s in c {
                #expect(abs(s.distanceMeters - off) < 0.3, "\(s.distanceMeters) vs \(off)")
                let f = s.arc == 0 ? 0.5 : 0.5
                #expect(abs(s.fraction - f) < 0.002)
                for k in 0..<2 {
                    let w = k == 0 ? net.arcTimeMilliseconds[Int(s.arc)] : net.arcDistanceCentimeters[Int(s.arc)]
                    #expect(s.fromTail[k] + s.toHead[k] == w)
                }
            }
        }
        // 100 m along arc 0 is 20 % of it; on the reverse arc 1 it is 80 %
        let c = try graph.snap(Self.coordinate(xMeters: 100, yMeters: -10), maxDistanceMeters: 50)
        let forward = try #require(c.first { $0.arc == 0 }), backward = try #require(c.first { $0.arc == 1 })
        #expect(abs(forward.fraction - 0.2) < 0.002 && abs(backward.fraction - 0.8) < 0.002)
        #expect(abs(Double(forward.fromTail[1]) - 10_000) <= 20)
    }

    @Test func farPointsAreNoRoadNearby() throws {
        let (_, graph) = try Self.streets()
        #expect(throws: GeoFareError.self) { try graph.snap(Self.coordinate(xMeters: 250, yMeters: 150), maxDistanceMeters: 100) }
        do {
            _ = try graph.route(from: Self.coordinate(xMeters: 250, yMeters: 5), to: Self.coordinate(xMeters: 5000, yMeters: 5000))
            Issue.record("routed to a point 5 km from any road")
        } catch {
            #expect(error.code == .noRoadNearby && error.field == "to")
        }
        do {
            _ = try graph.route(from: Self.coordinate(xMeters: -900, yMeters: 0), to: Self.coordinate(xMeters: 250, yMeters: 5))
            Issue.record("routed from a point 900 m from any road")
        } catch {
            #expect(error.code == .noRoadNearby && error.field == "from")
        }
    }

    @Test func badSnapDistancesAreTypedErrors() throws {
        let (_, graph) = try Self.streets()
        for d in [0.0, -5, .nan, .infinity, 1e9] {
            do {
                _ = try graph.snap(Self.coordinate(xMeters: 250, yMeters: 5), maxDistanceMeters: d)
                Issue.record("accepted a snap distance of \(d)")
            } catch {
                #expect(error.code == .invalidSnapDistance && error.field == "max_snap_distance")
            }
        }
        // an in-memory graph knows its box
        #expect(graph.contains(Self.coordinate(xMeters: 500, yMeters: 100)))
        #expect(!graph.contains(Self.coordinate(xMeters: 500, yMeters: 400)))
        #expect(graph.stats.arcs == 5)
    }

    @Test func oneWayIsRespected() throws {
        let (net, graph) = try Self.streets()
        // along the one-way: the piece from 20 % to 70 % of arc 4
        let p = try graph.route(from: Self.coordinate(xMeters: 200, yMeters: 305), to: Self.coordinate(xMeters: 700, yMeters: 295), metric: .shortest)
        #expect(p.pieces.count == 1 && p.pieces[0].arc == 4)
        #expect(abs(p.distanceMeters - 500) < 0.5)
        #expect(abs(p.timeSeconds - 500 / (30 / 3.6)) < 0.1)
        // against it: the one-way is not connected to anything else, so no route
        do {
            _ = try graph.route(from: Self.coordinate(xMeters: 700, yMeters: 300), to: Self.coordinate(xMeters: 200, yMeters: 300), maxSnapMeters: 50)
            Issue.record("drove against a one-way")
        } catch {
            #expect(error.code == .noRoute)
        }
        _ = net
    }

    @Test func sameArcBothWaysAndAcrossNodes() throws {
        let (_, graph) = try Self.streets()
        // backwards along the two-way street: uses the reverse arc directly
        let back = try graph.route(from: Self.coordinate(xMeters: 400, yMeters: 3), to: Self.coordinate(xMeters: 100, yMeters: 3), metric: .shortest)
        #expect(back.pieces.count == 1 && back.pieces[0].arc == 1 && abs(back.distanceMeters - 300) < 0.5)
        // across node 1: two pieces, 200 + 300 m, geometry through the node
        let across = try graph.route(from: Self.coordinate(xMeters: 300, yMeters: -4), to: Self.coordinate(xMeters: 800, yMeters: 4),
                                     metric: .shortest, withGeometry: true)
        #expect(across.pieces.map(\.arc) == [0, 2])
        #expect(abs(across.distanceMeters - 500) < 0.5)
        #expect(across.geometry.count == 3)
        #expect(abs(across.geometry[1].longitude - Self.coordinate(xMeters: 500, yMeters: 0).longitude) < 1e-6)
    }

    @Test func routesAgreeWithDijkstraOverTheSameSnappedEndpoints() throws {
        let net = TestNetworks.grid(seed: 8, width: 18, height: 14)
        let path = GraphFileTests.tempPath("route.graph")
        var chs: [GraphMetric: ContractionHierarchy] = [:]
        for m in GraphMetric.allCases { chs[m] = try ContractionHierarchy(network: net, metric: m) }
        try GraphFileWriter.write(network: net, hierarchies: chs, metadata: Self.meta, to: path)
        let graph = try RoadGraph(path: path)
        let router = graph.makeRouter()
        var rng = SeededGenerator(seed: 4)
        var routed = 0
        for metric in GraphMetric.allCases {
            let dijkstra = DijkstraQuery(graph: ArcGraph(network: net, metric: metric))
            for _ in 0..<150 {
                let a = Self.coordinate(xMeters: Double.random(in: 0...2000, using: &rng), yMeters: Double.random(in: 0...1500, using: &rng))
                let b = Self.coordinate(xMeters: Double.random(in: 0...2000, using: &rng), yMeters: Double.random(in: 0...1500, using: &rng))
                guard let starts = try? graph.snap(a, maxDistanceMeters: 200), let ends = try? graph.snap(b, maxDistanceMeters: 200) else { continue }
                let k = metric.index
                var expected = dijkstra.bidirectional(sources: starts.map { RouteEndpoint(node: net.arcHead[Int($0.arc)], offset: $0.toHead[k]) },
                                                      targets: ends.map { RouteEndpoint(node: net.arcTail[Int($0.arc)], offset: $0.fromTail[k]) },
                                                      withPath: false)?.weight
                for s in starts { for t in ends where s.arc == t.arc && t.fraction >= s.fraction {
                    expected = min(expected ?? .max, UInt64(t.fromTail[k] - s.fromTail[k]))
                } }
                let p = try? router.route(starts: starts, ends: ends, metric: metric)
                #expect(p.map { UInt64(((metric == .fastest ? $0.timeSeconds * 1000 : $0.distanceMeters * 100)).rounded()) } == expected)
                guard let p else { continue }
                routed += 1
                // consecutive pieces join at nodes; full arcs inside
                for (x, y) in zip(p.pieces, p.pieces.dropFirst()) { #expect(net.arcHead[Int(x.arc)] == net.arcTail[Int(y.arc)]) }
                #expect(p.pieces.dropFirst().dropLast().allSatisfy { $0.fractionFrom == 0 && $0.fractionTo == 1 })
            }
        }
        #expect(routed > 200)
        #expect(graph.contains(Self.coordinate(xMeters: 1000, yMeters: 800)))
        #expect(!graph.contains(Self.coordinate(xMeters: -5000, yMeters: 800)))
        #expect(graph.stats.nodes == net.nodeCount)
    }
}

/// A divided road: two one-way carriageways 16 m apart, joined by turning loops 1 km apart.
struct DividedRoadTests {
    /// Northbound at x = 0, southbound at x = 16 m, from y = 0 to y = 1000; loops at both ends.
    static func dividedRoad() throws -> RoadGraph {
        var b = TestNetworks.Builder()
        let n0 = b.node(xMeters: 0, yMeters: 0), n1 = b.node(xMeters: 0, yMeters: 500), n2 = b.node(xMeters: 0, yMeters: 1000)
        let s2 = b.node(xMeters: 16, yMeters: 1000), s1 = b.node(xMeters: 16, yMeters: 500), s0 = b.node(xMeters: 16, yMeters: 0)
        b.arc(n0, n1); b.arc(n1, n2)          // northbound
        b.arc(n2, s2); b.arc(s0, n0)          // the turning loops
        b.arc(s2, s1); b.arc(s1, s0)          // southbound
        return try RoadGraph(network: b.net, metadata: GraphMetadata(profileID: "test", profileFingerprint: "", osmTimestamp: "", buildTime: ""))
    }

    static func at(_ x: Double, _ y: Double) -> Coordinate {
        let lat = TestNetworks.baseLat + y / TestNetworks.metersPerDegreeLat
        return Coordinate(uncheckedLatitude: lat, longitude: TestNetworks.baseLon + x / (TestNetworks.metersPerDegreeLat * cos(TestNetworks.baseLat * .pi / 180)))
    }

    @Test("A rider on the wrong side of a divided road starts on the carriageway nearest them and turns at the loop: no free hop across the median")
    func wrongSide() throws {
        let graph = try Self.dividedRoad()
        // Standing 10 m east of the northbound carriageway (6 m from the southbound one), going north.
        let from = Self.at(10, 200), to = Self.at(0, 800)
        let candidates = try graph.snap(from, maxDistanceMeters: 50)
        #expect(candidates.count == 1 && abs(candidates[0].distanceMeters - 6) < 0.1, "only the southbound carriageway is offered")
        let path = try graph.route(from: from, to: to, metric: .shortest)
        // South to the loop (200 m), across (16 m), up the northbound carriageway (800 m): not the
        // 600 m of starting on the far carriageway, which a taxi on this side cannot drive.
        #expect(abs(path.distanceMeters - 1_016) < 1, "\(path.distanceMeters) m")
        #expect(abs(path.from.distanceMeters - 6) < 0.1)
        // Going south from 6 m off the northbound carriageway: up to the far loop and back down.
        let south = try graph.route(from: Self.at(6, 800), to: Self.at(16, 200), metric: .shortest)
        #expect(abs(south.distanceMeters - 1_016) < 1, "\(south.distanceMeters) m")
        // Midway between the carriageways (within the 1 m tie) both are offered and the route goes the right way.
        let middle = try graph.snap(Self.at(8.2, 200), maxDistanceMeters: 50)
        #expect(Set(middle.map(\.arc)).count == 2)
        #expect(abs(try graph.route(from: Self.at(8.2, 200), to: to, metric: .shortest).distanceMeters - 600) < 1)
    }
}
