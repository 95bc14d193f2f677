import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFareGraph
import GeoFareParties
import GeoFarePooling
import GeoFareRoute

/// Generated riders and parties in a city: origins and destinations around a centre, request
/// times over a window (the same seed gives the same data).
struct PoolingData {
    /// The box points are drawn in: around Seoul by default, a graph's box with `--graph`.
    var south = 37.46, north = 37.62, west = 126.89, east = 127.09
    static let start = Date(timeIntervalSince1970: 1_741_788_000)  // 2025-03-12 23:00 KST

    init(graphs: [String]) throws {
        guard let path = graphs.first else { return }
        let m = try RoadGraph(path: path).metadata
        (south, north, west, east) = (m.south, m.north, m.west, m.east)
    }

    func point(_ rng: inout SeededGenerator) -> Coordinate {
        Coordinate(uncheckedLatitude: .random(in: south...north, using: &rng), longitude: .random(in: west...east, using: &rng))
    }

    func requests(_ n: Int, minutes: Double, seed: UInt64) -> [RideRequest] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { i in
            RideRequest(id: "r\(i)", departure: Self.start.addingTimeInterval(.random(in: 0...(minutes * 60), using: &rng)),
                        origin: point(&rng), destination: point(&rng))
        }.sorted { $0.departure < $1.departure }
    }

    func parties(_ n: Int, seed: UInt64) -> [Party] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { i in
            Party(id: "p\(i)", origin: point(&rng), destination: point(&rng),
                  departure: Self.start.addingTimeInterval(.random(in: -1_800...3_600, using: &rng)), seatsTotal: 4,
                  seatsTaken: Int.random(in: 1...3, using: &rng), status: .open)
        }
    }
}

