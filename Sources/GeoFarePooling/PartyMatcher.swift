import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareParties
import GeoFareRoute
import Synchronization

/// A rider asking which open party to join.
public struct MatchRequest: Sendable {
    /// How the rider boards.
    public enum Boarding: Sendable, Hashable {
        /// The taxi picks the rider up at the rider's origin.
        case door
        /// The rider walks to the party's meeting point (its origin), at most `walkMeters` in a
        /// straight line, at `walkMetersPerSecond`; the taxi leaves from there.
        case partyOrigin(walkMeters: Double, walkMetersPerSecond: Double)
    }

    public var rider: RideRequest
    public var boarding: Boarding = .door
    /// The most anyone (the rider or a member) may be delayed, seconds (Δ of ``SharedRide``).
    public var maxDelaySeconds: Double = 300
    /// The most the rider may wait from its request to its pickup (walking included), seconds.
    public var maxWaitSeconds: Double = 600
    /// The least saving the rider accepts, minor units, and as a fraction of its solo fare (0...1).
    public var minSaving: Int64 = 1
    public var minSavingFraction: Double = 0
    /// How far from the rider's origin to look for parties (door), metres; the walk limit otherwise.
    public var radiusMeters: Double = 3_000
    /// Parties to answer at most.
    public var limit: Int = 10
    /// Parties the index is asked for at most (the nearest open ones in the time window).
    public var candidateLimit: Int = 40

    public init(rider: RideRequest) {
        self.rider = rider
    }

    /// Where the index looks for parties: `radiusMeters` around the rider's origin, or the walk
    /// limit when the rider walks to the party.
    public var searchRadiusMeters: Double {
        if case let .partyOrigin(walk, _) = boarding { return walk }
        return radiusMeters
    }

    /// The parties worth testing: open, and leaving no more than Δ + the wait before or after the
    /// rider's request (any other cannot be joined within the limits).
    public var candidateFilter: PartyFilter {
        PartyFilter(departFrom: rider.departure.addingTimeInterval(-maxDelaySeconds - maxWaitSeconds),
                    departUntil: rider.departure.addingTimeInterval(maxWaitSeconds + maxDelaySeconds), statuses: [.open])
    }

    /// - Throws: ``GeoFareError`` `invalid_value` naming the field.
    public func validate() throws(GeoFareError) {
        try rider.validate(capacity: Party.seatsTotalRange.upperBound)
        func check(_ ok: Bool, _ field: String, _ message: String) throws(GeoFareError) {
            if !ok { throw .invalidValue(field, message) }
        }
        try check(maxDelaySeconds.isFinite && (0...7_200).contains(maxDelaySeconds), "max_delay_s", "max_delay_s must be 0...7200 seconds")
        try check(maxWaitSeconds.isFinite && (0...7_200).contains(maxWaitSeconds), "max_wait_s", "max_wait_s must be 0...7200 seconds")
        try check(minSaving >= 0, "min_saving", "min_saving must not be negative")
        try check(minSavingFraction.isFinite && (0...1).contains(minSavingFraction), "min_saving_pct", "min_saving_pct must be 0...100")
        try check(radiusMeters.isFinite && (0...50_000).contains(radiusMeters), "radius_m", "radius_m must be 0...50000 metres")
        try check((1...100).contains(limit), "limit", "limit must be 1...100")
        if case let .partyOrigin(walk, speed) = boarding {
            try check(walk.isFinite && (0...5_000).contains(walk), "walk_m", "walk_m must be 0...5000 metres")
            try check(speed.isFinite && (0.3...3).contains(speed), "walk_speed_mps", "walk_speed_mps must be 0.3...3 m/s")
        }
    }
}

/// One party the rider could join, with what it means for everyone.
public struct MatchCandidate: Sendable {
    public var party: Party
    /// The shared ride: rider 0 is the party (its members), rider 1 the new rider.
    public var ride: SharedRide
    /// The stops as `+party`/`-party`/`+rider`/`-rider`.
    public var stops: [String]
    /// The ride's fare, minor units, and the currency.
    public var total: Int64
    public var currency: String
    /// What the rider pays (all its seats), alone and here, and the saving (money and fraction).
    public var riderShare: Int64
    public var riderSolo: Int64
    public var saving: Int64 { riderSolo - riderShare }
    public var savingFraction: Double { riderSolo > 0 ? Double(saving) / Double(riderSolo) : 0 }
    /// From the rider's request to its pickup (walking included), and its arrival after request + its solo duration, seconds.
    public var riderWaitSeconds: Double
    public var riderExtraSeconds: Double
    /// Each member's arrival after the party's own trip, seconds, and each member's share before and after (per person).
    public var memberAddedSeconds: Double
    public var memberShareBefore: Int64
    public var memberShareAfter: Int64
    /// Vehicle metres saved: the party's trip and the rider's alone, minus the shared ride.
    public var vehicleMetersSaved: Double
}

