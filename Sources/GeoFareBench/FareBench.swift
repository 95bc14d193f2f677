import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFareGraph
import GeoFareProj
import GeoFareRoute

/// Random two-point trips inside Seoul, the same for every benchmark and seed.
func seoulTrips(_ n: Int, seed: UInt64) -> [(Coordinate, Coordinate, Date)] {
    var rng = SeededGenerator(seed: seed)
    let start = ISO8601.parse("2024-05-15T00:00:00+09:00")!.timeIntervalSince1970
    return (0..<n).map { _ in
        let a = Coordinate(uncheckedLatitude: .random(in: 37.45...37.65, using: &rng), longitude: .random(in: 126.85...127.15, using: &rng))
        let b = Coordinate(uncheckedLatitude: .random(in: 37.45...37.65, using: &rng), longitude: .random(in: 126.85...127.15, using: &rng))
        return (a, b, Date(timeIntervalSince1970: start + .random(in: 0..<(7 * 86_400), using: &rng)))
    }
}

/// `geofare bench fare`: quotes per second on one core.
struct FareBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fare",
        abstract: "Quotes per second for two-point Seoul trips on one core, against a closed-form baseline.",
        discussion: """
        Routes are estimated once, outside the timing. Measured on one thread, median of rounds:
        `meter` runs the meter alone over the precomputed segments (night tiers, zones);
        `quote` is the full TripPricer quote from those segments (tariff look-up, meter, low/high,
        flat surcharges, rounding, split); `trip` adds the route estimate (TripPricer). The
        baseline is the one-period closed form N = ⌊(F − base)/unit⌋ + 1 on the same trips'
        totals, the arithmetic floor of any meter; `ratio` = baseline time / meter time.
        """
    )

    @OptionGroup var options: BenchOptions
    @Option(help: "Trips per round.") var trips = 200_000

    struct Report: Encodable {
        let benchmark = "fare"
        let trips: Int, rounds: Int, machine: MachineInfo
        let quotes_per_second, meter_per_second, trip_quotes_per_second, baseline_per_second: Double
        /// The meter's rate over the baseline's, and the sum of every amount computed.
        let meter_vs_baseline: Double, checksum: Int64
        /// Per figure, its lowest and highest round.
        let ranges: [String: [Double]]
    }

    func run() throws {
        let pricer = try TripPricer.standard()
        let sample = seoulTrips(trips, seed: options.seed)
        let requests = sample.map { a, b, t in FareRequest(from: a, to: b, departure: t, tariff: "kr-seoul/regular") }
        let routes = try requests.map { try pricer.route($0) }
        let meter = try pricer.catalog.meter(tariff: "kr-seoul/regular", at: sample[0].2)
        let fareRequests = zip(requests, routes).map { r, route in
            var f = FareRequest(trip: .segments(route.segments), departure: r.departure, tariff: "kr-seoul/regular")
            f.origin = r.origin
            f.destination = r.destination
            return f
        }
        var checksum: Int64 = 0
        var meterTimes: [Double] = [], quoteTimes: [Double] = [], tripTimes: [Double] = [], baseTimes: [Double] = []
        let version = meter.version
        let totals = routes.map { ($0.distanceMeters, $0.durationSeconds) }
        for _ in 0..<options.roundCount {
            baseTimes.append(Stopwatch.seconds {
                var s: Int64 = 0
                let v = version.changeoverSpeed, cruise = 25 / 3.6
                for (d, t) in totals {
                    let f = d + v * max(0, t - d / cruise)
                    let n = f < version.baseDistanceMeters ? 0 : Int64(((f - version.baseDistanceMeters) / version.unitDistanceMeters).rounded(.down)) + 1
                    s &+= version.baseFare + n * version.unitPrice
                }
                checksum &+= s
            })
            meterTimes.append(Stopwatch.seconds {
                var s: Int64 = 0
                for r in routes { s &+= meter.run(r.segments).amount }
                checksum &+= s
            })
            quoteTimes.append(try Stopwatch.seconds {
                var s: Int64 = 0
                for f in fareRequests { s &+= try pricer.quote(f).quote.total }
                checksum &+= s
            })
        }
        let tripSample = requests.prefix(max(1, trips / 10))
        for _ in 0..<options.roundCount {
            tripTimes.append(try Stopwatch.seconds {
                var s: Int64 = 0
                for r in tripSample { s &+= try pricer.quote(r).quote.total }
                checksum &+= s
            })
        }
        let n = Double(trips)
        let quote = Statistics.Rounds(quoteTimes).map { n / $0 }.rounded(), metered = Statistics.Rounds(meterTimes).map { n / $0 }.rounded()
        let trip = Statistics.Rounds(tripTimes).map { Double(tripSample.count) / $0 }.rounded(), base = Statistics.Rounds(baseTimes).map { n / $0 }.rounded()
        let report = Report(
            trips: trips, rounds: options.roundCount, machine: .current,
            quotes_per_second: quote.median.rounded(),
            meter_per_second: metered.median.rounded(),
            trip_quotes_per_second: trip.median.rounded(),
            baseline_per_second: base.median.rounded(),
            meter_vs_baseline: (metered.median / base.median * 1000).rounded() / 1000,
            checksum: checksum,
            ranges: ["quotes_per_second": quote.range, "meter_per_second": metered.range,
                     "trip_quotes_per_second": trip.range, "baseline_per_second": base.range]
        )
        let range = { (r: Statistics.Rounds) in r.rangeText { String(Int($0)) } }
        if options.json { print(try jsonLine(report)); return }
        print("geofare bench fare: \(trips) two-point Seoul trips, median of \(options.roundCount) rounds, one thread, \(report.machine.cores) cores (\(report.machine.cpu))")
        print("meter alone (precomputed route)   \(Int(report.meter_per_second)) /s\(range(metered))")
        print("full quote (precomputed route)    \(Int(report.quotes_per_second)) /s\(range(quote))")
        print("route + quote (TripPricer)        \(Int(report.trip_quotes_per_second)) /s\(range(trip))")
        print("baseline closed form              \(Int(report.baseline_per_second)) /s\(range(base))   (meter = \(report.meter_vs_baseline) × baseline speed)")
    }
}

