import Foundation
import GeoFareCore
import GeoFareParties

/// A small SVG map of a lon/lat box in Web Mercator: a light graticule with labels, then
/// polygons, lines, circles and text added in drawing order. What `cluster --svg` and
/// `route --svg` write, so that people can look at a result instead of reading coordinates.
struct SVGMap {
    let west: Double, south: Double, east: Double, north: Double
    /// Picture size in pixels.
    let width: Double, height: Double
    private var body = ""

    /// A map of the box, `width` pixels wide; the height follows the box's Mercator aspect.
    /// - Precondition: west < east and south < north (callers pad or reject other boxes).
    init(west: Double, south: Double, east: Double, north: Double, width: Double = 800) {
        self.west = west; self.south = south; self.east = east; self.north = north
        self.width = width
        let dx = WebMercator.unitX(longitude: east) - WebMercator.unitX(longitude: west)
        let dy = WebMercator.unitY(latitude: south) - WebMercator.unitY(latitude: north)
        height = max(100, min(4 * width, width * dy / max(dx, 1e-12)))
    }

    /// A box around some points, padded by `pad` of its size (and at least ~200 m).
    static func around(_ points: [Coordinate], pad: Double = 0.08, width: Double = 800) -> SVGMap {
        var w = points.map(\.longitude).min() ?? 0, e = points.map(\.longitude).max() ?? 0
        var s = points.map(\.latitude).min() ?? 0, n = points.map(\.latitude).max() ?? 0
        let px = max((e - w) * pad, 0.002), py = max((n - s) * pad, 0.002)
        w -= px; e += px; s -= py; n += py
        // Keep the picture between 4:3 landscape and 3:4 portrait, so a north-south trip is not a sliver.
        let k = cos((s + n) / 2 * .pi / 180)
        let wide = (e - w) * k, tall = n - s
        if wide < 0.75 * tall { let grow = (0.75 * tall / k - (e - w)) / 2; w -= grow; e += grow }
        if tall < 0.75 * wide { let grow = (0.75 * wide - tall) / 2; s -= grow; n += grow }
        return SVGMap(west: max(-180, w), south: max(-85, s), east: min(180, e), north: min(85, n), width: width)
    }

    /// Pixel position of a coordinate.
    func xy(_ lon: Double, _ lat: Double) -> (Double, Double) {
        let x0 = WebMercator.unitX(longitude: west), x1 = WebMercator.unitX(longitude: east)
        let y0 = WebMercator.unitY(latitude: north), y1 = WebMercator.unitY(latitude: south)
        return ((WebMercator.unitX(longitude: lon) - x0) / (x1 - x0) * width,
                (WebMercator.unitY(latitude: max(-85, min(85, lat))) - y0) / (y1 - y0) * height)
    }

    private static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    /// Text safe inside an SVG element or attribute.
    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// Polygon rings (lon/lat), filled and outlined, clipped to the picture.
    mutating func polygon(_ rings: [[XYPoint]], fill: String, stroke: String, title: String, cssClass: String) {
        var d = ""
        for ring in rings where ring.count >= 3 {
            for (k, p) in ring.enumerated() {
                let (x, y) = xy(p.x, p.y)
                d += (k == 0 ? "M" : "L") + Self.f(x) + " " + Self.f(y)
            }
            d += "Z"
        }
        body += #"<path class="\#(cssClass)" d="\#(d)" fill="\#(fill)" fill-opacity="0.18" stroke="\#(stroke)" stroke-width="1.5" fill-rule="evenodd"><title>\#(Self.escape(title))</title></path>"# + "\n"
    }

    /// A line through coordinates.
    mutating func line(_ points: [Coordinate], color: String, widthPx: Double = 4, title: String, cssClass: String) {
        let pts = points.map { xy($0.longitude, $0.latitude) }.map { Self.f($0.0) + "," + Self.f($0.1) }.joined(separator: " ")
        body += #"<polyline class="\#(cssClass)" points="\#(pts)" fill="none" stroke="\#(color)" stroke-width="\#(Self.f(widthPx))" stroke-linecap="round"><title>\#(Self.escape(title))</title></polyline>"# + "\n"
    }

    /// A labelled circle.
    mutating func circle(_ c: Coordinate, radius: Double, fill: String, label: String?, title: String, cssClass: String) {
        let (x, y) = xy(c.longitude, c.latitude)
        body += #"<circle class="\#(cssClass)" cx="\#(Self.f(x))" cy="\#(Self.f(y))" r="\#(Self.f(radius))" fill="\#(fill)" fill-opacity="0.75" stroke="white" stroke-width="1.5"><title>\#(Self.escape(title))</title></circle>"# + "\n"
        if let label {
            body += #"<text x="\#(Self.f(x))" y="\#(Self.f(y + 4))" text-anchor="middle" font-size="11" font-family="sans-serif" fill="black">\#(Self.escape(label))</text>"# + "\n"
        }
    }

    /// Text at a coordinate.
    mutating func text(_ c: Coordinate, _ s: String, size: Double = 12) {
        let (x, y) = xy(c.longitude, c.latitude)
        body += #"<text x="\#(Self.f(x + 6))" y="\#(Self.f(y - 6))" font-size="\#(Self.f(size))" font-family="sans-serif" fill="black">\#(Self.escape(s))</text>"# + "\n"
    }

    /// The whole document: background, graticule with degree labels, the shapes, a caption.
    func document(caption: String) -> String {
        var grid = ""
        let span = max(east - west, north - south)
        let step = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 45].first { span / $0 <= 10 } ?? 90
        let decimals = max(0, Int((-log10(step)).rounded(.up)))
        var lon = (west / step).rounded(.up) * step
        while lon <= east {
            let (x, _) = xy(lon, north)
            grid += ##"<line x1="\##(Self.f(x))" y1="0" x2="\##(Self.f(x))" y2="\##(Self.f(height))" stroke="#dde3ea" stroke-width="1"/><text x="\##(Self.f(x + 2))" y="\##(Self.f(height - 4))" font-size="10" font-family="sans-serif" fill="#8895a7">\##(String(format: "%.\(decimals)f", lon))°</text>"## + "\n"
            lon += step
        }
        var lat = (south / step).rounded(.up) * step
        while lat <= north {
            let (_, y) = xy(west, lat)
            grid += ##"<line x1="0" y1="\##(Self.f(y))" x2="\##(Self.f(width))" y2="\##(Self.f(y))" stroke="#dde3ea" stroke-width="1"/><text x="2" y="\##(Self.f(y - 2))" font-size="10" font-family="sans-serif" fill="#8895a7">\##(String(format: "%.\(decimals)f", lat))°</text>"## + "\n"
            lat += step
        }
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.f(width))" height="\(Self.f(height + 24))" viewBox="0 0 \(Self.f(width)) \(Self.f(height + 24))">
        <defs><clipPath id="map"><rect x="0" y="0" width="\(Self.f(width))" height="\(Self.f(height))"/></clipPath></defs>
        <rect x="0" y="0" width="\(Self.f(width))" height="\(Self.f(height + 24))" fill="#f8fafc"/>
        <g clip-path="url(#map)">
        \(grid)\(body)</g>
        <text x="6" y="\(Self.f(height + 17))" font-size="12" font-family="sans-serif" fill="#334155">\(Self.escape(caption))</text>
        </svg>

        """
    }

    /// Writes the document to `path`.
    func write(to path: String, caption: String) throws {
        try Data(document(caption: caption).utf8).write(to: URL(fileURLWithPath: path))
    }
}
