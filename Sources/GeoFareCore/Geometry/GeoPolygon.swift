/// A (multi)polygon in longitude/latitude degrees with holes, for zone tests.
///
/// Point-in-polygon uses the even-odd rule on the plane of longitude/latitude (the edges are
/// straight in degrees, as GeoJSON draws them). Edges are indexed in horizontal bands, so a
/// point test or a segment-crossing test looks only at the edges near it.
public struct GeoPolygon: Sendable, Hashable {
    /// Rings as arrays of points (x = longitude, y = latitude); even-odd makes outer rings and
    /// holes implicit.
    public var rings: [[XYPoint]] { tables.rings }
    /// West, south, east, north in degrees.
    public let bounds: (west: Double, south: Double, east: Double, north: Double)

    /// The arrays, in one shared object: copying a polygon (zone look-ups do, per request)
    /// costs one reference count instead of one per array.
    private final class Tables: Sendable {
        let rings: [[XYPoint]]
        let edges: [Double]
        let bandStart: [Int32]
        let bandEdges: [Int32]
        let cellStart: [Int32]
        let cellEdges: [Int32]
        init(rings: [[XYPoint]], edges: [Double], bandStart: [Int32], bandEdges: [Int32], cellStart: [Int32], cellEdges: [Int32]) {
            self.rings = rings
            self.edges = edges
            self.bandStart = bandStart
            self.bandEdges = bandEdges
            self.cellStart = cellStart
            self.cellEdges = cellEdges
        }
    }
    private let tables: Tables
    /// Every edge as (ax, ay, bx, by), contiguous.
    private var edges: [Double] { tables.edges }
    /// Band b holds the edges `bandEdges[bandStart[b] ..< bandStart[b + 1]]`.
    private var bandStart: [Int32] { tables.bandStart }
    private var bandEdges: [Int32] { tables.bandEdges }
    private let bandHeight: Double
    /// A uniform grid for segment tests: cell c = row·gridSize + column holds the edges
    /// `cellEdges[cellStart[c] ..< cellStart[c + 1]]` whose bounding box touches it.
    private let gridSize: Int
    private var cellStart: [Int32] { tables.cellStart }
    private var cellEdges: [Int32] { tables.cellEdges }
    private let cellWidth: Double
    private let cellHeight: Double

    public init(rings: [[XYPoint]]) {
        var w = Double.infinity, s = Double.infinity, e = -Double.infinity, n = -Double.infinity
        var edges: [Double] = []
        for ring in rings where ring.count >= 2 {
            for i in ring.indices {
                let a = ring[i], b = ring[(i + 1) % ring.count]
                w = min(w, a.x); e = max(e, a.x); s = min(s, a.y); n = max(n, a.y)
                if a != b { edges += [a.x, a.y, b.x, b.y] }
            }
        }
        bounds = (w, s, e, n)
        let edgeCount = edges.count / 4
        let bands = max(1, min(4096, edgeCount / 4))
        let height = max((n - s) / Double(bands), 1e-12)
        func band(_ y: Double) -> Int { min(bands - 1, max(0, Int((y - s) / height))) }
        var counts = [Int32](repeating: 0, count: bands + 1)
        for k in 0..<edgeCount {
            let lo = band(min(edges[4 * k + 1], edges[4 * k + 3])), hi = band(max(edges[4 * k + 1], edges[4 * k + 3]))
            for b in lo...hi { counts[b + 1] += 1 }
        }
        for b in 0..<bands { counts[b + 1] += counts[b] }
        var fill = counts
        var list = [Int32](repeating: 0, count: Int(counts[bands]))
        for k in 0..<edgeCount {
            let lo = band(min(edges[4 * k + 1], edges[4 * k + 3])), hi = band(max(edges[4 * k + 1], edges[4 * k + 3]))
            for b in lo...hi {
                list[Int(fill[b])] = Int32(k)
                fill[b] += 1
            }
        }
        bandHeight = height

        let g = max(8, min(256, Int((Double(edgeCount).squareRoot() * 2).rounded())))
        let cw = max((e - w) / Double(g), 1e-12), ch = height * Double(bands) / Double(g)
        func col(_ x: Double) -> Int { min(g - 1, max(0, Int((x - w) / cw))) }
        func row(_ y: Double) -> Int { min(g - 1, max(0, Int((y - s) / ch))) }
        var cellCounts = [Int32](repeating: 0, count: g * g + 1)
        var builtCells: [Int32] = []
        for pass in 0..<2 {
            var cellFill = cellCounts
            var cellList = [Int32](repeating: 0, count: pass == 0 ? 0 : Int(cellCounts[g * g]))
            for k in 0..<edgeCount {
                let x0 = col(min(edges[4 * k], edges[4 * k + 2])), x1 = col(max(edges[4 * k], edges[4 * k + 2]))
                let y0 = row(min(edges[4 * k + 1], edges[4 * k + 3])), y1 = row(max(edges[4 * k + 1], edges[4 * k + 3]))
                for r in y0...y1 {
                    for c in x0...x1 {
                        if pass == 0 { cellCounts[r * g + c + 1] += 1 } else {
                            cellList[Int(cellFill[r * g + c])] = Int32(k)
                            cellFill[r * g + c] += 1
                        }
                    }
                }
            }
            if pass == 0 { for c in 0..<(g * g) { cellCounts[c + 1] += cellCounts[c] } } else { builtCells = cellList }
        }
        gridSize = g
        tables = Tables(rings: rings, edges: edges, bandStart: counts, bandEdges: list, cellStart: cellCounts, cellEdges: builtCells)
        cellWidth = cw
        cellHeight = ch
    }

