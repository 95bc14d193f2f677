import Foundation
import GeoFareCore

/// One stop of a shared ride: picking up or dropping off one rider of the group.
public struct RideStop: Sendable, Hashable {
    /// The rider's index in the group.
    public var rider: Int
    /// `true`: the rider boards here; `false`: gets off.
    public var pickup: Bool

    public init(rider: Int, pickup: Bool) {
        (self.rider, self.pickup) = (rider, pickup)
    }

    /// The stop's index in a group's point list: `2·rider` is a rider's pickup, `2·rider + 1`
    /// its drop-off (the numbering ``SharedRide/plan(riders:delaySeconds:leg:)``'s `leg` uses).
    public var point: Int { 2 * rider + (pickup ? 0 : 1) }
}

/// What the feasibility rule needs of one rider of a group.
public struct RiderTimes: Sendable, Hashable {
    /// The request time, Unix seconds.
    public var requestTime: Double
    /// The rider's solo trip: route duration from its pickup to its drop-off, seconds.
    public var soloSeconds: Double
    /// Persons on the request.
    public var seats: Int

    public init(requestTime: Double, soloSeconds: Double, seats: Int = 1) {
        (self.requestTime, self.soloSeconds, self.seats) = (requestTime, soloSeconds, seats)
    }
}

/// A driven leg between two stops.
public struct RideLeg: Sendable, Hashable {
    /// Route duration, seconds.
    public var seconds: Double
    /// Route distance, metres.
    public var meters: Double

    public init(seconds: Double, meters: Double) {
        (self.seconds, self.meters) = (seconds, meters)
    }
}

/// A group of riders in one taxi, with the order of its stops and when each happens.
///
/// **Feasibility, the one definition** (the `match` op, `geofare pool` and the tests all use
/// ``plan(riders:delaySeconds:leg:)``): a group is feasible under a delay Δ when some order of
/// its pickups and drop-offs (each rider picked up before dropped off, and the taxi never empty
/// between the first pickup and the last drop-off: a shared ride, not two rides in a row), driven
/// back to back at the route durations for the time each leg starts (the `leg` function's; the
/// pool screens pairs with its matrices at the hour of a block's first request, then drives the
/// pairs it keeps again leg by leg with ``drive(_:riders:delaySeconds:leg:)``), leaving the
/// first pickup at its rider's request time and waiting at a pickup until that rider's request
/// time, picks every rider up no later than request time + Δ and brings them in no later than
/// request time + solo duration + Δ. Of the feasible orders the plan takes the one the taxi
/// drives least (metres), then the one that delays riders least (person-seconds), then the first
/// in a fixed enumeration, so the answer is deterministic.
public struct SharedRide: Sendable, Hashable {
    /// Persons a taxi carries unless told otherwise.
    public static let defaultCapacity = 4
    /// Riders a group may hold at most (every shared order of the stops is tried).
    public static let maxRiders = 3

    /// The stops in driving order.
    public var stops: [RideStop]
    /// The legs between consecutive stops (`stops.count − 1`).
    public var legs: [RideLeg]
    /// Per rider (the group's order): when picked up and when dropped off, Unix seconds.
    public var pickupTimes: [Double]
    public var dropoffTimes: [Double]
    /// Per rider: drop-off − (request time + solo duration), seconds (negative when the shared
    /// ride gets the rider in sooner than its own route's duration, e.g. a later hour's legs).
    public var delays: [Double]
    /// From the first pickup to the last drop-off, waiting included, seconds.
    public var vehicleSeconds: Double
    /// Driven metres from the first pickup to the last drop-off.
    public var vehicleMeters: Double

    /// The stops as `+i`/`-i` rider indices, e.g. `[+0, +1, -0, -1]` (for tests and logs).
    public var order: String {
        stops.map { ($0.pickup ? "+" : "-") + String($0.rider) }.joined(separator: ";")
    }

