import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import GeoFareText

/// A `fare` (or `route`) request as its caller sent it: each field typed, nothing checked yet
/// beyond its JSON type and the range a reader accepts. Both readers produce one — the general
/// path from the JSON tree (``init(reading:)``), the fast path from the bytes
/// (``FastFareRequest``) — and ``workOrder(now:)`` is the one place its fields are checked
/// against each other and turned into the engine's work order, a ``FareRequest``. So the fast
/// path is this reader made quick, not a second set of rules: whatever either reads, the same
/// code decides what it means and which error it is.
struct FareCall: Sendable {
    /// A point of the trip with how the route may reach it.
    struct Stop: Sendable {
        var point: Coordinate
        var approach: RouteApproach = .unrestricted
    }

    /// One `segments[i]` as sent.
    struct Segment: Sendable {
        var distanceMeters: Double
        var durationSeconds: Double
        var slowSeconds: Double?
        var outside: Bool
    }

    var from: Stop?
    var to: Stop?
    var via: [Stop]?
    /// `trip`: a known trip's totals (metres, seconds).
    var trip: (distanceMeters: Double, durationSeconds: Double)?
    var segments: [Segment]?
    var departAt: Date?
    var tariff: String?
    var partySize: Int64?
    var split: String?
    var splitUnit: Int64?
    var tolls: Int64?
    var callFee: Int64?
    var includeRoute = false
    var strict = false
    var geometry: Bool?
    var metric: String?
    var noRoad: String?
    var businessZone: String?
    var cruiseKmh: Double?
    var dropoffs: [Double]?

    // The ranges a reader accepts (either reader: the fast path hands anything outside them to
    // the general one, which answers `out_of_range` naming the field). Which values make sense
    // together (1...20 riders, a known trip without route options) is ``workOrder(now:)``'s.
    static let partySizeRange: ClosedRange<Int64> = -1_000_000...1_000_000
    static let splitUnitRange: ClosedRange<Int64> = 1...1_000_000
    static let moneyRange: ClosedRange<Int64> = 0...100_000_000
    static let maxSegments = 10_000
    static let maxDropoffs = 20

    init() {}

    /// Reads a request's fields from its JSON object (the general path): every field by its
    /// type, errors naming its path (`segments[2].duration_s`).
    /// - Throws: ``GeoFareError`` `missing_field`, `wrong_type`, `not_finite`, `out_of_range`,
    ///   `invalid_time`, `too_many_items`, or a coordinate's error.
    init(reading f: RequestFields) throws(GeoFareError) {
        if f.has("from") { from = try Self.stop(try f.value("from"), path: "from") }
        if f.has("to") { to = try Self.stop(try f.value("to"), path: "to") }
        if f.has("via") {
            via = try f.array("via", maxCount: RouteRequest.maxStops).enumerated().map { i, v throws(GeoFareError) in
                try Self.stop(v, path: "via[\(i)]")
            }
        }
        if f.has("trip") {
            let t = try f.nested("trip")
            trip = (try t.double("distance_m"), try t.double("duration_s"))
        }
        if f.has("segments") {
            segments = try f.array("segments", maxCount: Self.maxSegments).enumerated().map { i, v throws(GeoFareError) in
                guard let o = v.object else { throw GeoFareError.wrongType("segments[\(i)]", expected: "an object", got: v) }
                let s = RequestFields(o, path: "segments[\(i)]")
                return Segment(distanceMeters: try s.double("distance_m"), durationSeconds: try s.double("duration_s"),
                               slowSeconds: try s.optionalDouble("slow_s"), outside: try s.bool("outside", default: false))
            }
        }
        departAt = try f.time("depart_at")
        tariff = try f.optionalString("tariff")
        partySize = try f.optionalInt("party_size", range: Self.partySizeRange)
        split = try f.optionalString("split")
        splitUnit = try f.optionalInt("split_unit", range: Self.splitUnitRange)
        tolls = try f.optionalInt("tolls", range: Self.moneyRange)
        callFee = try f.optionalInt("call_fee", range: Self.moneyRange)
        includeRoute = try f.bool("route", default: false)
        strict = try f.bool("strict", default: false)
        if f.has("geometry") { geometry = try f.bool("geometry", default: false) }
        metric = try f.optionalString("metric")
        noRoad = try f.optionalString("no_road")
        businessZone = try f.optionalString("business_zone")
        cruiseKmh = try f.optionalDouble("cruise_kmh")
        if f.has("dropoffs") {
            dropoffs = try f.array("dropoffs", maxCount: Self.maxDropoffs).enumerated().map { i, v throws(GeoFareError) in
                guard let d = v.double else { throw GeoFareError.wrongType("dropoffs[\(i)]", expected: "a number", got: v) }
                return d
            }
        }
    }

    /// A point object `{"lat", "lon", "approach"}`: its coordinate and approach, read once.
    static func stop(_ v: JSONValue, path: String) throws(GeoFareError) -> Stop {
        Stop(point: try RequestFields.coordinate(v, path: path), approach: try RequestFields.approach(v, path: path))
    }

    /// Whether the call gives a known trip (`trip` or `segments`) rather than one to route.
    var isKnownTrip: Bool { trip != nil || segments != nil }

