import Foundation
import GeoFareCore

/// A point placed on a road arc by ``Snapper``.
public struct SnapCandidate: Sendable, Hashable {
    /// The network arc.
    public var arc: UInt32
    /// Position along the arc's polyline, 0 at its tail, 1 at its head (by length).
    public var fraction: Double
    /// The point on the arc.
    public var point: Coordinate
    /// Distance from the query point to `point`, metres.
    public var distanceMeters: Double
    /// Weights from the tail to the point, per metric (index ``GraphMetric/index``): ms, cm.
    public var fromTail: SIMD2<UInt32>
    /// Weights from the point to the head, per metric; `fromTail[k] + toHead[k]` is the arc's weight.
    public var toHead: SIMD2<UInt32>
}

/// A thread's reusable buffers for ``Snapper``: the arcs found, a polyline.
final class SnapScratch {
    var hits: [(arc: UInt32, d2: Double, seg: Int, t: Double)] = []
    var points: [(lat: Int32, lon: Int32)] = []
}

/// Finds the arcs nearest a point: a uniform grid of cells in degrees over every polyline segment,
/// perpendicular projection in a local equirectangular metre frame around the query point (exact to
/// well under a metre at snap distances below 1 km).
///
/// A point snaps like a taxi starts: onto the nearest road only (both of its directions where it
/// is two-way), never onto a road farther away, which a route could otherwise reach by a free hop
/// across a median or a block corner. Other roads are offered only within a tie of the nearest
/// (``tie(nearest:tieMeters:)``): a point at a junction, or between two roads, may start on any
/// of them; a point on a road stays on it.
struct Snapper: @unchecked Sendable {
    static let metersPerDegree = 111_319.49
    /// How much farther than the nearest road another road may lie and still be a candidate, at
    /// most, metres (1 m: a point at a junction snaps onto every road of it; a carriageway or
    /// street even a few metres farther is never offered).
    static let tieMeters = 1.0
    /// A point this close to a road lies on it, metres (the rounding of a point given at a node's
    /// own coordinates).
    static let onRoadMeters = 0.01

    /// The tie for a point `nearest` metres from its nearest road: `tieMeters`, but no more than
    /// `nearest` itself (at least ``onRoadMeters``), so that a point on a road, such as a node under
    /// a bridge, starts on that road and not on the one passing a few decimetres away.
    @inline(__always)
    static func tie(nearest: Double, tieMeters: Double = Snapper.tieMeters) -> Double {
        max(onRoadMeters, min(tieMeters, nearest))
    }
    let net: NetworkView
    let south: Double, west: Double
    let cellLat: Double, cellLon: Double
    let columns: Int, rows: Int
    /// Segment entries per cell (CSR): `cellFirst[c]..<cellFirst[c + 1]` into `entryArc`/`entrySegment`.
    let cellFirst: [UInt32]
    let entryArc: [UInt32]
    let entrySegment: [UInt32]

