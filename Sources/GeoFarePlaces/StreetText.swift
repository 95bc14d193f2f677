import Foundation
import GeoFareCore
import GeoFareData

/// Street names and addresses as keys, one rule for OSM's tags and for queries: `W 34th St`,
/// `West 34th Street` and `west 34 street` are one street; `Fifth Avenue` and `5th Ave` too.
/// The words are data, `Data/places/street-words.json`.
///
/// A street key is the name without parenthesised parts (`신촌역길 (Sinchonyeokgil)` → 신촌역길),
/// split into words at spaces and punctuation, each word read through the file's tables
/// (direction `w` → `west`, type `st` → `street`, ordinal word `fifth` → `5th`, a bare number
/// `34` → `34th`), then joined and reduced to a ``SearchText`` key.
public enum StreetText {
    struct Words: Decodable, Sendable {
        var directions: [String: String]
        var street_types: [String: String]
        var ordinal_words: [String: Int]
        var unit_words: [String]
        var intersection_joiners: [String]
        var korean_intersection_joiners: [String]
        var korean_junction_words: [String]
    }

    /// `Data/places/street-words.json` as embedded in the binary.
    static let words = EmbeddedData.decode("places/street-words.json", as: Words.self)

    /// The words that end an address (`apt`, `suite`, `층`) and that join two streets (`&`, `and`).
    static let unitWords = Set(words.unit_words), intersectionJoiners = Set(words.intersection_joiners)
    /// The joiners of one ASCII symbol (`&`, `/`), and the ASCII words (`and`, `at`, `x`) as bytes.
    static let joinerSymbols: [UInt8] = words.intersection_joiners.filter { $0.utf8.count == 1 && !$0.first!.isLetter }.map { $0.utf8.first! }
    static let joinerWords: [[UInt8]] = words.intersection_joiners.filter { $0.allSatisfy { $0.isASCII && $0.isLetter } }.map { Array($0.utf8) }

    /// The key of a street name (OSM's `name`/`addr:street`, or a query's street part).
    public static func streetKey(_ name: String) -> [UInt8] {
        streetKey(words: tokens(withoutParentheses(name)))
    }

    /// The key of a street given as words (already split).
    static func streetKey(words ws: [String]) -> [UInt8] {
        let w = words
        var out = ""
        for t in ws {
            if let d = w.directions[t], ws.count > 1 { out += d; continue }
            if let s = w.street_types[t] { out += s; continue }
            if let n = w.ordinal_words[t] { out += ordinal(n); continue }
            if let n = Int(t), t.count <= 4, ws.count > 1 { out += ordinal(n); continue }
            out += t
        }
        return SearchText.key(out)
    }

    /// `1st`, `2nd`, `3rd`, `4th`, `11th`, `12th`, `13th`, `21st`, ...
    static func ordinal(_ n: Int) -> String {
        let tens = n % 100
        if (11...13).contains(tens) { return "\(n)th" }
        switch n % 10 {
        case 1: return "\(n)st"
        case 2: return "\(n)nd"
        case 3: return "\(n)rd"
        default: return "\(n)th"
        }
    }

    /// Lower-cased words of `text` (NFKC), split at spaces and punctuation.
    static func tokens(_ text: String) -> [String] {
        SearchText.nfkc(text).lowercased()
            .split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }

    static func withoutParentheses(_ s: String) -> String {
        guard s.contains("(") else { return s }
        var out = "", depth = 0
        for c in s {
            if c == "(" { depth += 1 } else if c == ")" { depth = max(0, depth - 1) } else if depth == 0 { out.append(c) }
        }
        return out
    }

