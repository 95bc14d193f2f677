import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// One wrong jamo in a Korean query of three or more syllables, drawn from the extracts' names.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct HangulTypoTests {
    /// The jamo of a key (3 bytes each), for the edit distance.
    static func jamo(_ text: String) -> [[UInt8]] {
        let key = SearchText.key(text)
        return stride(from: 0, to: key.count, by: 3).map { Array(key[$0..<min($0 + 3, key.count)]) }
    }

    /// Optimal string alignment distance (one transposition of neighbours counts as one edit).
    static func distance(_ a: [[UInt8]], _ b: [[UInt8]]) -> Int {
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }

    /// A name with one of its syllables' leading consonant, vowel or final changed (a final
    /// dropped or added too), kept when that is exactly one jamo away.
    static func misspelt(_ name: String, using rng: inout SeededGenerator) -> String? {
        var scalars = Array(name.unicodeScalars)
        let syllables = scalars.indices.filter { (0xAC00...0xD7A3).contains(scalars[$0].value) }
        guard let at = syllables.randomElement(using: &rng) else { return nil }
        let i = Int(scalars[at].value - 0xAC00)
        var (l, v, t) = (i / 588, (i % 588) / 28, i % 28)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: l = (l + Int.random(in: 1..<19, using: &rng)) % 19
        case 1: v = (v + Int.random(in: 1..<21, using: &rng)) % 21
        default: t = t == 0 ? [1, 4, 8, 16, 17, 21].randomElement(using: &rng)! : 0
        }
        let code: Int = 0xAC00 + l * 588 + v * 28 + t
        scalars[at] = Unicode.Scalar(UInt32(code))!
        let typed = String(String.UnicodeScalarView(scalars))
        return distance(jamo(typed), jamo(name)) == 1 ? typed : nil
    }

    @Test("A Korean name of three or more syllables with one jamo wrong finds its place, as a typo", arguments: RomanizationTests.korean)
    func oneJamo(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        var rng = SeededGenerator(seed: 23)
        var tried = 0
        for place in PlaceSearchTests.sample(index, 800, seed: 29) {
            guard let name = place.names.first(where: { n in
                n.value.unicodeScalars.allSatisfy { (0xAC00...0xD7A3).contains($0.value) } && SearchText.syllableCount(n.value) >= 3
            })?.value, let typed = Self.misspelt(name, using: &rng) else { continue }
            // a change that makes another name's start is that name's match, not a typo (the rule)
            if try index.search(typed, limit: 1, typos: false).first.map({ $0.quality >= .prefix }) == true { continue }
            tried += 1
            #expect(try PlaceSearchTests.found(index, typed, place, quality: .typo), "\(extract): '\(typed)' does not find '\(name)'")
            let results = try index.search(typed, limit: 100)
            #expect(results.allSatisfy { (r: PlaceMatch) in r.quality < MatchQuality.prefix }, "\(extract): '\(typed)'")
        }
        print("\(extract): \(tried) Korean names with one jamo wrong")
        #expect(tried >= 40, "\(extract): only \(tried)")
    }

    @Test("Below three syllables, and when the query starts a name, no typo is looked for; typos rank below exact and prefix matches")
    func threshold() throws {
        let index = try PlacesData.index("seoul_mapo.osm.pbf")
        // 공덕 with ㅓ changed to ㅗ: two syllables, not corrected
        #expect(try index.search("공독").allSatisfy { $0.quality != .typo })
        // three syllables: 공덕역 with ㄱ of 역 made ㅇ (공덕영), and with the vowel of 덕 changed (공독역)
        for typed in ["공덕영", "공독역"] {
            let results = try index.search(typed, limit: 20)
            #expect(results.contains { $0.place.name == "공덕역" && $0.quality == .typo }, "\(typed): \(results.map(\.place.name))")
        }
        // the same query spelt right ranks exact first, and nothing is a typo
        let right = try index.search("공덕역", limit: 20)
        #expect(right.first?.quality == .exact && right.allSatisfy { $0.quality != .typo })
    }
}
