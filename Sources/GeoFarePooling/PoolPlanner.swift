import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import Synchronization

/// How ``PoolPlanner`` groups riders.
public struct PoolOptions: Sendable {
    /// Δ: the most a rider's pickup may come after its request, and its drop-off after request +
    /// solo duration, seconds.
    public var delaySeconds: Double = 300
    /// Riders per taxi: 2 (pairs, an exact maximum matching) or 3 (then a heuristic adds a third).
    public var maxRiders: Int = 2
    /// Persons per taxi.
    public var capacity: Int = SharedRide.defaultCapacity
    /// Threads that test pairs (the command uses every core; 1 keeps the caller's thread alone,
    /// which code on Swift concurrency's pool should).
    public var threads: Int = 1
    /// Pairs whose request times differ by more than this are not tried. Default `nil`: the
    /// earlier rider's solo duration + Δ, which loses no feasible pair (the later rider boards no
    /// earlier than its request and, the taxi never being empty, while the earlier rider is still
    /// aboard, who is dropped by request + solo + Δ).
    public var maxGapSeconds: Double?

    public init(delaySeconds: Double = 300, maxRiders: Int = 2, capacity: Int = SharedRide.defaultCapacity, maxGapSeconds: Double? = nil,
                threads: Int = 1) {
        (self.delaySeconds, self.maxRiders, self.capacity, self.maxGapSeconds) = (delaySeconds, maxRiders, capacity, maxGapSeconds)
        self.threads = threads
    }

    /// - Throws: ``GeoFareError`` `invalid_value` naming the option.
    public func validate() throws(GeoFareError) {
        guard delaySeconds.isFinite, (0...7_200).contains(delaySeconds) else {
            throw .outOfRange("delay", delaySeconds, 0...7_200, code: .invalidValue)
        }
        guard (2...SharedRide.maxRiders).contains(maxRiders) else {
            throw .outOfRange("max_riders", Double(maxRiders), 2...Double(SharedRide.maxRiders), code: .invalidValue)
        }
        guard (1...20).contains(capacity) else {
            throw .outOfRange("capacity", Double(capacity), 1...20, code: .invalidValue)
        }
        if let g = maxGapSeconds, !(g.isFinite && g >= 0) {
            throw .invalidMaxGap()
        }
    }
}

/// One request's outcome.
public struct PoolRider: Sendable, Hashable {
    /// The group's number (1, 2, ... in the order of their first member's request), `nil` alone.
    public var group: Int?
    /// When picked up and dropped off, Unix seconds (alone: request time and request + solo duration).
    public var pickupTime: Double
    public var dropoffTime: Double
    /// Drop-off − (request + solo duration), seconds.
    public var delaySeconds: Double
    /// What the rider pays (all its seats), minor units; alone: the solo fare.
    public var share: Int64
    /// What the rider would pay alone.
    public var soloFare: Int64
    /// The group's fare (alone: the solo fare).
    public var groupTotal: Int64
    public var currency: String
    /// The solo route.
    public var soloMeters: Double
    public var soloSeconds: Double
    /// Why the request could not be priced (it is then left alone with zero money).
    public var error: GeoFareError?
}

/// A group of riders in one taxi.
public struct PoolGroup: Sendable, Hashable {
    /// Request indices, in the ride's rider order.
    public var members: [Int]
    public var ride: SharedRide
    public var total: Int64
    public var shares: [Int64]
    public var currency: String
}

/// What a pooling run did, for the summary line.
public struct PoolSummary: Sendable, Hashable {
    public var requests = 0
    public var pooledRiders = 0
    public var groups = 0
    /// Pairs found feasible (edges of the shareability network) and pairs tried.
    public var feasiblePairs = 0, triedPairs = 0
    /// Riders who would have shared by time but not by money (a share not below the solo fare).
    public var refusedByMoney = 0
    /// Vehicle metres and seconds: every rider alone vs as pooled.
    public var soloMeters = 0.0, pooledMeters = 0.0
    public var soloSeconds = 0.0, pooledSeconds = 0.0
    /// Money of the pooled riders: alone vs their shares, per currency.
    public var soloFares: [String: Int64] = [:], pooledFares: [String: Int64] = [:]

    public init() {}
}

/// The result of ``PoolPlanner/plan(_:options:progress:)``.
public struct PoolPlan: Sendable {
    /// The requests' ids, in input order.
    public var requestIDs: [String]
    /// One per request, in input order.
    public var riders: [PoolRider]
    public var groups: [PoolGroup]
    public var summary: PoolSummary
}