    /// A house number as a key: its first part (up to a space, `,` or `;`: `50` of `50, 2층`), lower
    /// case (`50-1`, `12a`), or `nil` unless that part is a digit and then digits, letters a–z and `-`
    /// (`68번길 50` is a street in the number: not a number).
    public static func houseKey(_ number: String) -> [UInt8]? {
        let first = SearchText.nfkc(number).lowercased().split { $0 == "," || $0 == ";" || $0.isWhitespace }.first ?? ""
        let k = Array(first.utf8)
        guard let f = k.first, f >= 0x30 && f <= 0x39,
              k.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == UInt8(ascii: "-") }) else { return nil }
        return k
    }

    /// The leading digits of a house number key as a number (350 of `350a`, 50 of `50-1`).
    static func houseValue(_ key: [UInt8]) -> Int32 {
        var v: Int32 = 0
        for b in key {
            guard b >= 0x30 && b <= 0x39, v < 10_000_000 else { break }
            v = v * 10 + Int32(b - 0x30)
        }
        return v
    }

    /// One way to read a query as an address: street keys to try in order (a Korean address
    /// with its city and district before the road: the road alone too), the house number.
    struct AddressQuery: Sendable {
        var streets: [[UInt8]]
        var number: [UInt8]
        /// The number came first (`350 5th Ave`, the US order): its parity is the street side.
        var numberFirst: Bool
    }

    /// Whether a word is a house number: digits, an optional letter, an optional `-digits`.
    static func isHouseNumber(_ t: Substring) -> Bool {
        var i = t.startIndex, digits = 0
        while i < t.endIndex, t[i].isASCII, t[i].isNumber { i = t.index(after: i); digits += 1 }
        guard digits > 0 else { return false }
        if i < t.endIndex, t[i].isASCII, t[i].isLetter { i = t.index(after: i) }
        if i < t.endIndex, t[i] == "-" {
            i = t.index(after: i)
            var more = 0
            while i < t.endIndex, t[i].isASCII, t[i].isNumber { i = t.index(after: i); more += 1 }
            guard more > 0 else { return false }
        }
        return i == t.endIndex
    }

    /// The ways `query` may be an address (none when it has no digit): `350 5th Ave`, `350 Fifth
    /// Avenue, New York`, `151 W 34th St Apt 5`, `동천로 92`, `동천로92`, `부산 부산진구 중앙대로692번길 16`.
    static func addressQueries(_ query: String) -> [AddressQuery] {
        guard query.contains(where: { $0.isASCII && $0.isNumber }) else { return [] }
        var text = SearchText.nfkc(query).lowercased()
        // the part before a comma holds the street (`350 5th Ave, New York, NY`)
        if let comma = text.firstIndex(of: ","), text[..<comma].contains(where: { $0.isNumber }) { text = String(text[..<comma]) }
        var ts = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        // a Korean road and its number typed together: 동천로92 → 동천로 92
        if let last = ts.last, let lastHangul = last.lastIndex(where: { isHangul($0) }) {
            let tail = last[last.index(after: lastHangul)...]
            if !tail.isEmpty, isHouseNumber(tail) { ts[ts.count - 1] = String(last[...lastHangul]); ts.append(String(tail)) }
        }
        // an apartment, suite or floor part ends the address
        let units = unitWords
        if let cut = ts.indices.dropFirst(2).first(where: { i in
            let t = String(ts[i].drop(while: \.isPunctuation).reversed().drop(while: \.isPunctuation).reversed())
            return units.contains(t) || ts[i].hasPrefix("#") || (t.last.map { units.contains(String($0)) } ?? false && t.first?.isNumber == true)
        }) { ts = Array(ts[..<cut]) }
        guard ts.count >= 2 else { return [] }
        var out: [AddressQuery] = []
        if isHouseNumber(Substring(ts[0])) {
            let street = streetKey(words: ts.dropFirst().flatMap { tokens($0) })
            if !street.isEmpty, let n = houseKey(ts[0]) { out.append(AddressQuery(streets: [street], number: n, numberFirst: true)) }
        }
        if let last = ts.last, isHouseNumber(Substring(last)), let n = houseKey(last) {
            let words = ts.dropLast().map { tokens($0) }
            var streets: [[UInt8]] = []
            for i in words.indices {
                let k = streetKey(words: words[i...].flatMap { $0 })
                if !k.isEmpty, !streets.contains(k) { streets.append(k) }
            }
            if !streets.isEmpty { out.append(AddressQuery(streets: streets, number: n, numberFirst: false)) }
        }
        return out
    }

    /// The two streets of an intersection query, as word lists: `W 34th St & 7th Ave`, `34th and
    /// 7th`, `Broadway / Canal St`, `신촌로와 연세로 교차로`; `nil` when it is none.
    static func intersection(_ query: String) -> (a: [String], b: [String])? {
        // most queries are ASCII names with no joiner in them: said so without building strings
        if query.utf8.allSatisfy({ $0 < 0x80 }), !query.utf8.contains(where: { joinerSymbols.contains($0) }),
           !query.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).contains(where: { word in
               joinerWords.contains { $0.count == word.count && zip($0, word).allSatisfy { $0 == ($1 | 0x20) } }
           }) { return nil }
        let w = words
        var text = SearchText.nfkc(query).lowercased()
        // the joiners written without spaces (`34th&7th`) stand apart
        func isSymbol(_ c: Character) -> Bool { c.asciiValue.map(joinerSymbols.contains) ?? false }
        if text.contains(where: isSymbol) {
            text = text.reduce(into: "") { out, c in if isSymbol(c) { out += " \(c) " } else { out.append(c) } }
        }
        var ts = text.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard ts.count >= 2 else { return nil }
        // Korean: A와 B (교차로|사거리)
        if let last = ts.last, let suffix = w.korean_junction_words.first(where: { last.hasSuffix($0) }) {
            if last == suffix { ts.removeLast() } else { ts[ts.count - 1] = String(last.dropLast(suffix.count)) }
        }
        if ts.count >= 2, let j = w.korean_intersection_joiners.first(where: { ts[0].hasSuffix($0) && ts[0].count > $0.count }) {
            let a = tokens(String(ts[0].dropLast(j.count))), b = ts.dropFirst().flatMap { tokens($0) }
            if !a.isEmpty, !b.isEmpty { return (a, b) }
        }
        let joiners = intersectionJoiners
        guard let at = ts.indices.dropFirst().dropLast().first(where: { joiners.contains(ts[$0]) }) else { return nil }
        let a = ts[..<at].flatMap { tokens($0) }, b = ts[(at + 1)...].flatMap { tokens($0) }
        return a.isEmpty || b.isEmpty ? nil : (a, b)
    }

    /// The address line of `address` parts (`addr:*` without the prefix): `350 5th Avenue`, or
    /// for a street with Hangul `동천로 92`; `nil` without a house number and a street (or place).
    public static func addressLine(_ address: [(key: String, value: String)]) -> String? {
        func v(_ k: String) -> String? { address.first { $0.key == k }?.value }
        guard let n = v("housenumber"), let s = v("street") ?? v("place") else { return nil }
        return s.contains(where: isHangul) ? "\(s) \(n)" : "\(n) \(s)"
    }

    static func isHangul(_ c: Character) -> Bool {
        c.unicodeScalars.first.map { (0xAC00...0xD7A3).contains($0.value) } ?? false
    }
}
