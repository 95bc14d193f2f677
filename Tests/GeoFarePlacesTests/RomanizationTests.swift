import Foundation
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// The Revised Romanization key against the romanisations mappers tagged in the shared Korean
/// extracts, and searches by it for names that have no Latin tag.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct RomanizationTests {
    static let korean = ["seoul_mapo.osm.pbf", "busan_seomyeon_1km.osm.pbf"]

    /// The Korean name of a place (`name:ko`, else `name`) when it has a Hangul syllable.
    static func koreanName(_ place: Place) -> String? {
        let names = Dictionary(place.names, uniquingKeysWith: { a, _ in a })
        guard let name = names["name:ko"] ?? names["name"],
              name.unicodeScalars.contains(where: { (0xAC00...0xD7A3).contains($0.value) }) else { return nil }
        return name
    }

    /// Distinct (Korean name, tagged romanisation) pairs of both extracts for a tag.
    static func pairs(_ tag: String) throws -> [(String, String)] {
        var out: [(String, String)] = []
        for extract in korean {
            let index = try PlacesData.index(extract)
            var seen = Set<[String]>()
            for i in 0..<index.count {
                let place = index.place(at: i)
                guard let name = koreanName(place), let tagged = place.names.first(where: { $0.key == tag })?.value,
                      seen.insert([name, tagged]).inserted else { continue }
                out.append((name, tagged))
            }
        }
        return out
    }

    /// How often a romanisation of the Korean name equals the tagged one, compared as search keys
    /// (case, spaces, hyphens and punctuation ignored; no word stripped).
    static func agreement(_ pairs: [(String, String)], _ romanize: (String) -> [UInt8]?) -> Double {
        Double(pairs.count { romanize($0.0) == SearchText.key($0.1) }) / Double(pairs.count)
    }

    @Test("The Revised Romanization key agrees with name:ko-Latn and name:en more often than the letter-by-letter key", arguments: [
        // tag, the agreement the Revised Romanization reaches and the letter-by-letter key does not
        ("name:ko-Latn", 0.81), ("name:en", 0.42),
    ])
    func agreementWithTags(_ tag: String, _ threshold: Double) throws {
        let pairs = try Self.pairs(tag)
        #expect(pairs.count >= 300, "\(tag): only \(pairs.count) pairs")
        let rr = Self.agreement(pairs, SearchText.revisedRomanizationKey)
        let letters = Self.agreement(pairs, SearchText.romanizedKey)
        let either = Double(pairs.count { [SearchText.revisedRomanizationKey($0.0), SearchText.romanizedKey($0.0)].contains(SearchText.key($0.1)) }) / Double(pairs.count)
        print("romanisation agreement, \(tag), \(pairs.count) pairs: revised \(rr), letter by letter \(letters), either \(either)")
        #expect(rr >= threshold, "\(tag): \(rr)")
        #expect(letters < threshold, "\(tag): \(letters)")
    }

    @Test("The Revised Romanization of a name without a Latin tag finds its place, whole and as a prefix", arguments: korean)
    func searchByRomanization(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        var tried = 0
        for i in 0..<index.count {
            let place = index.place(at: i)
            guard !place.names.contains(where: { $0.value.unicodeScalars.contains { $0.isASCII && $0.properties.isAlphabetic } }),
                  let name = Self.koreanName(place), let rr = SearchText.revisedRomanizationKey(name),
                  rr != SearchText.romanizedKey(name), rr.count <= 200 else { continue }
            tried += 1
            let query = String(decoding: rr, as: UTF8.self)
            #expect(try PlaceSearchTests.found(index, query, place, quality: .exact), "\(extract): '\(query)' does not find '\(name)'")
            let results = try index.search(query, limit: 100)
            if let hit = results.first(where: { $0.place.index == place.index }) {
                #expect(hit.matchedForm == "romanized", "\(extract): '\(query)' matched \(hit.matchedForm)")
            }
            let half = String(query.prefix(max(3, query.count * 2 / 3)))
            #expect(try PlaceSearchTests.found(index, half, place, quality: .prefix), "\(extract): '\(half)' does not find '\(name)'")
        }
        print("\(extract): \(tried) names without a Latin tag searched by their Revised Romanization")
        #expect(tried >= 20, "\(extract): only \(tried) names")
    }
}
