/// A (multi)polygon in longitude/latitude degrees with holes, for zone tests.
///
/// Point-in-polygon uses the even-odd rule on the plane of longitude/latitude (the edges are
/// straight in degrees, as GeoJSON draws them), after a bounding-box check.
public struct GeoPolygon: Sendable, Hashable {
    /// Rings as flat arrays of points (x = longitude, y = latitude); the first ring of each
    /// polygon is its outer ring, the rest its holes. Even-odd makes the distinction implicit.
    public let rings: [[XYPoint]]
    /// West, south, east, north in degrees.
    public let bounds: (west: Double, south: Double, east: Double, north: Double)

    public init(rings: [[XYPoint]]) {
        self.rings = rings
        var w = Double.infinity, s = Double.infinity, e = -Double.infinity, n = -Double.infinity
        for ring in rings {
            for p in ring {
                w = min(w, p.x); e = max(e, p.x); s = min(s, p.y); n = max(n, p.y)
            }
        }
        bounds = (w, s, e, n)
    }

    public static func == (a: GeoPolygon, b: GeoPolygon) -> Bool { a.rings == b.rings }
    public func hash(into hasher: inout Hasher) { hasher.combine(rings) }

    /// Whether the polygon contains the point (even-odd rule; points on an edge may go either way).
    /// - Complexity: O(vertices), after an O(1) bounding-box rejection.
    public func contains(longitude x: Double, latitude y: Double) -> Bool {
        guard x >= bounds.west, x <= bounds.east, y >= bounds.south, y <= bounds.north else { return false }
        var inside = false
        for ring in rings {
            ring.withUnsafeBufferPointer { r in
                guard r.count >= 3 else { return }
                var j = r.count - 1
                for i in 0..<r.count {
                    let a = r[i], b = r[j]
                    if (a.y > y) != (b.y > y) && x < (b.x - a.x) * (y - a.y) / (b.y - a.y) + a.x {
                        inside.toggle()
                    }
                    j = i
                }
            }
        }
        return inside
    }

    /// Whether the polygon contains a coordinate.
    public func contains(_ c: Coordinate) -> Bool { contains(longitude: c.longitude, latitude: c.latitude) }

    /// The fractions `t` in (0, 1) at which the straight segment from `a` to `b` crosses the
    /// polygon's boundary, sorted; each crossing flips inside/outside.
    public func crossings(from a: Coordinate, to b: Coordinate) -> [Double] {
        let minX = min(a.longitude, b.longitude), maxX = max(a.longitude, b.longitude)
        let minY = min(a.latitude, b.latitude), maxY = max(a.latitude, b.latitude)
        guard maxX >= bounds.west, minX <= bounds.east, maxY >= bounds.south, minY <= bounds.north else { return [] }
        let px = a.longitude, py = a.latitude
        let rx = b.longitude - px, ry = b.latitude - py
        var result: [Double] = []
        for ring in rings where ring.count >= 2 {
            var j = ring.count - 1
            for i in 0..<ring.count {
                let q = ring[j], s = XYPoint(x: ring[i].x - q.x, y: ring[i].y - q.y)
                j = i
                if max(q.x, q.x + s.x) < minX || min(q.x, q.x + s.x) > maxX || max(q.y, q.y + s.y) < minY || min(q.y, q.y + s.y) > maxY { continue }
                let denom = rx * s.y - ry * s.x
                if denom == 0 { continue }
                let qpx = q.x - px, qpy = q.y - py
                let t = (qpx * s.y - qpy * s.x) / denom
                let u = (qpx * ry - qpy * rx) / denom
                if t > 0 && t < 1 && u >= 0 && u < 1 { result.append(t) }
            }
        }
        return result.sorted()
    }
}