/// Pools a city's ride requests into shared taxis: the shareability network (every pair that is
/// feasible under Δ by ``SharedRide``'s one definition), a maximum matching of it, each matched
/// pair priced by ``RideFares`` and kept only when every rider's share is below its solo fare,
/// and, for three riders per taxi, a third rider added where that saves vehicle time.
///
/// Costs come from the estimator's many-to-many matrix (one per block of requests close in
/// time), never one route per pair.
public struct PoolPlanner: Sendable {
    public let pricer: TripPricer
    /// Requests whose pairs one block of matrices tests.
    public var anchorsPerBlock = 128
    /// Cells per matrix call at most (a block's are cut into calls of this size: the larger,
    /// the fewer times each point is snapped and searched from).
    public var cellsPerCall = 1_000_000

    public init(pricer: TripPricer) {
        self.pricer = pricer
    }

    /// Plans `requests`.
    /// - Parameter progress: called now and then with (requests whose pairs are done, all).
    /// - Throws: ``GeoFareError`` for bad options; a request that cannot be routed or priced
    ///   is answered alone with its error instead.
    public func plan(_ requests: [RideRequest], options: PoolOptions = PoolOptions(),
                     progress: ((Int, Int) -> Void)? = nil) throws(GeoFareError) -> PoolPlan {
        try options.validate()
        let fares = RideFares(pricer: pricer)
        let n = requests.count
        var summary = PoolSummary()
        summary.requests = n
        // 1. Solo routes and fares.
        var riders: [PoolRider] = []
        riders.reserveCapacity(n)
        for r in requests {
            let t = r.departure.timeIntervalSince1970
            var row = PoolRider(group: nil, pickupTime: t, dropoffTime: t, delaySeconds: 0, share: 0, soloFare: 0,
                                groupTotal: 0, currency: "", soloMeters: 0, soloSeconds: 0, error: nil)
            do throws(GeoFareError) {
                try r.validate(capacity: options.capacity)
                let route = try routeLeg(from: r.origin, to: r.destination, departure: r.departure)
                let fare = try fares.fare(meters: route.meters, seconds: route.seconds, origin: r.origin,
                                          destination: r.destination, departure: r.departure)
                row.soloMeters = route.meters
                row.soloSeconds = route.seconds
                row.dropoffTime = t + route.seconds
                row.soloFare = fare.total
                row.share = fare.total
                row.groupTotal = fare.total
                row.currency = fare.currency
            } catch {
                row.error = error
            }
            riders.append(row)
        }
        let ok = (0..<n).filter { riders[$0].error == nil }
        // 2. The shareability network.
        let classes = PointClasses()
        let edges = try shareablePairs(requests, riders: riders, candidates: ok, options: options, classes: classes, summary: &summary, progress: progress)
        summary.feasiblePairs = edges.count
        // 3. A maximum matching; pairs whose money does not work are dropped and the matching redone.
        var usable = edges.sorted { $0.saving != $1.saving ? $0.saving > $1.saving : ($0.a, $0.b) < ($1.a, $1.b) }
        var groups: [PoolGroup] = []
        var refused = Set<Int>()
        // A matched pair re-driven and priced: its group, or nil when it failed (a pair matched
        // again in a later round is not routed again).
        var verified: [Int: PoolGroup?] = [:]
        func verify(_ e: Pair) -> PoolGroup? {
            let key = e.a * n + e.b
            if let known = verified[key] { return known }
            var group: PoolGroup?
            let riderPoints = [requests[e.a].origin, requests[e.a].destination, requests[e.b].origin, requests[e.b].destination]
            if let ride = routed(e.ride, members: [e.a, e.b], requests: requests, riders: riders, options: options) {
                let priced = try? fares.shares(of: ride, points: riderPoints, soloFares: [riders[e.a].soloFare, riders[e.b].soloFare])
                if let p = priced, p.shares[0] < riders[e.a].soloFare, p.shares[1] < riders[e.b].soloFare,
                   p.currency == riders[e.a].currency, p.currency == riders[e.b].currency {
                    group = PoolGroup(members: [e.a, e.b], ride: ride, total: p.total, shares: p.shares, currency: p.currency)
                } else {
                    refused.insert(e.a); refused.insert(e.b)
                }
            }
            verified[key] = .some(group)
            return group
        }
        for _ in 0..<8 {
            let mate = PairMatching.maximum(vertexCount: n, edges: usable.map { ($0.a, $0.b) })
            groups = []
            var failed = Set<Int>()
            for (k, e) in usable.enumerated() where mate[e.a] == e.b {
                if let group = verify(e) { groups.append(group) } else { failed.insert(k) }
            }
            if failed.isEmpty { break }
            // Matched riders whose pair failed may find other partners: match again without it
            // (the last round keeps the pairs that passed).
            usable = usable.enumerated().filter { !failed.contains($0.offset) }.map(\.element)
        }
        // 4. A third rider where it saves vehicle time.
        if options.maxRiders >= 3 {
            groups = try addThirdRiders(groups, requests: requests, riders: riders, edges: usable, options: options, fares: fares, classes: classes)
        }
        // 5. Rows, numbered by their groups' first member.
        groups.sort { $0.members.min()! < $1.members.min()! }
        for (g, group) in groups.enumerated() {
            for (k, m) in group.members.enumerated() {
                riders[m].group = g + 1
                riders[m].pickupTime = group.ride.pickupTimes[k]
                riders[m].dropoffTime = group.ride.dropoffTimes[k]
                riders[m].delaySeconds = group.ride.delays[k]
                riders[m].share = group.shares[k]
                riders[m].groupTotal = group.total
                summary.soloFares[group.currency, default: 0] += riders[m].soloFare
                summary.pooledFares[group.currency, default: 0] += group.shares[k]
            }
            summary.pooledRiders += group.members.count
            summary.pooledMeters += group.ride.vehicleMeters
            summary.pooledSeconds += group.ride.vehicleSeconds
            for m in group.members {
                summary.soloMeters += riders[m].soloMeters
                summary.soloSeconds += riders[m].soloSeconds
            }
        }
        summary.groups = groups.count
        summary.refusedByMoney = refused.subtracting(groups.flatMap(\.members)).count
        // Riders alone drive alone either way.
        for i in ok where riders[i].group == nil {
            summary.soloMeters += riders[i].soloMeters
            summary.pooledMeters += riders[i].soloMeters
            summary.soloSeconds += riders[i].soloSeconds
            summary.pooledSeconds += riders[i].soloSeconds
        }
        return PoolPlan(requestIDs: requests.map(\.id), riders: riders, groups: groups, summary: summary)
    }

