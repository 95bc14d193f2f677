import Foundation
import GeoFareCore

/// A known trip with its ends: the distance and duration a ride took (a meter's record, a
/// finished ride) together with where it started and ended. The ends pick the tariff (unless
/// one is named) and say whether, and from where, the ride ran outside the taxi's business zone;
/// the meter runs over the given distance and duration.
extension TripPricer {
    /// The segments a `.totals` trip with both ends is metered over: one segment when the
    /// destination is inside the business zone of the trip (the origin's 시·군 for a tariff with
    /// `business_zones`, else the tariff's `business_zone`) or the origin is outside it (a taxi
    /// driving back into its own zone charges no 시계외), else two: the part before the
    /// straight line from origin to destination first leaves the zone, and the rest, marked
    /// `outsideZone`, each with its share of the distance and the duration. `nil`: not such a
    /// trip (no ends, or another kind of trip), or the tariff has no business zone.
    ///
    /// Where the road leaves the zone is not known from the ends alone: the straight line's
    /// share is the estimate (on the real Seongnam rides that left the city by day, 20 % from
    /// that point matches the metered fares, median +0.1 %; 20 % on the whole ride is 6 % high).
    /// - Parameter cruiseKmh: when the request gives a cruise speed, each segment's slow time is
    ///   `max(0, T − D / cruise)` (as for `.totals`); else it is left to the slow-time model.
    /// - Throws: ``GeoFareError`` as a `.totals` trip's (`distance_m`, `duration_s`, `cruise_kmh`).
    func knownTripSegments(_ request: FareRequest, tariff: Int) throws(GeoFareError) -> [TripSegment]? {
        guard case let .totals(distance, duration) = request.trip, let origin = request.origin, let destination = request.destination else { return nil }
        let whole = TripSegment(distanceMeters: distance, durationSeconds: duration, start: request.departure)
        try whole.validate()
        if let c = request.cruiseKmh, !(c.isFinite && c > 0 && c <= 200) { throw .outOfRange("cruise_kmh", c, 0...200) }
        guard let zone = try businessZone(request, tariff: tariff, origin: origin),
              zone.contains(origin), !zone.contains(destination) else { return nil }
        let outside = Self.shareOutside(from: origin, to: destination, zone: zone)
        var inside = whole, out = whole
        inside.distanceMeters = distance * (1 - outside)
        inside.durationSeconds = duration * (1 - outside)
        out.distanceMeters = distance - inside.distanceMeters
        out.durationSeconds = duration - inside.durationSeconds
        out.start = request.departure.addingTimeInterval(inside.durationSeconds)
        out.outsideZone = true
        var segments = [inside, out]
        if let c = request.cruiseKmh {
            for i in segments.indices {
                segments[i].slowSeconds = max(0, segments[i].durationSeconds - segments[i].distanceMeters / (c / 3.6))
            }
        }
        return segments
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
