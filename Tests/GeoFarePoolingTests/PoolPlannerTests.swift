import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import Testing
@testable import GeoFarePooling

/// `pool` on the embedded data (Seoul, the circuity model), checked by a simulation of the
/// definition written here from the docs (not ``SharedRide``), with one route per leg.
struct PoolPlannerTests {
    static let pricer: TripPricer = try! TripPricer.standard()
    /// 2025-03-12 23:00 KST (a Wednesday night).
    static let t0 = Date(timeIntervalSince1970: 1_741_788_000)

    /// Seoul City Hall and Gangnam station, (latitude, longitude).
    static let cityHall = (37.5665, 126.9780), gangnam = (37.4979, 127.0276)

    static func request(_ id: String, _ minute: Double, _ from: (Double, Double), _ to: (Double, Double), seats: Int = 1) -> RideRequest {
        RideRequest(id: id, departure: t0.addingTimeInterval(minute * 60), origin: Coordinate(uncheckedLatitude: from.0, longitude: from.1),
                    destination: Coordinate(uncheckedLatitude: to.0, longitude: to.1), seats: seats)
    }

    /// The definition, simulated: stops as (request index, pickup?) in order, one route per leg
    /// departing when the taxi leaves; nil when a bound fails.
    static func simulate(_ stops: [(Int, Bool)], _ requests: [RideRequest], delay: Double) throws -> [Int: (pickup: Double, dropoff: Double)]? {
        var clock = requests[stops[0].0].departure.timeIntervalSince1970
        var times: [Int: (pickup: Double, dropoff: Double)] = [:]
        var previous: Coordinate?
        for (r, isPickup) in stops {
            let here = isPickup ? requests[r].origin : requests[r].destination
            if let previous {
                clock += try pricer.estimator.estimate(RouteRequest(origin: previous, destination: here, departure: Date(timeIntervalSince1970: clock))).durationSeconds
            }
            previous = here
            let t = requests[r].departure.timeIntervalSince1970
            if isPickup {
                clock = max(clock, t)
                guard clock <= t + delay + 1e-6 else { return nil }
                times[r] = (clock, 0)
            } else {
                let solo = try pricer.estimator.estimate(RouteRequest(origin: requests[r].origin, destination: requests[r].destination, departure: requests[r].departure)).durationSeconds
                guard clock <= t + solo + delay + 1e-6 else { return nil }
                times[r]!.dropoff = clock
            }
        }
        return times
    }

    /// Whether a pair can share under `delay` by the simulation (the four shared orders).
    static func pairFeasible(_ a: Int, _ b: Int, _ requests: [RideRequest], delay: Double) throws -> Bool {
        for order in [[(a, true), (b, true), (a, false), (b, false)], [(a, true), (b, true), (b, false), (a, false)],
                      [(b, true), (a, true), (a, false), (b, false)], [(b, true), (a, true), (b, false), (a, false)]] {
            if try simulate(order, requests, delay: delay) != nil { return true }
        }
        return false
    }

    @Test("Riders going the same way are pooled, the opposite way never; every group re-checks, shares sum and undercut solo")
    func poolsTheSameWay() throws {
        // City Hall → Gangnam and 300 m away → Gangnam a minute later; Gangnam → City Hall the other way.
        let requests = [
            Self.request("a", 0, Self.cityHall, Self.gangnam),
            Self.request("b", 1, (37.5640, 126.9770), (37.5006, 127.0364)),
            Self.request("c", 0.5, Self.gangnam, Self.cityHall),
            Self.request("big", 0, (37.5660, 126.9785), (37.4980, 127.0270), seats: 9),
        ]
        let plan = try PoolPlanner(pricer: Self.pricer).plan(requests, options: PoolOptions(delaySeconds: 300))
        #expect(plan.riders.count == 4)
        #expect(plan.riders[0].group == 1 && plan.riders[1].group == 1)
        #expect(plan.riders[2].group == nil)
        #expect(plan.riders[3].group == nil && plan.riders[3].error?.field == "seats")
        #expect(plan.groups.count == 1)
        let g = plan.groups[0]
        #expect(g.shares.reduce(0, +) == g.total)
        for (k, m) in g.members.enumerated() {
            #expect(g.shares[k] < plan.riders[m].soloFare)
            #expect(plan.riders[m].share == g.shares[k] && plan.riders[m].groupTotal == g.total && plan.riders[m].currency == "KRW")
        }
        #expect(g.total < plan.riders[0].soloFare + plan.riders[1].soloFare)
        // The group's stops, re-driven leg by leg, meet the bounds and give the reported times.
        let stops = g.ride.stops.map { (g.members[$0.rider], $0.pickup) }
        let times = try #require(try Self.simulate(stops, requests, delay: 300))
        for (k, m) in g.members.enumerated() {
            #expect(abs(times[m]!.pickup - g.ride.pickupTimes[k]) < 1e-6)
            #expect(abs(times[m]!.dropoff - g.ride.dropoffTimes[k]) < 1e-6)
        }
        #expect(plan.summary.pooledRiders == 2 && plan.summary.soloMeters > plan.summary.pooledMeters)
    }

