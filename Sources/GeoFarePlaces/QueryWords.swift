import Foundation
import GeoFareCore
import GeoFareData

/// The words riders type around a place, and the other ways of writing a name, as data
/// (`Data/places/query-words.json`): one reader for names, addresses, intersections and stations.
///
/// A search tries the query as typed first (``PlacesIndex/find(_:near:limit:typos:)``); when
/// that finds no name start, address, intersection or category, it tries the ``variants(of:)``
/// in order and keeps the first that does, reporting the words it left out. The index builder
/// writes the same tables into the names' keys (``nameForms(_:)``, ``areaSuffixes(_:)``), so a
/// name and a query meet in the middle: `Ewha Womans Univ. Station gate 2` and `Ewha Womans
/// University Station Exit 2` have one key.
public enum QueryWords {
    struct Words: Decodable, Sendable {
        /// Words before and after a place, English and Korean.
        struct Around: Decodable, Sendable { var before_en, after_en, before_ko, after_ko: [String] }
        /// Korean branch suffixes (점) and the regions a branch word may start with (부산서면점).
        struct Branches: Decodable, Sendable { var suffixes_ko, region_prefixes_ko: [String] }
        /// Abbreviation → the word written out.
        struct Abbreviations: Decodable, Sendable { var en, ko: [String: String] }
        /// Korean words of a place's kind: an area's (공원), a junction's (교차로), an exit's (출구),
        /// and a park's inner words (어린이공원).
        struct KindWords: Decodable, Sendable { var area, intersection, exit, park_inner: [String] }
        var around: Around
        var branches: Branches
        var abbreviations: Abbreviations
        var kind_words_ko: KindWords
    }

    /// `Data/places/query-words.json` as embedded in the binary.
    static let words = EmbeddedData.decode("places/query-words.json", as: Words.self)

    /// Phrases as lists of lower-cased words, longest first (so `in front of` is tried before `in`).
    static let beforeEN = phrases(words.around.before_en), afterEN = phrases(words.around.after_en)
    static let beforeKO = Set(words.around.before_ko), afterKO = Set(words.around.after_ko)
    static let abbreviationsEN = words.abbreviations.en
    /// Korean word endings written out, longest first (`여대` before `대`).
    static let abbreviationsKO = words.abbreviations.ko.sorted { $0.key.count > $1.key.count }
    static let intersectionWordsKO = Set(words.kind_words_ko.intersection)
    /// The keys of the words around a place, each phrase alone (`infrontof`, `앞`): a query that
    /// is one of them names no place (`query_empty`).
    static let aroundKeys: Set<[UInt8]> = Set((words.around.before_en + words.around.after_en + words.around.before_ko + words.around.after_ko)
        .map(SearchText.key).filter { !$0.isEmpty })

    private static func phrases(_ list: [String]) -> [[String]] {
        list.map { $0.lowercased().split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }
    }

    /// One way of reading a query: the text to search and the words it leaves out.
    public struct Variant: Sendable, Equatable {
        public var text: String
        public var ignored: [String]
        /// Whether it leaves out a word of the place's name itself (the last resort): tried only
        /// when the query as typed found nothing at all.
        public var dropsNameWord = false
    }

    /// The query without the words around the place (`서면역 7번출구 앞` → `서면역 7번출구`,
    /// `in front of Pace University` → `Pace University`), and those words in query order.
    public static func withoutAroundWords(_ query: String) -> Variant {
        var tokens = query.split(whereSeparator: \.isWhitespace).map(String.init)
        var before: [String] = [], after: [String] = []
        var changed = true
        while changed && !tokens.isEmpty {
            changed = false
            let lower = tokens.map { $0.lowercased().trimmingCharacters(in: .punctuationCharacters) }
            for phrase in beforeEN where phrase.count <= tokens.count {
                if Array(lower.prefix(phrase.count)) == phrase {
                    before += tokens.prefix(phrase.count)
                    tokens.removeFirst(phrase.count)
                    changed = true
                    break
                }
            }
            if changed { continue }
            if let first = lower.first, beforeKO.contains(first) {
                before.append(tokens.removeFirst())
                changed = true
                continue
            }
            for phrase in afterEN where phrase.count <= tokens.count {
                if Array(lower.suffix(phrase.count)) == phrase {
                    after.insert(contentsOf: tokens.suffix(phrase.count), at: 0)
                    tokens.removeLast(phrase.count)
                    changed = true
                    break
                }
            }
            if changed { continue }
            if let last = lower.last, afterKO.contains(last) {
                after.insert(tokens.removeLast(), at: 0)
                changed = true
            }
        }
        return Variant(text: tokens.joined(separator: " "), ignored: before + after)
    }

