import Foundation
import GeoFareCore

/// What to estimate: an origin, optional stops, a destination, a departure time.
public struct RouteRequest: Sendable {
    /// At most this many intermediate stops.
    public static let maxStops = 25

    public var origin: Coordinate
    public var via: [Coordinate]
    public var destination: Coordinate
    public var departure: Date
    /// The tariff business zone: segments are split where a leg crosses its boundary and
    /// marked outside beyond it. `nil`: no zone (everything inside).
    public var businessZone: GeoPolygon?
    /// A speed-profile id; `nil` picks one by the origin's region.
    public var profile: String?
    /// What a road-graph route minimises: time (`fastest`, what a taxi drives) or distance.
    public var metric: RouteMetric = .fastest
    /// Return the road geometry (`Route.geometry`) when a road graph drives the route.
    public var includeGeometry = false
    /// When a point lies farther than ``maxSnapMeters`` from every road of the graph that holds the
    /// trip: `true` estimates the route with the circuity model instead, `false` answers
    /// `no_road_nearby`.
    public var fallbackWhenNoRoad = true
    /// The largest distance a point is moved onto a road, metres.
    public var maxSnapMeters = 200.0
    /// How the route may leave or reach each point, in ``points`` order (origin, stops,
    /// destination); a missing entry is ``RouteApproach/unrestricted``. Only a road graph heeds it.
    public var approaches: [RouteApproach] = []

    public init(origin: Coordinate, via: [Coordinate] = [], destination: Coordinate, departure: Date, businessZone: GeoPolygon? = nil, profile: String? = nil) {
        self.origin = origin
        self.via = via
        self.destination = destination
        self.departure = departure
        self.businessZone = businessZone
        self.profile = profile
    }

    /// The points in order: origin, stops, destination.
    public var points: [Coordinate] { [origin] + via + [destination] }

    /// The approach of point `i` of ``points`` (``RouteApproach/unrestricted`` where none is given).
    public func approach(at i: Int) -> RouteApproach { i < approaches.count ? approaches[i] : .unrestricted }
}

/// How a road-graph route may leave or reach a point.
public enum RouteApproach: String, Sendable, Hashable, CaseIterable {
    /// Either direction of the point's road (the default).
    case unrestricted
    /// At the kerb: on a two-way road only in the direction that has the point on its right-hand
    /// side (traffic drives on the right, as in Korea and the US); one-way roads, and a point on
    /// the centre line, are unaffected (see `RoadGraph.curbSide(_:of:)`).
    case curb
}

/// What a road-graph route minimises.
public enum RouteMetric: String, Sendable, Hashable, CaseIterable {
    /// Travel time: what a taxi drives (the default).
    case fastest
    /// Distance.
    case shortest
}

/// An estimated route: totals, one leg per stop, the segments the meter runs over, and an 80 %
/// band on the distance. `distanceMeters` and `durationSeconds` are exactly the sums of the
/// segments' (and of the legs').
public struct Route: Sendable, Hashable {
    /// One leg between consecutive points.
    public struct Leg: Sendable, Hashable {
        public var from, to: Coordinate
        /// The geodesic distance (WGS84), metres.
        public var straightMeters: Double
        public var distanceMeters, durationSeconds: Double
        /// p10 and p90 of the driven distance, metres.
        public var distanceLowMeters, distanceHighMeters: Double
        /// Metres from `from` to the point of the road the leg starts on, and from `to` to the
        /// point it ends on, where a road graph routed the leg (the nearest road: see
        /// ``GraphRouteEstimator``); `nil` when the circuity model estimated it.
        public var fromSnapMeters: Double? = nil, toSnapMeters: Double? = nil
    }

