import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// Two streets joined by `&`, `and`, `at`, `/`, `x` (or Korean `A와 B 교차로`): the node they
/// share, checked against the nodes the PBF's ways of those names share.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct IntersectionSearchTests {
    /// Query forms, with the two `name` tags of the highways that meet there.
    static let forms: [(extract: String, query: String, a: String, b: String)] = [
        (PlacesData.midtown, "W 34th St & 7th Ave", "West 34th Street", "7th Avenue"),
        (PlacesData.midtown, "34th and 7th", "West 34th Street", "7th Avenue"),
        (PlacesData.midtown, "West 34th Street at Seventh Avenue", "West 34th Street", "7th Avenue"),
        (PlacesData.midtown, "W 34 St / 7 Av", "West 34th Street", "7th Avenue"),
        (PlacesData.midtown, "34th x 7th", "West 34th Street", "7th Avenue"),
        (PlacesData.midtown, "5th Ave & E 34th St", "5th Avenue", "East 34th Street"),
        ("nyc_lower_manhattan.osm.pbf", "Broadway & Canal St", "Broadway", "Canal Street"),
        ("nyc_lower_manhattan.osm.pbf", "canal st/broadway", "Canal Street", "Broadway"),
        ("seoul_mapo.osm.pbf", "마포대로와 백범로 교차로", "마포대로", "백범로"),
        ("seoul_mapo.osm.pbf", "마포대로 & 백범로", "마포대로", "백범로"),
        ("busan_seomyeon_1km.osm.pbf", "가야대로와 부전로 사거리", "가야대로", "부전로"),
        ("busan_seomyeon_1km.osm.pbf", "서전로 and 전포대로", "서전로", "전포대로"),
    ]

    @Test("Each intersection form answers a node both streets' ways share, nearest to near", arguments: forms)
    func form(_ c: (extract: String, query: String, a: String, b: String)) throws {
        let index = try PlacesData.index(c.extract)
        let osm = try OSMElements.of(c.extract)
        // the nodes of highways named a that highways named b also have
        let refsA = Set(osm.ways.filter { $0.tags["highway"] != nil && $0.tags["name"] == c.a }.flatMap(\.refs))
        let shared = Set(osm.ways.filter { $0.tags["highway"] != nil && $0.tags["name"] == c.b }.flatMap(\.refs)).intersection(refsA)
        let points = shared.compactMap { osm.positions[$0] }
        try #require(!points.isEmpty, "\(c.a) and \(c.b) share no node in \(c.extract)")
        // near: a shared node, so the answer must be that very node
        let target = points.sorted { $0 < $1 }[points.count / 2]
        let near = Coordinate(uncheckedLatitude: target.0, longitude: target.1)
        let results = try index.search(c.query, near: near, limit: 5)
        let first = try #require(results.first, "'\(c.query)' finds nothing")
        #expect(first.quality == .intersection, "'\(c.query)': \(first.place.name) (\(first.quality))")
        let j = try #require(first.junction)
        #expect(Set([first.place.name, j.street.name]) == Set([c.a, c.b]), "'\(c.query)': \(first.place.name) & \(j.street.name)")
        #expect(OSMElements.meters(target, j.coordinate) < 0.05, "'\(c.query)': junction \(j.coordinate), expected \(target)")
        #expect((first.distanceMeters ?? 99) < 0.05)
    }

    @Test("Words that name no street, or one street only, are no intersection")
    func notIntersections() throws {
        let index = try PlacesData.index(PlacesData.midtown)
        for q in ["Barnes & Noble", "Johnson & Johnson", "7th Avenue & Nowhere Lane", "salt and pepper"] {
            #expect(try index.search(q, limit: 10).allSatisfy { $0.quality != .intersection }, "'\(q)'")
        }
    }

    /// Junctions OSM names on their nodes (`junction=yes` or `highway=traffic_signals`, read from
    /// the PBF here; no bus stop, station or shop tags): found by the name, as one `junction`
    /// per name near its nodes (서면교차로 is four signal nodes).
    @Test("A junction named on its nodes (서면교차로, 연세로사거리) is one place, found by its name near those nodes",
          arguments: ["busan_seomyeon_1km.osm.pbf", "seoul_mapo.osm.pbf"])
    func namedJunctions(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        let osm = try OSMElements.of(extract)
        let other = ["railway", "public_transport", "amenity", "shop", "tourism", "place", "office", "leisure", "historic"]
        let junctions = osm.nodes.filter { n in
            n.tags["name"] != nil && (n.tags["junction"] == "yes" || n.tags["highway"] == "traffic_signals")
                && n.tags["highway"] != "bus_stop" && !other.contains { n.tags[$0] != nil }
        }
        let byName = Dictionary(grouping: junctions) { $0.tags["name"]! }
        try #require(byName.count >= 5, "\(extract): \(byName.keys.sorted())")
        for (name, nodes) in byName {
            let results = try index.search(name, limit: 10)
            let hits = results.filter { $0.place.kind == .junction && $0.place.name == name }
            let first = try #require(hits.first, "'\(name)': \(results.map { "\($0.place.name) \($0.place.kind)" })")
            #expect(first.quality == .exact && results.prefix(3).contains { $0.place == first.place }, "'\(name)'")
            #expect(nodes.contains { OSMElements.meters($0.points[0], first.place.coordinate) < 200 }, "'\(name)' is far from its nodes")
            // nodes of one name that lie close together are one place
            let spread = nodes.allSatisfy { a in nodes.allSatisfy { b in OSMElements.meters(a.points[0], Coordinate(uncheckedLatitude: b.points[0].0, longitude: b.points[0].1)) < 200 } }
            if spread { #expect(hits.count == 1, "'\(name)': \(hits.count) junctions for \(nodes.count) nodes") }
        }
    }
}