    @Test("On 14 random night requests: pools as many riders as a brute-force maximum over the simulation's feasible pairs")
    func maximumOverFeasiblePairs() throws {
        var rng = SeededGenerator(seed: 30)
        let centre = (37.5400, 127.0000)
        var requests: [RideRequest] = []
        for i in 0..<14 {
            func point() -> (Double, Double) { (centre.0 + .random(in: -0.04...0.04, using: &rng), centre.1 + .random(in: -0.05...0.05, using: &rng)) }
            requests.append(Self.request("r\(i)", .random(in: 0...8, using: &rng), point(), point()))
        }
        let delay = 420.0
        let plan = try PoolPlanner(pricer: Self.pricer).plan(requests, options: PoolOptions(delaySeconds: delay))
        var edges: [(Int, Int)] = []
        for a in 0..<requests.count { for b in (a + 1)..<requests.count where try Self.pairFeasible(a, b, requests, delay: delay) { edges.append((a, b)) } }
        let best = 2 * SharedRideTests.bruteForce(requests.count, edges)
        #expect(best >= 4, "the test needs shareable requests")
        // Pairs found feasible by time but dearer than alone are dropped: those are the only losses.
        #expect(plan.summary.pooledRiders + 2 * plan.summary.refusedByMoney >= best)
        #expect(plan.summary.pooledRiders >= best * 95 / 100 - 2)
        var seen = Set<Int>()
        for g in plan.groups {
            for m in g.members { #expect(seen.insert(m).inserted) }
            #expect(edges.contains { ($0.0 == g.members[0] && $0.1 == g.members[1]) || ($0.1 == g.members[0] && $0.0 == g.members[1]) })
        }
    }

    @Test("The same groups on one thread or two (blocks joined in order)")
    func threadsDoNotChangeTheAnswer() throws {
        var rng = SeededGenerator(seed: 77)
        let requests = (0..<300).map { i in
            Self.request("r\(i)", .random(in: 0...30, using: &rng), (37.55 + .random(in: -0.02...0.02, using: &rng), 126.98 + .random(in: -0.03...0.03, using: &rng)),
                         (37.50 + .random(in: -0.02...0.02, using: &rng), 127.03 + .random(in: -0.03...0.03, using: &rng)))
        }
        let planner = PoolPlanner(pricer: Self.pricer)
        var small = planner
        small.anchorsPerBlock = 7
        let one = try small.plan(requests, options: PoolOptions(delaySeconds: 240, threads: 1))
        let two = try small.plan(requests, options: PoolOptions(delaySeconds: 240, threads: 2))
        let big = try planner.plan(requests, options: PoolOptions(delaySeconds: 240, threads: 2))
        #expect(one.summary.pooledRiders > 100)
        #expect(one.groups == two.groups && one.riders == two.riders)
        #expect(one.groups == big.groups, "the block size does not change the pairs either")
    }

    @Test("Three per taxi: a third rider joins only where the three are feasible together, and everyone still pays less")
    func triples() throws {
        let requests = [
            Self.request("a", 0, Self.cityHall, Self.gangnam),
            Self.request("b", 0.5, (37.5650, 126.9800), (37.4990, 127.0290)),
            Self.request("c", 1, (37.5640, 126.9770), (37.4970, 127.0260)),
        ]
        let two = try PoolPlanner(pricer: Self.pricer).plan(requests, options: PoolOptions(delaySeconds: 300, maxRiders: 2))
        #expect(two.summary.pooledRiders == 2)
        let three = try PoolPlanner(pricer: Self.pricer).plan(requests, options: PoolOptions(delaySeconds: 300, maxRiders: 3))
        #expect(three.summary.pooledRiders == 3 && three.groups.count == 1)
        let g = three.groups[0]
        #expect(g.shares.reduce(0, +) == g.total)
        for (k, m) in g.members.enumerated() { #expect(g.shares[k] < three.riders[m].soloFare) }
        let stops = g.ride.stops.map { (g.members[$0.rider], $0.pickup) }
        #expect(try Self.simulate(stops, requests, delay: 300) != nil)
        #expect(three.summary.pooledMeters < two.summary.pooledMeters)
    }

    @Test("No requests, or none that can be routed: an empty plan, not a failure")
    func emptyInput() throws {
        let none = try PoolPlanner(pricer: Self.pricer).plan([])
        #expect(none.riders.isEmpty && none.groups.isEmpty)
        let bad = try PoolPlanner(pricer: Self.pricer).plan([Self.request("x", 0, (37.5, 127), (37.6, 127), seats: 0)])
        #expect(bad.riders.count == 1 && bad.riders[0].error?.field == "seats" && bad.groups.isEmpty)
    }

    @Test("Bad options are refused naming the option")
    func badOptions() {
        for (options, field) in [(PoolOptions(delaySeconds: .nan), "delay"), (PoolOptions(maxRiders: 4), "max_riders"), (PoolOptions(capacity: 0), "capacity")] {
            #expect(throws: GeoFareError.self) { try PoolPlanner(pricer: Self.pricer).plan([], options: options) }
            do { _ = try PoolPlanner(pricer: Self.pricer).plan([], options: options) } catch { #expect(error.field == field) }
        }
    }
}