    /// The other readings of `query` to try when it finds nothing as typed, in order: without
    /// the words around the place; with its abbreviations written out (`Univ` → University,
    /// `연세대` → 연세대학교, `gate` → exit); without a branch suffix (`서면점` → 서면, `애오개역점` →
    /// 애오개); with `역` before a station exit (`서면 7번 출구` → 서면역 7번출구); two streets joined
    /// (`신촌로 연세로 사거리` → `신촌로 & 연세로`); without `and` between words (`Allen and
    /// Delancey`, as OSM writes `Allen & Delancey`); and its two words swapped (`신촌 현대백화점`).
    public static func variants(of query: String) -> [Variant] {
        let core = withoutAroundWords(query)
        var out: [Variant] = []
        func add(_ text: String) {
            let t = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            guard !t.isEmpty, t != query, !out.contains(where: { $0.text == t }) else { return }
            out.append(Variant(text: t, ignored: core.ignored))
        }
        if !core.ignored.isEmpty { add(core.text) }
        let tokens = core.text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !tokens.isEmpty else { return out }
        let expanded = tokens.map(writtenOut)
        add(expanded.joined(separator: " "))
        // A branch: the last word without its suffix (and a station's 역 before it).
        if let last = expanded.last, let stem = withoutBranchSuffix(last) {
            add((expanded.dropLast() + [stem]).joined(separator: " "))
            if stem.hasSuffix("역"), stem.count > 2 { add((expanded.dropLast() + [String(stem.dropLast())]).joined(separator: " ")) }
        }
        // A station exit without 역: `서면 7번 출구` → `서면역 7번출구`.
        if let exit = stationExit(tokens) { add(exit) }
        // Two streets without a joiner.
        var streets = tokens
        if let last = streets.last, intersectionWordsKO.contains(last) { streets.removeLast() }
        if streets.count == 2, streets.allSatisfy(isKoreanStreet) { add("\(streets[0]) & \(streets[1])") }
        // `and` between words that are not two streets' (a branch `Allen & Delancey`).
        if tokens.count >= 3, tokens.contains(where: { $0.lowercased() == "and" }) {
            add(tokens.filter { $0.lowercased() != "and" }.joined(separator: " "))
        }
        if expanded.count == 2 { add("\(expanded[1]) \(expanded[0])") }
        // Two English streets without a joiner (`Bowery Delancey`, `7th Ave 34th St`): each split.
        if (2...4).contains(tokens.count), tokens.allSatisfy({ $0.allSatisfy(\.isASCII) }) {
            for cut in 1..<tokens.count { add(tokens[..<cut].joined(separator: " ") + " & " + tokens[cut...].joined(separator: " ")) }
        }
        // Last: the place without its last word (`이마트 신촌점`, `다이소 신촌`: a branch or an area
        // the index has no name for), that word left out too.
        if tokens.count >= 2 {
            let t = tokens.dropLast().joined(separator: " ")
            if !out.contains(where: { $0.text == t }) { out.append(Variant(text: t, ignored: core.ignored + [tokens.last!], dropsNameWord: true)) }
        }
        return out
    }

    /// A word with its abbreviation written out: an English word of the table (`Univ.` →
    /// `university`), or a Korean word whose ending is (`연세대` → `연세대학교`, `이화여대` →
    /// `이화여자대학교`; the rest of the word at least two syllables).
    static func writtenOut(_ word: String) -> String {
        let bare = word.lowercased().trimmingCharacters(in: .punctuationCharacters)
        if let full = abbreviationsEN[bare] { return full }
        guard word.unicodeScalars.allSatisfy({ (0xAC00...0xD7A3).contains($0.value) }) else { return word }
        for (short, full) in abbreviationsKO where word.hasSuffix(short) && word.count - short.count >= 2 {
            return String(word.dropLast(short.count)) + full
        }
        return word
    }