/// `geofare bench route`: route estimates per second on one core.
struct RouteBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Two-point route estimates per second on one core, against the bare geodesic.",
        discussion: """
        Estimates random two-point Seoul trips with the circuity model, hourly speeds and the
        business-zone split. The baseline is PROJ's Karney geodesic alone on the same pairs, the
        one computation every estimate needs; `ratio` = estimator rate / geodesic rate.
        """
    )

    @OptionGroup var options: BenchOptions
    @Option(help: "Trips per round.") var trips = 200_000
    @Option(help: "A road graph file: time its node-to-node queries and full routes instead (against plain bidirectional Dijkstra).") var graph: String?
    @Option(help: "With --graph: queries per round.") var queries = 2_000
    @Option(help: "With --graph or --pbf: time an N × N matrix (one many-to-many search) against the N² route calls it replaces, instead of the node queries (N ≤ 100).") var matrix: Int?
    @Option(help: "An OSM extract: build its graph first with `geofare graph build` (the car profile) as a child process, report the build's seconds, peak resident memory and file size, then time queries on it as --graph does.") var pbf: String?

    struct Report: Encodable {
        let benchmark = "route"
        let trips: Int, rounds: Int, machine: MachineInfo
        let estimates_per_second, estimates_with_zone_per_second, geodesic_per_second: Double
        /// Estimates (no zone) over the geodesic's rate.
        let ratio: Double
        /// Per figure, its lowest and highest round.
        let ranges: [String: [Double]]
    }

    func run() throws {
        if let pbf {
            guard graph == nil else { throw ValidationError("give --graph or --pbf, not both") }
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-bench-\(UUID().uuidString).graph").path
            defer { try? FileManager.default.removeItem(atPath: out) }
            let built = try Self.buildGraph(pbf, to: out)
            if let matrix { return try runMatrix(out, size: matrix, build: built) }
            return try runGraph(out, build: built)
        }
        if let graph {
            if let matrix { return try runMatrix(graph, size: matrix) }
            return try runGraph(graph)
        }
        guard matrix == nil else { throw ValidationError("--matrix needs --graph or --pbf") }
        let pricer = try TripPricer.standard()
        guard let estimator = pricer.estimator as? CircuityRouteEstimator else { throw ValidationError("no circuity estimator") }
        let zone = pricer.catalog.zones.zone("kr-seoul-business")?.polygon
        let sample = seoulTrips(trips, seed: options.seed)
        let plain = sample.map { RouteRequest(origin: $0.0, destination: $0.1, departure: $0.2, profile: "kr-cities") }
        let zoned = sample.map { RouteRequest(origin: $0.0, destination: $0.1, departure: $0.2, businessZone: zone, profile: "kr-cities") }
        var sink = 0.0
        var plainTimes: [Double] = [], zoneTimes: [Double] = [], geoTimes: [Double] = []
        for _ in 0..<options.roundCount {
            geoTimes.append(Stopwatch.seconds { for (a, b, _) in sample { sink += Geodesic.wgs84.distanceMeters(a, b) } })
            plainTimes.append(try Stopwatch.seconds { for r in plain { sink += try estimator.estimate(r).distanceMeters } })
            zoneTimes.append(try Stopwatch.seconds { for r in zoned { sink += try estimator.estimate(r).distanceMeters } })
        }
        let n = Double(trips)
        let plainRate = Statistics.Rounds(plainTimes).map { n / $0 }.rounded(), zoneRate = Statistics.Rounds(zoneTimes).map { n / $0 }.rounded()
        let geoRate = Statistics.Rounds(geoTimes).map { n / $0 }.rounded()
        let report = Report(
            trips: trips, rounds: options.roundCount, machine: .current,
            estimates_per_second: plainRate.median.rounded(),
            estimates_with_zone_per_second: zoneRate.median.rounded(),
            geodesic_per_second: geoRate.median.rounded(),
            ratio: (plainRate.median / geoRate.median * 1000).rounded() / 1000,
            ranges: ["estimates_per_second": plainRate.range, "estimates_with_zone_per_second": zoneRate.range,
                     "geodesic_per_second": geoRate.range]
        )
        let range = { (r: Statistics.Rounds) in r.rangeText { String(Int($0)) } }
        if sink.isNaN { print("") }
        if options.json { print(try jsonLine(report)); return }
        print("geofare bench route: \(trips) two-point Seoul trips, median of \(options.roundCount) rounds, one thread, \(report.machine.cores) cores (\(report.machine.cpu))")
        print("estimate (no zone)            \(Int(report.estimates_per_second)) /s\(range(plainRate))")
        print("estimate + business-zone split \(Int(report.estimates_with_zone_per_second)) /s\(range(zoneRate))")
        print("geodesic alone (baseline)     \(Int(report.geodesic_per_second)) /s\(range(geoRate))   (estimate = \(report.ratio) × baseline speed)")
    }
}

