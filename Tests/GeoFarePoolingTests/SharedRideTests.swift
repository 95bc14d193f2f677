import Foundation
import GeoFareCore
import Testing
@testable import GeoFarePooling

/// The one feasibility rule, on hand-made legs, and the matching against brute force.
struct SharedRideTests {
    @Test("Shared orders: each pickup before its drop-off, never empty mid-ride; 4 for two riders")
    func orders() {
        #expect(SharedRide.stopOrders(riders: 2).count == 4)
        for k in 2...3 {
            let all = SharedRide.stopOrders(riders: k)
            #expect(Set(all.map { $0.map(\.point) }).count == all.count)
            for order in all {
                var aboard = 0
                for (n, s) in order.enumerated() {
                    if s.pickup { aboard += 1 } else {
                        #expect(order[..<n].contains(RideStop(rider: s.rider, pickup: true)))
                        aboard -= 1
                    }
                    if n < order.count - 1 { #expect(aboard > 0) }
                }
            }
        }
        // Three riders: 90 orders put each pickup first; those that empty the taxi midway go.
        #expect(SharedRide.stopOrders(riders: 3).count == SharedRide.enumerateOrders(3).count)
        #expect(SharedRide.stopOrders(riders: 3).count < 90)
    }

    /// Points on a line (metres), driven at 10 m/s.
    static func line(_ xs: [Double]) -> (Int, Int) -> RideLeg? {
        { a, b in RideLeg(seconds: abs(xs[a] - xs[b]) / 10, meters: abs(xs[a] - xs[b])) }
    }

    @Test("Two riders the same way share within Δ; the bounds of the definition decide, waiting included")
    func definition() throws {
        // a: 0 → 1000 m at t=0 (100 s alone); b: 100 → 900 m at t=30 (80 s alone): the taxi
        // reaches b at t=10 and waits there until 30 with a aboard.
        let riders = [RiderTimes(requestTime: 0, soloSeconds: 100), RiderTimes(requestTime: 30, soloSeconds: 80)]
        let legs = Self.line([0, 1000, 100, 900])
        let ride = try #require(SharedRide.plan(riders: riders, delaySeconds: 60, leg: legs))
        #expect(ride.order == "+0;+1;-1;-0")
        #expect(ride.pickupTimes == [0, 30])
        #expect(ride.dropoffTimes == [120, 110])
        #expect(ride.delays == [20, 0])
        #expect(ride.vehicleSeconds == 120 && ride.vehicleMeters == 1000)
        // A smaller Δ than a's 20 s of waiting: infeasible; exactly 20 s: feasible.
        #expect(SharedRide.plan(riders: riders, delaySeconds: 19.9, leg: legs) == nil)
        #expect(SharedRide.plan(riders: riders, delaySeconds: 20, leg: legs) != nil)
        // b asked 40 s before a: either order gets b in at 90 at best, 50 s after b's 40.
        let late = [RiderTimes(requestTime: 0, soloSeconds: 100), RiderTimes(requestTime: -40, soloSeconds: 80)]
        #expect(SharedRide.plan(riders: late, delaySeconds: 49.9, leg: legs) == nil)
        // Both orders work at 50; starting with a costs the taxi 100 s, with b 140 s.
        #expect(SharedRide.plan(riders: late, delaySeconds: 50, leg: legs)?.order == "+0;+1;-1;-0")
        // Opposite ways: b from 900 back to 100.
        let opposite = Self.line([0, 1000, 900, 100])
        #expect(SharedRide.plan(riders: riders, delaySeconds: 60, leg: opposite) == nil)
        // A missing road makes the orders through it infeasible.
        #expect(SharedRide.plan(riders: riders, delaySeconds: 60, leg: { a, b in a == 0 && b == 2 || a == 2 && b == 0 ? nil : legs(a, b) }) == nil)
    }

    @Test("The maximum matching has as many pairs as brute force on random graphs")
    func matchingIsMaximum() {
        var rng = SeededGenerator(seed: 7)
        for trial in 0..<300 {
            let n = Int.random(in: 1...11, using: &rng)
            var edges: [(Int, Int)] = []
            let p = Double.random(in: 0.1...0.6, using: &rng)
            for a in 0..<n { for b in (a + 1)..<max(a + 1, n) where Double.random(in: 0..<1, using: &rng) < p { edges.append((a, b)) } }
            edges.shuffle(using: &rng)
            let mate = PairMatching.maximum(vertexCount: n, edges: edges)
            // A valid matching on the given edges.
            for v in 0..<n where mate[v] != -1 {
                #expect(mate[mate[v]] == v)
                #expect(edges.contains { ($0.0 == v && $0.1 == mate[v]) || ($0.1 == v && $0.0 == mate[v]) })
            }
            let pairs = mate.filter { $0 != -1 }.count / 2
            #expect(pairs == Self.bruteForce(n, edges), "trial \(trial)")
        }
    }

    static func bruteForce(_ n: Int, _ edges: [(Int, Int)]) -> Int {
        var memo = [Int: Int]()
        func best(_ used: Int) -> Int {
            if let m = memo[used] { return m }
            guard let v = (0..<n).first(where: { used & (1 << $0) == 0 }) else { return 0 }
            var result = best(used | (1 << v))
            for (a, b) in edges where (a == v || b == v) {
                let w = a == v ? b : a
                if used & (1 << w) == 0 { result = max(result, 1 + best(used | (1 << v) | (1 << w))) }
            }
            memo[used] = result
            return result
        }
        return best(0)
    }
}