    /// Indexes every segment of `net`'s arcs. Cells are about 250 m, coarser on big regions so
    /// that there are at most about 4 million.
    init(network net: NetworkView) {
        self.net = net
        var s = 90.0, n = -90.0, w = 180.0, e = -180.0
        for i in 0..<net.nodeCount {
            let la = Double(net.nodeLatitudes[i]) / 1e7, lo = Double(net.nodeLongitudes[i]) / 1e7
            s = min(s, la); n = max(n, la); w = min(w, lo); e = max(e, lo)
        }
        for i in 0..<net.shapeLatitudes.count {
            let la = Double(net.shapeLatitudes[i]) / 1e7, lo = Double(net.shapeLongitudes[i]) / 1e7
            s = min(s, la); n = max(n, la); w = min(w, lo); e = max(e, lo)
        }
        if s > n { s = 0; n = 0; w = 0; e = 0 }
        let cosLat = max(0.05, cos((s + n) / 2 * .pi / 180))
        var cell = 250.0 / Self.metersPerDegree
        while ((n - s) / cell + 1) * ((e - w) / (cell / cosLat) + 1) > 4_000_000 { cell *= 2 }
        south = s; west = w; cellLat = cell; cellLon = cell / cosLat
        rows = Int((n - s) / cellLat) + 1
        columns = Int((e - w) / cellLon) + 1
        // two passes: count, then fill
        var counts = [UInt32](repeating: 0, count: rows * columns + 1)
        var points: [(lat: Int32, lon: Int32)] = []
        let (r0, c0, cl, cn, nc) = (south, west, cellLat, cellLon, columns)
        // The cells a segment can touch: its bounding rectangle of cells when that is small;
        // for a long diagonal, row by row only the columns its stretch within the row reaches
        // (one more on each side, for rounding). A segment is found from every cell holding a
        // point of it, so this is all the query needs; the whole rectangle made a hostile graph
        // file of long diagonals (the graph-file fuzz target's timeout) mark millions of cells
        // per segment.
        func cells(_ a: (lat: Int32, lon: Int32), _ b: (lat: Int32, lon: Int32), _ body: (Int) -> Void) {
            let la0 = Double(min(a.lat, b.lat)) / 1e7, la1 = Double(max(a.lat, b.lat)) / 1e7
            let lo0 = Double(min(a.lon, b.lon)) / 1e7, lo1 = Double(max(a.lon, b.lon)) / 1e7
            let y0 = Int((la0 - r0) / cl), y1 = Int((la1 - r0) / cl), x0 = Int((lo0 - c0) / cn), x1 = Int((lo1 - c0) / cn)
            if (y1 - y0 + 1) * (x1 - x0 + 1) <= 16 || y0 == y1 || x0 == x1 {
                for y in y0...y1 { for x in x0...x1 { body(y * nc + x) } }
                return
            }
            // from the southern end north (la1 > la0 here, as y1 > y0)
            let (s, n) = a.lat <= b.lat ? (a, b) : (b, a)
            let sLat = Double(s.lat) / 1e7, sLon = Double(s.lon) / 1e7
            let slope = (Double(n.lon) / 1e7 - sLon) / (Double(n.lat) / 1e7 - sLat)
            for y in y0...y1 {
                let bandSouth = max(la0, r0 + Double(y) * cl), bandNorth = min(la1, r0 + Double(y + 1) * cl)
                let lonA = sLon + (bandSouth - sLat) * slope, lonB = sLon + (bandNorth - sLat) * slope
                let xa = max(x0, Int((min(lonA, lonB) - c0) / cn) - 1), xb = min(x1, Int((max(lonA, lonB) - c0) / cn) + 1)
                if xa <= xb { for x in xa...xb { body(y * nc + x) } }
            }
        }
        for arc in 0..<net.arcCount {
            net.polyline(arc, into: &points)
            for k in 1..<points.count { cells(points[k - 1], points[k]) { counts[$0 + 1] += 1 } }
        }
        for i in 0..<(rows * columns) { counts[i + 1] += counts[i] }
        var fill = counts
        var arcs = [UInt32](repeating: 0, count: Int(counts[rows * columns]))
        var segs = [UInt32](repeating: 0, count: arcs.count)
        for arc in 0..<net.arcCount {
            net.polyline(arc, into: &points)
            for k in 1..<points.count {
                cells(points[k - 1], points[k]) { c in
                    let p = Int(fill[c]); fill[c] += 1
                    arcs[p] = UInt32(arc); segs[p] = UInt32(k - 1)
                }
            }
        }
        cellFirst = counts
        entryArc = arcs
        entrySegment = segs
    }

    /// The arcs within `maxDistanceMeters` of `point` whose distance is within the tie
    /// (``tie(nearest:tieMeters:)``) of the nearest arc's, nearest first (ties by arc): the nearest
    /// road's arcs (both directions of a two-way street lie at the same distance) and any other
    /// road within the tie.
    /// - Parameters:
    ///   - maxDistanceMeters: the largest snap distance, metres.
    ///   - tieMeters: the largest tie, metres (``tieMeters`` by default).
    /// - Returns: the candidates, empty when no arc lies within `maxDistanceMeters`.
    func candidates(near point: Coordinate, maxDistanceMeters: Double, tieMeters: Double = Snapper.tieMeters) -> [SnapCandidate] {
        var chosen: [SnapCandidate] = []
        candidates(near: point, maxDistanceMeters: maxDistanceMeters, tieMeters: tieMeters, scratch: SnapScratch(), into: &chosen)
        return chosen
    }

