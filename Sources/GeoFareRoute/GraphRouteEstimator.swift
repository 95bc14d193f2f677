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
    private let matrices: MatrixPool

    public init(graphs: [(path: String, graph: RoadGraph)], fallback: CircuityRouteEstimator) {
        self.graphs = graphs
        self.fallback = fallback
        pool = RouterPool(graphs: graphs.map(\.graph))
        matrices = MatrixPool(graphs: graphs.map(\.graph))
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
            throw .tooManyStops(request.via.count)
        }
        guard request.departure.timeIntervalSince1970.isFinite else { throw .departureNotFinite() }
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
        for i in 0..<(points.count - 1) {
            let a = points[i], b = points[i + 1]
            let path: GraphPath
            do {
                var starts = try router.snap(a, maxDistanceMeters: request.maxSnapMeters, field: i == 0 ? "from" : "via[\(i - 1)]")
                var ends = try router.snap(b, maxDistanceMeters: request.maxSnapMeters, field: i == points.count - 2 ? "to" : "via[\(i)]")
                if request.approach(at: i) == .curb { starts = graph.curbSide(starts, of: a) }
                if request.approach(at: i + 1) == .curb { ends = graph.curbSide(ends, of: b) }
                path = try router.route(starts: starts, ends: ends, metric: metric, withGeometry: request.includeGeometry)
            } catch {
                if request.fallbackWhenNoRoad && (error.code == .noRoadNearby || error.code == .noRoute) {
                    return try fallback.estimate(request)
                }
                throw error
            }
            let first = segments.count
            let area = profile.area(of: a)
            let legFactor = profile.legTimeFactor(straightMeters: CircuityRouteEstimator.straightMeters(a, b))
            for piece in graph.details(of: path) {
                let outside = request.businessZone.map { !$0.contains(piece.midpoint) } ?? false
                drive(piece, area: area, outside: outside, profile: profile, timeFactor: legFactor,
                      signalWait: graph.metadata.signalPenaltySeconds ?? 0, clock: &clock, into: &segments)
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
        var route = Route(distanceMeters: distance, durationSeconds: duration, distanceLowMeters: distance * profile.graphDistanceBand.p10,
                          distanceHighMeters: distance * profile.graphDistanceBand.p90, legs: legs, segments: segments, estimator: name, profile: profile.id)
        route.durationLowSeconds = duration * profile.graphDurationRatios.low
        route.durationHighSeconds = duration * profile.graphDurationRatios.high
        route.spread = profile.graphSpread
        if request.includeGeometry { route.geometry = geometry }
        return route
    }

    /// Drives one piece of road from `clock`: its free-flow time (the graph's, by its road class
    /// and `maxspeed`) × the profile's graph factor, slowed by the area's traffic at each local
    /// hour (``SpeedProfile/graphSlowdown(area:slot:)``, never faster than free flow by the model), split
    /// at local hour boundaries, merged into the last segment when it is in the same hour and
    /// zone side. One factor for every road class keeps a matrix cell (which knows its path's
    /// total free-flow time only) equal to the route of its pair.
    func drive(_ piece: RoadGraph.PieceDetail, area: TrafficArea, outside: Bool, profile: SpeedProfile, timeFactor: Double, signalWait: Double,
               clock: inout Double, into segments: inout [TripSegment]) {
        drive(meters: piece.distanceMeters, freeFlowSeconds: piece.freeFlowSeconds, signal: piece.signalAtEnd ? min(piece.freeFlowSeconds, signalWait) : 0,
              area: area, outside: outside, profile: profile, timeFactor: timeFactor, clock: &clock, into: &segments)
    }

    /// ``drive(_:area:outside:profile:signalWait:clock:into:)`` for a stretch given by its
    /// metres, free-flow seconds and the signal wait at its end (a matrix cell drives its whole
    /// path as one stretch).
    /// `timeFactor`: the leg's (``SpeedProfile/legTimeFactor(straightMeters:)``), × the slowdown.
    func drive(meters: Double, freeFlowSeconds: Double, signal: Double, area: TrafficArea, outside: Bool, profile: SpeedProfile,
               timeFactor: Double, clock: inout Double, into segments: inout [TripSegment]) {
        var left = meters
        var freeLeft = freeFlowSeconds
        repeat {
            let (local, next) = profile.clock.localSecondsAndNextTransition(clock)
            let second = LocalClock.secondOfDay(local)
            let hour = min(23, Int(second / 3600))
            let slowdown = timeFactor * profile.graphSlowdown(area: area, slot: profile.slot(clock: clock, local: local, hour: hour))
            let untilHour = min(3600 - (second - Double(hour) * 3600), next - clock)
            var free = freeLeft, distance = left
            var duration = free * slowdown
            if duration > untilHour && untilHour > 0 && freeLeft > 0 {
                let share = untilHour / duration
                free = freeLeft * share
                distance = left * share
                duration = untilHour
            }
            let slow = max(0, min(duration, duration - free + (free >= freeLeft ? signal : 0)))
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

    /// The matrix of ``MatrixRequest``: on the first graph whose box holds every source and target,
    /// one contraction-hierarchy many-to-many search (``ContractionHierarchyMatrix``) between the
    /// points snapped exactly as ``estimate(_:)`` snaps them; elsewhere (or when a point has no road
    /// within ``MatrixRequest/maxSnapMeters`` and ``MatrixRequest/fallbackWhenNoRoad`` is set) the
    /// circuity model's estimates for every cell, reported as `circuity-v2`.
    ///
    /// A cell's `distance_m` is its path's length to the centimetre; its `duration_s` drives the
    /// path's free-flow time from the departure through the source's speed profile, slowed by the
    /// hour's traffic as a route's pieces are. In exact arithmetic that depends on the total
    /// free-flow time alone, not on how it is cut into pieces, so a cell equals the two-point
    /// ``estimate(_:)`` of its pair (same metric, departure and profile) to the rounding of the
    /// sums: the minimised weight exactly, the other figures within a micro-unit, and where
    /// several paths tie on the minimised weight, the other total of one of them. A pair no road
    /// path joins is `nil` (a route would fall back to the circuity model there).
    /// - Throws: ``GeoFareError`` as ``MatrixRequest/check()``, `unknown_profile`, `no_road_nearby`
    ///   (field `sources[i]` or `targets[j]`) when a point has no road near and no fallback is asked.
    public func matrix(_ request: MatrixRequest) throws(GeoFareError) -> RouteMatrix {
        try request.check()
        guard let g = graphs.firstIndex(where: { entry in
            request.sources.allSatisfy { entry.graph.contains($0) } && request.targets.allSatisfy { entry.graph.contains($0) }
        }) else {
            return try fallback.matrix(request)
        }
        let graph = graphs[g].graph
        var starts: [[SnapCandidate]] = [], ends: [[SnapCandidate]] = []
        do {
            for (i, p) in request.sources.enumerated() {
                let found = try graph.snap(p, maxDistanceMeters: request.maxSnapMeters, field: "sources[\(i)]")
                starts.append(i < request.sourceApproaches.count && request.sourceApproaches[i] == .curb ? graph.curbSide(found, of: p) : found)
            }
            for (j, p) in request.targets.enumerated() {
                let found = try graph.snap(p, maxDistanceMeters: request.maxSnapMeters, field: "targets[\(j)]")
                ends.append(j < request.targetApproaches.count && request.targetApproaches[j] == .curb ? graph.curbSide(found, of: p) : found)
            }
        } catch {
            if request.fallbackWhenNoRoad && error.code == .noRoadNearby { return try fallback.matrix(request) }
            throw error
        }
        let metric: GraphMetric = request.metric == .fastest ? .fastest : .shortest
        let engine = matrices.take(g, metric)
        let cells = engine.table(sources: starts, targets: ends)
        matrices.give(engine, g, metric)
        var distance: [[Double?]] = [], duration: [[Double?]] = [], profiles: [String] = []
        var segments: [TripSegment] = []
        let cols = request.targets.count
        for (i, s) in request.sources.enumerated() {
            let profile = try fallback.profile(for: RouteRequest(origin: s, destination: s, departure: request.departure, profile: request.profile))
            let area = profile.area(of: s)
            profiles.append(profile.id)
            var d: [Double?] = [], t: [Double?] = []
            d.reserveCapacity(cols); t.reserveCapacity(cols)
            for j in 0..<cols {
                guard let cell = cells[i * cols + j] else { d.append(nil); t.append(nil); continue }
                let meters = Double(cell.distanceCentimeters) / 100
                var clock = request.departure.timeIntervalSince1970
                segments.removeAll(keepingCapacity: true)
                let legFactor = profile.legTimeFactor(straightMeters: CircuityRouteEstimator.straightMeters(s, request.targets[j]))
                drive(meters: meters, freeFlowSeconds: Double(cell.timeMilliseconds) / 1000, signal: 0, area: area, outside: false,
                      profile: profile, timeFactor: legFactor, clock: &clock, into: &segments)
                var seconds = 0.0
                for seg in segments { seconds += seg.durationSeconds }
                d.append(meters)
                t.append(seconds)
            }
            distance.append(d); duration.append(t)
        }
        var m = RouteMatrix(distanceMeters: distance, durationSeconds: duration, estimator: name, profiles: profiles)
        m.sourceSnapMeters = starts.map { $0[0].distanceMeters }
        m.targetSnapMeters = ends.map { $0[0].distanceMeters }
        return m
    }

    /// Matrix engines per graph and metric, reused across requests (scratch space per node and
    /// the hierarchy's second weights, made once).
    final class MatrixPool: @unchecked Sendable {
        private let lock = NSLock()
        private let graphs: [RoadGraph]
        private var free: [[[ContractionHierarchyMatrix]]]
        init(graphs: [RoadGraph]) {
            self.graphs = graphs
            free = graphs.map { _ in GraphMetric.allCases.map { _ in [] } }
        }
        func take(_ g: Int, _ metric: GraphMetric) -> ContractionHierarchyMatrix {
            lock.lock()
            if let m = free[g][metric.index].popLast() { lock.unlock(); return m }
            lock.unlock()
            return graphs[g].makeMatrix(metric: metric)
        }
        func give(_ m: ContractionHierarchyMatrix, _ g: Int, _ metric: GraphMetric) {
            lock.lock(); free[g][metric.index].append(m); lock.unlock()
        }
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
