import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute

/// Fits a ``TrafficCalibration`` on completed rides: each ride is routed as GeoFare routes it
/// today (the pricer's graphs and traffic), and real ÷ estimated durations and distances set
///
/// - **distance factors** by the origin's area (routes without a graph: real ÷ estimated
///   driven distance, rides with `distance_m`), shrunk towards 1: `exp(n/(n + k) · median ln)`
///   with k = ``Options/priorRides``;
/// - **time levels** by area and hour of the week: an area's level is the median log ratio of
///   its rides (after the distance factor), shrunk towards 1 by how many hours of the week its
///   rides cover (W/(W + ``Options/priorHours``), W the sum of the hours' weights n/(n + k)):
///   one hour of rides moves the other hours part of the way, a week of them all the way; an
///   hour with ``Options/minHourRides`` rides of its own also gets its own level, its median
///   shrunk towards the area's with the same n/(n + k);
/// - **time factors by straight distance**: on what the levels leave, by band of
///   ``TrafficCalibration/distanceBandsKm``, shrunk as the distance factors (levels and these
///   fitted in turn until they settle);
/// - **bands**: p10 and p90 of real ÷ calibrated duration and distance on the fitted rides;
///   the duration band is stored as the speed's spread (the distance band taken out in
///   quadrature), as the profiles keep it; and with fares, the fare band's scale
///   (``fareBand(_:options:pricer:)``).
///
/// Ratios use medians of logs, so a few broken rides move nothing.
public enum TrafficCalibrator {
    public struct Options: Sendable {
        /// Rides that weigh as much as the default (the shrinkage's k).
        public var priorRides = 30.0
        /// Hours of the week with rides that weigh as much as the default for the hours without.
        public var priorHours = 0.25
        /// Rides an hour of the week needs for a level of its own in the file.
        public var minHourRides = 10
        /// Rides a band needs.
        public var minBandRides = 30
        public init() {}
    }

    /// One routed ride: where and when it ran in its profile, and real ÷ estimated figures.
    public struct Observation: Sendable {
        public var ride: Int
        public var profile: String
        public var area: TrafficArea
        /// Weekday (0 = Monday) × 24 + local hour of the pickup.
        public var hourOfWeek: Int
        /// Routed on a graph (else the circuity model).
        public var graph: Bool
        public var durationRatio: Double
        /// Real ÷ estimated distance, for rides with `distance_m`.
        public var distanceRatio: Double?
        /// The circuity model's distance band for the ride's straight distance.
        public var modelDistanceBand: (p10: Double, p90: Double)
        /// The ends' straight distance, metres.
        public var straightMeters: Double
    }

    /// Routes every ride with `pricer` (as `route` does: by coordinates, at the pickup time).
    /// - Parameter progress: called with the rides done so far, every 10,000.
    /// - Returns: one observation per ride (`nil`: it could not be routed).
    public static func observe(_ rides: [CompletedRide], pricer: TripPricer, progress: (Int) -> Void = { _ in }) -> [Observation?] {
        let circuity = pricer.circuityEstimator
        var out: [Observation?] = []
        out.reserveCapacity(rides.count)
        for (i, r) in rides.enumerated() {
            if i > 0 && i % 10_000 == 0 { progress(i) }
            guard let circuity,
                  let route = try? pricer.route(FareRequest(from: r.origin, to: r.destination, departure: r.pickup), anywhere: true),
                  route.durationSeconds > 0, route.distanceMeters > 0,
                  let profile = try? circuity.profile(for: RouteRequest(origin: r.origin, destination: r.destination, departure: r.pickup)) else {
                out.append(nil); continue
            }
            let local = profile.clock.localSeconds(r.pickup.timeIntervalSince1970)
            let hour = min(23, Int(LocalClock.secondOfDay(local) / 3600))
            let straight = CircuityRouteEstimator.straightMeters(r.origin, r.destination)
            let band = circuity.model.band(straightMeters: straight)
            out.append(Observation(ride: i, profile: profile.id, area: profile.area(of: r.origin),
                                   hourOfWeek: SpeedProfile.weekday(localSeconds: local) * 24 + hour,
                                   graph: route.estimator != circuity.name, durationRatio: r.durationSeconds / route.durationSeconds,
                                   distanceRatio: r.distanceMeters.map { $0 / route.distanceMeters }, modelDistanceBand: (band.p10, band.p90),
                                   straightMeters: straight))
        }
        return out
    }

