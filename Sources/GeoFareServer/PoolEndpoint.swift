import Foundation
import GeoFareCore
import GeoFareFare
import GeoFarePooling
import GeoFareText
import GeoFareWorker

/// `POST /v1/pool` (`geofare serve` only: the worker has no pool op): riders in, the shared rides
/// `geofare pool` would plan for them out, in the protocol's `{"ok", "result" | "error"}` form.
enum PoolEndpoint {
    static let maxRiders = 500

    static func answer(_ body: [UInt8], pricer: TripPricer) -> WorkerDispatcher.Answer {
        do {
            guard case let .object(o) = try JSONParser.parse(body) else { throw GeoFareError(code: .wrongType, message: "a pool request is a JSON object") }
            for key in o.keys where !["riders", "delay_s", "max_riders"].contains(key) {
                throw GeoFareError(code: .unknownField, message: "pool has no field '\(key)'", field: key)
            }
            let f = RequestFields(o)
            var requests: [RideRequest] = []
            for (i, v) in try f.array("riders", maxCount: maxRiders).enumerated() {
                guard let r = v.object else { throw GeoFareError.wrongType("riders[\(i)]", expected: "an object", got: v) }
                let rider = RequestFields(r, path: "riders[\(i)]")
                guard let departure = try rider.time("depart_at") else { throw GeoFareError.missing(rider.at("depart_at")) }
                requests.append(RideRequest(id: try rider.string("id"), departure: departure, origin: try rider.coordinate("from"),
                                            destination: try rider.coordinate("to"), seats: Int(try rider.optionalInt("seats", range: 1...20) ?? 1)))
            }
            var options = PoolOptions()
            if let d = try f.optionalDouble("delay_s") { options.delaySeconds = d }
            if let m = try f.optionalInt("max_riders", range: 2...3) { options.maxRiders = Int(m) }
            let plan = try PoolPlanner(pricer: pricer).plan(requests, options: options)
            let groups: [JSONValue] = plan.groups.map { g in
                let ids = g.members.map { plan.requestIDs[$0] }
                return .object([
                    "members": .array(ids.map(JSONValue.string)),
                    "stops": .array(g.ride.stops.map { .string(($0.pickup ? "+" : "-") + ids[$0.rider]) }),
                    "total": .int(g.total), "shares": .array(g.shares.map(JSONValue.int)), "currency": .string(g.currency),
                ])
            }
            let riders: [JSONValue] = plan.riders.enumerated().map { k, r in
                var item: [String: JSONValue] = ["id": .string(plan.requestIDs[k]), "group": r.group.map { .int(Int64($0)) } ?? .null,
                                                 "share": .int(r.share), "solo_fare": .int(r.soloFare), "currency": .string(r.currency)]
                if let e = r.error { item["error"] = .object(["code": .string(e.code.rawValue), "message": .string(e.message)]) }
                return .object(item)
            }
            var out = Array(#"{"ok":true,"result":"#.utf8)
            JSONWriter.append(.object(["groups": .array(groups), "riders": .array(riders)]), to: &out)
            out.append(UInt8(ascii: "}"))
            return WorkerDispatcher.Answer(body: out, error: nil)
        } catch {
            let coded = error as? GeoFareError ?? GeoFareError(code: .internalError, message: "\(error)")
            return WorkerDispatcher.Answer(body: Routes.errorBody(coded), error: coded.code)
        }
    }
}
