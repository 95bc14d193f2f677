import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareGraph
import GeoFareRoute

/// `bench route --matrix N --graph FILE` (or `--pbf FILE`): an N × N matrix by the hierarchy's
/// many-to-many search against the N² two-point routes it replaces, in the same run.
extension RouteBench {
    struct MatrixReport: Encodable {
        let benchmark = "route-matrix"
        let graph: String
        let build: BuildReport?
        let nodes: Int, sources: Int, targets: Int
        let rounds: Int, machine: MachineInfo
        /// Per metric: milliseconds for the whole matrix (`GraphRouteEstimator.matrix`: snapping,
        /// the search, traffic durations) and for the N² `route` estimates of the same pairs
        /// (`GraphRouteEstimator.estimate`, one after the other on one thread), medians of rounds.
        let fastest_matrix_ms, fastest_routes_ms, fastest_speedup: Double
        let shortest_matrix_ms, shortest_routes_ms, shortest_speedup: Double
        /// Cells whose distance and duration equal the route's (within 1e-6), of `cells` per metric.
        let fastest_cells_equal, shortest_cells_equal: Int
        /// Cells whose minimised figure (duration for fastest, distance for shortest) equals the
        /// route's: all of them; the rest of `cells_equal`'s shortfall are exact ties between paths.
        let fastest_cells_minimised_equal, shortest_cells_minimised_equal: Int
        let cells: Int
        /// Bucket entries and settled nodes of one matrix, per metric.
        let fastest_bucket_entries, shortest_bucket_entries: Int
        /// Per figure, its lowest and highest round.
        let ranges: [String: [Double]]
    }