    /// `word` without a Korean branch suffix (`서면점` → 서면, `서면남지점` → 서면남), or `nil`.
    static func withoutBranchSuffix(_ word: String) -> String? {
        for suffix in words.branches.suffixes_ko where word.hasSuffix(suffix) && word.count > suffix.count + 1 {
            return String(word.dropLast(suffix.count))
        }
        return nil
    }

    /// `[name, N번, 출구]` or `[name, N번출구]` (name without 역) as `name역 N번출구`, or `nil`.
    static func stationExit(_ tokens: [String]) -> String? {
        let joined = tokens.dropFirst().joined()
        guard tokens.count >= 2, let name = tokens.first, !name.hasSuffix("역"),
              let exitWord = words.kind_words_ko.exit.first(where: { joined.hasSuffix($0) }) else { return nil }
        let number = joined.dropLast(exitWord.count).replacingOccurrences(of: "번", with: "")
        guard !number.isEmpty, number.allSatisfy(\.isNumber) else { return nil }
        return "\(name)역 \(number)번출구"
    }

    /// A Korean street name: Hangul ending in 로, 길 or 대로 (`신촌로`, `동천로`, `중앙대로`).
    static func isKoreanStreet(_ word: String) -> Bool {
        word.count >= 2 && (word.hasSuffix("로") || word.hasSuffix("길")) && word.unicodeScalars.allSatisfy { (0xAC00...0xD7A3).contains($0.value) || ("0"..."9").contains($0) }
    }

    // MARK: Names

    /// The other forms of a name the index keys besides the name itself: its abbreviations
    /// written out (`Ewha Womans Univ. Station gate 2` → `ewha womans university station exit 2`),
    /// and a branch word without its region (`다이소 부산서면점` → `다이소 서면점`). Empty when none.
    public static func nameForms(_ name: String) -> [String] {
        let tokens = name.split(whereSeparator: \.isWhitespace).map(String.init)
        var out: [String] = []
        let english = tokens.map { word -> String in
            let bare = word.lowercased().trimmingCharacters(in: .punctuationCharacters)
            return abbreviationsEN[bare] ?? word
        }
        if english != tokens { out.append(english.joined(separator: " ")) }
        // `롯데백화점 부산본점 (서면)` → `롯데백화점 서면`: the name with what its parentheses say.
        if tokens.count >= 2, let open = name.firstIndex(of: "("), let close = name.lastIndex(of: ")"), open < close {
            let inner = name[name.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            if !inner.isEmpty { out.append(tokens[0] + " " + inner) }
        }
        // `창천문화공원` → `창천공원`, `바람산어린이공원` → `바람산공원`: a park without its kind word.
        for inner in words.kind_words_ko.park_inner where name.contains(inner + "공원") && !name.hasPrefix(inner) {
            out.append(name.replacingOccurrences(of: inner + "공원", with: "공원"))
        }
        if tokens.count >= 2, let last = tokens.last, last.hasSuffix("점") || last.hasSuffix("DT") {
            for region in words.branches.region_prefixes_ko where last.hasPrefix(region) && last.count > region.count + 1 {
                out.append((tokens.dropLast() + [String(last.dropFirst(region.count))]).joined(separator: " "))
            }
        }
        return out
    }

    /// The shorter names inside a long Korean name of a park, market, hospital, campus or the
    /// like, that riders use for it (`부산시민공원` → 시민공원; `동의대학교서면한방병원` →
    /// 서면한방병원, …): every ending of the name's Hangul that ends with its kind's word and is
    /// four syllables or more, after at least two. Empty for other names.
    public static func areaSuffixes(_ name: String) -> [String] {
        let hangul = name.filter { $0.unicodeScalars.allSatisfy { (0xAC00...0xD7A3).contains($0.value) } }
        guard hangul.count >= 6, words.kind_words_ko.area.contains(where: { hangul.hasSuffix($0) }) else { return [] }
        let chars = Array(hangul)
        return (2...(chars.count - 4)).map { String(chars[$0...]) }
    }
}