    public static func == (a: GeoPolygon, b: GeoPolygon) -> Bool { a.rings == b.rings }
    public func hash(into hasher: inout Hasher) { hasher.combine(rings) }

    @inline(__always)
    private func band(_ y: Double) -> Int {
        min(bandStart.count - 2, max(0, Int((y - bounds.south) / bandHeight)))
    }

    /// Whether the polygon contains the point (even-odd rule; points on an edge may go either way).
    /// - Complexity: O(edges in the point's band), after an O(1) bounding-box rejection.
    public func contains(longitude x: Double, latitude y: Double) -> Bool {
        guard x >= bounds.west, x <= bounds.east, y >= bounds.south, y <= bounds.north else { return false }
        var inside = false
        let b = band(y)
        withBuffers { e, start, list in
            for j in Int(start[b])..<Int(start[b + 1]) {
                let i = Int(list[j]) * 4
                let ax = e[i], ay = e[i + 1], bx = e[i + 2], by = e[i + 3]
                if (ay > y) != (by > y) && x < (bx - ax) * (y - ay) / (by - ay) + ax { inside.toggle() }
            }
        }
        return inside
    }

    /// Runs `body` over the edge and band arrays without retain/release traffic per element.
    @inline(__always)
    private func withBuffers<R>(_ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>) -> R) -> R {
        edges.withUnsafeBufferPointer { e in
            bandStart.withUnsafeBufferPointer { start in
                bandEdges.withUnsafeBufferPointer { list in body(e, start, list) }
            }
        }
    }

    /// The same for the grid arrays.
    @inline(__always)
    private func withGrid<R>(_ body: (UnsafeBufferPointer<Double>, UnsafeBufferPointer<Int32>, UnsafeBufferPointer<Int32>) -> R) -> R {
        edges.withUnsafeBufferPointer { e in
            cellStart.withUnsafeBufferPointer { start in
                cellEdges.withUnsafeBufferPointer { list in body(e, start, list) }
            }
        }
    }

    /// Whether the polygon contains a coordinate.
    public func contains(_ c: Coordinate) -> Bool { contains(longitude: c.longitude, latitude: c.latitude) }

    /// The distance in metres from a coordinate outside the polygon to its nearest edge (0
    /// inside), on a local flat-earth approximation (``CheapRuler``) at the point's latitude:
    /// for snapping points that fall in the slivers simplified borders leave between regions.
    /// - Complexity: O(edges); meant for rare fallbacks, not hot loops.
    public func distanceMeters(to c: Coordinate) -> Double {
        if contains(c) { return 0 }
        let ruler = CheapRuler(latitude: c.latitude)
        let kx = ruler.metersPerDegreeLongitude, ky = ruler.metersPerDegreeLatitude
        var best = Double.infinity
        edges.withUnsafeBufferPointer { e in
            for k in stride(from: 0, to: e.count, by: 4) {
                let ax = (e[k] - c.longitude) * kx, ay = (e[k + 1] - c.latitude) * ky
                let bx = (e[k + 2] - c.longitude) * kx, by = (e[k + 3] - c.latitude) * ky
                let dx = bx - ax, dy = by - ay
                let len2 = dx * dx + dy * dy
                let t = len2 > 0 ? min(1, max(0, -(ax * dx + ay * dy) / len2)) : 0
                let px = ax + t * dx, py = ay + t * dy
                best = min(best, (px * px + py * py).squareRoot())
            }
        }
        return best
    }

    /// The fractions `t` in (0, 1) at which the straight segment from `a` to `b` crosses the
    /// polygon's boundary, sorted; each crossing flips inside/outside.
    /// - Complexity: O(grid cells the segment passes + edges in them).
    public func crossings(from a: Coordinate, to b: Coordinate) -> [Double] {
        let minX = min(a.longitude, b.longitude), maxX = max(a.longitude, b.longitude)
        let minY = min(a.latitude, b.latitude), maxY = max(a.latitude, b.latitude)
        guard maxX >= bounds.west, minX <= bounds.east, maxY >= bounds.south, minY <= bounds.north else { return [] }
        let px = a.longitude, py = a.latitude
        let rx = b.longitude - px, ry = b.latitude - py
        var result: [Double] = []
        var hitEdges: [Int32] = []  // an edge listed in several visited cells counts once
        let g = gridSize, w = bounds.west, so = bounds.south
        func col(_ x: Double) -> Int { min(g - 1, max(0, Int((x - w) / cellWidth))) }
        func row(_ y: Double) -> Int { min(g - 1, max(0, Int((y - so) / cellHeight))) }
        withGrid { e, start, list in
            // Visit, column by column, the rows the segment's y spans inside that column (with a
            // margin for rounding), and test their edges there (no candidate list to sort).
            let c0 = col(minX), c1 = col(maxX)
            let margin = cellHeight * 1e-6
            for c in c0...c1 {
                var ya = minY, yb = maxY
                if rx != 0 {
                    let xa = max(minX, w + Double(c) * cellWidth), xb = min(maxX, w + Double(c + 1) * cellWidth)
                    let ta = (xa - px) / rx, tb = (xb - px) / rx
                    ya = min(py + ta * ry, py + tb * ry)
                    yb = max(py + ta * ry, py + tb * ry)
                }
                for r in row(ya - margin)...row(yb + margin) {
                    let cell = r * g + c
                    for j in Int(start[cell])..<Int(start[cell + 1]) {
                        let k = list[j]
                        let i = Int(k) * 4
                        let qx = e[i], qy = e[i + 1], sx = e[i + 2] - qx, sy = e[i + 3] - qy
                        if max(qx, qx + sx) < minX || min(qx, qx + sx) > maxX || max(qy, qy + sy) < minY || min(qy, qy + sy) > maxY { continue }
                        let denom = rx * sy - ry * sx
                        if denom == 0 { continue }
                        let qpx = qx - px, qpy = qy - py
                        let t = (qpx * sy - qpy * sx) / denom
                        let u = (qpx * ry - qpy * rx) / denom
                        if t > 0 && t < 1 && u >= 0 && u < 1 && !hitEdges.contains(k) {
                            hitEdges.append(k)
                            result.append(t)
                        }
                    }
                }
            }
        }
        return result.sorted()
    }
}