    /// The calibration of `profile` fitted on `observations` (those of other profiles are
    /// ignored), as the file `calibrate` writes.
    public static func fit(_ observations: [Observation], profile: SpeedProfile, name: String, options: Options = Options()) -> TrafficCalibration.File {
        let obs = observations.filter { $0.profile == profile.id }
        let k = options.priorRides
        var distanceFactor = [Double](repeating: 1, count: 4)
        var distanceRides = [Int](repeating: 0, count: 4)
        var distanceLimitKm = [Double?](repeating: nil, count: 4)
        for area in TrafficArea.allCases {
            let mine = obs.filter { $0.area == area && !$0.graph && $0.distanceRatio != nil }
            let distances = mine.map { log($0.distanceRatio!) }
            guard !distances.isEmpty else { continue }
            // Up to the longest band the area's rides fill (10 of them): not beyond what they say.
            var perBand = [Int](repeating: 0, count: TrafficCalibration.distanceBandsKm.count + 1)
            for o in mine { perBand[TrafficCalibration.distanceBand(straightMeters: o.straightMeters)] += 1 }
            if let top = perBand.indices.last(where: { perBand[$0] >= options.minHourRides }) {
                distanceLimitKm[area.rawValue] = top < TrafficCalibration.distanceBandsKm.count ? TrafficCalibration.distanceBandsKm[top] : nil
            } else {
                continue
            }
            distanceFactor[area.rawValue] = exp(Double(distances.count) / (Double(distances.count) + k) * median(distances))
            distanceRides[area.rawValue] = distances.count
        }
        /// The distance factor a ride's route will get (none on a graph, nor beyond the rides' reach).
        func applied(_ o: Observation) -> Double {
            guard !o.graph else { return 1 }
            let limit = distanceLimitKm[o.area.rawValue].map { $0 * 1000 } ?? .infinity
            return TrafficCalibration.distanceBand(straightMeters: o.straightMeters) <= TrafficCalibration.distanceBand(straightMeters: limit) ? distanceFactor[o.area.rawValue] : 1
        }
        // Durations after the distance factor (a circuity route's time scales with its distance).
        let logs = obs.map { log($0.durationRatio) - log(applied($0)) }
        let bands = obs.map { TrafficCalibration.distanceBand(straightMeters: $0.straightMeters) }
        // Back-fitting: levels by area and hour, then factors by distance on what is left, until settled.
        var byDistance = [Double](repeating: 0, count: TrafficCalibration.distanceBandsKm.count + 1)
        var levels = levels(obs, logs: logs, options: options)
        for _ in 0..<6 {
            var left: [Int: [Double]] = [:]
            for (i, o) in obs.enumerated() { left[bands[i], default: []].append(logs[i] - log(levels.level[o.area.rawValue * 168 + o.hourOfWeek])) }
            for (b, v) in left { byDistance[b] = Double(v.count) / (Double(v.count) + k) * median(v) }
            levels = self.levels(obs, logs: zip(logs, bands).map { $0 - byDistance[$1] }, options: options)
        }
        let level = levels.level
        var areas = levels.areas
        for area in TrafficArea.allCases where distanceRides[area.rawValue] > 0 && areas[area.name] != nil {
            areas[area.name]!.distance_rides = distanceRides[area.rawValue]
            areas[area.name]!.distance_factor = round4(distanceFactor[area.rawValue])
            areas[area.name]!.distance_up_to_km = distanceLimitKm[area.rawValue]
        }
        var ridesByBand = [Int](repeating: 0, count: byDistance.count)
        for b in bands { ridesByBand[b] += 1 }
        let timeByDistance = byDistance.indices.filter { ridesByBand[$0] > 0 }.map { b in
            TrafficCalibration.File.DistanceCell(up_to_km: b < TrafficCalibration.distanceBandsKm.count ? TrafficCalibration.distanceBandsKm[b] : nil,
                                                 rides: ridesByBand[b], time_factor: round4(exp(byDistance[b])))
        }
        // Bands of the calibrated estimates on the same rides.
        func band(_ ratios: [Double]) -> TrafficCalibration.File.Band? {
            guard ratios.count >= options.minBandRides else { return nil }
            return .init(p10: round4(min(1, quantile(ratios, 0.1))), p90: round4(max(1, quantile(ratios, 0.9))))
        }
        /// The speed's band from the duration's, the distance's taken out in quadrature.
        func speed(_ total: TrafficCalibration.File.Band?, distance: (p10: Double, p90: Double)) -> TrafficCalibration.File.Band? {
            guard let total else { return nil }
            func part(_ q: Double, _ d: Double) -> Double { (max(0, log(q) * log(q) - log(d) * log(d))).squareRoot() }
            return .init(p10: round4(exp(-part(total.p10, distance.p10))), p90: round4(exp(part(total.p90, distance.p90))))
        }
        let circuity = obs.filter { !$0.graph }, graph = obs.filter(\.graph)
        let scaled = { (o: Observation) in
            o.durationRatio / level[o.area.rawValue * 168 + o.hourOfWeek] / exp(byDistance[TrafficCalibration.distanceBand(straightMeters: o.straightMeters)])
        }
        let distanceBand = band(circuity.compactMap { o in o.distanceRatio.map { $0 / applied(o) } })
        let modelBand = circuity.isEmpty ? (p10: 1.0, p90: 1.0)
            : (p10: median(circuity.map(\.modelDistanceBand.p10)), p90: median(circuity.map(\.modelDistanceBand.p90)))
        let circuityDuration = band(circuity.map { scaled($0) / applied($0) })
        let graphDuration = band(graph.map(scaled))
        let durationBands = TrafficCalibration.File.Bands(
            circuity: speed(circuityDuration, distance: distanceBand.map { ($0.p10, $0.p90) } ?? modelBand),
            graph: speed(graphDuration, distance: profile.graphDistanceBand))
        return TrafficCalibration.File(
            schema: TrafficCalibration.schema, profile: profile.id, name: name, about: nil, areas: areas,
            time_by_distance: timeByDistance.isEmpty ? nil : timeByDistance,
            duration_band: durationBands.circuity == nil && durationBands.graph == nil ? nil : durationBands,
            distance_band: distanceBand.map { .init(circuity: $0, graph: nil) }, fitted: nil, held_out: nil)
    }

