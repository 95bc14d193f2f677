import Foundation
import GeoFareCore

/// Distances and durations between many points at once: every source to every target.
public struct MatrixRequest: Sendable {
    /// At most this many cells (sources × targets) per request: a 100 × 100 table. On the largest
    /// shared extract (Manhattan) it takes tens of milliseconds on one core of the 2-core machine
    /// (docs/benchmarks.md), so a request stays short next to others on a worker.
    public static let maxCells = 10_000

    public var sources: [Coordinate]
    public var targets: [Coordinate]
    public var departure: Date
    /// What a road-graph route minimises (see ``RouteRequest/metric``).
    public var metric: RouteMetric = .fastest
    /// A speed-profile id; `nil` picks one by each source's region, as a route does by its origin.
    public var profile: String?
    /// When a point lies farther than ``maxSnapMeters`` from every road: `true` answers the whole
    /// matrix with the circuity model (as a route does), `false` answers `no_road_nearby`.
    public var fallbackWhenNoRoad = true
    /// The largest distance a point is moved onto a road, metres.
    public var maxSnapMeters = 200.0
    /// How the trips leave each source and reach each target (see ``RouteRequest/approaches``);
    /// a missing entry is ``RouteApproach/unrestricted``. Only a road graph heeds them.
    public var sourceApproaches: [RouteApproach] = []
    public var targetApproaches: [RouteApproach] = []
    /// The most cells this request may have: ``maxCells`` (what the worker allows a client), or
    /// more for a library caller that tables many points at once (`geofare pool`'s blocks).
    public var cellLimit = MatrixRequest.maxCells

    public init(sources: [Coordinate], targets: [Coordinate], departure: Date, metric: RouteMetric = .fastest, profile: String? = nil) {
        (self.sources, self.targets, self.departure) = (sources, targets, departure)
        (self.metric, self.profile) = (metric, profile)
    }

    /// Checks the sizes and the departure.
    /// - Throws: ``GeoFareError`` `missing_value` (no source or no target), `request_too_large`
    ///   (more than ``cellLimit`` cells), `not_finite` (`depart_at`).
    public func check() throws(GeoFareError) {
        guard !sources.isEmpty else { throw .noSources() }
        guard !targets.isEmpty else { throw .noTargets() }
        guard sources.count * targets.count <= cellLimit else {
            throw .matrixTooLarge(sources: sources.count, targets: targets.count, max: cellLimit)
        }
        guard departure.timeIntervalSince1970.isFinite else { throw .departureNotFinite() }
    }
}

/// A table of routes: `distanceMeters[i][j]` and `durationSeconds[i][j]` from source `i` to
/// target `j`, `nil` where no road path joins them.
public struct RouteMatrix: Sendable, Hashable {
    public var distanceMeters: [[Double?]]
    public var durationSeconds: [[Double?]]
    /// What answered every cell: a road graph's estimator (`graph-ch-v1`) or the circuity model's
    /// (`circuity-v2`: estimates, not road routes).
    public var estimator: String
    /// The speed profile of each source's row.
    public var profiles: [String]
    /// Metres from each point to the road it snapped to, when a road graph answered.
    public var sourceSnapMeters: [Double]? = nil
    public var targetSnapMeters: [Double]? = nil

    public init(distanceMeters: [[Double?]], durationSeconds: [[Double?]], estimator: String, profiles: [String]) {
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.estimator = estimator
        self.profiles = profiles
    }
}

extension RouteEstimator {
    /// Every cell estimated as its own two-point route (what the circuity model does: each cell
    /// is exactly the ``estimate(_:)`` of that pair, with no business zone).
    /// - Throws: ``GeoFareError`` as ``MatrixRequest/check()`` and ``estimate(_:)``.
    public func cellByCellMatrix(_ request: MatrixRequest) throws(GeoFareError) -> RouteMatrix {
        try request.check()
        var distance: [[Double?]] = [], duration: [[Double?]] = []
        var profiles: [String] = []
        for s in request.sources {
            var d: [Double?] = [], t: [Double?] = []
            var profile = ""
            for e in request.targets {
                var r = RouteRequest(origin: s, destination: e, departure: request.departure, profile: request.profile)
                r.metric = request.metric
                let route = try estimate(r)
                d.append(route.distanceMeters)
                t.append(route.durationSeconds)
                profile = route.profile
            }
            distance.append(d); duration.append(t); profiles.append(profile)
        }
        return RouteMatrix(distanceMeters: distance, durationSeconds: duration, estimator: name, profiles: profiles)
    }
}

extension RouteEstimator {
    /// Each cell the estimate of its pair (see ``cellByCellMatrix(_:)``).
    public func matrix(_ request: MatrixRequest) throws(GeoFareError) -> RouteMatrix { try cellByCellMatrix(request) }
}