/// A party left out, and the limit that left it out.
public struct MatchExclusion: Sendable, Hashable {
    public var partyID: String
    /// `no_seats`, `no_route`, `delay`, `wait`, `no_price` (the ride cannot be priced: no tariff
    /// where the party starts), `no_saving`, `members_pay_more`.
    public var reason: String
    public var detail: String
}

/// The answer to a ``MatchRequest``.
public struct MatchAnswer: Sendable {
    /// Best saving first (then the party id).
    public var candidates: [MatchCandidate]
    /// In the index's order (nearest first).
    public var excluded: [MatchExclusion]
    /// The rider's solo trip and fare.
    public var soloSeconds: Double
    public var soloMeters: Double
    public var soloFare: Int64
    public var currency: String
}

/// Which open party a rider should join: candidates from the spatial index (open, enough free
/// seats, departing in the window the limits allow, nearest first), every cost from one pair of
/// matrices (never a route per candidate), feasibility by ``SharedRide``'s one definition with
/// the party's members as one rider (their seats, the party's origin, destination and departure)
/// and the new rider as the other, money by ``RideFares`` (riders aboard by leg). A party is
/// answered only when the rider saves and no member's share rises.
public struct PartyMatcher: Sendable {
    public let pricer: TripPricer
    /// Each party's own trip (origin to destination at its departure), kept between requests.
    public let trips: PartyTripCache

    /// - Parameter trips: a cache shared by the matchers of one worker (a new one by default).
    public init(pricer: TripPricer, trips: PartyTripCache = PartyTripCache()) {
        self.pricer = pricer
        self.trips = trips
    }

