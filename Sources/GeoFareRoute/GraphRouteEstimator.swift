import Foundation
import GeoFareCore
import GeoFareGraph

/// Estimates routes on real road networks (``RoadGraph``s built from OpenStreetMap), and with
/// the circuity model wherever no loaded graph holds the trip.
///
/// - A trip is routed on the first graph whose box holds every one of its points; each leg is
///   a contraction-hierarchy query between the points snapped as a taxi starts and stops: onto
///   the road nearest each point (both directions where it is two-way; another road only within
///   1 m of the nearest, at a junction), never onto a road farther away, so one-ways and divided
///   roads route right and no route is shorter than the road allows. Each leg reports how far
///   its points lie from those roads (``Route/Leg/fromSnapMeters``, ``Route/Leg/toSnapMeters``).
/// - Distances are the road's, exact to the centimetre of the graph. Durations start from the
///   profile's free-flow time per road (class speeds, `maxspeed`, a wait at each traffic
///   signal) and are slowed by the hour's traffic: each piece takes `free-flow × max(1, v_free /
///   v_hour)`, where `v_hour` is the region's door-to-door speed at that local hour (the speed
///   profile, calibrated on real trips) and `v_free` the profile's fastest hour. The slow time
///   of a segment is its signal waits plus that traffic surplus: the time a meter counts as slow.
/// - Segments are split where the road path crosses the business zone (each piece is inside or
///   outside by its midpoint) and at every local hour, as the circuity model's are.
/// - The distance band of a graph route is the route itself (`distance_low_m` = `distance_high_m`):
///   the graph answers, it does not estimate.
///
/// Immutable and `Sendable`: routers (per-query scratch space) come from a small pool.
public final class GraphRouteEstimator: RouteEstimator {
    public let name = "graph-ch-v1"
    /// The loaded graphs, in the order they were given, with the file each came from.
    public let graphs: [(path: String, graph: RoadGraph)]
    /// What answers outside every graph (and, when asked, when no road is near).
    public let fallback: CircuityRouteEstimator
    private let pool: RouterPool

    public init(graphs: [(path: String, graph: RoadGraph)], fallback: CircuityRouteEstimator) {
        self.graphs = graphs
        self.fallback = fallback
        pool = RouterPool(graphs: graphs.map(\.graph))
    }

    /// Opens graph files (memory-mapped).
    /// - Throws: ``GeoFareError`` with the graph file's code (`graph_not_a_graph_file`,
    ///   `graph_version_unsupported`, `graph_truncated`, `graph_corrupt`, `graph_io`) and the path as field.
    public convenience init(paths: [String], fallback: CircuityRouteEstimator) throws(GeoFareError) {
        var loaded: [(String, RoadGraph)] = []
        for path in paths {
            do { loaded.append((path, try RoadGraph(path: path))) } catch {
                throw error.at(path)
            }
        }
        self.init(graphs: loaded, fallback: fallback)
    }