    /// The feasible plan of least driving for `riders` (2 ... ``maxRiders``) under
    /// `delaySeconds`, or `nil` when no order is feasible (see the type's definition).
    /// - Parameter leg: the leg from point `a` to point `b` (``RideStop/point`` numbering), or
    ///   `nil` when no road joins them (no order through it is feasible). Called at most once per
    ///   pair of points.
    public static func plan(riders: [RiderTimes], delaySeconds: Double, leg: (Int, Int) -> RideLeg?) -> SharedRide? {
        let k = riders.count
        guard (1...maxRiders).contains(k) else { return nil }
        var cache = [RideLeg??](repeating: nil, count: 4 * k * k)
        func legBetween(_ a: Int, _ b: Int) -> RideLeg? {
            let key = a * 2 * k + b
            if let known = cache[key] { return known }
            let found = leg(a, b)
            cache[key] = .some(found)
            return found
        }
        let slack = 1e-6
        var best: (order: [RideStop], meters: Double, delay: Double)?
        orders: for order in stopOrders(riders: k) {
            var clock = riders[order[0].rider].requestTime
            var meters = 0.0, delay = 0.0
            for (n, stop) in order.enumerated() {
                if n > 0 {
                    guard let l = legBetween(order[n - 1].point, stop.point) else { continue orders }
                    clock += l.seconds
                    meters += l.meters
                }
                let r = riders[stop.rider]
                if stop.pickup {
                    clock = max(clock, r.requestTime)
                    if clock > r.requestTime + delaySeconds + slack { continue orders }
                } else {
                    if clock > r.requestTime + r.soloSeconds + delaySeconds + slack { continue orders }
                    delay += Double(r.seats) * max(0, clock - r.requestTime - r.soloSeconds)
                }
            }
            if let b = best, !(meters < b.meters - 1e-6 || (abs(meters - b.meters) <= 1e-6 && delay < b.delay - slack)) { continue }
            best = (order, meters, delay)
        }
        guard let chosen = best else { return nil }
        return drive(chosen.order, riders: riders, leg: legBetween)
    }

    /// Drives `order` with legs that depend on when they start (`leg(a, b, departure)`, Unix
    /// seconds): the ride, or `nil` when a leg has no road or a bound of the definition fails.
    public static func drive(_ order: [RideStop], riders: [RiderTimes], delaySeconds: Double,
                             leg: (Int, Int, Double) -> RideLeg?) -> SharedRide? {
        var legs: [RideLeg] = []
        var clock = riders[order[0].rider].requestTime
        for (n, stop) in order.enumerated() {
            if n > 0 {
                guard let l = leg(order[n - 1].point, stop.point, clock) else { return nil }
                legs.append(l)
                clock += l.seconds
            }
            let r = riders[stop.rider]
            if stop.pickup {
                clock = max(clock, r.requestTime)
                if clock > r.requestTime + delaySeconds + 1e-6 { return nil }
            } else if clock > r.requestTime + r.soloSeconds + delaySeconds + 1e-6 {
                return nil
            }
        }
        var n = 0
        return drive(order, riders: riders) { _, _ in defer { n += 1 }; return legs[n] }
    }

    /// Drives `order` (assumed feasible) and records its times.
    static func drive(_ order: [RideStop], riders: [RiderTimes], leg: (Int, Int) -> RideLeg?) -> SharedRide {
        let k = riders.count
        var pickups = [Double](repeating: 0, count: k), dropoffs = [Double](repeating: 0, count: k)
        var legs: [RideLeg] = []
        let start = riders[order[0].rider].requestTime
        var clock = start, meters = 0.0
        for (n, stop) in order.enumerated() {
            if n > 0 {
                let l = leg(order[n - 1].point, stop.point)!
                legs.append(l)
                clock += l.seconds
                meters += l.meters
            }
            if stop.pickup {
                clock = max(clock, riders[stop.rider].requestTime)
                pickups[stop.rider] = clock
            } else {
                dropoffs[stop.rider] = clock
            }
        }
        let delays = (0..<k).map { dropoffs[$0] - riders[$0].requestTime - riders[$0].soloSeconds }
        return SharedRide(stops: order, legs: legs, pickupTimes: pickups, dropoffTimes: dropoffs, delays: delays,
                          vehicleSeconds: clock - start, vehicleMeters: meters)
    }

    /// Every shared order of `k` riders' stops: each pickup before its drop-off, never empty
    /// between the first pickup and the last drop-off (2 riders: 4 orders).
    public static func stopOrders(riders k: Int) -> [[RideStop]] {
        switch k {
        case 1: return [[RideStop(rider: 0, pickup: true), RideStop(rider: 0, pickup: false)]]
        case 2: return orders2
        case 3: return orders3
        default: return enumerateOrders(k)
        }
    }

    private static let orders2 = enumerateOrders(2)
    private static let orders3 = enumerateOrders(3)

    static func enumerateOrders(_ k: Int) -> [[RideStop]] {
        var out: [[RideStop]] = []
        var current: [RideStop] = []
        var picked = [Bool](repeating: false, count: k), dropped = [Bool](repeating: false, count: k)
        func extend(aboard: Int) {
            if current.count == 2 * k { out.append(current); return }
            for r in 0..<k where !picked[r] {
                picked[r] = true; current.append(RideStop(rider: r, pickup: true))
                extend(aboard: aboard + 1)
                current.removeLast(); picked[r] = false
            }
            for r in 0..<k where picked[r] && !dropped[r] {
                // The last one aboard gets off only when everyone has been picked up.
                if aboard == 1 && current.count < 2 * k - 1 { continue }
                dropped[r] = true; current.append(RideStop(rider: r, pickup: false))
                extend(aboard: aboard - 1)
                current.removeLast(); dropped[r] = false
            }
        }
        extend(aboard: 0)
        return out
    }
}