    /// Answers `request` from the parties in `index`.
    /// - Throws: ``GeoFareError``: a bad request (naming the field), or the pricer's (no tariff at the origin).
    public func match(_ request: MatchRequest, in index: PartyIndex) throws(GeoFareError) -> MatchAnswer {
        try request.validate()
        let rider = request.rider
        let fares = RideFares(pricer: pricer)
        let t = rider.departure.timeIntervalSince1970
        // The rider's own trip, as `pool` routes it.
        let planner = PoolPlanner(pricer: pricer)
        let soloLeg = try planner.routeLeg(from: rider.origin, to: rider.destination, departure: rider.departure)
        let solo = (distanceMeters: soloLeg.meters, durationSeconds: soloLeg.seconds)
        let soloFare = try fares.fare(meters: solo.distanceMeters, seconds: solo.durationSeconds, origin: rider.origin,
                                      destination: rider.destination, departure: rider.departure)
        var answer = MatchAnswer(candidates: [], excluded: [], soloSeconds: solo.durationSeconds, soloMeters: solo.distanceMeters,
                                 soloFare: soloFare.total, currency: soloFare.currency)
        let found = try index.nearby(center: rider.origin, radiusMeters: request.searchRadiusMeters, limit: request.candidateLimit,
                                     filter: request.candidateFilter)
        var parties: [Party] = []
        for (party, _) in found {
            if party.freeSeats < rider.seats {
                answer.excluded.append(MatchExclusion(partyID: party.id, reason: "no_seats", detail: "\(party.freeSeats) free seats, \(rider.seats) asked"))
            } else {
                parties.append(party)
            }
        }
        guard !parties.isEmpty else { return answer }
        // First the pickups alone (the bound of the definition that needs the fewest legs): with
        // the party first, the taxi must reach the rider by its request + Δ; with the rider
        // first, the party by its departure + Δ. One 1 × n and one n × 1 matrix.
        var survivors: [Party] = []
        if case let .partyOrigin(_, speed) = request.boarding {
            for party in parties {
                let ready = t + FastDistance.haversineMeters(rider.origin, party.origin) / speed
                if abs(party.departure.timeIntervalSince1970 - ready) <= request.maxDelaySeconds + 1e-6 { survivors.append(party) } else {
                    answer.excluded.append(MatchExclusion(partyID: party.id, reason: "delay", detail: "the party leaves more than \(Int(request.maxDelaySeconds)) s from when the rider can be at its origin"))
                }
            }
        } else {
            let toParties = try planner.matrix(from: [rider.origin], to: parties.map(\.origin), departure: rider.departure)
            let fromParties = try planner.matrix(from: parties.map(\.origin), to: [rider.origin], departure: rider.departure)
            for (k, party) in parties.enumerated() {
                let d = party.departure.timeIntervalSince1970
                let partyFirst = fromParties.leg(k, 0).map { d + $0.seconds <= t + request.maxDelaySeconds + 1e-6 } ?? false
                let riderFirst = toParties.leg(0, k).map { t + $0.seconds <= d + request.maxDelaySeconds + 1e-6 } ?? false
                if partyFirst || riderFirst { survivors.append(party) } else {
                    answer.excluded.append(MatchExclusion(partyID: party.id, reason: "delay", detail: "neither pickup can be reached within \(Int(request.maxDelaySeconds)) s"))
                }
            }
        }
        parties = survivors
        guard !parties.isEmpty else { return answer }
        // Legs: the rider's points to every party point and back, and each party's own trip.
        let riderPoints = [rider.origin, rider.destination]
        let partyPoints = parties.flatMap { [$0.origin, $0.destination] }
        let out = try planner.matrix(from: riderPoints, to: partyPoints, departure: rider.departure)
        let back = try planner.matrix(from: partyPoints, to: riderPoints, departure: rider.departure)
        let own = try trips.trips(of: parties) { missing throws(GeoFareError) in
            // The parties not seen before, each at its own departure (its solo duration in the
            // definition): computed once per party version, not per rider.
            try missing.map { p throws(GeoFareError) in try planner.routeLeg(from: p.origin, to: p.destination, departure: p.departure) }
        }
        for (k, party) in parties.enumerated() {
            guard let partyTrip = own[k] else {
                answer.excluded.append(MatchExclusion(partyID: party.id, reason: "no_route", detail: "no road joins the party's origin and destination"))
                continue
            }
            let members = max(1, party.seatsTaken)
            // The rider as seen by the rule: door: ready at its request at its origin; party
            // origin: ready when it has walked there, riding from there.
            var ready = t, pickupAtParty = false, walkSeconds = 0.0
            if case let .partyOrigin(_, speed) = request.boarding {
                walkSeconds = FastDistance.haversineMeters(rider.origin, party.origin) / speed
                ready = t + walkSeconds
                pickupAtParty = true
            }
            // Points: 0 party origin, 1 party destination, 2 rider pickup, 3 rider destination
            // (a shared order never drives from a destination to a pickup of two riders).
            func leg(_ a: Int, _ b: Int) -> RideLeg? {
                switch (a, b) {
                case (0, 1): return partyTrip
                case (2, 3): return pickupAtParty ? back.leg(2 * k, 1) : RideLeg(seconds: solo.durationSeconds, meters: solo.distanceMeters)
                case (0, 2): return pickupAtParty ? RideLeg(seconds: 0, meters: 0) : back.leg(2 * k, 0)
                case (2, 0): return pickupAtParty ? RideLeg(seconds: 0, meters: 0) : out.leg(0, 2 * k)
                                case (2, 1): return pickupAtParty ? partyTrip : out.leg(0, 2 * k + 1)
                case (0, 3): return back.leg(2 * k, 1)
                case (1, 3): return back.leg(2 * k + 1, 1)
                case (3, 1): return out.leg(1, 2 * k + 1)
                default: return nil
                }
            }
            let riderSoloSeconds = pickupAtParty ? (back.leg(2 * k, 1)?.seconds ?? .infinity) : solo.durationSeconds
            let times = [RiderTimes(requestTime: party.departure.timeIntervalSince1970, soloSeconds: partyTrip.seconds, seats: members),
                         RiderTimes(requestTime: ready, soloSeconds: riderSoloSeconds, seats: rider.seats)]
            guard riderSoloSeconds.isFinite, let ride = SharedRide.plan(riders: times, delaySeconds: request.maxDelaySeconds, leg: leg) else {
                answer.excluded.append(MatchExclusion(partyID: party.id, reason: "delay",
                                                      detail: "no order of the stops keeps every pickup and arrival within \(Int(request.maxDelaySeconds)) s"))
                continue
            }
            let wait = ride.pickupTimes[1] - t
            if wait > request.maxWaitSeconds + 1e-6 {
                answer.excluded.append(MatchExclusion(partyID: party.id, reason: "wait", detail: "the rider would wait \(Int(wait.rounded())) s, more than \(Int(request.maxWaitSeconds)) s"))
                continue
            }
            let points = [party.origin, party.destination, pickupAtParty ? party.origin : rider.origin, rider.destination]
            let before: (total: Int64, unit: Int64, currency: String)
            let priced: (total: Int64, shares: [Int64], currency: String)
            let beforeEach: Int64, afterEach: Int64
            do throws(GeoFareError) {
                before = try fares.fare(meters: partyTrip.meters, seconds: partyTrip.seconds, origin: party.origin,
                                        destination: party.destination, departure: party.departure)
                beforeEach = try FareSplit.equal(total: before.total, riders: members, unit: before.unit).max() ?? before.total
                priced = try fares.shares(of: ride, points: points, soloFares: [before.total, soloFare.total])
                afterEach = try FareSplit.equal(total: priced.shares[0], riders: members, unit: before.unit).max() ?? priced.shares[0]
            } catch {
                answer.excluded.append(MatchExclusion(partyID: party.id, reason: "no_price", detail: error.message))
                continue
            }
            let riderShare = priced.shares[1]
            let saving = soloFare.total - riderShare
            if priced.currency != soloFare.currency || saving < request.minSaving
                || Double(saving) < request.minSavingFraction * Double(soloFare.total) {
                answer.excluded.append(MatchExclusion(partyID: party.id, reason: "no_saving",
                                                      detail: "the rider would pay \(riderShare) of \(soloFare.total) \(soloFare.currency) alone"))
                continue
            }
            if afterEach > beforeEach {
                answer.excluded.append(MatchExclusion(partyID: party.id, reason: "members_pay_more",
                                                      detail: "each member would pay \(afterEach), not \(beforeEach) \(priced.currency)"))
                continue
            }
            let names = ["party", "rider"]
            answer.candidates.append(MatchCandidate(
                party: party, ride: ride, stops: ride.stops.map { ($0.pickup ? "+" : "-") + names[$0.rider] },
                total: priced.total, currency: priced.currency, riderShare: riderShare, riderSolo: soloFare.total,
                riderWaitSeconds: wait, riderExtraSeconds: max(0, ride.dropoffTimes[1] - t - solo.durationSeconds),
                memberAddedSeconds: ride.delays[0], memberShareBefore: beforeEach, memberShareAfter: afterEach,
                vehicleMetersSaved: partyTrip.meters + solo.distanceMeters - ride.vehicleMeters))
        }
        answer.candidates.sort { $0.saving != $1.saving ? $0.saving > $1.saving : $0.party.id < $1.party.id }
        if answer.candidates.count > request.limit { answer.candidates.removeLast(answer.candidates.count - request.limit) }
        return answer
    }
}

