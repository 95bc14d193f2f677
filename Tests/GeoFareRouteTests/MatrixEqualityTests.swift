import Foundation
import Testing
import GeoFareCore
import GeoFareGraph
import GeoFareGraphBuild
import GeoFareOSM
import GeoFareTestSupport
@testable import GeoFareRoute

/// On every shared extract: each cell of a 50 × 50 matrix equals the `route` of its pair, for
/// both metrics (2,500 cells per metric and extract), at two levels:
/// - the graph's: ``ContractionHierarchyMatrix`` against ``RoadGraphRouter`` on the same snap
///   candidates: the minimised weight exactly (ms or cm), and the other total exactly where the
///   best path is unique (ties on the minimised weight are counted and may differ there only);
/// - the estimator's: ``GraphRouteEstimator/matrix(_:)`` against ``GraphRouteEstimator/estimate(_:)``:
///   `distance_m` and `duration_s` (traffic included) within 1 µm and 1 µs, the rounding of sums
///   in another order; `nil` exactly where the route is `no_route`.
struct MatrixEqualityTests {
    static let osm = SharedData.url("osm")
    static var extracts: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: osm.path)) ?? []).filter { $0.hasSuffix(".osm.pbf") }.sorted()
    }

    /// The car graph of `extract`, built here, and a graph estimator over it.
    static func carGraph(_ extract: String) throws -> (RoadGraph, GraphRouteEstimator) {
        let (network, _) = try OSMRoadNetworkBuilder(profile: try RoadProfile.named("car")).build(pbfAt: osm.appendingPathComponent(extract))
        let graph = try RoadGraph(network: network, metadata: GraphMetadata(profileID: "car", profileFingerprint: "t", osmTimestamp: "", buildTime: ""))
        return (graph, GraphRouteEstimator(graphs: [(extract, graph)], fallback: try CircuityRouteEstimator()))
    }

    /// `count` random points in the graph's box with a road within snapping distance, drawn
    /// from `seed`; the first half are the sources, the second half the targets.
    static func snappablePoints(_ count: Int, on graph: RoadGraph, seed: UInt64) -> (sources: [Coordinate], targets: [Coordinate]) {
        let m = graph.metadata
        var rng = SeededGenerator(seed: seed)
        var points: [Coordinate] = []
        while points.count < count {
            let p = Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng))
            if (try? graph.snap(p)) != nil { points.append(p) }
        }
        return (Array(points[0..<(count / 2)]), Array(points[(count / 2)..<count]))
    }

    @Test("Matrix cells equal route answers (both metrics, 2,500 cells each) on every shared extract",
          .enabled(if: SharedData.runs("osm"), "needs ../shared/data/osm beside the checkout"), arguments: extracts)
    func cellsEqualRoutes(extract: String) throws {
        let (graph, estimator) = try Self.carGraph(extract)
        // 100 points in the box with a road within 200 m: 50 sources, 50 targets
        let (sources, targets) = Self.snappablePoints(100, on: graph, seed: 18_004)
        let starts = try sources.map { try graph.snap($0) }, ends = try targets.map { try graph.snap($0) }
        let router = graph.makeRouter()
        // 07:50 local in Seoul for the first metric, 16:58 for the second: many trips cross an hour
        let departures = [Date(timeIntervalSince1970: 1_741_906_200), Date(timeIntervalSince1970: 1_741_939_080)]
        var ties = 0, unreachable = 0, compared = 0, tiesByMetric: [String: Int] = [:]
        for (metric, departure) in zip(GraphMetric.allCases, departures) {
            let k = metric.index
            // the graph's level
            let cells = graph.makeMatrix(metric: metric).table(sources: starts, targets: ends)
            var tied = Set<Int>()
            #expect(cells.count == 2_500)
            for i in 0..<50 {
                for j in 0..<50 {
                    let cell = cells[i * 50 + j]
                    guard let p = try? router.route(starts: starts[i], ends: ends[j], metric: metric) else {
                        #expect(cell == nil, "\(extract) \(metric) \(i)→\(j)")
                        unreachable += 1
                        continue
                    }
                    let ms = UInt64((p.timeSeconds * 1000).rounded()), cm = UInt64((p.distanceMeters * 100).rounded())
                    guard let cell else { Issue.record("\(extract) \(metric) \(i)→\(j): route \(cm) cm, matrix none"); continue }
                    compared += 1
                    let (want, other) = k == 0 ? (ms, cm) : (cm, ms)
                    let (got, gotOther) = k == 0 ? (cell.timeMilliseconds, cell.distanceCentimeters) : (cell.distanceCentimeters, cell.timeMilliseconds)
                    #expect(cell.weight == want && got == want, "\(extract) \(metric) \(i)→\(j)")
                    if gotOther != other { ties += 1; tied.insert(i * 50 + j); tiesByMetric[metric.rawValue, default: 0] += 1 }
                }
            }
            // the estimator's level
            var request = MatrixRequest(sources: sources, targets: targets, departure: departure, metric: metric == .fastest ? .fastest : .shortest)
            request.fallbackWhenNoRoad = false
            let matrix = try estimator.matrix(request)
            #expect(matrix.estimator == "graph-ch-v1")
            for i in 0..<50 {
                for j in 0..<50 {
                    var r = RouteRequest(origin: sources[i], destination: targets[j], departure: departure)
                    r.metric = request.metric
                    r.fallbackWhenNoRoad = false
                    let route: Route
                    do { route = try estimator.estimate(r) } catch {
                        #expect(error.code == .noRoute)
                        #expect(matrix.distanceMeters[i][j] == nil && matrix.durationSeconds[i][j] == nil)
                        continue
                    }
                    let d = try #require(matrix.distanceMeters[i][j]), t = try #require(matrix.durationSeconds[i][j])
                    guard !tied.contains(i * 50 + j) else { continue }
                    #expect(abs(d - route.distanceMeters) <= 1e-6, "\(extract) \(metric) \(i)→\(j): \(d) vs \(route.distanceMeters)")
                    #expect(abs(t - route.durationSeconds) <= 1e-6, "\(extract) \(metric) \(i)→\(j): \(t) vs \(route.durationSeconds)")
                }
            }
        }
        print("matrix equality \(extract): \(compared) routed cells compared, \(unreachable) unreachable, \(ties) with the other total differing (ties: \(tiesByMetric))")
        #expect(compared + unreachable == 5_000)
        // Exact ties on the minimised weight between paths with different other totals are rare:
        // 5 of 5,000 cells on Baltimore (its shortest metric: equal centimetres, different milliseconds), none on the other nine extracts.
        #expect(ties * 200 <= compared, "\(ties) tied cells of \(compared)")
    }

    @Test("With approach curb on every source and target, matrix cells equal the curb routes, and the kerb side changes some of them",
          .enabled(if: SharedData.runs("osm"), "needs ../shared/data/osm beside the checkout"),
          arguments: ["seoul_mapo.osm.pbf", "busan_seomyeon_1km.osm.pbf", "nyc_midtown_south.osm.pbf"])
    func curbCellsEqualCurbRoutes(extract: String) throws {
        let (graph, estimator) = try Self.carGraph(extract)
        let (sources, targets) = Self.snappablePoints(40, on: graph, seed: 18_005)
        let departure = Date(timeIntervalSince1970: 1_741_906_200)
        var compared = 0, differing = 0, changed = 0
        for metric in RouteMetric.allCases {
            var request = MatrixRequest(sources: sources, targets: targets, departure: departure, metric: metric)
            request.fallbackWhenNoRoad = false
            let free = try estimator.matrix(request)
            request.sourceApproaches = Array(repeating: .curb, count: 20)
            request.targetApproaches = Array(repeating: .curb, count: 20)
            let curb = try estimator.matrix(request)
            for i in 0..<20 {
                for j in 0..<20 {
                    var r = RouteRequest(origin: sources[i], destination: targets[j], departure: departure)
                    r.metric = metric
                    r.fallbackWhenNoRoad = false
                    r.approaches = [.curb, .curb]
                    guard let route = try? estimator.estimate(r) else {
                        #expect(curb.distanceMeters[i][j] == nil, "\(extract) \(metric) \(i)→\(j)")
                        continue
                    }
                    compared += 1
                    let d = try #require(curb.distanceMeters[i][j]), t = try #require(curb.durationSeconds[i][j])
                    if metric == .shortest { #expect(abs(d - route.distanceMeters) <= 1e-6, "\(extract) \(i)→\(j): \(d) vs \(route.distanceMeters)") }
                    // the other figure may differ only on an exact tie of the minimised weight (rare: see above)
                    if abs(d - route.distanceMeters) > 1e-6 || abs(t - route.durationSeconds) > 1e-6 { differing += 1 }
                    if let f = free.distanceMeters[i][j], abs(f - d) > 1 { changed += 1 }
                }
            }
        }
        print("curb matrix \(extract): \(compared) cells compared, \(differing) differing (ties), \(changed) changed by the kerb side")
        #expect(compared >= 700 && differing * 100 <= compared)
        // 392, 407 and 66 of 800 in the run that wrote this (Midtown: mostly one-way streets; 0
        // while a turn restriction's copied node hid the other direction of a two-way street)
        #expect(changed >= (extract.hasPrefix("nyc") ? 20 : 100))
    }
}
