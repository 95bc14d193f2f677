import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// What riders type around a place (issue 45): words before and after a name, branches,
/// abbreviations and station exits, names inside names, two streets without a joiner. 79 rider
/// queries (Fixtures/rider-words.tsv) on the shared Seoul, Busan and Manhattan extracts, each
/// target tagged in the extract and found by its own name, each asked from a point 500 m away
/// (before issue 45: 12 of 79 in the first three).
@Suite(.serialized, .enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct RiderWordsTests {
    enum Target { case places([String]), streets([String]) }

    /// Fixtures/rider-words.tsv: kind, extract, query, near, expected (`ids:…` or `streets:…`).
    static func queries() throws -> [(kind: String, extract: String, query: String, near: Coordinate, target: Target)] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/rider-words.tsv")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5 else { throw GeoFareError(code: .invalidValue, message: "not 5 columns: \(line)", field: "rider-words.tsv") }
            let (how, what) = (f[4].prefix { $0 != ":" }, f[4].drop { $0 != ":" }.dropFirst().split(separator: "|").map(String.init))
            return (f[0], f[1], f[2], try HitRateTests.point(f[3]), how == "streets" ? .streets(what) : .places(what))
        }
    }

    static func hits(_ matches: [PlaceMatch], _ target: Target) -> Bool {
        switch target {
        case let .places(ids): return matches.prefix(3).contains { ids.contains($0.place.osmID) }
        case let .streets(names):
            return matches.prefix(3).contains { m in
                guard let j = m.junction else { return false }
                let pair = m.place.name + " & " + j.street.name
                return names.allSatisfy { pair.contains($0) }
            }
        }
    }

    @Test("At least 72 of the 79 rider queries find their place in the first three; every kind at least 12 of its own")
    func riderQueries() throws {
        var hitsByKind: [String: (hits: Int, all: Int)] = [:], misses: [String] = []
        let queries = try Self.queries()
        #expect(queries.count == 79)
        for q in queries {
            let index = try PlacesData.index(q.extract)
            let found = try index.find(q.query, near: q.near, limit: 3)
            let hit = Self.hits(found.matches, q.target)
            hitsByKind[q.kind, default: (0, 0)].all += 1
            if hit { hitsByKind[q.kind, default: (0, 0)].hits += 1 } else { misses.append("\(q.kind) '\(q.query)': \(found.matches.map(\.place.name))") }
        }
        let hits = hitsByKind.values.map(\.hits).reduce(0, +)
        #expect(hits >= 72, "\(hits) of \(queries.count); misses:\n\(misses.joined(separator: "\n"))")
        for (kind, h) in hitsByKind { #expect(h.hits >= min(12, h.all - 1), "\(kind): \(h.hits) of \(h.all)") }
    }

    @Test("The words left out are reported; a query of only such words is an error; a query found as typed reports none")
    func ignoredWords() throws {
        let busan = try PlacesData.index("busan_seomyeon_1km.osm.pbf")
        let found = try busan.find("서면역 7번출구 앞")
        #expect(found.ignoredWords == ["앞"] && found.matches.first?.place.osmID == "n8265954350", "\(found.ignoredWords) \(found.matches.map(\.place.name))")
        let midtown = try PlacesData.index(PlacesData.midtown)
        let lead = try midtown.find("in front of Chelsea Market")
        #expect(lead.ignoredWords == ["in", "front", "of"] && lead.matches.first?.place.name.hasPrefix("Chelsea Market") == true, "\(lead.ignoredWords) \(lead.matches.map(\.place.name))")
        #expect(try busan.find("서면역").ignoredWords.isEmpty)
        for only in ["앞", "in front of", "근처", "opposite"] {
            #expect(throws: GeoFareError.self, "\(only)") { try busan.find(only) }
        }
    }

    @Test("A reverse look-up at a station's own point names the station, not a building above it (Penn Station, not Madison Square Garden)")
    func reverseAtStation() throws {
        let midtown = try PlacesData.index(PlacesData.midtown)
        let penn = try #require(try midtown.search("New York Penn Station", limit: 1).first)
        #expect(penn.place.kind == .station)
        let r = try midtown.reverse(penn.place.coordinate)
        #expect(r.place?.place.osmID == penn.place.osmID, "\(String(describing: r.place?.place.name))")
        #expect(r.address.map { $0.place.osmID == penn.place.osmID } ?? true, "address \(String(describing: r.address?.place.name))")
        #expect(r.address?.place.name.contains("Madison Square Garden") != true)
    }
}