    /// A feasible pair: requests `a` and `b` (a's request first), their best ride, and the
    /// vehicle seconds it saves over both alone.
    struct Pair {
        var a: Int
        var b: Int
        var ride: SharedRide
        var saving: Double
    }

    /// Every feasible pair among `candidates` whose request times are within the gap, tested in
    /// blocks: a block of requests close in time (within one UTC hour) against every request up
    /// to the gap after it (``pairsOf``), with legs from matrices at the block's first request
    /// time; blocks run on ``PoolOptions/threads`` lanes and their pairs are joined in block order,
    /// so the answer does not depend on the number of threads.
    func shareablePairs(_ requests: [RideRequest], riders: [PoolRider], candidates: [Int], options: PoolOptions,
                        classes: PointClasses, summary: inout PoolSummary, progress: ((Int, Int) -> Void)?) throws(GeoFareError) -> [Pair] {
        let order = candidates.sorted {
            let (x, y) = (requests[$0].departure, requests[$1].departure)
            return x != y ? x < y : $0 < $1
        }
        guard !order.isEmpty else { return [] }
        let time = order.map { requests[$0].departure.timeIntervalSince1970 }
        let delay = options.delaySeconds
        func gap(_ position: Int) -> Double { options.maxGapSeconds ?? riders[order[position]].soloSeconds + delay }
        // The blocks: up to anchorsPerBlock requests within one UTC hour, each with its partners
        // (every request after the block's first, up to the gap after its last).
        var blocks: [(start: Int, end: Int, last: Int)] = []
        var start = 0
        while start < order.count {
            let hour = floor(time[start] / 3600)
            var end = start
            while end < order.count && end - start < anchorsPerBlock && floor(time[end] / 3600) == hour { end += 1 }
            let reach = (start..<end).map { time[$0] + gap($0) }.max()!
            var last = end
            while last < order.count && time[last] <= reach { last += 1 }
            blocks.append((start, end, last))
            start = end
        }
        // Every point's class first (read-only below, from every lane).
        try classes.classify(order.flatMap { [requests[$0].origin, requests[$0].destination] },
                             departure: requests[order[0]].departure, estimator: pricer.estimator)
        let lanes = max(1, min(options.threads, blocks.count))
        let results = Mutex<(pairs: [Int: [Pair]], tried: Int, error: GeoFareError?, done: Int)>(([:], 0, nil, 0))
        let next = Atomic<Int>(0)
        let lastReport = Mutex<Date>(Date())
        Parallel.run(lanes: lanes) { _ in
            while true {
                let k = next.add(1, ordering: .relaxed).oldValue
                guard k < blocks.count, results.withLock({ $0.error == nil }) else { return }
                let block = blocks[k]
                do throws(GeoFareError) {
                    let (found, tried) = try pairsOf(block, order: order, time: time, requests: requests, riders: riders,
                                                     options: options, classes: classes, gap: gap)
                    results.withLock { $0.pairs[k] = found; $0.tried += tried; $0.done = max($0.done, block.end) }
                } catch {
                    results.withLock { if $0.error == nil { $0.error = error } }
                    return
                }
                if let progress, lastReport.withLock({ now in
                    guard Date().timeIntervalSince(now) > 2 else { return false }
                    now = Date()
                    return true
                }) {
                    progress(results.withLock { $0.done }, order.count)
                }
            }
        }
        let outcome = results.withLock { $0 }
        if let error = outcome.error { throw error }
        progress?(order.count, order.count)
        summary.triedPairs += outcome.tried
        return blocks.indices.flatMap { outcome.pairs[$0] ?? [] }
    }