/// `geofare bench match`: `match` among many open parties, against one route per candidate.
struct MatchBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Time the match op's answer among N open parties, against routing each candidate's legs one by one.",
        discussion: """
        N generated open parties around Seoul, or in the box of the --graph (departures over 90
        minutes) in a PartyIndex, and riders among them; each round answers every rider with PartyMatcher (candidates from
        the index, legs from matrices) and, as the baseline, the same candidates with every leg
        one route call (what a client without the matrix would do). Reports p50/p99 per rider.
        """
    )

    @OptionGroup var options: BenchOptions
    @Option(help: "Open parties in the index.") var parties = 10_000
    @Option(help: "Riders per round.") var riders = 200
    @Option(help: ArgumentHelp("A road graph file; without it the circuity model routes.", valueName: "file")) var graph: [String] = []

    func run() throws {
        let pricer = try TripPricer.standard(graphs: graph)
        let index = try PartyIndex()
        let area = try PoolingData(graphs: graph)
        index.upsert(contentsOf: area.parties(parties, seed: options.seed))
        let asks = area.requests(riders, minutes: 60, seed: options.seed + 1).map { r -> MatchRequest in
            var m = MatchRequest(rider: r)
            m.radiusMeters = 2_000
            return m
        }
        let matcher = PartyMatcher(pricer: pricer)
        var p50: [Double] = [], p99: [Double] = [], base50: [Double] = [], base99: [Double] = [], offered = 0
        for _ in 0..<options.roundCount {
            var times: [Double] = [], baseline: [Double] = []
            offered = 0
            for ask in asks {
                // A rider the data cannot price (no tariff where it starts) is not timed.
                guard (try? pricer.tariffID(for: FareRequest(from: ask.rider.origin, to: ask.rider.destination, departure: ask.rider.departure))) != nil else { continue }
                times.append(try Stopwatch.seconds { offered += try matcher.match(ask, in: index).candidates.count })
                baseline.append(try Stopwatch.seconds { _ = try Self.routePerCandidate(ask, index: index, pricer: pricer) })
            }
            p50.append(Statistics.median(times) * 1e3); p99.append(Statistics.percentile(times, 0.99) * 1e3)
            base50.append(Statistics.median(baseline) * 1e3); base99.append(Statistics.percentile(baseline, 0.99) * 1e3)
        }
        let m = MachineInfo.current
        let (a, b) = (Statistics.median(p50), Statistics.median(base50))
        if options.json {
            print(#"{"benchmark":"match","parties":\#(parties),"riders":\#(riders),"p50_ms":\#(a),"p99_ms":\#(Statistics.median(p99)),"baseline_p50_ms":\#(b),"baseline_p99_ms":\#(Statistics.median(base99)),"speedup":\#(b / a),"offered_per_rider":\#(Double(offered) / Double(riders)),"machine":"# + (try jsonLine(m)) + "}")
            return
        }
        print("geofare bench match: \(parties) open parties, \(riders) riders, median of \(options.roundCount) rounds, \(m.cores) cores (\(m.cpu))")
        print(String(format: "match (index + matrices)     p50 %.3f ms  p99 %.3f ms", a, Statistics.median(p99)))
        print(String(format: "baseline (a route per leg)   p50 %.3f ms  p99 %.3f ms   (%.1fx)", b, Statistics.median(base99), b / a))
        print(String(format: "parties offered per rider    %.2f", Double(offered) / Double(riders)))
    }

    /// The baseline: the same candidates, each leg its own route.
    static func routePerCandidate(_ ask: MatchRequest, index: PartyIndex, pricer: TripPricer) throws -> Int {
        let r = ask.rider
        let found = try index.nearby(center: r.origin, radiusMeters: ask.searchRadiusMeters, limit: ask.candidateLimit, filter: ask.candidateFilter)
        func leg(_ a: Coordinate, _ b: Coordinate) -> RideLeg? {
            guard let route = try? pricer.estimator.estimate(RouteRequest(origin: a, destination: b, departure: r.departure)) else { return nil }
            return RideLeg(seconds: route.durationSeconds, meters: route.distanceMeters)
        }
        let solo = leg(r.origin, r.destination)
        var feasible = 0
        for (party, _) in found where party.freeSeats >= r.seats {
            let points = [party.origin, party.destination, r.origin, r.destination]
            guard let own = leg(party.origin, party.destination), let solo else { continue }
            let times = [RiderTimes(requestTime: party.departure.timeIntervalSince1970, soloSeconds: own.seconds, seats: party.seatsTaken),
                         RiderTimes(requestTime: r.departure.timeIntervalSince1970, soloSeconds: solo.seconds, seats: r.seats)]
            if SharedRide.plan(riders: times, delaySeconds: ask.maxDelaySeconds, leg: { leg(points[$0], points[$1]) }) != nil { feasible += 1 }
        }
        return feasible
    }
}

