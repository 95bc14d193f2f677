import GeoFareCore

/// One road of a map view: its class (the profile's index, 0 the most important: motorway) and
/// its line, simplified for the zoom it is drawn at.
public struct RoadLine: Sendable, Equatable {
    /// The road class: an index into the graph's profile's classes (`car`: 0 motorway …
    /// 4 primary … 8 tertiary … 11 residential, 13 service).
    public var roadClass: Int
    /// The line, from one end to the other (WGS84).
    public var points: [Coordinate]
}

extension RoadGraph {
    /// The most important road class drawn at `zoom`: primary roads and above below zoom 12,
    /// tertiary and above below 14, every road from 14 on (as web maps thin their roads).
    public static func maxRoadClass(atZoom zoom: Int) -> Int {
        zoom < 12 ? 5 : zoom < 14 ? 9 : Int(UInt8.max)
    }

    /// The roads of `bbox` to draw at `zoom` (0...22): each road once (a two-way road's two arcs
    /// as one line), thinned by class (``maxRoadClass(atZoom:)``) and simplified to about a pixel
    /// of a 256-pixel tile at that zoom (Douglas–Peucker in Web Mercator), at most `limit` lines,
    /// most important first.
    /// - Returns: the lines and whether `limit` cut some off.
    public func roads(in bbox: BoundingBox, zoom: Int, limit: Int = 20_000) -> (lines: [RoadLine], truncated: Bool) {
        let net = network
        let maxClass = Self.maxRoadClass(atZoom: zoom)
        // 1e-7 degree integers: the network's own units, so the box test needs no conversion.
        let west = Int32((bbox.west * 1e7).rounded(.down)), east = Int32((bbox.east * 1e7).rounded(.up))
        let south = Int32((bbox.south * 1e7).rounded(.down)), north = Int32((bbox.north * 1e7).rounded(.up))
        let crosses = bbox.west > bbox.east
        func inside(_ lat: Int32, _ lon: Int32) -> Bool {
            guard lat >= south && lat <= north else { return false }
            return crosses ? (lon >= west || lon <= east) : (lon >= west && lon <= east)
        }
        var picked: [(cls: Int, arc: Int)] = []
        var seen = Set<UInt64>()
        var points: [(lat: Int32, lon: Int32)] = []
        for arc in 0..<net.arcCount {
            let cls = Int(net.arcRoadClass[arc])
            guard cls <= maxClass else { continue }
            let tail = Int(net.arcTail[arc]), head = Int(net.arcHead[arc])
            var hit = inside(net.nodeLatitudes[tail], net.nodeLongitudes[tail]) || inside(net.nodeLatitudes[head], net.nodeLongitudes[head])
            if !hit {
                net.polyline(arc, into: &points)
                hit = points.contains { inside($0.lat, $0.lon) }
            }
            guard hit else { continue }
            // A two-way road is two arcs between the same nodes: drawn once.
            let key = UInt64(min(tail, head)) << 32 | UInt64(max(tail, head))
            guard seen.insert(key).inserted else { continue }
            picked.append((cls, arc))
        }
        picked.sort { $0.cls != $1.cls ? $0.cls < $1.cls : $0.arc < $1.arc }
        let truncated = picked.count > limit
        let tolerance = 1.0 / (256.0 * Double(1 << max(0, min(zoom, 22))))
        var lines: [RoadLine] = []
        lines.reserveCapacity(min(picked.count, limit))
        for (cls, arc) in picked.prefix(limit) {
            net.polyline(arc, into: &points)
            let coords = points.map { Coordinate(uncheckedLatitude: Double($0.lat) / 1e7, longitude: Double($0.lon) / 1e7) }
            lines.append(RoadLine(roadClass: cls, points: Self.simplified(coords, tolerance: tolerance)))
        }
        return (lines, truncated)
    }

    /// Douglas–Peucker on Web Mercator world fractions: the points of `line` that keep it within
    /// `tolerance` (a fraction of the world's width) of the original; both ends always kept.
    static func simplified(_ line: [Coordinate], tolerance: Double) -> [Coordinate] {
        guard line.count > 2 else { return line }
        let xy = line.map { (WebMercator.unitX(longitude: $0.longitude), WebMercator.unitY(latitude: $0.latitude)) }
        var keep = [Bool](repeating: false, count: line.count)
        keep[0] = true
        keep[line.count - 1] = true
        var stack = [(0, line.count - 1)]
        while let (a, b) = stack.popLast() {
            guard b > a + 1 else { continue }
            let (ax, ay) = xy[a], (bx, by) = xy[b]
            let dx = bx - ax, dy = by - ay
            let length2 = dx * dx + dy * dy
            var worst = 0.0, at = -1
            for i in (a + 1)..<b {
                let (px, py) = xy[i]
                var t = length2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / length2 : 0
                t = min(1, max(0, t))
                let ex = ax + t * dx - px, ey = ay + t * dy - py
                let d = ex * ex + ey * ey
                if d > worst { worst = d; at = i }
            }
            if at >= 0 && worst > tolerance * tolerance {
                keep[at] = true
                stack.append((a, at))
                stack.append((at, b))
            }
        }
        return line.indices.filter { keep[$0] }.map { line[$0] }
    }
}