    /// The same into `chosen` (emptied first), with `scratch`'s buffers (one per thread): no
    /// allocation once the buffers have grown.
    ///
    /// Cells are visited in square rings around the point's cell and a cell is scanned only when
    /// its rectangle is within the current limit (the maximum distance, then the nearest arc found
    /// so far plus its tie, which shrinks as the nearest does); the rings stop once the square inside the next ring reaches past the
    /// limit. A segment is indexed in every cell its box touches, so its nearest point lies in a
    /// scanned cell whenever it is within the final limit: the answer is the one a scan of every
    /// cell within `maxDistanceMeters` gives. An arc's two segments at the same distance (a
    /// vertex) resolve to the lower segment.
    func candidates(near point: Coordinate, maxDistanceMeters: Double, tieMeters: Double = Snapper.tieMeters,
                    scratch: SnapScratch, into chosen: inout [SnapCandidate]) {
        chosen.removeAll(keepingCapacity: true)
        let cosLat = cos(point.latitude * .pi / 180)
        let mx = Self.metersPerDegree * cosLat, my = Self.metersPerDegree
        let dLat = maxDistanceMeters / my, dLon = maxDistanceMeters / max(mx, 1)
        let y0 = max(0, Int(((point.latitude - dLat) - south) / cellLat)), y1 = min(rows - 1, Int(((point.latitude + dLat) - south) / cellLat))
        let x0 = max(0, Int(((point.longitude - dLon) - west) / cellLon)), x1 = min(columns - 1, Int(((point.longitude + dLon) - west) / cellLon))
        guard y0 <= y1, x0 <= x1, point.latitude + dLat >= south, point.longitude + dLon >= west else { return }
        // the point's cell (it may lie outside the grid), clamped to one ring outside the box
        let cy = min(y1 + 1, max(y0 - 1, Int(((point.latitude - south) / cellLat).rounded(.down))))
        let cx = min(x1 + 1, max(x0 - 1, Int(((point.longitude - west) / cellLon).rounded(.down))))
        let maxD2 = maxDistanceMeters * maxDistanceMeters
        // bounds on float rounding between the cell rectangles and the projections (metres)
        let margin = 1e-3
        var limit = maxDistanceMeters, nearest = Double.infinity
        // best segment per arc within the limit: (arc, distance², segment, t)
        scratch.hits.removeAll(keepingCapacity: true)
        func local(_ p: (lat: Int32, lon: Int32)) -> (Double, Double) {
            ((Double(p.lon) / 1e7 - point.longitude) * mx, (Double(p.lat) / 1e7 - point.latitude) * my)
        }
        /// Distance in metres from the point to the rectangle of rows `ya...yb`, columns `xa...xb`.
        func rectangleDistance(_ ya: Int, _ yb: Int, _ xa: Int, _ xb: Int) -> Double {
            let s = south + Double(ya) * cellLat, n = south + Double(yb + 1) * cellLat
            let w = west + Double(xa) * cellLon, e = west + Double(xb + 1) * cellLon
            let dy = max(0, s - point.latitude, point.latitude - n) * my, dx = max(0, w - point.longitude, point.longitude - e) * mx
            return (dx * dx + dy * dy).squareRoot()
        }
        func scan(_ y: Int, _ x: Int) {
            guard rectangleDistance(y, y, x, x) - margin <= limit else { return }
            let c = y * columns + x
            for e in Int(cellFirst[c])..<Int(cellFirst[c + 1]) {
                let arc = entryArc[e], seg = Int(entrySegment[e])
                let a = segmentPoint(Int(arc), seg), b = segmentPoint(Int(arc), seg + 1)
                let (ax, ay) = local(a), (bx, by) = local(b)
                let dx = bx - ax, dy = by - ay
                let len2 = dx * dx + dy * dy
                let t = len2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / len2)) : 0
                let px = ax + t * dx, py = ay + t * dy
                let d2 = px * px + py * py
                guard d2 <= maxD2 else { continue }
                let d = d2.squareRoot()
                guard d - margin <= limit else { continue }
                if let i = scratch.hits.firstIndex(where: { $0.arc == arc }) {
                    let h = scratch.hits[i]
                    if d2 < h.d2 || (d2 == h.d2 && seg < h.seg) { scratch.hits[i] = (arc, d2, seg, t) }
                } else {
                    scratch.hits.append((arc, d2, seg, t))
                }
                if d < nearest { nearest = d; limit = min(maxDistanceMeters, nearest + Self.tie(nearest: nearest, tieMeters: tieMeters)) }
            }
        }
        let rings = max(cy - y0, y1 - cy, cx - x0, x1 - cx)
        for r in 0...max(0, rings) {
            // every cell of ring r lies outside the square of rings below it
            if r > 0 {
                let inner = innerDistance(point, cy - r + 1, cy + r - 1, cx - r + 1, cx + r - 1, mx: mx, my: my)
                if inner - margin > limit { break }
            }
            let ya = max(y0, cy - r), yb = min(y1, cy + r)
            guard ya <= yb else { continue }
            for y in ya...yb {
                if y == cy - r || y == cy + r {
                    if max(x0, cx - r) <= min(x1, cx + r) { for x in max(x0, cx - r)...min(x1, cx + r) { scan(y, x) } }
                } else {
                    if cx - r >= x0 && cx - r <= x1 { scan(y, cx - r) }
                    if r > 0 && cx + r >= x0 && cx + r <= x1 { scan(y, cx + r) }
                }
            }
        }
        guard !scratch.hits.isEmpty else { return }
        // the arcs within the tie of the nearest, nearest first (ties by arc)
        let keep = nearest + Self.tie(nearest: nearest, tieMeters: tieMeters)
        scratch.hits.removeAll { $0.d2.squareRoot() > keep }
        scratch.hits.sort { ($0.d2.squareRoot(), $0.arc) < ($1.d2.squareRoot(), $1.arc) }
        for b in scratch.hits {
            chosen.append(candidate(arc: b.arc, d2: b.d2, seg: b.seg, t: b.t, local: local, points: &scratch.points))
        }
    }

    /// The distance in metres from `point` to the nearest edge of the square of rows `ya...yb`,
    /// columns `xa...xb` when the point is inside it (0 when outside): a lower bound on the distance
    /// to any cell outside the square.
    private func innerDistance(_ point: Coordinate, _ ya: Int, _ yb: Int, _ xa: Int, _ xb: Int, mx: Double, my: Double) -> Double {
        let s = south + Double(ya) * cellLat, n = south + Double(yb + 1) * cellLat
        let w = west + Double(xa) * cellLon, e = west + Double(xb + 1) * cellLon
        guard point.latitude >= s, point.latitude <= n, point.longitude >= w, point.longitude <= e else { return 0 }
        return min((point.latitude - s) * my, (n - point.latitude) * my, (point.longitude - w) * mx, (e - point.longitude) * mx)
    }

    /// The candidate on `arc` at `t` along its segment `seg`, `d2` square metres from the point.
    private func candidate(arc: UInt32, d2: Double, seg: Int, t: Double, local: ((lat: Int32, lon: Int32)) -> (Double, Double),
                           points: inout [(lat: Int32, lon: Int32)]) -> SnapCandidate {
        net.polyline(Int(arc), into: &points)
        var total = 0.0, before = 0.0
        for k in 1..<points.count {
            let (ax, ay) = local(points[k - 1]), (bx, by) = local(points[k])
            let l = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
            if k - 1 < seg { before += l }
            if k - 1 == seg { before += l * t }
            total += l
        }
        let f = total > 0 ? min(1, max(0, before / total)) : 0
        let a = points[seg], c = points[seg + 1]
        let lat = (Double(a.lat) + (Double(c.lat) - Double(a.lat)) * t) / 1e7
        let lon = (Double(a.lon) + (Double(c.lon) - Double(a.lon)) * t) / 1e7
        var fromTail = SIMD2<UInt32>(), toHead = SIMD2<UInt32>()
        for metric in GraphMetric.allCases {
            let w = net.weights(metric)[Int(arc)]
            let part = UInt32((Double(w) * f).rounded())
            fromTail[metric.index] = part
            toHead[metric.index] = w - part
        }
        return SnapCandidate(arc: arc, fraction: f, point: Coordinate(uncheckedLatitude: lat, longitude: lon),
                             distanceMeters: d2.squareRoot(), fromTail: fromTail, toHead: toHead)
    }

    @inline(__always)
    private func segmentPoint(_ arc: Int, _ k: Int) -> (lat: Int32, lon: Int32) {
        if k == 0 { let v = Int(net.arcTail[arc]); return (net.nodeLatitudes[v], net.nodeLongitudes[v]) }
        let s = Int(net.shapeStart[arc]) + k - 1
        if s < Int(net.shapeStart[arc + 1]) { return (net.shapeLatitudes[s], net.shapeLongitudes[s]) }
        let v = Int(net.arcHead[arc])
        return (net.nodeLatitudes[v], net.nodeLongitudes[v])
    }
}
