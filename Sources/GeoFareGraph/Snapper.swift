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
    public var distanceMetres: Double
    /// Weights from the tail to the point, per metric (index ``GraphMetric/index``): ms, cm.
    public var fromTail: [UInt32]
    /// Weights from the point to the head, per metric; `fromTail[k] + toHead[k]` is the arc's weight.
    public var toHead: [UInt32]
}

/// Finds the arcs nearest a point: a uniform grid of cells in degrees over every polyline segment,
/// perpendicular projection in a local equirectangular metre frame around the query point (exact to
/// well under a metre at snap distances below 1 km).
struct Snapper: @unchecked Sendable {
    static let metresPerDegree = 111_319.49
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
        var cell = 250.0 / Self.metresPerDegree
        while ((n - s) / cell + 1) * ((e - w) / (cell / cosLat) + 1) > 4_000_000 { cell *= 2 }
        south = s; west = w; cellLat = cell; cellLon = cell / cosLat
        rows = Int((n - s) / cellLat) + 1
        columns = Int((e - w) / cellLon) + 1
        // two passes: count, then fill
        var counts = [UInt32](repeating: 0, count: rows * columns + 1)
        var points: [(lat: Int32, lon: Int32)] = []
        let (r0, c0, cl, cn, nc) = (south, west, cellLat, cellLon, columns)
        func cells(_ a: (lat: Int32, lon: Int32), _ b: (lat: Int32, lon: Int32), _ body: (Int) -> Void) {
            let la0 = Double(min(a.lat, b.lat)) / 1e7, la1 = Double(max(a.lat, b.lat)) / 1e7
            let lo0 = Double(min(a.lon, b.lon)) / 1e7, lo1 = Double(max(a.lon, b.lon)) / 1e7
            let y0 = Int((la0 - r0) / cl), y1 = Int((la1 - r0) / cl), x0 = Int((lo0 - c0) / cn), x1 = Int((lo1 - c0) / cn)
            for y in y0...y1 { for x in x0...x1 { body(y * nc + x) } }
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

    /// The arcs within `maxDistanceMetres` of `point`: every arc of the `roads` nearest roads (a road
    /// is the arcs between one pair of nodes, so a two-way street gives both directions) whose
    /// distance is within `slackMetres` of the nearest, nearest first.
    func candidates(near point: Coordinate, maxDistanceMetres: Double, roads: Int = 3, slackMetres: Double = 25) -> [SnapCandidate] {
        let cosLat = cos(point.latitude * .pi / 180)
        let mx = Self.metresPerDegree * cosLat, my = Self.metresPerDegree
        let dLat = maxDistanceMetres / my, dLon = maxDistanceMetres / max(mx, 1)
        let y0 = max(0, Int(((point.latitude - dLat) - south) / cellLat)), y1 = min(rows - 1, Int(((point.latitude + dLat) - south) / cellLat))
        let x0 = max(0, Int(((point.longitude - dLon) - west) / cellLon)), x1 = min(columns - 1, Int(((point.longitude + dLon) - west) / cellLon))
        guard y0 <= y1, x0 <= x1, point.latitude + dLat >= south, point.longitude + dLon >= west else { return [] }
        // best segment per arc: (distance², segment, t)
        var best: [UInt32: (d2: Double, seg: Int, t: Double)] = [:]
        var points: [(lat: Int32, lon: Int32)] = []
        func local(_ p: (lat: Int32, lon: Int32)) -> (Double, Double) {
            ((Double(p.lon) / 1e7 - point.longitude) * mx, (Double(p.lat) / 1e7 - point.latitude) * my)
        }
        for y in y0...y1 {
            for x in x0...x1 {
                let c = y * columns + x
                for e in Int(cellFirst[c])..<Int(cellFirst[c + 1]) {
                    let arc = Int(entryArc[e]), seg = Int(entrySegment[e])
                    let a = segmentPoint(arc, seg), b = segmentPoint(arc, seg + 1)
                    let (ax, ay) = local(a), (bx, by) = local(b)
                    let dx = bx - ax, dy = by - ay
                    let len2 = dx * dx + dy * dy
                    let t = len2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / len2)) : 0
                    let px = ax + t * dx, py = ay + t * dy
                    let d2 = px * px + py * py
                    if d2 <= maxDistanceMetres * maxDistanceMetres, best[UInt32(arc)].map({ d2 < $0.d2 }) ?? true {
                        best[UInt32(arc)] = (d2, seg, t)
                    }
                }
            }
        }
        guard !best.isEmpty else { return [] }
        var found: [SnapCandidate] = []
        for (arc, b) in best {
            net.polyline(Int(arc), into: &points)
            var total = 0.0, before = 0.0
            for k in 1..<points.count {
                let (ax, ay) = local(points[k - 1]), (bx, by) = local(points[k])
                let l = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
                if k - 1 < b.seg { before += l }
                if k - 1 == b.seg { before += l * b.t }
                total += l
            }
            let f = total > 0 ? min(1, max(0, before / total)) : 0
            let a = points[b.seg], c = points[b.seg + 1]
            let lat = (Double(a.lat) + (Double(c.lat) - Double(a.lat)) * b.t) / 1e7
            let lon = (Double(a.lon) + (Double(c.lon) - Double(a.lon)) * b.t) / 1e7
            var fromTail: [UInt32] = [], toHead: [UInt32] = []
            for metric in GraphMetric.allCases {
                let w = net.weights(metric)[Int(arc)]
                let part = UInt32((Double(w) * f).rounded())
                fromTail.append(part)
                toHead.append(w - part)
            }
            found.append(SnapCandidate(arc: arc, fraction: f, point: Coordinate(uncheckedLatitude: lat, longitude: lon),
                                       distanceMetres: b.d2.squareRoot(), fromTail: fromTail, toHead: toHead))
        }
        found.sort { ($0.distanceMetres, $0.arc) < ($1.distanceMetres, $1.arc) }
        let nearest = found[0].distanceMetres
        var roadKeys: [UInt64] = []
        var chosen: [SnapCandidate] = []
        for c in found where c.distanceMetres <= nearest + slackMetres {
            let t = net.arcTail[Int(c.arc)], h = net.arcHead[Int(c.arc)]
            let key = UInt64(min(t, h)) << 32 | UInt64(max(t, h))
            if !roadKeys.contains(key) {
                if roadKeys.count == roads { continue }
                roadKeys.append(key)
            }
            chosen.append(c)
        }
        return chosen
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