    /// The fare band's scale on a fitted calibration (``TrafficCalibration/fareBandScale``): the
    /// one at which the band of `rides`' fares from coordinates holds 80 % of their real fares
    /// (bisection over 0.1...5 on at most 2,000 rides with a fare, evenly spaced). `nil` when
    /// fewer than ``Options/minBandRides`` rides have a fare.
    /// - Parameter pricer: a pricer with the calibration applied at a given scale.
    public static func fareBand(_ rides: [CompletedRide], options: Options = Options(),
                                pricer: (Double) throws -> TripPricer) rethrows -> TrafficCalibration.File.FareBand? {
        let paid = rides.filter { $0.fare != nil }
        guard paid.count >= options.minBandRides else { return nil }
        let step = max(1, paid.count / 2_000)
        let sample = stride(from: 0, to: paid.count, by: step).map { paid[$0] }
        var lo = 0.1, hi = 5.0
        for _ in 0..<12 {
            let mid = (lo * hi).squareRoot()
            let held = accuracy(sample, pricer: try pricer(mid)).fareBand ?? 0
            if held < 0.8 { lo = mid } else { hi = mid }
        }
        return .init(rides: sample.count, scale: round4((lo * hi).squareRoot()))
    }

    /// Time levels by area and hour of the week from each observation's log ratio: an area's
    /// level shrunk by the hours its rides cover, an hour's own level (``Options/minHourRides``)
    /// shrunk towards its area's. Also the file's areas (without distance factors).
    static func levels(_ obs: [Observation], logs: [Double], options: Options) -> (level: [Double], areas: [String: TrafficCalibration.File.Area]) {
        let k = options.priorRides
        var level = [Double](repeating: 1, count: 4 * 168)
        var areas: [String: TrafficCalibration.File.Area] = [:]
        for area in TrafficArea.allCases {
            var mine: [Double] = [], byHour: [Int: [Double]] = [:]
            for (o, l) in zip(obs, logs) where o.area == area {
                mine.append(l)
                byHour[o.hourOfWeek, default: []].append(l)
            }
            guard !mine.isEmpty else { continue }
            let weight = byHour.values.reduce(0.0) { $0 + Double($1.count) / (Double($1.count) + k) }
            let base = weight / (weight + options.priorHours) * median(mine)
            for h in 0..<168 { level[area.rawValue * 168 + h] = exp(base) }
            var hours: [String: TrafficCalibration.File.Cell] = [:]
            for (h, v) in byHour where v.count >= options.minHourRides {
                let w = Double(v.count) / (Double(v.count) + k)
                let l = exp(base + w * (median(v) - base))
                level[area.rawValue * 168 + h] = l
                hours[TrafficCalibration.hourKey(h)] = .init(rides: v.count, time_level: round4(l))
            }
            areas[area.name] = .init(rides: mine.count, time_level: round4(exp(base)), distance_rides: nil, distance_factor: nil,
                                     hours: hours.isEmpty ? nil : hours)
        }
        return (level, areas)
    }

