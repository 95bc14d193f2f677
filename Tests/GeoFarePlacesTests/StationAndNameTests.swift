import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// Stations mapped only as stop positions or platforms, and the other names OSM gives a place
/// (alt_name, official_name, short_name, old_name, name:xx, brand with branch).
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct StationAndNameTests {
    @Test("A station mapped only as stop positions is one station, found by name + 역, near its stop positions",
          arguments: ["애오개", "아현", "마포"])
    func stopPositions(_ name: String) throws {
        let index = try PlacesData.index("seoul_mapo.osm.pbf")
        let osm = try OSMElements.of("seoul_mapo.osm.pbf")
        let stops = osm.nodes.filter { $0.tags["name"] == name && ($0.tags["railway"] == "stop" || $0.tags["public_transport"] == "stop_position") }
        try #require(!stops.isEmpty, "no stop position named \(name)")
        #expect(!osm.nodes.contains { $0.tags["name"] == name && ["station", "halt"].contains($0.tags["railway"] ?? "") }, "\(name) has a station node")
        for q in [name + "역", name + " 역", name] {
            let first = try #require(try index.search(q, limit: 3).first, "'\(q)'")
            #expect(first.place.kind == .station && first.place.name == name && first.quality == .exact, "'\(q)': \(first.place.name) \(first.place.kind) \(first.quality)")
            #expect(stops.contains { OSMElements.meters($0.points[0], first.place.coordinate) < 600 })
        }
        // one station per name here, not one per stop position
        #expect(try index.search(name + "역", limit: 10).filter { $0.place.kind == .station && $0.place.name == name }.count == 1)
    }

    /// A station with the line riders add (`공덕역 6호선`): the station, found as without the line.
    @Test("A station asked for with its line (공덕역 6호선, 6호선 공덕역, 경의중앙선 공덕, Gongdeok Station line 6) is the station",
          arguments: [("seoul_mapo.osm.pbf", "공덕역 6호선", "공덕역"), ("seoul_mapo.osm.pbf", "6호선 공덕역", "공덕역"),
                      ("seoul_mapo.osm.pbf", "경의중앙선 공덕", "공덕"), ("seoul_mapo.osm.pbf", "Gongdeok Station line 6", "Gongdeok Station"),
                      ("seoul_mapo.osm.pbf", "애오개역 5호선", "애오개역"), ("busan_seomyeon_1km.osm.pbf", "서면역 1호선", "서면역")])
    func withLine(_ c: (extract: String, query: String, plain: String)) throws {
        let index = try PlacesData.index(c.extract)
        #expect(try index.search(c.query, limit: 3, typos: false).isEmpty == false)
        let first = try #require(try index.search(c.query, limit: 3).first, "'\(c.query)'")
        let plain = try #require(try index.search(c.plain, limit: 10).first { $0.place.kind == .station }, "'\(c.plain)'")
        #expect(first.place == plain.place && first.quality == plain.quality, "'\(c.query)': \(first.place.name) \(first.place.kind) \(first.quality)")
        // the scan baseline agrees
        #expect(try index.search(c.query, limit: 10, typos: false).map(\.place) == index.searchByScan(c.query, limit: 10).map(\.place))
        // a line with a word that is no station's finds no station by the line
        #expect(try index.search("스타벅스 6호선", limit: 10).allSatisfy { $0.place.kind != .station })
    }

    /// Busan's subway exits carry no `name`, only `description=서면역 7번출구` and `ref=7`.
    @Test("A subway exit named only in its description (서면역 7번출구) is found by that name and its English one, at its node")
    func exitsByDescription() throws {
        let extract = "busan_seomyeon_1km.osm.pbf"
        let index = try PlacesData.index(extract)
        let osm = try OSMElements.of(extract)
        let exits = osm.nodes.filter { $0.tags["railway"] == "subway_entrance" && $0.tags["name"] == nil && ($0.tags["description"] ?? "").hasSuffix("출구") }
        try #require(exits.count >= 10)
        for e in exits {
            let d = e.tags["description"]!
            let results = try index.search(d, limit: 10)
            let first = try #require(results.first, "'\(d)'")
            #expect(first.place.kind == .subwayEntrance && first.place.name == d && first.quality == .exact, "'\(d)': \(first.place.name) \(first.place.kind)")
            #expect(results.contains { $0.place.osmID == e.id && $0.quality == .exact && OSMElements.meters(e.points[0], $0.place.coordinate) < 1 }, "'\(d)'")
            if let en = e.tags["description:en"] {
                #expect(try index.search(en, limit: 10).contains { $0.place.osmID == e.id }, "'\(en)'")
            }
        }
    }

    /// Other names, each with the element that carries it (tags read from the PBF below).
    static let names: [(extract: String, query: String, osmID: String, tag: String)] = [
        (PlacesData.midtown, "New York Public Library", "w265302076", "alt_name"),
        (PlacesData.midtown, "Humanities and Social Sciences Library", "w265302076", "alt_name"),
        (PlacesData.midtown, "Starbucks 35th & 5th", "n883181314", "name+branch"),
        ("seoul_mapo.osm.pbf", "스타벅스 애오개점", "n4489660477", "alt_name"),
        ("seoul_mapo.osm.pbf", "연대", "", "short_name"),
        ("busan_seomyeon_1km.osm.pbf", "롯데백화점 부산본점", "", "name+branch"),
        ("nyc_lower_manhattan.osm.pbf", "Loisaida", "", "alt_name"),
    ]

    @Test("alt_name, short_name, name + branch find their place among the first three, shown with the main name", arguments: names)
    func otherNames(_ c: (extract: String, query: String, osmID: String, tag: String)) throws {
        let index = try PlacesData.index(c.extract)
        let osm = try OSMElements.of(c.extract)
        let results = try index.search(c.query, limit: 3)
        let hit = try #require(results.first { $0.matchedName == c.tag }, "'\(c.query)': \(results.map { "\($0.place.name) \($0.matchedName)" })")
        if !c.osmID.isEmpty { #expect(hit.place.osmID == c.osmID) }
        // the main name is what shows, and the element's tags hold the name searched
        let e = try #require(osm.element(hit.place.osmID))
        #expect(hit.place.name == e.tags["name"])
        let words = SearchText.key(c.query)
        let tagged: [String]
        switch c.tag {
        case "name+branch": tagged = [(e.tags["name"] ?? "") + " " + (e.tags["branch"] ?? "")]
        default: tagged = (e.tags[c.tag] ?? "").split(separator: ";").map(String.init)
        }
        #expect(tagged.contains { SearchText.key($0).starts(with: words) || SearchText.laterWords($0).contains { SearchText.key($0).starts(with: words) } }, "\(e.tags)")
    }

    @Test("Names in other languages are searched whole: name:ja, name:ru")
    func languages() throws {
        let index = try PlacesData.index(PlacesData.midtown)
        let osm = try OSMElements.of(PlacesData.midtown)
        let empire = try #require(osm.element("w34633854"))
        for key in ["name:ru", "name:zh", "name:es"] {
            let q = try #require(empire.tags[key])
            #expect(try index.search(q, limit: 3).contains { $0.place.osmID == "w34633854" && $0.matchedName == key }, "\(key) '\(q)'")
        }
    }
}