/// `geofare bench pool`: pooling N requests, against testing every pair with a route per leg.
struct PoolBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pool",
        abstract: "Time pooling N generated ride requests, against testing pairs with one route per leg.",
        discussion: """
        N requests around Seoul (or in the box of the --graph) over --minutes; each round plans them with PoolPlanner (--delay,
        --max-riders). The baseline tests the first --baseline requests' pairs by brute force (every
        pair within the same time bound, every leg its own route call) beside PoolPlanner's
        shareability network on the same requests, and reports both and the ratio. Peak resident
        memory is the process's.
        """
    )

    @OptionGroup var options: BenchOptions
    @Option(help: "Requests to pool.") var requests = 10_000
    @Option(help: "Minutes the requests spread over.") var minutes: Double = 120
    @Option(help: "Δ, seconds.") var delay: Double = 300
    @Option(help: "Riders per taxi.") var maxRiders = 2
    @Option(help: "Requests of the brute-force baseline (0: none).") var baseline = 1_000
    @Option(help: ArgumentHelp("A road graph file; without it the circuity model routes.", valueName: "file")) var graph: [String] = []

    func run() throws {
        let pricer = try TripPricer.standard(graphs: graph)
        let data = try PoolingData(graphs: graph).requests(requests, minutes: minutes, seed: options.seed)
        let planner = PoolPlanner(pricer: pricer)
        let opts = PoolOptions(delaySeconds: delay, maxRiders: maxRiders, threads: ProcessInfo.processInfo.activeProcessorCount)
        var seconds: [Double] = [], baseSeconds: [Double] = [], subsetSeconds: [Double] = []
        var summary = PoolSummary()
        for _ in 0..<options.roundCount {
            seconds.append(try Stopwatch.seconds { summary = try planner.plan(data, options: opts).summary })
            if baseline > 0 {
                let subset = Array(data.prefix(baseline))
                subsetSeconds.append(try Stopwatch.seconds { _ = try planner.plan(subset, options: opts) })
                baseSeconds.append(Stopwatch.seconds { _ = Self.bruteForcePairs(subset, pricer: pricer, delay: delay) })
            }
        }
        let m = MachineInfo.current
        let rss = Double(CSVBench.peakRSS()) / 1_048_576
        let t = Statistics.median(seconds)
        if options.json {
            let b = baseline > 0 ? Statistics.median(baseSeconds) : 0, s = baseline > 0 ? Statistics.median(subsetSeconds) : 0
            print(#"{"benchmark":"pool","requests":\#(requests),"seconds":\#(t),"pooled":\#(summary.pooledRiders),"feasible_pairs":\#(summary.feasiblePairs),"peak_rss_mib":\#(rss),"baseline_requests":\#(baseline),"baseline_seconds":\#(b),"pool_seconds_same_requests":\#(s),"machine":"# + (try jsonLine(m)) + "}")
            return
        }
        print("geofare bench pool: \(requests) requests over \(Int(minutes)) min, Δ \(Int(delay)) s, median of \(options.roundCount) rounds, \(m.cores) cores (\(m.cpu))")
        print(String(format: "pool                        %.2f s%@  (%d pooled, %d feasible pairs of %d tried), peak RSS %.0f MiB",
                     t, Statistics.Rounds(seconds).rangeText { String(format: "%.2f", $0) }, summary.pooledRiders, summary.feasiblePairs, summary.triedPairs, rss))
        if baseline > 0 {
            let b = Statistics.median(baseSeconds), s = Statistics.median(subsetSeconds)
            print(String(format: "first %d: pool %.2f s, pairs by brute force %.2f s (%.1fx)", baseline, s, b, b / s))
        }
    }

    /// The baseline: every pair within the bound tested with one route per leg (no matching).
    static func bruteForcePairs(_ requests: [RideRequest], pricer: TripPricer, delay: Double) -> Int {
        func leg(_ a: Coordinate, _ b: Coordinate, _ at: Date) -> RideLeg? {
            guard let route = try? pricer.estimator.estimate(RouteRequest(origin: a, destination: b, departure: at)) else { return nil }
            return RideLeg(seconds: route.durationSeconds, meters: route.distanceMeters)
        }
        let solo = requests.map { leg($0.origin, $0.destination, $0.departure) }
        var feasible = 0
        for i in requests.indices {
            guard let si = solo[i] else { continue }
            for j in (i + 1)..<requests.count {
                guard let sj = solo[j] else { continue }
                if requests[j].departure.timeIntervalSince(requests[i].departure) > si.seconds + delay { break }
                let points = [requests[i].origin, requests[i].destination, requests[j].origin, requests[j].destination]
                let times = [RiderTimes(requestTime: requests[i].departure.timeIntervalSince1970, soloSeconds: si.seconds),
                             RiderTimes(requestTime: requests[j].departure.timeIntervalSince1970, soloSeconds: sj.seconds)]
                if SharedRide.plan(riders: times, delaySeconds: delay, leg: { leg(points[$0], points[$1], requests[i].departure) }) != nil { feasible += 1 }
            }
        }
        return feasible
    }
}