    /// The feasible pairs of one block (see ``shareablePairs``) and how many pairs it tried, in
    /// two stages. First the legs between origins (and from each partner's origin to each
    /// anchor's destination) screen every pair with the exact bounds they decide: with `a` (the
    /// earlier) first, the taxi must reach b by b's request + Δ, and a, still aboard when b
    /// boards, gets off no sooner than the next leg from b's origin (to a's destination, or b's
    /// own trip) allows, within a's bound; with b first, a must be reached by a's request + Δ.
    /// Then, per anchor, the legs to and from the destinations of the pairs that passed, and the
    /// orders are driven.
    func pairsOf(_ block: (start: Int, end: Int, last: Int), order: [Int], time: [Double], requests: [RideRequest],
                 riders: [PoolRider], options: PoolOptions, classes: PointClasses, gap: (Int) -> Double) throws(GeoFareError) -> ([Pair], Int) {
        let anchors = Array(order[block.start..<block.end]), partners = Array(order[(block.start + 1)..<block.last])
        guard !partners.isEmpty else { return ([], 0) }
        let delay = options.delaySeconds, slack = 1e-6
        let departure = requests[anchors[0]].departure
        let origins = try matrix(from: anchors.map { requests[$0].origin }, to: partners.map { requests[$0].origin },
                                 departure: departure, classes: classes)
        let back = try matrix(from: partners.map { requests[$0].origin }, to: anchors.flatMap { [requests[$0].origin, requests[$0].destination] },
                              departure: departure, classes: classes)
        var pairs: [Pair] = []
        var tried = 0
        for (ai, a) in anchors.enumerated() {
            let position = block.start + ai
            let ta = time[position], soloA = riders[a].soloSeconds
            var passed: [Int] = []
            for (pi, b) in partners.enumerated() where block.start + 1 + pi > position {
                let tb = time[block.start + 1 + pi]
                if tb - ta > gap(position) { break }
                if requests[a].seats + requests[b].seats > options.capacity { continue }
                tried += 1
                let soloB = riders[b].soloSeconds
                let aToB = origins.seconds[ai * origins.columns + pi]
                let bToA = back.seconds[pi * back.columns + 2 * ai]
                let bToADest = back.seconds[pi * back.columns + 2 * ai + 1]
                var aFirst = false
                if !aToB.isNaN && ta + aToB <= tb + delay + slack {
                    let boardB = max(ta + aToB, tb)
                    aFirst = boardB + (bToADest.isNaN ? soloB : min(bToADest, soloB)) <= ta + soloA + delay + slack
                }
                let bFirst = !bToA.isNaN && tb + bToA <= ta + delay + slack
                if aFirst || bFirst { passed.append(pi) }
            }
            guard !passed.isEmpty else { continue }
            let dests = passed.map { requests[partners[$0]].destination }
            let fromA = try matrix(from: [requests[a].origin, requests[a].destination], to: dests, departure: departure, classes: classes)
            let toADest = try matrix(from: dests, to: [requests[a].destination], departure: departure, classes: classes)
            for (si, pi) in passed.enumerated() {
                let b = partners[pi]
                let tb = time[block.start + 1 + pi], soloB = riders[b].soloSeconds
                let times = [RiderTimes(requestTime: ta, soloSeconds: soloA, seats: requests[a].seats),
                             RiderTimes(requestTime: tb, soloSeconds: soloB, seats: requests[b].seats)]
                let solo = [RideLeg(seconds: soloA, meters: riders[a].soloMeters), RideLeg(seconds: soloB, meters: riders[b].soloMeters)]
                let ride = SharedRide.plan(riders: times, delaySeconds: delay) { x, y in
                    // Points: 0, 1 = a's origin and destination; 2, 3 = b's.
                    switch (x, y) {
                    case (0, 1): return solo[0]
                    case (2, 3): return solo[1]
                    case (0, 2): return origins.leg(ai, pi)
                    case (2, 0): return back.leg(pi, 2 * ai)
                    case (2, 1): return back.leg(pi, 2 * ai + 1)
                    case (0, 3): return fromA.leg(0, si)
                    case (1, 3): return fromA.leg(1, si)
                    case (3, 1): return toADest.leg(si, 0)
                    default: return nil  // a leg no shared order of two drives
                    }
                }
                if let ride {
                    pairs.append(Pair(a: a, b: b, ride: ride, saving: soloA + soloB - ride.vehicleSeconds))
                }
            }
        }
        return (pairs, tried)
    }