    /// How close a pricer's routes and fares from coordinates come to the rides.
    public struct Accuracy: Sendable {
        public var rides = 0
        /// Duration: median |error|, signed median (estimate ÷ real − 1), share inside the band.
        public var durationAbs = 0.0, durationSigned = 0.0, durationBand = 0.0
        /// Distance signed median, over rides with a distance (`nil`: none).
        public var distanceSigned: Double?
        /// Fare (the quote's total less tolls): median |error|, signed median, share inside the
        /// band, over rides with a fare (`nil`: none).
        public var fareAbs: Double?, fareSigned: Double?, fareBand: Double?
        public var fareRides = 0
    }

    /// The accuracy of `pricer` on `rides`, routed and priced from their coordinates at pickup.
    public static func accuracy(_ rides: [CompletedRide], pricer: TripPricer) -> Accuracy {
        var duration: [Double] = [], inside: [Bool] = [], distance: [Double] = [], fare: [Double] = [], fareInside: [Bool] = []
        for r in rides {
            let request = FareRequest(from: r.origin, to: r.destination, departure: r.pickup)
            guard let route = try? pricer.route(request, anywhere: true) else { continue }
            duration.append(route.durationSeconds / r.durationSeconds - 1)
            inside.append((route.durationLowSeconds ?? 0) <= r.durationSeconds && r.durationSeconds <= (route.durationHighSeconds ?? .infinity))
            if let d = r.distanceMeters { distance.append(route.distanceMeters / d - 1) }
            if let paid = r.fare, let q = try? pricer.quote(request).quote {
                fare.append(Double(q.total - q.tolls) / Double(paid) - 1)
                fareInside.append(q.low - q.tolls <= paid && paid <= q.high - q.tolls)
            }
        }
        var a = Accuracy()
        a.rides = duration.count
        guard !duration.isEmpty else { return a }
        a.durationAbs = median(duration.map(abs)); a.durationSigned = median(duration)
        a.durationBand = share(inside)
        if !distance.isEmpty { a.distanceSigned = median(distance) }
        if !fare.isEmpty {
            a.fareAbs = median(fare.map(abs)); a.fareSigned = median(fare); a.fareBand = share(fareInside); a.fareRides = fare.count
        }
        return a
    }

    static func share(_ v: [Bool]) -> Double { v.isEmpty ? 0 : Double(v.filter { $0 }.count) / Double(v.count) }

    static func median(_ v: [Double]) -> Double { quantile(v, 0.5) }

    /// The q-quantile of `v` (linear between order statistics); 0 for none.
    static func quantile(_ v: [Double], _ q: Double) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        let x = q * Double(s.count - 1)
        let i = Int(x)
        return i + 1 >= s.count ? s[i] : s[i] + (x - Double(i)) * (s[i + 1] - s[i])
    }

    static func round4(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }
}
