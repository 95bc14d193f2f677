import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import GeoFareText

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
    @Option(help: "On a road graph: fastest (default) or shortest.") var metric: String = "fastest"
    @Option(help: "On a road graph: unrestricted (default) or curb: leave the origin and reach every stop and the destination with the point on the right-hand (kerb) side of a two-way road.") var approach: String = "unrestricted"
    @Flag(help: "With --json: include the road geometry ([lon, lat] points) when a road graph drives the route.") var geometry = false
    @Option(help: "Also draw the route (legs, and segments coloured inside/outside the tariff zone) as an SVG picture into this file.") var svg: String?
    @OptionGroup var data: DataOptions

    func run() throws {
        let pricer = try data.pricer()
        let when = try departure(at)
        try reportingErrors {
            let origin = try coordinate(from, field: "from"), destination = try coordinate(to, field: "to")
            var r = FareRequest(from: origin, via: try via.enumerated().map { try coordinate($1, field: "via[\($0)]") }, to: destination,
                                departure: when, tariff: tariff)
            guard let m = RouteMetric(rawValue: metric) else { throw ValidationError("--metric is fastest or shortest, got '\(metric)'") }
            r.metric = m
            guard let a = RouteApproach(rawValue: approach) else { throw ValidationError("--approach is unrestricted or curb, got '\(approach)'") }
            if a == .curb { r.approaches = Array(repeating: a, count: via.count + 2) }
            r.includeGeometry = geometry || svg != nil
            // Outside every tariff region (and with no tariff named) the route is still estimated, with no zone.
            let route = try pricer.route(r, anywhere: true)
            if let svg {
                let zone = (try? pricer.tariffID(for: r)).flatMap { try? pricer.catalog.tariffIndex($0) }
                    .flatMap { i in route.legs.first.flatMap { pricer.catalog.businessZone(ofTariffAt: i, origin: $0.from) } }
                try Self.draw(route, zone: zone, to: svg)
            }
            if json {
                print(RouteJSON.string(route))
                return
            }
            print("\(DecimalFormat.string(route.distanceMeters / 1000, decimals: 2)) km, \(DecimalFormat.string(route.durationSeconds / 60, decimals: 1)) min  (80 % band \(DecimalFormat.string(route.distanceLowMeters / 1000, decimals: 2))–\(DecimalFormat.string(route.distanceHighMeters / 1000, decimals: 2)) km; \(route.estimator), profile \(route.profile))")
            for (i, leg) in route.legs.enumerated() {
                print("leg \(i + 1): \(DecimalFormat.string(leg.distanceMeters / 1000, decimals: 2)) km (straight \(DecimalFormat.string(leg.straightMeters / 1000, decimals: 2)) km), \(DecimalFormat.string(leg.durationSeconds / 60, decimals: 1)) min")
            }
            print("\(route.segments.count) meter segments (split at hour and zone boundaries)")
        }
    }

    /// Draws the route: the business zone it is measured against, each leg as its meter
    /// segments (blue inside the zone, red outside), and the stops.
    static func draw(_ route: Route, zone: GeoPolygon?, to path: String) throws {
        let stops = [route.legs[0].from] + route.legs.map(\.to)
        var map = SVGMap.around(stops + (route.geometry ?? []))
        if let zone { map.polygon(zone.rings, fill: "#60a5fa", stroke: "#2563eb", title: "tariff business zone", cssClass: "zone") }
        if let road = route.geometry, road.count >= 2 {
            // On a road graph: the road path, the segments' colours along it by distance.
            Self.drawAlong(road, route.segments[...], firstIndex: 0, on: &map)
        } else {
            // Without a road geometry each leg is drawn straight, its segments (which lie along
            // the legs in order) in proportion to their distance.
            var k = 0
            for leg in route.legs {
                var end = k, driven = 0.0
                while end < route.segments.count && (end == k || driven < leg.distanceMeters - 1e-6) {
                    driven += route.segments[end].distanceMeters
                    end += 1
                }
                Self.drawAlong([leg.from, leg.to], route.segments[k..<end], firstIndex: k, on: &map)
                k = end
            }
        }
        for (i, p) in stops.enumerated() {
            let name = i == 0 ? "from" : i == stops.count - 1 ? "to" : "via \(i)"
            map.circle(p, radius: 6, fill: "#111827", label: nil, title: name, cssClass: "stop")
            map.text(p, name)
        }
        try map.write(to: path, caption: "\(DecimalFormat.string(route.distanceMeters / 1000, decimals: 2)) km, \(DecimalFormat.string(route.durationSeconds / 60, decimals: 1)) min, \(route.segments.count) segments (\(route.estimator)) — geofare route")
    }

    /// Cuts a polyline into the segments by their distances (local metres, scaled to the line's
    /// length) and draws each, numbered from `firstIndex`.
    static func drawAlong(_ road: [Coordinate], _ segments: ArraySlice<TripSegment>, firstIndex: Int, on map: inout SVGMap) {
        var lengths = [0.0]
        for k in 1..<road.count {
            lengths.append(lengths[k - 1] + CheapRuler(latitude: road[k].latitude).distanceMeters(road[k - 1], road[k]))
        }
        let total = lengths.last ?? 0
        let routeTotal = segments.reduce(0) { $0 + $1.distanceMeters }
        let scale = routeTotal > 0 ? total / routeTotal : 0
        func point(at d: Double) -> Coordinate {
            var k = 1
            while k < road.count - 1 && lengths[k] < d { k += 1 }
            let span = lengths[k] - lengths[k - 1]
            let t = span > 0 ? max(0, min(1, (d - lengths[k - 1]) / span)) : 0
            return Coordinate(uncheckedLatitude: road[k - 1].latitude + (road[k].latitude - road[k - 1].latitude) * t,
                              longitude: road[k - 1].longitude + (road[k].longitude - road[k - 1].longitude) * t)
        }
        var done = 0.0
        for (n, s) in zip(firstIndex..., segments) {
            let a = done * scale, b = (done + s.distanceMeters) * scale
            var pts = [point(at: a)]
            for k in 1..<road.count where lengths[k] > a && lengths[k] < b { pts.append(road[k]) }
            pts.append(point(at: b))
            map.line(pts, color: s.outsideZone ? "#dc2626" : "#2563eb",
                     title: "segment \(n): \(DecimalFormat.string(s.distanceMeters, decimals: 0)) m, \(DecimalFormat.string(s.durationSeconds, decimals: 0)) s\(s.outsideZone ? ", outside the zone" : "")",
                     cssClass: "segment")
            done += s.distanceMeters
        }
    }
}
