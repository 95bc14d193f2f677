import Foundation
import GeoFareCore
import GeoFareData

/// Estimates routes without a road graph: each leg's geodesic distance times a circuity factor
/// fitted on real road networks, driven at the region's hourly speeds.
///
/// - Each leg is split where its straight line crosses the business-zone boundary; the pieces
///   share the leg's driven distance in proportion to their straight length, and a piece is
///   outside when its midpoint is.
/// - Pieces are then split at every local hour boundary, so a trip that crosses 23:00 or the
///   rush hour is priced in the right periods; each segment gets its start time and its slow
///   seconds (`max(0, duration − distance / cruise)`).
/// - The route's totals are the sums of its segments, exactly.
///
/// Immutable and `Sendable`; a class so that calls through `any RouteEstimator` pass one
/// reference instead of copying (and retaining) the model's and profiles' arrays.
public final class CircuityRouteEstimator: RouteEstimator {
    /// `circuity-v2`: the model refitted to fastest routes (`Data/route/circuity.json`); v1 was fitted to shortest paths.
    public let name = "circuity-v2"
    public let model: CircuityModel
    public let profiles: [SpeedProfile]
    public let defaultProfile: SpeedProfile
    /// Region polygons used to pick a speed profile by the origin.
    public let regions: ZoneSet

    /// An estimator over the embedded calibration (or a data directory's).
    /// - Throws: ``GeoFareError`` `invalid_route_data`.
    public init(data: DataCatalog = .embedded, regions: ZoneSet = ZoneSet()) throws(GeoFareError) {
        model = try CircuityModel.load(from: data)
        let (profiles, defaultID) = try SpeedProfile.load(from: data)
        self.profiles = profiles
        defaultProfile = profiles.first { $0.id == defaultID }!
        self.regions = regions
    }

    public func estimate(_ request: RouteRequest) throws(GeoFareError) -> Route {
        guard request.via.count <= RouteRequest.maxStops else {
            throw GeoFareError(code: .tooManyStops, message: "at most \(RouteRequest.maxStops) stops, got \(request.via.count)", field: "via")
        }
        guard request.departure.timeIntervalSince1970.isFinite else { throw GeoFareError(code: .notFinite, message: "the departure time is not finite", field: "depart_at") }
        let profile = try profile(for: request)
        let stops = request.via.count + 2
        var legs: [Route.Leg] = []
        legs.reserveCapacity(stops - 1)
        var segments: [TripSegment] = []
        segments.reserveCapacity(stops + 2)
        var clock = request.departure.timeIntervalSince1970
        var durationLow = 0.0, durationHigh = 0.0
        var areaA = profile.area(of: request.origin, zones: regions)
        for i in 0..<(stops - 1) {
            let a = i == 0 ? request.origin : request.via[i - 1]
            let b = i == stops - 2 ? request.destination : request.via[i]
            let areaB = profile.area(of: b, zones: regions)
            let straight = Self.straightMeters(a, b)
            let driven = straight * model.factor(straightMeters: straight)
            let band = model.band(straightMeters: straight)
            let firstSegment = segments.count
            let plan = stretches(drivenMeters: driven, from: areaA, to: areaB, profile: profile)
            if let zone = request.businessZone {
                var cut = 0.0
                for piece in pieces(from: a, to: b, zone: zone) {
                    drive(plan, from: cut, to: cut + piece.share * driven, outside: piece.outside, profile: profile, clock: &clock, into: &segments)
                    cut += piece.share * driven
                }
            } else {
                drive(plan, from: 0, to: driven, outside: false, profile: profile, clock: &clock, into: &segments)
            }
            if segments.count == firstSegment {  // a leg of no length still has its (empty) segment
                segments.append(TripSegment(distanceMeters: 0, durationSeconds: 0, slowSeconds: 0, start: Date(timeIntervalSince1970: clock), outsideZone: false))
            }
            var legDistance = 0.0, legDuration = 0.0
            for k in firstSegment..<segments.count {
                legDistance += segments[k].distanceMeters
                legDuration += segments[k].durationSeconds
            }
            durationLow += legDuration * Route.combinedRatio(band.p10, profile.durationBandCircuity.p10)
            durationHigh += legDuration * Route.combinedRatio(band.p90, profile.durationBandCircuity.p90)
            legs.append(Route.Leg(from: a, to: b, straightMeters: straight, distanceMeters: legDistance, durationSeconds: legDuration,
                                  distanceLowMeters: legDistance * band.p10, distanceHighMeters: legDistance * band.p90))
            areaA = areaB
        }
        // Totals are the plain sums of the segments, in order, so they agree to the last bit.
        var distance = 0.0, duration = 0.0, low = 0.0, high = 0.0
        for s in segments {
            distance += s.distanceMeters
            duration += s.durationSeconds
        }
        for leg in legs {
            low += leg.distanceLowMeters
            high += leg.distanceHighMeters
        }
        var route = Route(distanceMeters: distance, durationSeconds: duration, distanceLowMeters: low, distanceHighMeters: high,
                          legs: legs, segments: segments, estimator: name, profile: profile.id)
        route.durationLowSeconds = durationLow
        route.durationHighSeconds = durationHigh
        return route
    }

