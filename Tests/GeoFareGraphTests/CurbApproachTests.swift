import Foundation
import GeoFareCore
import Testing
@testable import GeoFareGraph

/// `"approach": "curb"`: on a two-way road a taxi leaves and reaches a point with the
/// point on its right-hand side; one-way roads and points on the centre line are unaffected.
struct CurbApproachTests {
    /// The arcs by their polyline (a turn restriction copies a node with its coordinates, so the
    /// two directions of a road need not join the same node ids): `same[a]` holds the arcs drawn
    /// like `a` (itself included), `back[a]` those drawn the other way (empty on a one-way road).
    struct Roads {
        var same: [[Int]] = [], back: [[Int]] = []
        init(_ net: NetworkView) {
            var byLine: [[Int64]: [Int]] = [:], lines: [[Int64]] = []
            var points: [(lat: Int32, lon: Int32)] = []
            for a in 0..<net.arcCount {
                net.polyline(a, into: &points)
                let line = points.map { Int64($0.lat) << 32 | Int64(UInt32(bitPattern: $0.lon)) }
                lines.append(line)
                byLine[line, default: []].append(a)
            }
            same = lines.map { byLine[$0]! }
            back = lines.map { byLine[$0.reversed()] ?? [] }
        }
    }

    /// A point `off` metres to the left (negative: right) of `arc`'s driving direction, beside the
    /// middle part of one of its segments longer than 8 m; `nil` when the arc has none.
    static func beside(_ net: NetworkView, arc: Int, off: Double, rng: inout SeededGenerator) -> Coordinate? {
        var points: [(lat: Int32, lon: Int32)] = []
        net.polyline(arc, into: &points)
        let k = Int.random(in: 1..<points.count, using: &rng)
        let segment = LocalSegment(points[k - 1], points[k])
        guard segment.length > 8 else { return nil }
        return segment.point(t: Double.random(in: 0.3...0.7, using: &rng), off: off)
    }

    @Test("A point beside a two-way street: with curb the route leaves and arrives in the direction with the point on its right, never shorter than without",
          .needsExtracts, arguments: ["seoul_mapo.osm.pbf", "busan_seomyeon_1km.osm.pbf", "nyc_midtown_south.osm.pbf"])
    func twoWayStreets(extract: String) throws {
        let (graph, net, router) = try TaxiSnapTests.routing(extract)
        let roads = Roads(net)
        let twoWay = (0..<net.arcCount).filter { !roads.back[$0].isEmpty }
        #expect(twoWay.count > 100)
        var rng = SeededGenerator(seed: 1_818)
        var tested = 0, longer = 0
        while tested < 80 {
            let arc = twoWay.randomElement(using: &rng)!
            let off = Double.random(in: 2...15, using: &rng) * (Bool.random(using: &rng) ? 1 : -1)
            guard let p = Self.beside(net, arc: arc, off: off, rng: &rng) else { continue }
            let all = try graph.snap(p)
            // only points whose road is this one, at the offset (no junction, bend or other road near)
            guard Set(all.map { Int($0.arc) }) == Set(roads.same[arc] + roads.back[arc]),
                  all.allSatisfy({ abs($0.distanceMeters - abs(off)) < 0.05 }) else { continue }
            tested += 1
            // off < 0: the point is on arc's right, so arc is the kerb-side direction; else the arcs back
            let kerb = Set(off < 0 ? roads.same[arc] : roads.back[arc])
            let curb = graph.curbSide(all, of: p)
            #expect(Set(curb.map { Int($0.arc) }) == kerb, "\(extract) \(p): kept \(curb.map(\.arc)), kerb side \(kerb)")
            let v = Int.random(in: 0..<net.nodeCount, using: &rng)
            let q = Coordinate(uncheckedLatitude: Double(net.nodeLatitudes[v]) / 1e7, longitude: Double(net.nodeLongitudes[v]) / 1e7)
            let ends = try graph.snap(q)
            for metric in GraphMetric.allCases {
                let free = try router.route(starts: all, ends: ends, metric: metric)
                let leave = try router.route(starts: curb, ends: ends, metric: metric)
                #expect(kerb.contains(Int(leave.from.arc)), "\(extract) \(metric) from \(p)")
                #expect(leave.pieces.first.map { kerb.contains(Int($0.arc)) } == true)
                // what the metric minimises: the curb route can only be worse (fewer starts to choose from)
                let minimised = { (g: GraphPath) in metric == .fastest ? g.timeSeconds : g.distanceMeters }
                #expect(minimised(leave) >= minimised(free) - 0.001, "\(extract) \(metric) from \(p): curb \(minimised(leave)) against \(minimised(free))")
                if minimised(leave) > minimised(free) + 1 { longer += 1 }
                let arrive = try router.route(starts: ends, ends: curb, metric: metric)
                let freeArrive = try router.route(starts: ends, ends: all, metric: metric)
                #expect(kerb.contains(Int(arrive.to.arc)) && arrive.pieces.last.map { kerb.contains(Int($0.arc)) } == true, "\(extract) \(metric) to \(p)")
                #expect(minimised(arrive) >= minimised(freeArrive) - 0.001, "\(extract) \(metric) to \(p)")
            }
        }
        // the rule changes routes: many start on the wrong side without it and must turn
        print("\(extract): \(tested) points beside two-way streets, \(longer) routes longer with curb")
        #expect(longer >= 10)
    }

    @Test("One-way streets answer the same with curb, and a point on the centre line of a two-way street keeps both directions",
          .needsExtracts, arguments: ["seoul_mapo.osm.pbf", "nyc_lower_manhattan.osm.pbf"])
    func oneWayAndCentreLine(extract: String) throws {
        let graph = try TaxiSnapTests.graph(extract)
        let net = graph.network
        let roads = Roads(net)
        var rng = SeededGenerator(seed: 2_818)
        let oneWay = (0..<net.arcCount).filter { roads.back[$0].isEmpty }
        let twoWay = (0..<net.arcCount).filter { !roads.back[$0].isEmpty }
        var oneWayTested = 0, centreTested = 0, attempts = 0
        while (oneWayTested < 60 || centreTested < 30) && attempts < 5_000 {
            attempts += 1
            let isOneWay = oneWayTested < 60
            let arc = (isOneWay ? oneWay : twoWay).randomElement(using: &rng)!
            let off = isOneWay ? Double.random(in: 2...15, using: &rng) * (Bool.random(using: &rng) ? 1 : -1) : 0
            guard let p = Self.beside(net, arc: arc, off: off, rng: &rng) else { continue }
            let all = try graph.snap(p)
            guard all.contains(where: { Int($0.arc) == arc }) else { continue }
            if isOneWay {
                // every candidate one-way (a two-way road tied at a junction would be filtered)
                guard all.allSatisfy({ roads.back[Int($0.arc)].isEmpty }) else { continue }
                oneWayTested += 1
            } else {
                guard Set(all.map { Int($0.arc) }) == Set(roads.same[arc] + roads.back[arc]) else { continue }
                centreTested += 1
            }
            #expect(graph.curbSide(all, of: p) == all, "\(extract) \(p): \(all.map(\.arc)) → \(graph.curbSide(all, of: p).map(\.arc))")
        }
        #expect(oneWayTested == 60 && centreTested == 30)
    }
}
