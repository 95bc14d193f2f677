import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import GeoFareTestSupport
import GeoFareCore
import GeoFareText

/// `cluster --svg` and `route --svg` draw well-formed pictures with one shape per item.
@Suite(.timeLimit(.minutes(10)))
struct PictureTests {
    /// Counts the elements of an XML document by name and `class`, failing on malformed XML.
    final class Shapes: NSObject, XMLParserDelegate {
        var counts: [String: Int] = [:]
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            counts[name + "." + (attributes["class"] ?? ""), default: 0] += 1
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
}