/// `bench route --graph FILE` (or `--pbf FILE`): the road graph's build and queries.
extension RouteBench {
    /// The build of `--pbf`: `geofare graph build` run once as a child process.
    struct BuildReport: Encodable {
        let pbf: String
        let seconds: Double
        /// The child's peak resident memory (`getrusage(RUSAGE_CHILDREN)`: its maximum RSS).
        let peak_rss_mib: Int
        let file_bytes: Int
    }

    /// Runs `geofare graph build PBF -o OUT --quiet` with this executable; its wall time, peak
    /// memory and file size. Throws `GeoFareExit.dataError` when the build fails (its stderr shown).
    static func buildGraph(_ pbf: String, to out: String) throws -> BuildReport {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["graph", "build", pbf, "-o", out, "--quiet"]
        let errors = Pipe()
        process.standardError = errors
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard process.terminationStatus == 0 else {
            Diagnostics.print(String(decoding: stderr, as: UTF8.self).trimmingCharacters(in: .newlines))
            throw GeoFareExit.dataError
        }
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)  // ru_maxrss: KiB on Linux
        let size = (try? FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0
        return BuildReport(pbf: pbf, seconds: (seconds * 1000).rounded() / 1000, peak_rss_mib: Int(usage.ru_maxrss) / 1024, file_bytes: size)
    }

