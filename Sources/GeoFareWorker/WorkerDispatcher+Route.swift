import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import GeoFareText

/// `route`: a trip by coordinates (read as `fare` reads it, ``FareCall``), with its legs and
/// meter segments.
extension WorkerDispatcher {
    func route(_ f: RequestFields) throws -> JSONValue {
        let request = try FareCall(reading: f).routedTrip(now: Date())
        // Outside every tariff region (and with no tariff named) the route is still estimated, with no zone.
        let route = try pricer.route(request, anywhere: true)
        return JSONValue.raw(capacity: 2048) { RouteJSON.write(route, segments: true, into: &$0) }
    }
}