    func runMatrix(_ path: String, size n: Int, build: BuildReport? = nil) throws {
        guard n >= 1, n * n <= MatrixRequest.maxCells else { throw ValidationError("--matrix is 1...100 (at most \(MatrixRequest.maxCells) cells)") }
        let road: RoadGraph
        do { road = try RoadGraph(path: path) } catch {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw GeoFareExit.dataError
        }
        let estimator = GraphRouteEstimator(graphs: [(path, road)], fallback: try CircuityRouteEstimator())
        let m = road.metadata
        var rng = SeededGenerator(seed: options.seed)
        var points: [Coordinate] = []
        var tries = 0
        while points.count < 2 * n {
            tries += 1
            guard tries < 1_000_000 else { throw ValidationError("the graph has too few roads for \(2 * n) points") }
            let p = Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng))
            if (try? road.snap(p)) != nil { points.append(p) }
        }
        let sources = Array(points[0..<n]), targets = Array(points[n..<(2 * n)])
        let departure = Date(timeIntervalSince1970: 1_741_906_800)  // 2025-03-14 08:00 +09:00
        var figures: [String: Double] = [:], ranges: [String: [Double]] = [:]
        var equal: [String: Int] = [:], minimisedEqual: [String: Int] = [:], entries: [String: Int] = [:]
        for metric in RouteMetric.allCases {
            var request = MatrixRequest(sources: sources, targets: targets, departure: departure, metric: metric)
            request.fallbackWhenNoRoad = false
            let routes = sources.flatMap { s in targets.map { t in
                var r = RouteRequest(origin: s, destination: t, departure: departure)
                r.metric = metric
                r.fallbackWhenNoRoad = false
                return r
            } }
            var matrixTimes: [Double] = [], routeTimes: [Double] = []
            var matrix: RouteMatrix?
            var answers: [Route?] = []
            for round in 0..<options.roundCount {
                matrixTimes.append(try Stopwatch.seconds { matrix = try estimator.matrix(request) } * 1000)
                var got: [Route?] = []
                got.reserveCapacity(routes.count)
                routeTimes.append(Stopwatch.seconds { for r in routes { got.append(try? estimator.estimate(r)) } } * 1000)
                if round == 0 { answers = got }
            }
            var same = 0, sameMinimised = 0
            for i in 0..<n {
                for j in 0..<n {
                    let route = answers[i * n + j], d = matrix?.distanceMeters[i][j], t = matrix?.durationSeconds[i][j]
                    if let route, let d, let t {
                        if abs(d - route.distanceMeters) <= 1e-6 && abs(t - route.durationSeconds) <= 1e-6 { same += 1 }
                        if metric == .fastest ? abs(t - route.durationSeconds) <= 1e-6 : abs(d - route.distanceMeters) <= 1e-6 { sameMinimised += 1 }
                    } else if route == nil && d == nil && t == nil {
                        same += 1
                        sameMinimised += 1
                    }
                }
            }
            equal[metric.rawValue] = same
            minimisedEqual[metric.rawValue] = sameMinimised
            let probe = road.makeMatrix(metric: metric == .fastest ? .fastest : .shortest)
            _ = probe.table(sources: try sources.map { try road.snap($0) }, targets: try targets.map { try road.snap($0) })
            entries[metric.rawValue] = probe.bucketEntryCount
            let mr = Statistics.Rounds(matrixTimes), rr = Statistics.Rounds(routeTimes)
            let key = metric.rawValue
            figures["\(key)_matrix_ms"] = (mr.median * 100).rounded() / 100
            figures["\(key)_routes_ms"] = (rr.median * 100).rounded() / 100
            figures["\(key)_speedup"] = (rr.median / max(mr.median, 1e-6) * 10).rounded() / 10
            ranges["\(key)_matrix_ms"] = mr.range.map { ($0 * 100).rounded() / 100 }
            ranges["\(key)_routes_ms"] = rr.range.map { ($0 * 100).rounded() / 100 }
        }
        let report = MatrixReport(
            graph: build == nil ? path : "(built from \(build!.pbf))", build: build, nodes: road.nodeCount, sources: n, targets: n,
            rounds: options.roundCount, machine: .current,
            fastest_matrix_ms: figures["fastest_matrix_ms"]!, fastest_routes_ms: figures["fastest_routes_ms"]!, fastest_speedup: figures["fastest_speedup"]!,
            shortest_matrix_ms: figures["shortest_matrix_ms"]!, shortest_routes_ms: figures["shortest_routes_ms"]!, shortest_speedup: figures["shortest_speedup"]!,
            fastest_cells_equal: equal["fastest"]!, shortest_cells_equal: equal["shortest"]!,
            fastest_cells_minimised_equal: minimisedEqual["fastest"]!, shortest_cells_minimised_equal: minimisedEqual["shortest"]!, cells: n * n,
            fastest_bucket_entries: entries["fastest"]!, shortest_bucket_entries: entries["shortest"]!, ranges: ranges)
        if options.json { print(try jsonLine(report)); return }
        if let b = build {
            print("geofare bench route --pbf \(b.pbf): graph build \(String(format: "%.2f", b.seconds)) s, peak RSS \(b.peak_rss_mib) MiB, file \(b.file_bytes) bytes (built once, the car profile)")
        }
        print("geofare bench route --matrix \(n): \(report.graph), \(report.nodes) nodes; \(n) × \(n) random points with a road within 200 m, median of \(options.roundCount) rounds, one thread, \(report.machine.cores) cores (\(report.machine.cpu))")
        for key in ["fastest", "shortest"] {
            let mr = ranges["\(key)_matrix_ms"]!, rr = ranges["\(key)_routes_ms"]!
            print("\(key): matrix \(figures["\(key)_matrix_ms"]!) ms (range \(mr[0])–\(mr[1])), \(n * n) route calls \(figures["\(key)_routes_ms"]!) ms (range \(rr[0])–\(rr[1])): ×\(figures["\(key)_speedup"]!); cells equal to the route \(equal[key]!)/\(n * n) (minimised figure \(minimisedEqual[key]!)/\(n * n), the rest exact ties); \(entries[key]!) bucket entries")
        }
    }
}