    struct GraphReport: Encodable {
        let benchmark = "route-graph"
        let graph: String
        /// With `--pbf`: how the graph was built (once, before the query rounds).
        let build: BuildReport?
        let nodes: Int, arcs: Int, file_bytes: Int
        let queries: Int, rounds: Int, machine: MachineInfo
        /// Per metric: node-to-node by the hierarchy and by plain bidirectional Dijkstra, and the
        /// full route between coordinates (snapping both ends, unpacking the path).
        let metrics: [String: MetricReport]
    }

    struct MetricReport: Encodable {
        let ch_queries_per_second, ch_p50_us, ch_p99_us, ch_settled_mean: Double
        let dijkstra_queries_per_second, dijkstra_p50_us, dijkstra_p99_us: Double
        let speedup_p50: Double
        /// Over every random point pair, those with no road within 500 m included (a quick error).
        let full_route_p50_us, full_route_p99_us: Double
        /// The pairs that routed (of `queries`), and the percentiles over those alone.
        let full_route_routed: Int, full_route_routed_p50_us: Double, full_route_routed_p99_us: Double
        let checked_equal: Int
        /// Per figure, its lowest and highest round.
        let ranges: [String: [Double]]
    }

    func runGraph(_ path: String, build: BuildReport? = nil) throws {
        let road: RoadGraph
        do { road = try RoadGraph(path: path) } catch {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw GeoFareExit.dataError
        }
        let m = road.metadata
        var rng = SeededGenerator(seed: options.seed)
        let n = UInt32(road.nodeCount)
        let pairs = (0..<queries).map { _ in (UInt32.random(in: 0..<n, using: &rng), UInt32.random(in: 0..<n, using: &rng)) }
        let points = (0..<queries).map { _ in
            (Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng)),
             Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng)))
        }
        func micros(_ body: () -> Void) -> Double {
            let t = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - t) / 1e3
        }
        var metrics: [String: MetricReport] = [:]
        let router = road.makeRouter()
        for metric in GraphMetric.allCases {
            let q = RoadGraph.NodeQueries(graph: road, metric: metric)
            var chTimes: [Double] = [], plainTimes: [Double] = [], fullTimes: [Double] = [], routedTimes: [Double] = []
            var routed = 0
            var chRounds: [Double] = [], plainRounds: [Double] = []
            var equal = 0, settled = 0
            for round in 0..<options.roundCount {
                var chRound = 0.0, plainRound = 0.0
                for (s, t) in pairs {
                    var a: UInt64?, b: UInt64?
                    let x = micros { a = q.hierarchy(s, t) }
                    let y = micros { b = q.plainDijkstra(s, t) }
                    chTimes.append(x); plainTimes.append(y); settled += q.hierarchySettled
                    chRound += x; plainRound += y
                    if round == 0 && a == b { equal += 1 }
                }
                chRounds.append(chRound); plainRounds.append(plainRound)
                for (a, b) in points {
                    var ok = false
                    let x = micros { ok = (try? router.route(from: a, to: b, metric: metric, maxSnapMeters: 500)) != nil }
                    fullTimes.append(x)
                    if ok { routedTimes.append(x); if round == 0 { routed += 1 } }
                }
            }
            let chRate = Statistics.Rounds(chRounds).map { Double(self.queries) / ($0 / 1e6) }.rounded()
            let plainRate = Statistics.Rounds(plainRounds).map { Double(self.queries) / ($0 / 1e6) }.rounded()
            let chP50 = Statistics.percentile(chTimes, 0.5), plainP50 = Statistics.percentile(plainTimes, 0.5)
            metrics[metric.rawValue] = MetricReport(
                ch_queries_per_second: chRate.median.rounded(), ch_p50_us: chP50, ch_p99_us: Statistics.percentile(chTimes, 0.99),
                ch_settled_mean: (Double(settled) / Double(max(chTimes.count, 1))).rounded(),
                dijkstra_queries_per_second: plainRate.median.rounded(), dijkstra_p50_us: plainP50,
                dijkstra_p99_us: Statistics.percentile(plainTimes, 0.99), speedup_p50: (plainP50 / max(chP50, 1e-3) * 10).rounded() / 10,
                full_route_p50_us: Statistics.percentile(fullTimes, 0.5), full_route_p99_us: Statistics.percentile(fullTimes, 0.99),
                full_route_routed: routed, full_route_routed_p50_us: routedTimes.isEmpty ? 0 : Statistics.percentile(routedTimes, 0.5),
                full_route_routed_p99_us: routedTimes.isEmpty ? 0 : Statistics.percentile(routedTimes, 0.99),
                checked_equal: equal,
                ranges: ["ch_queries_per_second": chRate.range, "dijkstra_queries_per_second": plainRate.range])
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let report = GraphReport(graph: build == nil ? path : "(built from \(build!.pbf))", build: build, nodes: road.nodeCount, arcs: m.arcCount, file_bytes: size, queries: queries,
                                 rounds: options.roundCount, machine: .current, metrics: metrics)
        if options.json { print(try jsonLine(report)); return }
        if let b = build {
            print("geofare bench route --pbf \(b.pbf): graph build \(String(format: "%.2f", b.seconds)) s, peak RSS \(b.peak_rss_mib) MiB, file \(b.file_bytes) bytes (built once, the car profile)")
        }
        print("geofare bench route --graph \(report.graph): \(report.nodes) nodes, \(report.arcs) arcs, \(size) bytes; \(queries) random node pairs × \(options.roundCount) rounds, one thread, \(report.machine.cores) cores (\(report.machine.cpu))")
        for (name, r) in metrics.sorted(by: { $0.key < $1.key }) {
            print("\(name): CH p50 \(String(format: "%.1f", r.ch_p50_us)) µs p99 \(String(format: "%.1f", r.ch_p99_us)) µs (\(Int(r.ch_queries_per_second))/s\(r.ranges["ch_queries_per_second"].map { options.roundCount > 1 ? ", range \(Int($0[0]))–\(Int($0[1]))" : "" } ?? ""), \(Int(r.ch_settled_mean)) nodes settled); plain bidirectional Dijkstra p50 \(String(format: "%.1f", r.dijkstra_p50_us)) µs p99 \(String(format: "%.1f", r.dijkstra_p99_us)) µs (\(Int(r.dijkstra_queries_per_second))/s\(r.ranges["dijkstra_queries_per_second"].map { options.roundCount > 1 ? ", range \(Int($0[0]))–\(Int($0[1]))" : "" } ?? "")); ×\(r.speedup_p50) at p50; full route with snapping p50 \(String(format: "%.1f", r.full_route_p50_us)) µs p99 \(String(format: "%.1f", r.full_route_p99_us)) µs (the \(r.full_route_routed) that routed: p50 \(String(format: "%.1f", r.full_route_routed_p50_us)) µs p99 \(String(format: "%.1f", r.full_route_routed_p99_us)) µs); equal answers \(r.checked_equal)/\(queries)")
        }
    }
}