    /// The engine's work order: the fields checked against each other, defaults filled in.
    /// - Parameter now: the departure when `depart_at` is not given.
    /// - Throws: ``GeoFareError``: `fields_conflict` naming both fields (`trip` with
    ///   `segments`; a route option with a known trip), `missing_field` (`from`, `to`, `trip`,
    ///   `tariff`), `invalid_value` for a `split`, `metric` or `no_road` none of its choices;
    ///   `trip_required` for a call with neither ends nor a known trip.
    func workOrder(now: Date) throws(GeoFareError) -> FareRequest {
        var options = FareOptions(partySize: Int(partySize ?? 1), split: .equal, splitUnit: splitUnit, tolls: tolls ?? 0, callFee: callFee ?? 0)
        if let split {
            guard let m = SplitMethod(rawValue: split) else { throw GeoFareError.notOneOf("split", "equal, proportional or shapley", got: split) }
            options.split = m
        }
        if isKnownTrip {
            // A known trip (what was driven) with or without its ends: nothing to route.
            let given = trip != nil ? "trip" : "segments"
            if trip != nil && segments != nil { throw GeoFareError.fieldsConflict("trip", "segments") }
            for (routeOnly, sent) in [("via", via != nil), ("metric", metric != nil), ("no_road", noRoad != nil), ("geometry", geometry != nil)] where sent {
                throw GeoFareError.fieldsConflict(routeOnly, given)
            }
            if includeRoute { throw GeoFareError.fieldsConflict("route", given) }
            if (from == nil) != (to == nil) { throw GeoFareError.missing(from != nil ? "to" : "from") }
            return try knownTrip(options: options, now: now)
        }
        guard from != nil || to != nil else { throw GeoFareError.tripRequired() }
        var r = try routedTrip(now: now)
        r.businessZone = businessZone
        r.options = options
        r.estimateTolls = tolls == nil
        return r
    }

    /// The trip by coordinates `route` and `fare` share: `from`, `via`, `to` with their
    /// approaches, the departure, tariff, route options, geometry and strictness.
    /// - Throws: ``GeoFareError`` `missing_field` (`from`, `to`), `invalid_value` (`metric`, `no_road`).
    func routedTrip(now: Date) throws(GeoFareError) -> FareRequest {
        guard let from else { throw GeoFareError.missing("from") }
        guard let to else { throw GeoFareError.missing("to") }
        let stops = via ?? []
        var r = FareRequest(from: from.point, via: stops.map(\.point), to: to.point, departure: departAt ?? now, tariff: tariff)
        let approaches = [from.approach] + stops.map(\.approach) + [to.approach]
        if approaches.contains(.curb) { r.approaches = approaches }
        let options = try Self.routeOptions(metric: metric, noRoad: noRoad)
        if let metric = options.metric { r.metric = metric }
        if let fallback = options.fallbackWhenNoRoad { r.fallbackWhenNoRoad = fallback }
        r.includeGeometry = geometry ?? false
        r.strict = strict
        return r
    }

    /// A known trip's work order: totals or segments (each starting when the one before it
    /// ended), its ends when given, and what the meter needs besides.
    private func knownTrip(options: FareOptions, now: Date) throws(GeoFareError) -> FareRequest {
        let departure = departAt ?? now
        let known: FareRequest.Trip
        if let segments {
            var start = departure
            var list: [TripSegment] = []
            list.reserveCapacity(segments.count)
            for s in segments {
                let segment = TripSegment(distanceMeters: s.distanceMeters, durationSeconds: s.durationSeconds, slowSeconds: s.slowSeconds,
                                          start: start, outsideZone: s.outside)
                list.append(segment)
                start = start.addingTimeInterval(max(0, segment.durationSeconds))
            }
            known = .segments(list)
        } else if let trip {
            known = .totals(distanceMeters: trip.distanceMeters, durationSeconds: trip.durationSeconds)
        } else {
            throw GeoFareError.tripRequired()
        }
        var r = FareRequest(trip: known, departure: departure, tariff: tariff)
        // The ends of a known trip: they pick the tariff (unless named) and its zones.
        r.origin = from?.point
        r.destination = to?.point
        if case .totals = known, r.tariff == nil, r.origin == nil { throw GeoFareError.missing("tariff") }
        r.businessZone = businessZone
        r.cruiseKmh = cruiseKmh
        r.strict = strict
        r.options = options
        r.estimateTolls = tolls == nil
        r.dropoffDistances = dropoffs
        return r
    }

    /// The route options `route`, `fare` and `matrix` share, decided in one place: `metric`
    /// (`fastest` or `shortest`) and `no_road` (`fallback` or `error`); `nil` where not given.
    /// - Throws: ``GeoFareError`` `invalid_value` naming the field.
    static func routeOptions(metric: String?, noRoad: String?) throws(GeoFareError) -> (metric: RouteMetric?, fallbackWhenNoRoad: Bool?) {
        var chosen: RouteMetric?, fallback: Bool?
        if let metric {
            guard let known = RouteMetric(rawValue: metric) else { throw GeoFareError.notOneOf("metric", "fastest or shortest", got: metric) }
            chosen = known
        }
        if let noRoad {
            guard noRoad == "fallback" || noRoad == "error" else { throw GeoFareError.notOneOf("no_road", "fallback or error", got: noRoad) }
            fallback = noRoad == "fallback"
        }
        return (chosen, fallback)
    }
}
