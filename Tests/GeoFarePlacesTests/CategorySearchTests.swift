import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// Category words (Data/places/categories.json) answer the nearest places with the category's
/// tags, checked against the PBF's tagged elements.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct CategorySearchTests {
    static let cases: [(extract: String, query: String, id: String, near: (Double, Double))] = [
        ("seoul_mapo.osm.pbf", "약국", "pharmacy", (37.5445, 126.9515)),
        ("seoul_mapo.osm.pbf", "편의점", "convenience", (37.5445, 126.9515)),
        ("seoul_mapo.osm.pbf", "병원", "hospital", (37.5565, 126.9370)),
        ("seoul_mapo.osm.pbf", "화장실", "toilets", (37.5600, 126.9400)),
        ("seoul_mapo.osm.pbf", "주유소", "fuel", (37.5445, 126.9515)),
        ("busan_seomyeon_1km.osm.pbf", "약국", "pharmacy", (35.1578, 129.0597)),
        ("busan_seomyeon_1km.osm.pbf", "의원", "hospital", (35.1578, 129.0597)),
        ("busan_seomyeon_1km.osm.pbf", "카페", "cafe", (35.1578, 129.0597)),
        (PlacesData.midtown, "pharmacy", "pharmacy", (40.7484, -73.9857)),
        (PlacesData.midtown, "drugstore", "pharmacy", (40.7484, -73.9857)),
        (PlacesData.midtown, "gas station", "fuel", (40.7484, -73.9857)),
        (PlacesData.midtown, "Convenience Store", "convenience", (40.7484, -73.9857)),
        ("nyc_lower_manhattan.osm.pbf", "restroom", "toilets", (40.7128, -74.0060)),
    ]

    @Test("A category word answers its places by distance, the first no farther than the nearest tagged node of the PBF", arguments: cases)
    func nearest(_ c: (extract: String, query: String, id: String, near: (Double, Double))) throws {
        let index = try PlacesData.index(c.extract)
        let osm = try OSMElements.of(c.extract)
        let category = try #require(PlaceCategories.embedded.categories.first { $0.id == c.id })
        func tagged(_ e: OSMElements.Element) -> Bool {
            category.tags.contains { t in let kv = t.split(separator: "=").map(String.init); return e.tags[kv[0]] == kv[1] }
        }
        let near = try Coordinate(latitude: c.near.0, longitude: c.near.1)
        let results = try index.search(c.query, near: near, limit: 5)
        try #require(!results.isEmpty, "'\(c.query)' finds nothing")
        for r in results {
            #expect(r.quality == .category && r.category == c.id, "'\(c.query)': \(r.place.name) \(r.quality)")
            guard !r.place.osmID.hasPrefix("r") else { continue }  // a multipolygon: not read here
            let e = try #require(osm.element(r.place.osmID), "\(r.place.osmID)")
            #expect(tagged(e), "'\(c.query)': \(r.place.osmID) \(e.tags) has none of \(category.tags)")
        }
        #expect(zip(results, results.dropFirst()).allSatisfy { $0.distanceMeters! <= $1.distanceMeters! + 1 })
        if let node = osm.nodes.filter(tagged).map({ OSMElements.meters($0.points[0], near) }).min() {
            #expect(results[0].distanceMeters! <= node + 1, "'\(c.query)': first at \(results[0].distanceMeters!) m, a tagged node at \(node) m")
        }
    }

    @Test("A category word with a near word (약국 근처, 가까운 편의점, pharmacy near me, nearest gas station) answers as the word alone",
          arguments: [("seoul_mapo.osm.pbf", "약국 근처", "약국"), ("seoul_mapo.osm.pbf", "약국근처", "약국"), ("seoul_mapo.osm.pbf", "가까운 편의점", "편의점"),
                      ("seoul_mapo.osm.pbf", "주변 카페", "카페"), (PlacesData.midtown, "pharmacy near me", "pharmacy"),
                      (PlacesData.midtown, "nearest gas station", "gas station"), (PlacesData.midtown, "Cafe nearby", "cafe")])
    func nearWords(_ c: (extract: String, query: String, word: String)) throws {
        let index = try PlacesData.index(c.extract)
        let near = c.extract == PlacesData.midtown ? try Coordinate(latitude: 40.7484, longitude: -73.9857) : try Coordinate(latitude: 37.5445, longitude: 126.9515)
        let asked = try index.search(c.query, near: near, limit: 5), plain = try index.search(c.word, near: near, limit: 5)
        #expect(!plain.isEmpty && plain.allSatisfy { $0.quality == .category })
        #expect(asked.map(\.place) == plain.map(\.place) && asked.allSatisfy { $0.quality == .category }, "'\(c.query)': \(asked.map { "\($0.place.name) \($0.quality)" })")
        // a near word alone is only words around a place (issue 45: an error); with a word that is
        // no category, it is no category query
        #expect(throws: GeoFareError.self) { try index.search("근처", near: near, limit: 5) }
        #expect(try index.search("nearest starbucks", near: near, limit: 5).allSatisfy { $0.quality != .category })
    }

    @Test("A category with a name prefers the name: CVS pharmacy, 스타벅스")
    func namedCategory() throws {
        let lower = try PlacesData.index("nyc_lower_manhattan.osm.pbf")
        let cvs = try lower.search("CVS pharmacy", near: try Coordinate(latitude: 40.7128, longitude: -74.0060), limit: 3)
        #expect(cvs.first.map { $0.place.name.lowercased().hasPrefix("cvs") && $0.quality >= .prefix } == true, "\(cvs.map(\.place.name))")
        let mapo = try PlacesData.index("seoul_mapo.osm.pbf")
        let starbucks = try mapo.search("스타벅스", limit: 3)
        #expect(starbucks.allSatisfy { $0.quality != .category && $0.place.names.contains { $0.value.hasPrefix("스타벅스") } }, "\(starbucks.map(\.place.name))")
    }

    @Test("Every category of the data file has words and key=value tags; no word names two categories")
    func data() {
        let c = PlaceCategories.embedded
        #expect(c.categories.count >= 15)
        var seen: [[UInt8]: String] = [:]
        for cat in c.categories {
            #expect(!cat.words.isEmpty && !cat.tags.isEmpty, "\(cat.id)")
            for w in cat.words {
                let k = SearchText.key(w)
                #expect(seen[k] == nil || seen[k] == cat.id, "'\(w)' names \(seen[k] ?? "") and \(cat.id)")
                seen[k] = cat.id
                #expect(c.named(byQueryKey: k) == [cat.id])
            }
        }
        for w in ["약국", "pharmacy", "drugstore", "chemist", "병원", "의원", "hospital", "clinic", "편의점", "convenience store", "주유소", "gas station", "카페", "cafe", "화장실", "toilets"] {
            #expect(!c.named(byQueryKey: SearchText.key(w)).isEmpty, "'\(w)'")
        }
    }
}
