import GeoFareCore

/// Routes on a ``RoadGraph`` from one thread: snaps both points onto their nearest roads,
/// searches the metric's contraction hierarchy from every source candidate to every target
/// candidate (offsets for the partial arcs), and compares with driving straight along a shared
/// arc. Its snapping and search buffers are reused from query to query.
///
/// The candidates' offsets are only the partial arcs: the way from a point to its road costs
/// nothing, so the candidates must all be on the point's nearest road (the snapper's rule, see
/// ``RoadGraph/snap(_:maxDistanceMeters:field:)``), or a route could hop for free to a road
/// farther away and come out shorter than any legal path.
public final class RoadGraphRouter {
    public let graph: RoadGraph
    private let queries: [ContractionHierarchyQuery]
    private var arcs: [UInt32] = []
    private var sources: [RouteEndpoint] = []
    private var targets: [RouteEndpoint] = []
    private let snapScratch = SnapScratch()
    private var starts: [SnapCandidate] = []
    private var ends: [SnapCandidate] = []

    init(graph: RoadGraph) {
        self.graph = graph
        queries = graph.hierarchies.map { ContractionHierarchyQuery(hierarchy: $0) }
    }

    /// The best route from `from` to `to` under `metric`.
    /// - Throws: ``GeoFareError`` `no_road_nearby` (field `from` or `to`) when a point is farther than
    ///   `maxSnapMeters` from every road, `no_route` when no path joins them.
    public func route(from: Coordinate, to: Coordinate, metric: GraphMetric = .fastest, withGeometry: Bool = false,
                      maxSnapMeters: Double = 200) throws(GeoFareError) -> GraphPath {
        try graph.snap(from, maxDistanceMeters: maxSnapMeters, field: "from", scratch: snapScratch, into: &starts)
        try graph.snap(to, maxDistanceMeters: maxSnapMeters, field: "to", scratch: snapScratch, into: &ends)
        return try route(starts: starts, ends: ends, metric: metric, withGeometry: withGeometry)
    }

    /// ``RoadGraph/snap(_:maxDistanceMeters:field:)`` with this router's buffers (only the
    /// returned array is allocated).
    public func snap(_ point: Coordinate, maxDistanceMeters: Double = 200, field: String = "point") throws(GeoFareError) -> [SnapCandidate] {
        var found: [SnapCandidate] = []
        try graph.snap(point, maxDistanceMeters: maxDistanceMeters, field: field, scratch: snapScratch, into: &found)
        return found
    }

    /// The best route between snapped candidates.
    /// - Throws: ``GeoFareError`` `no_route`.
    public func route(starts: [SnapCandidate], ends: [SnapCandidate], metric: GraphMetric, withGeometry: Bool = false) throws(GeoFareError) -> GraphPath {
        let net = graph.network, k = metric.index
        sources.removeAll(keepingCapacity: true)
        targets.removeAll(keepingCapacity: true)
        for s in starts { sources.append(RouteEndpoint(node: net.arcHead[Int(s.arc)], offset: s.toHead[k])) }
        for t in ends { targets.append(RouteEndpoint(node: net.arcTail[Int(t.arc)], offset: t.fromTail[k])) }
        let q = queries[k]
        var best = q.search(sources: sources, targets: targets).map { (weight: $0.weight, s: $0.sourceIndex, t: $0.targetIndex, direct: false) }
        // both on one arc, the target ahead: straight along it
        for (i, s) in starts.enumerated() {
            for (j, t) in ends.enumerated() where s.arc == t.arc && t.fraction >= s.fraction && t.fromTail[k] >= s.fromTail[k] {
                let w = UInt64(t.fromTail[k] - s.fromTail[k])
                if best.map({ w < $0.weight }) ?? true { best = (w, i, j, true) }
            }
        }
        guard let best else {
            throw .noRoadPath(from: starts[0].point, to: ends[0].point)
        }
        let s = starts[best.s], t = ends[best.t]
        var pieces: [GraphPath.ArcPiece] = []
        var cm: UInt64 = 0, ms: UInt64 = 0
        if best.direct {
            pieces.append(.init(arc: s.arc, fractionFrom: s.fraction, fractionTo: t.fraction))
            cm = UInt64(t.fromTail[1] - min(t.fromTail[1], s.fromTail[1]))
            ms = UInt64(t.fromTail[0] - min(t.fromTail[0], s.fromTail[0]))
        } else {
            arcs.removeAll(keepingCapacity: true)
            q.path(into: &arcs)
            pieces.append(.init(arc: s.arc, fractionFrom: s.fraction, fractionTo: 1))
            cm += UInt64(s.toHead[1]); ms += UInt64(s.toHead[0])
            for a in arcs {
                pieces.append(.init(arc: a, fractionFrom: 0, fractionTo: 1))
                cm += UInt64(net.arcDistanceCentimeters[Int(a)]); ms += UInt64(net.arcTimeMilliseconds[Int(a)])
            }
            pieces.append(.init(arc: t.arc, fractionFrom: 0, fractionTo: t.fraction))
            cm += UInt64(t.fromTail[1]); ms += UInt64(t.fromTail[0])
        }
        var geometry: [Coordinate] = []
        if withGeometry {
            geometry.append(s.point)
            var points: [(lat: Int32, lon: Int32)] = []
            for (i, p) in pieces.enumerated() {
                net.polyline(Int(p.arc), into: &points)
                // the vertices strictly inside the piece, then the node where the next piece starts
                let cumulative = Self.cumulativeFractions(points)
                for v in 1..<(points.count - 1) where cumulative[v] > p.fractionFrom && cumulative[v] < p.fractionTo {
                    geometry.append(Coordinate(uncheckedLatitude: Double(points[v].lat) / 1e7, longitude: Double(points[v].lon) / 1e7))
                }
                if i < pieces.count - 1, let h = points.last {
                    geometry.append(Coordinate(uncheckedLatitude: Double(h.lat) / 1e7, longitude: Double(h.lon) / 1e7))
                }
            }
            geometry.append(t.point)
        }
        return GraphPath(metric: metric, distanceMeters: Double(cm) / 100, timeSeconds: Double(ms) / 1000, pieces: pieces,
                         from: s, to: t, geometry: geometry)
    }

    /// The fraction of the polyline's length (local equirectangular) at each vertex.
    static func cumulativeFractions(_ points: [(lat: Int32, lon: Int32)]) -> [Double] {
        var c = [0.0]
        let cosLat = cos(Double(points[0].lat) / 1e7 * .pi / 180)
        for k in 1..<points.count {
            // in Double: two Int32 positions of a hostile file can differ by more than Int32 holds
            // (the graph-file fuzz target's trap in CI's fixed-seed pass)
            let dx = (Double(points[k].lon) - Double(points[k - 1].lon)) * cosLat, dy = Double(points[k].lat) - Double(points[k - 1].lat)
            c.append(c[k - 1] + (dx * dx + dy * dy).squareRoot())
        }
        let total = c[points.count - 1]
        return c.map { total > 0 ? $0 / total : 0 }
    }
}

import Foundation
