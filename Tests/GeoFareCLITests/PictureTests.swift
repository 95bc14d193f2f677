import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import GeoFareTestSupport
import GeoFareCore
import GeoFareParties
import GeoFareGraph
import GeoFareText

/// `cluster --svg` and `route --svg` draw well-formed pictures with one shape per item.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct PictureTests {
    /// Counts the elements of an XML document by name and `class`, failing on malformed XML.
    final class Shapes: NSObject, XMLParserDelegate {
        var counts: [String: Int] = [:]
        /// The attributes of every element, by name and `class`, in document order.
        var elements: [String: [[String: String]]] = [:]
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            counts[name + "." + (attributes["class"] ?? ""), default: 0] += 1
            elements[name + "." + (attributes["class"] ?? ""), default: []].append(attributes)
        }
        static func parse(_ file: URL) throws -> Shapes {
            let parser = try #require(XMLParser(contentsOf: file))
            let shapes = Shapes()
            parser.delegate = shapes
            #expect(parser.parse(), "malformed SVG: \(String(describing: parser.parserError))")
            return shapes
        }
        static func count(_ file: URL) throws -> [String: Int] {
            let parser = try #require(XMLParser(contentsOf: file))
            let shapes = Shapes()
            parser.delegate = shapes
            #expect(parser.parse(), "malformed SVG: \(String(describing: parser.parserError))")
            return shapes.counts
        }
    }

    static func temporary(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("geofare-\(UUID().uuidString)-\(name)")
    }

    @Test("cluster --svg: one circle per item of the viewport (and the command runs: it used to trap on its data options)")
    func clusters() throws {
        let db = Self.temporary("parties.db"), csv = Self.temporary("parties.csv"), svg = Self.temporary("clusters.svg")
        defer { for u in [db, csv, svg] { try? FileManager.default.removeItem(at: u) } }
        var text = "id,origin_lat,origin_lon,dest_lat,dest_lon,depart_at,seats_total\n"
        for i in 0..<400 {
            text += "p\(i),\(37.50 + Double(i % 20) * 0.006),\(126.92 + Double(i / 20) * 0.008),37.45,127.0,2030-05-15T22:30:00+09:00,4\n"
        }
        try Data(text.utf8).write(to: csv)
        let imported = try GeoFareBinary.run(["parties", "import", csv.path, "--db", db.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let json = try GeoFareBinary.run(["cluster", "--db", db.path, "--bbox", "126.90,37.48,127.12,37.64", "--zoom", "12", "--json", "--svg", svg.path])
        #expect(json.status == 0, "\(json.stderr)")
        let items = try #require(try JSONParser.parse(Array(json.stdout.utf8.dropLast())).object?["items"]?.array)
        #expect(items.count > 5)
        let counts = try Shapes.count(svg)
        #expect(counts["circle.item"] == items.count)
        #expect(counts["svg."] == 1)
    }

    @Test("route --svg: one line per meter segment, a mark per stop, the business zone it is measured against")
    func route() throws {
        let svg = Self.temporary("route.svg")
        defer { try? FileManager.default.removeItem(at: svg) }
        let r = try GeoFareBinary.run(["route", "--from", "37.5665,126.9780", "--to", "37.2636,127.0286", "--via", "37.4979,127.0276",
                                       "--at", "2024-05-15T22:50:00+09:00", "--json", "--svg", svg.path])
        #expect(r.status == 0, "\(r.stderr)")
        let segments = try #require(try JSONParser.parse(Array(r.stdout.utf8.dropLast())).object?["segments"]?.array)
        let counts = try Shapes.count(svg)
        #expect(counts["polyline.segment"] == segments.count)
        #expect(counts["circle.stop"] == 3)
        #expect(counts["path.zone"] == 1)
    }

    @Test("route --graph --svg: the route is drawn along the graph's roads (many vertices, each on a road), not straight between the stops",
          .enabled(if: SharedData.runs("osm/seoul_mapo.osm.pbf"), "needs ../shared/data/osm beside the checkout"))
    func routeAlongRoads() throws {
        let graphFile = Self.temporary("mapo.graph"), svg = Self.temporary("route.svg")
        defer { for u in [graphFile, svg] { try? FileManager.default.removeItem(at: u) } }
        let built = try GeoFareBinary.run(["graph", "build", SharedData.url("osm/seoul_mapo.osm.pbf").path, "-o", graphFile.path])
        #expect(built.status == 0, "\(built.stderr)")
        let from = Coordinate(uncheckedLatitude: 37.5443, longitude: 126.9516), to = Coordinate(uncheckedLatitude: 37.5600, longitude: 126.9400)
        let r = try GeoFareBinary.run(["route", "--from", "37.5443,126.9516", "--to", "37.5600,126.9400", "--graph", graphFile.path,
                                       "--json", "--svg", svg.path])
        #expect(r.status == 0, "\(r.stderr)")
        let route = try #require(try JSONParser.parse(Array(r.stdout.utf8.dropLast())).object)
        #expect(route["estimator"]?.string?.contains("graph") == true, "\(r.stdout)")
        let shapes = try Shapes.parse(svg)
        let segments = try #require(shapes.elements["polyline.segment"])
        #expect(segments.count == route["segments"]?.array?.count)
        // Pixels back to degrees: x is linear in Mercator x (longitude), y in Mercator y; the two
        // stop marks, at known coordinates, fix both lines.
        let stops = try #require(shapes.elements["circle.stop"])
        try #require(stops.count == 2)
        func px(_ a: [String: String], _ k: String) throws -> Double { try #require(a[k].flatMap(Double.init)) }
        let (x0, y0, x1, y1) = (try px(stops[0], "cx"), try px(stops[0], "cy"), try px(stops[1], "cx"), try px(stops[1], "cy"))
        let (u0, v0) = (WebMercator.unitX(longitude: from.longitude), WebMercator.unitY(latitude: from.latitude))
        let (u1, v1) = (WebMercator.unitX(longitude: to.longitude), WebMercator.unitY(latitude: to.latitude))
        var drawn: [Coordinate] = []
        for line in segments {
            for pair in try #require(line["points"]).split(separator: " ") {
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                try #require(xy.count == 2)
                let u = u0 + (xy[0] - x0) / (x1 - x0) * (u1 - u0), v = v0 + (xy[1] - y0) / (y1 - y0) * (v1 - v0)
                drawn.append(Coordinate(uncheckedLatitude: WebMercator.latitude(unitY: v), longitude: WebMercator.longitude(unitX: u)))
            }
        }
        // A straight drawing has two points per segment; the road path bends at every junction.
        #expect(drawn.count >= 20, "\(drawn.count) points drawn")
        let graph = try RoadGraph(path: graphFile.path)
        // every vertex (the snapped ends, the arcs' nodes and shape points, the cuts between
        // segments) lies on a road, to the pixel rounding (0.05 px of ~3 m) and the stop marks' own
        var far: [(Coordinate, Double)] = []
        for p in drawn {
            let nearest = try graph.snap(p, maxDistanceMeters: 200).map(\.distanceMeters).min() ?? .infinity
            if nearest > 2 { far.append((p, nearest)) }
        }
        #expect(far.isEmpty, "\(far.count) of \(drawn.count) drawn points off every road: \(far.prefix(5))")
    }
}
