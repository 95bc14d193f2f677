import ArgumentParser
import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import GeoFareWorker

/// `geofare route`: the estimated driven distance and duration of a trip.
struct RouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Estimate the driven distance and duration of a trip, with the segments the meter runs over.",
        discussion: "Example: geofare route --from 37.5665,126.9780 --to 37.2636,127.0286 --at 2024-05-15T22:50:00+09:00"
    )

    @Option(parsing: .unconditional, help: "Origin as LAT,LON.") var from: String
    @Option(parsing: .unconditional, help: "Destination as LAT,LON.") var to: String
    @Option(parsing: .unconditionalSingleValue, help: "A stop as LAT,LON (repeatable, at most 25).") var via: [String] = []
    @Option(help: "Departure as ISO 8601 with offset (default: now).") var at: String?
    @Option(help: "The tariff whose business zone splits the segments (default: by the origin).") var tariff: String?
    @Flag(help: "Print the route as JSON (the worker's route result).") var json = false
    @OptionGroup var data: DataOptions

    func run() throws {
        let pricer = try data.pricer()
        let when = try departure(at)
        try reportingErrors {
            let origin = try coordinate(from, field: "from"), destination = try coordinate(to, field: "to")
            let r = FareRequest(from: origin, via: try via.enumerated().map { try coordinate($1, field: "via[\($0)]") }, to: destination,
                                departure: when, tariff: tariff)
            // Outside every tariff region (and with no tariff named) the route is still estimated, with no zone.
            let route = try pricer.route(r, anywhere: true)
            if json {
                print(ResultEncoding.routeJSON(route))
                return
            }
            print("\(DecimalFormat.string(route.distanceMeters / 1000, decimals: 2)) km, \(DecimalFormat.string(route.durationSeconds / 60, decimals: 1)) min  (80 % band \(DecimalFormat.string(route.distanceLowMeters / 1000, decimals: 2))–\(DecimalFormat.string(route.distanceHighMeters / 1000, decimals: 2)) km; \(route.estimator), profile \(route.profile))")
            for (i, leg) in route.legs.enumerated() {
                print("leg \(i + 1): \(DecimalFormat.string(leg.distanceMeters / 1000, decimals: 2)) km (straight \(DecimalFormat.string(leg.straightMeters / 1000, decimals: 2)) km), \(DecimalFormat.string(leg.durationSeconds / 60, decimals: 1)) min")
            }
            print("\(route.segments.count) meter segments (split at hour and zone boundaries)")
        }
    }
}