    /// Totals, metres and seconds, and the 80 % band on the distance (p10, p90), metres.
    public var distanceMeters, durationSeconds: Double
    public var distanceLowMeters, distanceHighMeters: Double
    /// An 80 % band on the duration (p10 and p90 of real ÷ estimated durations, calibrated on
    /// held-out real trips: `Data/route/README.md#traffic`), seconds; `nil`: the duration itself.
    public var durationLowSeconds: Double? = nil, durationHighSeconds: Double? = nil
    public var legs: [Leg]
    public var segments: [TripSegment]
    /// The corners of the fare band this route's uncertainty spans (``RouteSpread``); set by the
    /// estimators (``computedSpread()`` from the bands where no table has it).
    public var spread: RouteSpread = .none
    /// The estimator and speed profile used.
    public var estimator: String
    public var profile: String
    /// The road path, `[lon, lat]` in driving order, when a road graph drove the route and the
    /// request asked for it.
    public var geometry: [Coordinate]? = nil

    /// Two independent ratios' 80 % band ends combined (log half-widths added in quadrature):
    /// the duration band of a route from its distance band and its speed band (both below 1,
    /// or both above).
    public static func combinedRatio(_ a: Double, _ b: Double) -> Double {
        let la = log(a), lb = log(b)
        let h = (la * la + lb * lb).squareRoot()
        return a < 1 || b < 1 ? exp(-h) : exp(h)
    }

    /// The distance along the route at which each leg ends (drop-off positions), metres.
    public var legEndDistances: [Double] {
        var total = 0.0
        return legs.map { total += $0.distanceMeters; return total }
    }
}

/// Anything that estimates routes: the circuity model today, a road-graph router later. The
/// meter, the worker and the CLI only see this protocol.
public protocol RouteEstimator: Sendable {
    /// A short name reported with every route, e.g. `circuity-v2`.
    var name: String { get }
    /// Estimates a route.
    /// - Throws: ``GeoFareError`` for invalid requests.
    func estimate(_ request: RouteRequest) throws(GeoFareError) -> Route
    /// Distances and durations from every source to every target (by default each cell its own
    /// ``estimate(_:)``; a road graph answers with one many-to-many search).
    /// - Throws: ``GeoFareError`` as ``MatrixRequest/check()`` and ``estimate(_:)``.
    func matrix(_ request: MatrixRequest) throws(GeoFareError) -> RouteMatrix
}

extension Route {
    /// The fare band's corners for a route whose distance band is `distance` (p10, p90 as
    /// ratios to the estimate) and whose speed band is `speed` (real ÷ estimated duration given
    /// the distance): each end moves distance and speed together, both shrunk by
    /// `c = √(h_d² + h_s²) / (h_d + h_s)` (h: the two bands' log half-widths at that end) so that
    /// the corner spans what the two independent spreads span together; the duration moves with
    /// the distance and the speed.
    public static func spread(distance: (p10: Double, p90: Double), speed: (p10: Double, p90: Double)) -> RouteSpread {
        func corner(_ d: Double, _ s: Double) -> (distance: Double, duration: Double) {
            let hd = abs(log(d)), hs = abs(log(s))
            let c = hd + hs > 0 ? (hd * hd + hs * hs).squareRoot() / (hd + hs) : 1
            let dk = pow(d, c)
            return (dk, dk * pow(s, c))
        }
        let lo = corner(distance.p10, speed.p10), hi = corner(distance.p90, speed.p90)
        return RouteSpread(distanceLow: lo.distance, distanceHigh: hi.distance, durationLow: lo.duration, durationHigh: hi.duration)
    }

    /// ``spread(distance:speed:)`` from this route's own bands: its distance band, and its speed
    /// band as what of its duration band the distance band does not explain.
    public func computedSpread() -> RouteSpread {
        let d = distanceMeters, t = durationSeconds
        guard d > 0, t > 0, let tLow = durationLowSeconds, let tHigh = durationHighSeconds else { return .none }
        func speed(_ dr: Double, _ tr: Double) -> Double {
            let hd = log(max(dr, 1e-9)), ht = log(max(tr, 1e-9))
            let hs = max(0, ht * ht - hd * hd).squareRoot()
            return tr >= 1 ? exp(hs) : exp(-hs)
        }
        let dLow = distanceLowMeters / d, dHigh = distanceHighMeters / d
        return Route.spread(distance: (dLow, dHigh), speed: (speed(dLow, tLow / t), speed(dHigh, tHigh / t)))
    }
}