    /// `ride`'s order driven again with one route per leg departing when the taxi leaves the
    /// stop (the matrices screened at the hour of the block's first request): the times the
    /// answer reports, or `nil` when the order is not feasible at them.
    func routed(_ ride: SharedRide, members: [Int], requests: [RideRequest], riders: [PoolRider], options: PoolOptions) -> SharedRide? {
        let points = members.flatMap { [requests[$0].origin, requests[$0].destination] }
        let times = members.map { RiderTimes(requestTime: requests[$0].departure.timeIntervalSince1970, soloSeconds: riders[$0].soloSeconds, seats: requests[$0].seats) }
        return SharedRide.drive(ride.stops, riders: times, delaySeconds: options.delaySeconds) { a, b, at in
            try? routeLeg(from: points[a], to: points[b], departure: Date(timeIntervalSince1970: at))
        }
    }

    /// A trip's route (what `route` answers) as a leg: every solo trip and every re-driven leg of
    /// `pool` and `match` comes from here.
    /// - Throws: ``GeoFareError`` from the estimator.
    func routeLeg(from origin: Coordinate, to destination: Coordinate, departure: Date) throws(GeoFareError) -> RideLeg {
        let route = try pricer.estimator.estimate(RouteRequest(origin: origin, destination: destination, departure: departure))
        return RideLeg(seconds: route.durationSeconds, meters: route.distanceMeters)
    }

    /// Which estimator answers for each point alone (a road graph's, or the circuity model for a
    /// point outside every graph or too far from a road), so that a matrix never mixes them: one
    /// such point in a call would send every cell of it to the fallback, where `route` answers
    /// the other cells on the graph.
    final class PointClasses: @unchecked Sendable {
        var of: [Coordinate: String] = [:]

        func classify(_ points: [Coordinate], departure: Date, estimator: any RouteEstimator) throws(GeoFareError) {
            for p in points where of[p] == nil {
                of[p] = try estimator.matrix(MatrixRequest(sources: [p], targets: [p], departure: departure)).estimator
            }
        }
    }

