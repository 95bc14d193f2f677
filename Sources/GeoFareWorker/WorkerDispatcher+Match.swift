import Foundation
import GeoFareCore
import GeoFareParties
import GeoFarePooling
import GeoFareText

/// The `match` op: which open party a rider should join (``PartyMatcher``); this file only
/// translates JSON to the call and the answer back.
extension WorkerDispatcher {
    func match(_ f: RequestFields, on parties: LivePartyIndex) throws -> JSONValue {
        guard let departure = try f.time("depart_at") else { throw GeoFareError.missing("depart_at") }
        let seats = Int(try f.optionalInt("seats", range: 1...Int64(Party.seatsTotalRange.upperBound)) ?? 1)
        var request = MatchRequest(rider: RideRequest(id: "rider", departure: departure, origin: try f.coordinate("from"),
                                                      destination: try f.coordinate("to"), seats: seats))
        switch try f.optionalString("pickup") ?? "door" {
        case "door": request.boarding = .door
        case "party_origin":
            request.boarding = .partyOrigin(walkMeters: try f.optionalDouble("walk_m") ?? 400,
                                            walkMetersPerSecond: try f.optionalDouble("walk_speed_mps") ?? 1.2)
        case let other: throw GeoFareError.notOneOf("pickup", "door or party_origin", got: other)
        }
        if let v = try f.optionalDouble("max_delay_s") { request.maxDelaySeconds = v }
        if let v = try f.optionalDouble("max_wait_s") { request.maxWaitSeconds = v }
        if let v = try f.optionalInt("min_saving", range: 0...1_000_000_000) { request.minSaving = v }
        if let v = try f.optionalDouble("min_saving_pct") { request.minSavingFraction = v / 100 }
        if let v = try f.optionalDouble("radius_m") { request.radiusMeters = v }
        if let v = try f.optionalInt("limit", range: 1...100) { request.limit = Int(v) }
        let explain = try f.bool("explain", default: false)
        try parties.sync()
        let answer = try PartyMatcher(pricer: pricer, trips: partyTrips).match(request, in: parties.index)
        func number(_ d: Double, _ decimals: Int = 1) -> JSONValue { .number(DecimalFormat.string(d, decimals: decimals)) }
        func money(_ m: Int64) -> JSONValue { .number(String(m)) }
        func time(_ t: Double) -> JSONValue { .string(ISO8601.utcString(Date(timeIntervalSince1970: t))) }
        var result: [String: JSONValue] = [
            "solo": .object(["duration_s": number(answer.soloSeconds), "distance_m": number(answer.soloMeters),
                             "fare": money(answer.soloFare), "currency": .string(answer.currency)]),
            "parties": .array(answer.candidates.map { c in
                .object([
                    "party_id": .string(c.party.id),
                    "stops": .array(c.stops.map { .string($0) }),
                    "pickup_at": time(c.ride.pickupTimes[1]), "dropoff_at": time(c.ride.dropoffTimes[1]),
                    "total": money(c.total), "currency": .string(c.currency),
                    "share": money(c.riderShare), "solo_fare": money(c.riderSolo), "saving": money(c.saving),
                    "saving_pct": number(100 * c.savingFraction), "wait_s": number(c.riderWaitSeconds),
                    "extra_s": number(c.riderExtraSeconds),
                    "members": .object(["added_s": number(c.memberAddedSeconds), "share_before": money(c.memberShareBefore),
                                        "share_after": money(c.memberShareAfter), "count": .number(String(max(1, c.party.seatsTaken)))]),
                    "vehicle_m_saved": number(c.vehicleMetersSaved),
                ])
            }),
        ]
        if explain {
            result["excluded"] = .array(answer.excluded.map {
                .object(["party_id": .string($0.partyID), "reason": .string($0.reason), "detail": .string($0.detail)])
            })
        }
        return .object(result)
    }
}