    public func estimate(_ request: RouteRequest) throws(GeoFareError) -> Route {
        guard request.via.count <= RouteRequest.maxStops else {
            throw GeoFareError(code: .tooManyStops, message: "at most \(RouteRequest.maxStops) stops, got \(request.via.count)", field: "via")
        }
        guard request.departure.timeIntervalSince1970.isFinite else { throw GeoFareError(code: .notFinite, message: "the departure time is not finite", field: "depart_at") }
        let points = request.points
        guard let g = graphs.firstIndex(where: { entry in points.allSatisfy { entry.graph.contains($0) } }) else {
            return try fallback.estimate(request)
        }
        let graph = graphs[g].graph
        let profile = try fallback.profile(for: request)
        let metric: GraphMetric = request.metric == .fastest ? .fastest : .shortest
        let router = pool.take(g)
        defer { pool.give(router, g) }
        var legs: [Route.Leg] = []
        var segments: [TripSegment] = []
        var geometry: [Coordinate] = []
        var clock = request.departure.timeIntervalSince1970
        let freeKmh = profile.hourlyKmh.max() ?? profile.cruiseKmh
        for i in 0..<(points.count - 1) {
            let a = points[i], b = points[i + 1]
            let path: GraphPath
            do {
                let starts = try router.snap(a, maxDistanceMeters: request.maxSnapMeters, field: i == 0 ? "from" : "via[\(i - 1)]")
                let ends = try router.snap(b, maxDistanceMeters: request.maxSnapMeters, field: i == points.count - 2 ? "to" : "via[\(i)]")
                path = try router.route(starts: starts, ends: ends, metric: metric, withGeometry: request.includeGeometry)
            } catch {
                if request.fallbackWhenNoRoad && (error.code == .noRoadNearby || error.code == .noRoute) {
                    return try fallback.estimate(request)
                }
                throw error
            }
            let first = segments.count
            for piece in graph.details(of: path) {
                let outside = request.businessZone.map { !$0.contains(piece.midpoint) } ?? false
                drive(piece, outside: outside, profile: profile, freeKmh: freeKmh, signalWait: graph.metadata.signalPenaltySeconds ?? 0,
                      clock: &clock, into: &segments)
            }
            var distance = 0.0, duration = 0.0
            for k in first..<segments.count {
                distance += segments[k].distanceMeters
                duration += segments[k].durationSeconds
            }
            legs.append(Route.Leg(from: a, to: b, straightMeters: CircuityRouteEstimator.straightMeters(a, b), distanceMeters: distance,
                                  durationSeconds: duration, distanceLowMeters: distance, distanceHighMeters: distance,
                                  fromSnapMeters: path.from.distanceMeters, toSnapMeters: path.to.distanceMeters))
            if request.includeGeometry {
                geometry.append(contentsOf: geometry.isEmpty ? path.geometry[...] : path.geometry.dropFirst())
            }
        }
        var distance = 0.0, duration = 0.0
        for s in segments {
            distance += s.distanceMeters
            duration += s.durationSeconds
        }
        var route = Route(distanceMeters: distance, durationSeconds: duration, distanceLowMeters: distance, distanceHighMeters: distance,
                          legs: legs, segments: segments, estimator: name, profile: profile.id)
        if request.includeGeometry { route.geometry = geometry }
        return route
    }

    /// Drives one piece of road from `clock`: slowed by the hour's traffic, split at local hour
    /// boundaries, merged into the last segment when it is in the same hour and zone side.
    func drive(_ piece: RoadGraph.PieceDetail, outside: Bool, profile: SpeedProfile, freeKmh: Double, signalWait: Double,
               clock: inout Double, into segments: inout [TripSegment]) {
        var left = piece.distanceMeters
        var freeLeft = piece.freeFlowSeconds
        let signal = piece.signalAtEnd ? min(piece.freeFlowSeconds, signalWait) : 0
        repeat {
            let local = profile.clock.localSeconds(clock)
            let second = LocalClock.secondOfDay(local)
            let hour = min(23, Int(second / 3600))
            let slowdown = max(1, freeKmh / profile.hourlyKmh[hour])
            let untilHour = min(3600 - (second - Double(hour) * 3600), profile.clock.nextTransition(after: clock) - clock)
            var free = freeLeft, distance = left
            var duration = free * slowdown
            if duration > untilHour && untilHour > 0 && freeLeft > 0 {
                let share = untilHour / duration
                free = freeLeft * share
                distance = left * share
                duration = untilHour
            }
            let slow = min(duration, duration - free + (free >= freeLeft ? signal : 0))
            let start = Date(timeIntervalSince1970: clock)
            if let last = segments.last, last.outsideZone == outside,
               Int(LocalClock.secondOfDay(profile.clock.localSeconds(last.start.timeIntervalSince1970)) / 3600) == hour,
               abs(last.start.timeIntervalSince1970 + last.durationSeconds - clock) < 1e-6 {
                segments[segments.count - 1].distanceMeters += distance
                segments[segments.count - 1].durationSeconds += duration
                segments[segments.count - 1].slowSeconds = (last.slowSeconds ?? 0) + slow
            } else {
                segments.append(TripSegment(distanceMeters: distance, durationSeconds: duration, slowSeconds: slow, start: start, outsideZone: outside))
            }
            left -= distance
            freeLeft -= free
            clock += duration
        } while freeLeft > 1e-9 && left > 1e-9
    }

    /// Routers for each graph, reused across requests (a router's scratch space is per node).
    final class RouterPool: @unchecked Sendable {
        private let lock = NSLock()
        private let graphs: [RoadGraph]
        private var free: [[RoadGraphRouter]]
        init(graphs: [RoadGraph]) {
            self.graphs = graphs
            free = graphs.map { _ in [] }
        }
        func take(_ g: Int) -> RoadGraphRouter {
            lock.lock()
            if let r = free[g].popLast() { lock.unlock(); return r }
            lock.unlock()
            return graphs[g].makeRouter()
        }
        func give(_ r: RoadGraphRouter, _ g: Int) {
            lock.lock(); free[g].append(r); lock.unlock()
        }
    }
}