    /// A stretch of a leg driven on one road kind in one area, metres from the leg's start.
    struct Stretch {
        var end: Double
        var kind: RoadKind
        var area: TrafficArea
    }

    /// How a leg of `drivenMeters` is driven without a graph: its surface roads (arterial and
    /// local, as the road mix by length shares them) half in the start's area and half in the
    /// end's, its expressways in between: ``SpeedProfile/urbanExpresswayKm`` at each end in that
    /// end's area, the rest on the open road (rural). Surface stretches are driven at the
    /// harmonic mix of the two kinds' speeds and reported as arterial.
    func stretches(drivenMeters d: Double, from a: TrafficArea, to b: TrafficArea, profile: SpeedProfile) -> (plan: [Stretch], surfaceArterialShare: Double) {
        let mix = profile.mix(drivenMeters: d)
        let surface = d * (1 - mix.expressway)
        let express = d - surface
        let urban = min(express / 2, profile.urbanExpresswayKm * 1000)
        var plan: [Stretch] = []
        func add(_ meters: Double, _ kind: RoadKind, _ area: TrafficArea) {
            guard meters > 0 else { return }
            let end = (plan.last?.end ?? 0) + meters
            if let last = plan.last, last.kind == kind, last.area == area { plan[plan.count - 1].end = end } else { plan.append(Stretch(end: end, kind: kind, area: area)) }
        }
        add(surface / 2, .arterial, a)
        add(urban, .expressway, a)
        add(express - 2 * urban, .expressway, .rural)
        add(urban, .expressway, b)
        add(surface / 2, .arterial, b)
        if plan.isEmpty { plan.append(Stretch(end: d, kind: .arterial, area: a)) }
        plan[plan.count - 1].end = d
        let share = mix.expressway < 1 ? mix.arterial / (1 - mix.expressway) : 1
        return (plan, share)
    }

    func profile(for request: RouteRequest) throws(GeoFareError) -> SpeedProfile {
        if let id = request.profile {
            guard let p = profiles.first(where: { $0.id == id }) else {
                throw GeoFareError(code: .unknownProfile, message: "unknown speed profile '\(id)'; known: \(profiles.map(\.id).joined(separator: ", "))", field: "profile")
            }
            return p
        }
        for zone in regions.zones where zone.polygon.contains(request.origin) {
            if let p = profiles.first(where: { $0.regions.contains(zone.id) }) { return p }
        }
        return defaultProfile
    }

