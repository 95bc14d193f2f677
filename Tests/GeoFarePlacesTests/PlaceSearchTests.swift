import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// Searches drawn from the shared extracts' own names, checked against the places they came from
/// and against the scan of every key.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct PlaceSearchTests {
    /// Named places of an index, seeded sample (the index also keeps unnamed places for their
    /// address or category: not drawn).
    static func sample(_ index: PlacesIndex, _ n: Int, seed: UInt64 = 7) -> [Place] {
        var rng = SeededGenerator(seed: seed)
        var out: [Place] = []
        while out.count < n {
            let p = index.place(at: Int.random(in: 0..<index.count, using: &rng))
            if p.isNamed { out.append(p) }
        }
        return out
    }

    /// Whether `place` is among the results of `query`, or was fairly outranked: `limit` results
    /// came back, each ranking at least as high as the place could.
    static func found(_ index: PlacesIndex, _ query: String, _ place: Place, quality: MatchQuality, limit: Int = 100) throws -> Bool {
        let results = try index.search(query, limit: limit)
        if results.contains(where: { $0.place.index == place.index && $0.quality >= quality }) { return true }
        return results.count == limit && results.allSatisfy { ($0.quality, $0.place.kind.importance) >= (quality, place.kind.importance) }
    }

    @Test("Whole names, names without spaces or with a space inside, and English names find their place as an exact match", arguments: PlacesData.extracts)
    func exactNames(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        #expect(index.count > 300)
        var checked = 0
        for place in Self.sample(index, 300) {
            for (key, name) in place.names where !SearchText.key(name).isEmpty && SearchText.key(name).count <= 255 && name.utf8.count <= 200 {
                #expect(try Self.found(index, name, place, quality: .exact), "\(extract): '\(name)' (\(key)) does not find \(place.osmID)")
                #expect(try Self.found(index, name.filter { !$0.isWhitespace }, place, quality: .exact), "\(extract): '\(name)' without spaces")
                let chars = Array(name)
                if chars.count >= 3 {
                    let spaced = String(chars[..<(chars.count / 2)]) + " " + String(chars[(chars.count / 2)...])
                    #expect(try Self.found(index, spaced, place, quality: .exact), "\(extract): '\(spaced)' (a space inside)")
                }
                checked += 1
            }
        }
        #expect(checked >= 300)
        if extract == "nyc_lower_manhattan.osm.pbf" {
            #expect(Self.sample(index, 300).contains { p in p.names.contains { $0.key == "name" && $0.value.contains { $0.isASCII && $0.isLetter } } })
        }
    }

    @Test("Prefixes, half-typed last syllables and 초성 of Korean names find their place", arguments: ["seoul_mapo.osm.pbf", "busan_seomyeon_1km.osm.pbf"])
    func koreanPartials(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        var korean = 0
        for place in Self.sample(index, 400) {
            guard let name = place.names.first(where: { SearchText.initialsKey($0.value) != nil && $0.value.unicodeScalars.first.map { (0xAC00...0xD7A3).contains($0.value) } == true })?.value else { continue }
            korean += 1
            let chars = Array(name)
            let half = String(chars[..<max(1, chars.count / 2)])
            #expect(try Self.found(index, half, place, quality: .prefix), "\(extract): prefix '\(half)' of '\(name)'")
            // the last syllable half typed: its leading consonant and vowel only (공덕 → 공더)
            if chars.count >= 2, let last = chars[1].unicodeScalars.first, (0xAC00...0xD7A3).contains(last.value), (last.value - 0xAC00) % 28 != 0 {
                let open = Unicode.Scalar(last.value - (last.value - 0xAC00) % 28)!
                let typed = String(chars[0]) + String(Character(open))
                #expect(try Self.found(index, typed, place, quality: .prefix), "\(extract): '\(typed)' on the way to '\(name)'")
            }
            let initials = String(decoding: SearchText.initialsKey(name)!, as: UTF8.self)
            #expect(try Self.found(index, initials, place, quality: .exact), "\(extract): 초성 '\(initials)' of '\(name)'")
        }
        #expect(korean >= 100, "\(extract): only \(korean) Korean names in the sample")
    }

    @Test("A Latin name with one letter changed, dropped or swapped still finds its place", arguments: PlacesData.extracts)
    func latinTypos(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        var rng = SeededGenerator(seed: 11)
        var tried = 0, found = 0
        for place in Self.sample(index, 600) {
            guard let name = place.names.first(where: { SearchText.isLatin(SearchText.key($0.value)) && SearchText.key($0.value).count >= 6 })?.value else { continue }
            var key = SearchText.key(name)
            let at = Int.random(in: 1..<(key.count - 1), using: &rng)
            switch tried % 3 {
            case 0: key[at] = key[at] == UInt8(ascii: "z") ? UInt8(ascii: "y") : UInt8(ascii: "z")
            case 1: key.remove(at: at)
            default: if key[at] != key[at + 1] { key.swapAt(at, at + 1) } else { key[at] = UInt8(ascii: "q") }
            }
            let query = String(decoding: key, as: UTF8.self)
            // a changed name that starts another name is that name's prefix, not a typo (the rule)
            if try index.search(query, limit: 1, typos: false).first.map({ $0.quality >= .prefix }) == true { continue }
            tried += 1
            if try Self.found(index, query, place, quality: .typo) { found += 1 } else { Issue.record("\(extract): '\(query)' does not find '\(name)'") }
        }
        #expect(tried >= 20, "\(extract): only \(tried) Latin names")
        #expect(found == tried)
    }

    @Test("The indexed search answers as the scan of every key, and ranks by quality, importance, then distance", arguments: PlacesData.extracts)
    func sameAsScanAndRanked(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        let m = index.metadata
        var rng = SeededGenerator(seed: 5)
        for place in Self.sample(index, 200, seed: 3) {
            let name = place.names[0].value
            let near = Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng))
            for query in [name, String(name.prefix(max(1, name.count / 2))), String(name.prefix(1))] where !SearchText.key(query).isEmpty {
                let a = try index.search(query, near: near, limit: 20, typos: false)
                let b = try index.searchByScan(query, near: near, limit: 20)
                #expect(a.map(\.place.index) == b.map(\.place.index), "\(extract): '\(query)'")
                for (x, y) in zip(a, a.dropFirst()) {
                    // an address match ranks an addressed building's outline first (docs/places.md): by match only here
                    if [x, y].contains(where: { [.address, .interpolated, .intersection, .category].contains($0.quality) }) {
                        #expect(x.quality >= y.quality, "\(extract): '\(query)' ranks \(x.place.name) before \(y.place.name)")
                        continue
                    }
                    let kx = (x.quality.rank(for: x.place.kind), x.place.kind.importance), ky = (y.quality.rank(for: y.place.kind), y.place.kind.importance)
                    #expect(kx > ky || (kx == ky && x.distanceMeters! <= y.distanceMeters! + 0.5), "\(extract): '\(query)' ranks \(x.place.name) before \(y.place.name)")
                }
                // every name result really matches: the query's key starts one of its names' keys or words
                // (a query may also read as an address, an intersection or a category: their own tests)
                let q = SearchText.key(query)
                for r in a where ![.address, .interpolated, .intersection, .category].contains(r.quality) {
                    let keys = r.place.names.flatMap { n in Self.keys(of: n.value, station: r.place.kind == .station) }
                    #expect(keys.contains { $0.starts(with: q) }, "\(extract): '\(query)' returned \(r.place.name)")
                }
            }
        }
    }

    /// Every key a name is found by: itself, its 초성 and romanisations, its later words, a
    /// station's suffixed forms, its other forms and the short names inside it (QueryWords, issue 45).
    static func keys(of name: String, station: Bool) -> [[UInt8]] {
        var out: [[UInt8]] = [SearchText.key(name), SearchText.initialsKey(name) ?? [], SearchText.romanizedKey(name) ?? [],
                              SearchText.revisedRomanizationKey(name) ?? []]
        for w in SearchText.laterWords(name) { out += [SearchText.key(w), SearchText.initialsKey(w) ?? []] }
        if station { out += suffixed(name) }
        for f in QueryWords.nameForms(name) { out += [SearchText.key(f)] + SearchText.laterWords(f).map(SearchText.key) }
        out += QueryWords.areaSuffixes(name).map(SearchText.key)
        return out
    }

    /// A station's name with the generic suffix as docs/places.md states it: + 역 (its key, 초성,
    /// romanisations), and its Latin spellings + station / stn.
    static func suffixed(_ name: String) -> [[UInt8]] {
        let yeok = name + "역"
        let latin = [SearchText.key(name), SearchText.romanizedKey(name) ?? [], SearchText.revisedRomanizationKey(name) ?? []]
        return [SearchText.key(yeok), SearchText.initialsKey(yeok) ?? [], SearchText.romanizedKey(yeok) ?? [], SearchText.revisedRomanizationKey(yeok) ?? []]
            + latin.flatMap { [$0 + Array("station".utf8), $0 + Array("stn".utf8)] }
    }

    @Test("A station outranks a shop of the same name")
    func importance() {
        #expect(PlaceKind.station.importance > PlaceKind.shop.importance)
        // one rank per kind, but a named junction ranks with a bus stop (both are where you stand by the road)
        #expect(PlaceKind.allCases.filter { $0 != .junction }.map(\.importance).sorted() == Array(1...9))
        #expect(PlaceKind.junction.importance == PlaceKind.busStop.importance)
    }

    @Test("Bad queries are typed errors", .enabled(if: PlacesData.run))
    func badQueries() throws {
        let index = try PlacesData.index("seoul_mapo.osm.pbf")
        #expect { try index.search("") } throws: { ($0 as? GeoFareError)?.code == .queryEmpty }
        #expect { try index.search(" -·,. ") } throws: { ($0 as? GeoFareError)?.code == .queryEmpty }
        #expect { try index.search(String(repeating: "공", count: 90)) } throws: { ($0 as? GeoFareError)?.code == .queryTooLong }
        #expect { try index.search(utf8: [0xEA, 0xB3]) } throws: { ($0 as? GeoFareError)?.code == .invalidUtf8 }
        #expect { try index.search("공덕", limit: 0) } throws: { ($0 as? GeoFareError)?.code == .outOfRange }
        #expect(try index.search(utf8: Array("공덕".utf8)).first?.place.name.hasPrefix("공덕") == true)
        let at = try Coordinate(latitude: 37.5445, longitude: 126.9515)
        #expect { try index.reverse(at, radiusMeters: 0) } throws: { ($0 as? GeoFareError)?.code == .outOfRange }
        #expect { try index.reverse(at, radiusMeters: 5_001) } throws: { ($0 as? GeoFareError)?.code == .outOfRange }
    }
}