    /// Legs from each of `sources` to each of `targets`, in calls of at most ``cellsPerCall``
    /// cells, each call over points of one class (see ``PointClasses``) when `classes` is given.
    func matrix(from sources: [Coordinate], to targets: [Coordinate], departure: Date, classes: PointClasses? = nil) throws(GeoFareError) -> LegTable {
        var table = LegTable(columns: targets.count, seconds: [], meters: [])
        table.seconds = [Double](repeating: .nan, count: sources.count * targets.count)
        table.meters = table.seconds
        if let classes {
            try classes.classify(sources + targets, departure: departure, estimator: pricer.estimator)
            let sourceGroups = Dictionary(grouping: sources.indices, by: { classes.of[sources[$0]]! })
            let targetGroups = Dictionary(grouping: targets.indices, by: { classes.of[targets[$0]]! })
            if sourceGroups.count > 1 || targetGroups.count > 1 {
                for (_, si) in sourceGroups {
                    for (_, ti) in targetGroups {
                        let part = try matrix(from: si.map { sources[$0] }, to: ti.map { targets[$0] }, departure: departure)
                        for (a, i) in si.enumerated() {
                            for (b, j) in ti.enumerated() {
                                table.seconds[i * targets.count + j] = part.seconds[a * ti.count + b]
                                table.meters[i * targets.count + j] = part.meters[a * ti.count + b]
                            }
                        }
                    }
                }
                return table
            }
        }
        let columnsPerCall = max(1, min(targets.count, cellsPerCall))
        let rowsPerCall = max(1, cellsPerCall / columnsPerCall)
        var s0 = 0
        while s0 < sources.count {
            let s1 = min(sources.count, s0 + rowsPerCall)
            var t0 = 0
            while t0 < targets.count {
                let t1 = min(targets.count, t0 + columnsPerCall)
                var request = MatrixRequest(sources: Array(sources[s0..<s1]), targets: Array(targets[t0..<t1]), departure: departure)
                request.cellLimit = max(MatrixRequest.maxCells, cellsPerCall)
                let m = try pricer.estimator.matrix(request)
                for i in s0..<s1 {
                    for j in t0..<t1 {
                        if let d = m.durationSeconds[i - s0][j - t0], let l = m.distanceMeters[i - s0][j - t0] {
                            table.seconds[i * targets.count + j] = d
                            table.meters[i * targets.count + j] = l
                        }
                    }
                }
                t0 = t1
            }
            s0 = s1
        }
        return table
    }

    /// Adds riders left alone to pairs, one each, where the three are feasible together, fit the
    /// taxi, every share is below its solo fare, and it saves the most vehicle time over the pair
    /// and the rider apart. Tried in request order against the pairs the rider has an edge to.
    func addThirdRiders(_ pairs: [PoolGroup], requests: [RideRequest], riders: [PoolRider], edges: [Pair],
                        options: PoolOptions, fares: RideFares, classes: PointClasses) throws(GeoFareError) -> [PoolGroup] {
        var groups = pairs
        var groupOf = [Int: Int]()
        for (g, group) in groups.enumerated() { for m in group.members { groupOf[m] = g } }
        var neighbours = [Int: [Int]]()
        for e in edges { neighbours[e.a, default: []].append(e.b); neighbours[e.b, default: []].append(e.a) }
        let alone = (0..<requests.count).filter { riders[$0].error == nil && groupOf[$0] == nil }
        for c in alone {
            let candidateGroups = Set((neighbours[c] ?? []).compactMap { groupOf[$0] }).sorted()
            var best: (g: Int, group: PoolGroup, saving: Double)?
            for g in candidateGroups where groups[g].members.count < options.maxRiders {
                let members = (groups[g].members + [c]).sorted {
                    requests[$0].departure != requests[$1].departure ? requests[$0].departure < requests[$1].departure : $0 < $1
                }
                guard members.reduce(0, { $0 + requests[$1].seats }) <= options.capacity else { continue }
                let points = members.flatMap { [requests[$0].origin, requests[$0].destination] }
                let legs = try matrix(from: points, to: points, departure: requests[members[0]].departure, classes: classes)
                let times = members.map { RiderTimes(requestTime: requests[$0].departure.timeIntervalSince1970, soloSeconds: riders[$0].soloSeconds, seats: requests[$0].seats) }
                guard let screened = SharedRide.plan(riders: times, delaySeconds: options.delaySeconds, leg: { legs.leg($0, $1) }),
                      let ride = routed(screened, members: members, requests: requests, riders: riders, options: options) else { continue }
                let saving = groups[g].ride.vehicleSeconds + riders[c].soloSeconds - ride.vehicleSeconds
                guard saving > 0, best == nil || saving > best!.saving else { continue }
                guard let priced = try? fares.shares(of: ride, points: points, soloFares: members.map { riders[$0].soloFare }, leg: { legs.leg($0, $1) }),
                      members.indices.allSatisfy({ priced.shares[$0] < riders[members[$0]].soloFare && riders[members[$0]].currency == priced.currency })
                else { continue }
                best = (g, PoolGroup(members: members, ride: ride, total: priced.total, shares: priced.shares, currency: priced.currency), saving)
            }
            if let best {
                groups[best.g] = best.group
                groupOf[c] = best.g
            }
        }
        return groups
    }
}

/// Leg durations and distances from sources to targets, row-major; NaN where no road joins them.
struct LegTable {
    var columns: Int
    var seconds: [Double]
    var meters: [Double]

    func leg(_ i: Int, _ j: Int) -> RideLeg? {
        let s = seconds[i * columns + j]
        return s.isNaN ? nil : RideLeg(seconds: s, meters: meters[i * columns + j])
    }
}