    /// The straight (geodesic) length of a leg in metres. Legs under 100 km use a local
    /// ellipsoidal approximation at the leg's mean latitude (``CheapRuler``), within 0.01 % of
    /// Karney's geodesic there (a test measures it) at a twentieth of the cost; longer legs use
    /// the WGS84 geodesic itself (``WGS84Geodesic``, in Swift: fares build without PROJ). Either is far inside the circuity model's own ±12 %.
    @inline(__always)
    static func straightMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
        let d = CheapRuler(latitude: (a.latitude + b.latitude) / 2).distanceMeters(a, b)
        return d < 100_000 ? d : WGS84Geodesic.distanceMeters(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
    }

    /// The parts of a straight leg inside and outside the zone, as shares of its length.
    func pieces(from a: Coordinate, to b: Coordinate, zone: GeoPolygon) -> [(share: Double, outside: Bool)] {
        let crossings = zone.crossings(from: a, to: b)
        if crossings.isEmpty {
            return [(1, !zone.contains(longitude: (a.longitude + b.longitude) / 2, latitude: (a.latitude + b.latitude) / 2))]
        }
        let cuts = [0.0] + crossings + [1.0]
        var out: [(share: Double, outside: Bool)] = []
        for k in 0..<(cuts.count - 1) where cuts[k + 1] > cuts[k] {
            let mid = (cuts[k] + cuts[k + 1]) / 2
            let outside = !zone.contains(longitude: a.longitude + (b.longitude - a.longitude) * mid, latitude: a.latitude + (b.latitude - a.latitude) * mid)
            if let last = out.last, last.outside == outside {
                out[out.count - 1].share += cuts[k + 1] - cuts[k]
            } else {
                out.append((cuts[k + 1] - cuts[k], outside))
            }
        }
        return out
    }

    /// Drives the part `from..<to` (metres from the leg's start) of a leg's plan from `clock`:
    /// one segment per stretch and local hour, each at its road kind's speed in its area at
    /// that hour (``SpeedProfile/timeFactor(_:area:day:hour:)``).
    func drive(_ plan: (plan: [Stretch], surfaceArterialShare: Double), from: Double, to: Double, outside: Bool, profile: SpeedProfile,
               clock: inout Double, into segments: inout [TripSegment]) {
        let cruise = profile.cruiseKmh / 3.6
        var at = from
        var k = 0
        while k < plan.plan.count - 1 && plan.plan[k].end <= at { k += 1 }
        while to - at > 1e-9 {
            let stretch = plan.plan[k]
            let stop = k == plan.plan.count - 1 ? to : min(to, stretch.end)
            var left = stop - at
            while left > 1e-9 {
                let (local, next) = profile.clock.localSecondsAndNextTransition(clock)
                let second = LocalClock.secondOfDay(local)
                let hour = min(23, Int(second / 3600))
                let day = SpeedProfile.dayType(localSeconds: local)
                let speed: Double
                if stretch.kind == .expressway {
                    speed = profile.freeKmh[0] / 3.6 / profile.timeFactor(.expressway, area: stretch.area, day: day, hour: hour)
                } else {
                    // Arterial and local roads in the road mix's proportion: the harmonic mix of their speeds.
                    let s = plan.surfaceArterialShare
                    let va = profile.freeKmh[1] / profile.timeFactor(.arterial, area: stretch.area, day: day, hour: hour)
                    let vl = profile.freeKmh[2] / profile.timeFactor(.local, area: stretch.area, day: day, hour: hour)
                    speed = 1 / (s / va + (1 - s) / vl) / 3.6
                }
                let untilHour = min(3600 - (second - Double(hour) * 3600), next - clock)
                var distance = left, duration = left / speed
                if duration > untilHour && untilHour > 0 {
                    duration = untilHour
                    distance = speed * untilHour
                }
                let slow = max(0, duration - distance / cruise)
                segments.append(TripSegment(distanceMeters: distance, durationSeconds: duration, slowSeconds: min(slow, duration),
                                            start: Date(timeIntervalSince1970: clock), outsideZone: outside))
                left -= distance
                clock += duration
            }
            at = stop
            k += 1
            if k >= plan.plan.count { break }
        }
    }
}