/// Parties' own trips (origin to destination), by id, version and departure: a party's trip does
/// not change until the party does, so a worker computes it once, not once per rider. Thread-safe;
/// it forgets everything when it holds more than `capacity` parties.
public final class PartyTripCache: Sendable {
    private struct Key: Hashable {
        var id: String
        var version: Int64
        var departure: Double
    }
    private let entries = Mutex<[Key: RideLeg?]>([:])
    public let capacity: Int

    public init(capacity: Int = 200_000) {
        self.capacity = capacity
    }

    /// The trips of `parties` (`nil`: no road), computing the missing ones with `compute`.
    func trips(of parties: [Party], compute: ([Party]) throws(GeoFareError) -> [RideLeg?]) throws(GeoFareError) -> [RideLeg?] {
        let keys = parties.map { Key(id: $0.id, version: $0.version, departure: $0.departure.timeIntervalSince1970) }
        var found = entries.withLock { e in keys.map { e[$0] } }
        let missing = found.indices.filter { found[$0] == nil }
        if !missing.isEmpty {
            let computed = try compute(missing.map { parties[$0] })
            for (n, i) in missing.enumerated() { found[i] = .some(computed[n]) }
            entries.withLock { e in
                if e.count + missing.count > capacity { e.removeAll(keepingCapacity: true) }
                for (n, i) in missing.enumerated() { e[keys[i]] = .some(computed[n]) }
            }
        }
        return found.map { $0! }
    }
}
