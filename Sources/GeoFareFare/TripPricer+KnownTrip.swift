import Foundation
import GeoFareCore

/// A known trip with its ends: the distance and duration a ride took (a meter's record, a
/// finished ride) together with where it started and ended. The ends pick the tariff (unless
/// one is named) and say whether, and from where, the ride ran outside the taxi's business zone;
/// the meter runs over the given distance and duration.
extension TripPricer {
    /// The segments a `.totals` trip with both ends is metered over, against the business zone
    /// of the trip (the request's ``FareRequest/businessZone``, else the origin's 시·군 for a
    /// tariff with `business_zones`, else the tariff's `business_zone`):
    /// - no 시계외 (one segment) when both ends are inside, or the taxi is driving home: the
    ///   origin is outside the request's own `business_zone`, or the request names the tariff,
    ///   whose regions hold the destination and not the origin (a Seongnam taxi back from Seoul;
    ///   on the real Seongnam rides none of the 28 daytime rides into Seongnam from elsewhere was
    ///   surcharged, and the 9 at night carried the night rate only);
    /// - from inside to outside: the part before the straight line from origin to destination
    ///   first leaves the zone, then the rest marked `outsideZone`;
    /// - from outside (a taxi away from its zone, as a routed trip is priced): the part until the
    ///   line enters the zone marked `outsideZone`, then the rest; all of it when both ends are outside.
    /// Each part has its share of the distance and the duration. `nil`: not such a trip (no
    /// ends, or another kind of trip), no business zone, or no 시계외.
    ///
    /// Where the road leaves the zone is not known from the ends alone: the straight line's
    /// share is the estimate (on the real Seongnam rides that left the city by day, 20 % from
    /// that point matches the metered fares, median +0.1 %; 20 % on the whole ride is 6 % high).
    /// When the request gives `cruise_kmh`, each part's slow time is the cruise rule's (as for
    /// `.totals`); else it is left to the slow-time model.
    /// - Throws: ``GeoFareError`` as a `.totals` trip's (`distance_m`, `duration_s`, `cruise_kmh`).
    func knownTripSegments(_ request: FareRequest, tariff: Int) throws(GeoFareError) -> [TripSegment]? {
        guard case let .totals(distance, duration) = request.trip, let origin = request.origin, let destination = request.destination else { return nil }
        let whole = TripSegment(distanceMeters: distance, durationSeconds: duration, start: request.departure)
        try whole.validate()
        if let c = request.cruiseKmh { try FareEngine.checkCruise(c) }
        guard let zone = try businessZone(request, tariff: tariff, origin: origin) else { return nil }
        let originInside = zone.contains(origin), destinationInside = zone.contains(destination)
        if originInside && destinationInside { return nil }
        if request.businessZone != nil ? !originInside : drivingHome(request, tariff: tariff, origin: origin, destination: destination) { return nil }
        // The share of the trip outside, and whether it comes first (leaving from outside).
        let outsideFirst = !originInside
        let share = originInside ? Self.shareOutside(from: origin, to: destination, zone: zone)
            : destinationInside ? Self.shareOutside(from: destination, to: origin, zone: zone) : 1
        var first = whole, second = whole
        let firstShare = outsideFirst ? share : 1 - share
        first.distanceMeters = distance * firstShare
        first.durationSeconds = duration * firstShare
        first.outsideZone = outsideFirst
        second.distanceMeters = distance - first.distanceMeters
        second.durationSeconds = duration - first.durationSeconds
        second.start = request.departure.addingTimeInterval(first.durationSeconds)
        second.outsideZone = !outsideFirst
        var segments = share >= 1 ? [first] : [first, second]
        if let c = request.cruiseKmh {
            for i in segments.indices {
                segments[i].slowSeconds = FareEngine.cruiseSlowSeconds(distance: segments[i].distanceMeters, duration: segments[i].durationSeconds, cruiseKmh: c)
            }
        }
        return segments
    }

    /// Whether a trip on a tariff the request names runs from outside the tariff's regions (its
    /// `region` and `also_regions`) into them: the taxi is one of that tariff's, driving home.
    func drivingHome(_ request: FareRequest, tariff: Int, origin: Coordinate, destination: Coordinate) -> Bool {
        guard request.tariff != nil || request.tariffIndex != nil else { return false }
        let t = engine.catalog.tariffs[tariff]
        let zones = ([t.region].compactMap { $0 } + t.alsoRegions).compactMap { engine.catalog.zones.zone($0)?.polygon }
        return !zones.isEmpty && !zones.contains { $0.contains(origin) } && zones.contains { $0.contains(destination) }
    }

    /// The business zone a trip from `origin` on the tariff at `tariff` meters 시계외 against: the
    /// request's own (``FareRequest/businessZone``), else the tariff's for that origin.
    /// - Throws: ``GeoFareError`` `invalid_value` (field `business_zone`) for a zone the data lacks.
    func businessZone(_ request: FareRequest, tariff: Int?, origin: Coordinate) throws(GeoFareError) -> GeoPolygon? {
        if let id = request.businessZone {
            guard let zone = engine.catalog.zones.zone(id) else { throw .unknownBusinessZone(id) }
            return zone.polygon
        }
        return tariff.flatMap { engine.catalog.businessZone(ofTariffAt: $0, origin: origin) }
    }

    /// The share (0...1) of the straight line from `origin` (inside `zone`) to `destination`
    /// (outside it) that lies beyond its first exit from the zone: 128 steps along the line,
    /// then bisection between the last point inside and the first outside (to 1/8192 of the
    /// line). Points are interpolated in degrees, which over a city's distances is the line on
    /// the map to well under a metre.
    static func shareOutside(from origin: Coordinate, to destination: Coordinate, zone: GeoPolygon) -> Double {
        func point(_ t: Double) -> (lon: Double, lat: Double) {
            (origin.longitude + (destination.longitude - origin.longitude) * t, origin.latitude + (destination.latitude - origin.latitude) * t)
        }
        let steps = 128
        var inside = 0.0, outside = 1.0
        for k in 1...steps {
            let t = Double(k) / Double(steps)
            let p = point(t)
            if !zone.contains(longitude: p.lon, latitude: p.lat) {
                outside = t
                break
            }
            inside = t
        }
        for _ in 0..<6 {
            let t = (inside + outside) / 2
            let p = point(t)
            if zone.contains(longitude: p.lon, latitude: p.lat) { inside = t } else { outside = t }
        }
        return 1 - outside
    }
}
