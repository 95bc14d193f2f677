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
    /// By profile and distance band of the model (`profile × bands + band`): a leg's duration
    /// band as ratios, and the fare band's corners of a one-leg route (computed once, not per trip).
    /// (A calibration's distance band replaces the model's bands: ``SpeedProfile/circuityDistanceBand``.)
    struct BandEntry { var spread: RouteSpread; var durationLow: Double; var durationHigh: Double; var distanceLow: Double; var distanceHigh: Double }
    let bandTable: [BandEntry]
    /// The regions some profile names, in ``regions``' order, each with the first profile that
    /// names it: what ``profile(for:)`` tests (not every zone of the catalog).
    let profileRegions: [(polygon: GeoPolygon, profile: SpeedProfile)]

    /// An estimator over the embedded calibration (or a data directory's), with `traffic`
    /// calibrations (`--traffic`, ``TrafficCalibration``) applied to their profiles in order.
    /// - Throws: ``GeoFareError`` `invalid_route_data`; `unknown_profile` when a calibration
    ///   names a profile the data has not.
    public init(data: DataCatalog = .embedded, regions: ZoneSet = ZoneSet(), traffic: [TrafficCalibration] = []) throws(GeoFareError) {
        model = try CircuityModel.load(from: data)
        let (loaded, defaultID) = try SpeedProfile.load(from: data)
        for c in traffic where !loaded.contains(where: { $0.id == c.profile }) {
            throw .unknownProfile(c.profile, known: loaded.map(\.id))
        }
        let profiles = loaded.map { p in traffic.filter { $0.profile == p.id }.reduce(p.bound(to: regions)) { $0.applying($1) } }
        self.profiles = profiles
        defaultProfile = profiles.first { $0.id == defaultID }!
        let bands = model.bands
        bandTable = profiles.flatMap { p in
            bands.map { modelBand in
                // A calibration's distance band replaces the model's own.
                let b = p.circuityDistanceBand ?? (modelBand.p10, modelBand.p90)
                return BandEntry(spread: Route.spread(distance: (b.p10, b.p90), speed: p.durationBandCircuity).scaled(p.fareBandScale),
                                 durationLow: Route.combinedRatio(b.p10, p.durationBandCircuity.p10), durationHigh: Route.combinedRatio(b.p90, p.durationBandCircuity.p90),
                                 distanceLow: b.p10, distanceHigh: b.p90)
            }
        }
        self.regions = regions
        profileRegions = regions.zones.compactMap { zone in
            profiles.first { $0.regions.contains(zone.id) }.map { (zone.polygon, $0) }
        }
    }

    public func estimate(_ request: RouteRequest) throws(GeoFareError) -> Route {
        guard request.via.count <= RouteRequest.maxStops else {
            throw .tooManyStops(request.via.count)
        }
        guard request.departure.timeIntervalSince1970.isFinite else { throw .departureNotFinite() }
        let profile = try profile(for: request)
        let tableStart = profiles.firstIndex { $0 === profile }! * model.bands.count
        let stops = request.via.count + 2
        var legs: [Route.Leg] = []
        legs.reserveCapacity(stops - 1)
        var segments: [TripSegment] = []
        segments.reserveCapacity(stops + 2)
        var clock = request.departure.timeIntervalSince1970
        var durationLow = 0.0, durationHigh = 0.0
        var areaA = profile.area(of: request.origin)
        for i in 0..<(stops - 1) {
            let a = i == 0 ? request.origin : request.via[i - 1]
            let b = i == stops - 2 ? request.destination : request.via[i]
            let areaB = profile.area(of: b)
            let straight = Self.straightMeters(a, b)
            // A calibration's distance factor of the leg's start area (1 without one).
            let driven = straight * model.factor(straightMeters: straight) * profile.distanceFactor(areaA, straightMeters: straight)
            let bandIndex = model.bandIndex(straightMeters: straight)
            let band = bandTable[tableStart + bandIndex]
            let firstSegment = segments.count
            var plan = Plan(drivenMeters: driven, from: areaA, to: areaB, profile: profile)
            plan.timeFactor = profile.legTimeFactor(straightMeters: straight)
            if let zone = request.businessZone {
                var cut = 0.0
                for piece in pieces(from: a, to: b, zone: zone) {
                    drive(plan, from: cut, to: cut + piece.share * driven, outside: piece.outside, profile: profile, clock: &clock, into: &segments)
                    cut += piece.share * driven
                }
            } else {
                drive(plan, from: 0, to: driven, outside: false, profile: profile, clock: &clock, into: &segments)
            }
            var legDistance = 0.0, legDuration = 0.0
            for k in firstSegment..<segments.count {
                legDistance += segments[k].distanceMeters
                legDuration += segments[k].durationSeconds
            }
            durationLow += legDuration * band.durationLow
            durationHigh += legDuration * band.durationHigh
            legs.append(Route.Leg(from: a, to: b, straightMeters: straight, distanceMeters: legDistance, durationSeconds: legDuration,
                                  distanceLowMeters: legDistance * band.distanceLow, distanceHighMeters: legDistance * band.distanceHigh))
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
        if legs.count == 1 {
            route.spread = bandTable[tableStart + model.bandIndex(straightMeters: legs[0].straightMeters)].spread
        } else {
            route.spread = route.computedSpread().scaled(profile.fareBandScale)
        }
        return route
    }

    /// How a leg of `drivenMeters` is driven without a graph: its surface roads (arterial and
    /// local, as the road mix by length shares them) half in the start's area and half in the
    /// end's, its expressways in between: ``SpeedProfile/urbanExpresswayKm`` at each end in that
    /// end's area, the rest on the open road (rural). Surface stretches are driven at the
    /// harmonic mix of the two kinds' speeds. At most five stretches, kept inline (no heap);
    /// neighbours of one kind and area are one stretch.
    struct Plan {
        /// A stretch: where it ends (metres from the leg's start), its kind and area.
        struct Stretch { var end: Double; var kind: RoadKind; var area: TrafficArea }
        private var s0 = Stretch(end: 0, kind: .arterial, area: .city), s1 = Stretch(end: 0, kind: .arterial, area: .city),
                    s2 = Stretch(end: 0, kind: .arterial, area: .city), s3 = Stretch(end: 0, kind: .arterial, area: .city),
                    s4 = Stretch(end: 0, kind: .arterial, area: .city)
        private(set) var count = 0
        /// The arterial share of the surface roads.
        let surfaceArterialShare: Double
        /// × every pace of the leg (``SpeedProfile/legTimeFactor(straightMeters:)``).
        var timeFactor = 1.0

        subscript(i: Int) -> Stretch {
            get { switch i { case 0: s0; case 1: s1; case 2: s2; case 3: s3; default: s4 } }
            set { switch i { case 0: s0 = newValue; case 1: s1 = newValue; case 2: s2 = newValue; case 3: s3 = newValue; default: s4 = newValue } }
        }

        init(drivenMeters d: Double, from a: TrafficArea, to b: TrafficArea, profile: SpeedProfile) {
            let mix = profile.mix(drivenMeters: d)
            let surface = d * (1 - mix.expressway)
            let express = d - surface
            let urban = min(express / 2, profile.urbanExpresswayKm * 1000)
            surfaceArterialShare = mix.expressway < 1 ? mix.arterial / (1 - mix.expressway) : 1
            add(surface / 2, .arterial, a)
            add(urban, .expressway, a)
            add(express - 2 * urban, .expressway, .rural)
            add(urban, .expressway, b)
            add(surface / 2, .arterial, b)
            if count == 0 { add(0, .arterial, a); count = 1 }
            self[count - 1].end = d
        }

        private mutating func add(_ meters: Double, _ kind: RoadKind, _ area: TrafficArea) {
            guard meters > 0 else { return }
            let end = (count > 0 ? self[count - 1].end : 0) + meters
            if count > 0, self[count - 1].kind == kind, self[count - 1].area == area {
                self[count - 1].end = end
            } else {
                self[count] = Stretch(end: end, kind: kind, area: area)
                count += 1
            }
        }
    }

    /// The speed profile a route takes: the request's named one, else the first whose region holds
    /// the origin, else the default.
    /// - Throws: ``GeoFareError`` `unknown_profile` for a name the data has not.
    public func profile(for request: RouteRequest) throws(GeoFareError) -> SpeedProfile {
        if let id = request.profile {
            guard let p = profiles.first(where: { $0.id == id }) else {
                throw .unknownProfile(id, known: profiles.map(\.id))
            }
            return p
        }
        for region in profileRegions where region.polygon.contains(request.origin) { return region.profile }
        return defaultProfile
    }

    /// The straight (geodesic) length of a leg in metres. Legs under 100 km use a local
    /// ellipsoidal approximation at the leg's mean latitude (``CheapRuler``), within 0.01 % of
    /// Karney's geodesic there (a test measures it) at a twentieth of the cost; longer legs use
    /// the WGS84 geodesic itself (``WGS84Geodesic``, in Swift: fares build without PROJ). Either is far inside the circuity model's own ±12 %.
    @inline(__always)
    public static func straightMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
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
    /// each stretch at its road kind's pace in its area at each local hour
    /// (``SpeedProfile/secondsPerMeter(_:area:slot:)``), one segment per local hour (the
    /// stretches of an hour merged, as a graph route's roads are): the slow-time model then
    /// reads the hour's average speed (Seoul City Hall to Incheon Airport on a Wednesday at 15:00
    /// prices at 61,700 KRW so, 62,100 with a segment per stretch: 0.6 % apart).
    func drive(_ plan: Plan, from: Double, to: Double, outside: Bool, profile: SpeedProfile,
               clock: inout Double, into segments: inout [TripSegment]) {
        let cruise = profile.cruiseKmh / 3.6
        let localClock = profile.clock  // once: each read of a class's struct property retains its arrays
        var at = from
        var k = 0
        while k < plan.count - 1 && plan[k].end <= at { k += 1 }
        repeat {
            // One local hour (or up to a daylight-saving change): the stretches it reaches.
            let (local, next) = localClock.localSecondsAndNextTransition(clock)
            let second = LocalClock.secondOfDay(local)
            let hour = min(23, Int(second / 3600))
            let slot = profile.slot(clock: clock, local: local, hour: hour)
            var window = min(3600 - (second - Double(hour) * 3600), next - clock)
            if !(window > 0) { window = .infinity }
            var distance = 0.0, duration = 0.0
            while to - at > 1e-9 {
                let stop = k == plan.count - 1 ? to : min(to, plan[k].end)
                let pace = secondsPerMeter(plan, k, profile, slot)
                let need = (stop - at) * pace
                if need <= window - duration {
                    distance += stop - at
                    duration += need
                    at = stop
                    if k < plan.count - 1 { k += 1 } else { break }
                } else {
                    let part = (window - duration) / pace
                    distance += part
                    at += part
                    duration = window
                    break
                }
            }
            segments.append(TripSegment(distanceMeters: distance, durationSeconds: duration,
                                        slowSeconds: min(max(0, duration - distance / cruise), duration),
                                        start: Date(timeIntervalSince1970: clock), outsideZone: outside))
            clock += duration
        } while to - at > 1e-9
    }

    /// The pace of stretch `k` of a plan at a slot (``SpeedProfile/slot(clock:local:hour:)``:
    /// date level, weekday, local hour), seconds per metre: its road kind's in its area, or for
    /// surface roads arterial and local roads in the road mix's proportion (the harmonic mix of
    /// their speeds).
    @inline(__always)
    func secondsPerMeter(_ plan: Plan, _ k: Int, _ profile: SpeedProfile, _ slot: Int) -> Double {
        let stretch = plan[k]
        if stretch.kind == .expressway { return plan.timeFactor * profile.secondsPerMeter(.expressway, area: stretch.area, slot: slot) }
        let s = plan.surfaceArterialShare
        return plan.timeFactor * (s * profile.secondsPerMeter(.arterial, area: stretch.area, slot: slot)
            + (1 - s) * profile.secondsPerMeter(.local, area: stretch.area, slot: slot))
    }
}
