import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareParties
import Testing
@testable import GeoFarePooling

/// `match` on real parties in a real index, Seoul at night (the circuity model).
struct PartyMatcherTests {
    static let pricer = PoolPlannerTests.pricer
    static let t0 = PoolPlannerTests.t0

    static func party(_ id: String, _ from: (Double, Double), _ to: (Double, Double), minute: Double = 0, taken: Int = 1, total: Int = 4) -> Party {
        Party(id: id, origin: Coordinate(uncheckedLatitude: from.0, longitude: from.1), destination: Coordinate(uncheckedLatitude: to.0, longitude: to.1),
              departure: t0.addingTimeInterval(minute * 60), seatsTotal: total, seatsTaken: taken, status: .open)
    }

    static var index: PartyIndex {
        let index = try! PartyIndex()
        index.upsert(contentsOf: [
            party("same-way", (37.5660, 126.9790), (37.4985, 127.0280), minute: 1, taken: 2),
            party("other-way", (37.5668, 126.9775), (37.6100, 126.9300), minute: 0.5),
            party("full", (37.5662, 126.9782), (37.4979, 127.0276), taken: 4),
            party("tomorrow", (37.5664, 126.9781), (37.4979, 127.0276), minute: 24 * 60),
            party("far", (37.4500, 126.7000), (37.4979, 127.0276)),
        ])
        return index
    }

    static var rider: MatchRequest {
        var r = MatchRequest(rider: RideRequest(id: "me", departure: t0, origin: Coordinate(uncheckedLatitude: 37.5665, longitude: 126.9780),
                                                destination: Coordinate(uncheckedLatitude: 37.4979, longitude: 127.0276)))
        r.maxDelaySeconds = 300
        return r
    }

    @Test("The party going the rider's way is offered, with a saving; the other way, a full party and other times are not")
    func ranksTheRidersWay() throws {
        let answer = try PartyMatcher(pricer: Self.pricer).match(Self.rider, in: Self.index)
        #expect(answer.candidates.map(\.party.id) == ["same-way"])
        let c = try #require(answer.candidates.first)
        #expect(c.saving > 0 && c.riderShare < answer.soloFare && c.riderSolo == answer.soloFare)
        #expect(c.memberShareAfter <= c.memberShareBefore)
        #expect(c.riderWaitSeconds <= 300 + 1e-6 && c.memberAddedSeconds <= 300 + 1e-6 && c.riderExtraSeconds <= 300 + 1e-6)
        #expect(c.vehicleMetersSaved > 0)
        #expect(Set(c.stops) == ["+party", "+rider", "-party", "-rider"])
        let reasons = Dictionary(uniqueKeysWithValues: answer.excluded.map { ($0.partyID, $0.reason) })
        #expect(reasons["full"] == "no_seats")
        #expect(reasons["other-way"] == "delay")
        #expect(reasons["tomorrow"] == nil && reasons["far"] == nil, "outside the time window or the radius: never candidates")
    }

    @Test("A party going the other way is never ranked above one going the rider's way, even with Δ large enough for both")
    func otherWayNeverFirst() throws {
        var r = Self.rider
        r.maxDelaySeconds = 3_600
        r.minSaving = 0
        let answer = try PartyMatcher(pricer: Self.pricer).match(r, in: Self.index)
        let ids = answer.candidates.map(\.party.id)
        #expect(ids.first == "same-way")
        if let other = answer.candidates.first(where: { $0.party.id == "other-way" }) {
            #expect(other.saving < answer.candidates[0].saving)
        }
    }

    @Test("match agrees with pool: the party as a request with its seats, the same feasibility")
    func agreesWithPool() throws {
        for delay in [60.0, 120.0, 300.0] {
            var r = Self.rider
            r.maxDelaySeconds = delay
            r.maxWaitSeconds = 7_200
            r.minSaving = 0
            let answer = try PartyMatcher(pricer: Self.pricer).match(r, in: Self.index)
            let p = Self.index.party(id: "same-way")!
            let requests = [RideRequest(id: "party", departure: p.departure, origin: p.origin, destination: p.destination, seats: p.seatsTaken), r.rider]
            let plan = try PoolPlanner(pricer: Self.pricer).plan(requests, options: PoolOptions(delaySeconds: delay))
            let matched = answer.candidates.contains { $0.party.id == "same-way" }
            let byTime = try PoolPlannerTests.pairFeasible(0, 1, requests, delay: delay)
            #expect(matched == (plan.groups.count == 1), "Δ \(delay)")
            #expect(matched == byTime, "Δ \(delay)")
        }
    }

    @Test("Walking to the party's origin: within walk_m only, the rider ready when it gets there")
    func walking() throws {
        var r = Self.rider
        r.boarding = .partyOrigin(walkMeters: 50, walkMetersPerSecond: 1.2)
        let none = try PartyMatcher(pricer: Self.pricer).match(r, in: Self.index)
        #expect(none.candidates.isEmpty)
        r.boarding = .partyOrigin(walkMeters: 400, walkMetersPerSecond: 1.2)
        let answer = try PartyMatcher(pricer: Self.pricer).match(r, in: Self.index)
        let c = try #require(answer.candidates.first { $0.party.id == "same-way" })
        let walk = FastDistance.haversineMeters(r.rider.origin, c.party.origin) / 1.2
        #expect(c.riderWaitSeconds >= walk - 1e-6)
        #expect(c.ride.legs.contains { $0.meters == 0 }, "both board at the party's origin")
    }

    @Test("Bad requests name their field")
    func badRequests() {
        var r = Self.rider
        r.maxDelaySeconds = -1
        do { _ = try PartyMatcher(pricer: Self.pricer).match(r, in: Self.index); Issue.record("accepted") } catch { #expect(error.field == "max_delay_s") }
        r = Self.rider
        r.rider.seats = 0
        do { _ = try PartyMatcher(pricer: Self.pricer).match(r, in: Self.index); Issue.record("accepted") } catch { #expect(error.field == "seats") }
    }
}
