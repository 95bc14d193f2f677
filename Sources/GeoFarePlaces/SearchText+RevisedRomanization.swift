import Foundation

/// The Revised Romanization of Korean (문화관광부 고시 2000-8, "국어의 로마자 표기법") with the
/// sound changes it writes, as riders and signs spell names: 공덕역 → gongdeogyeok, 종로 → jongno,
/// 신림 → sillim, 왕십리 → wangsimni, 독립문 → dongnimmun.
///
/// Rules, between a syllable's final consonant and the next syllable's initial, inside a run of
/// Hangul syllables (a space, digit, Latin letter or punctuation ends a run, and nothing changes
/// across it):
/// - **liaison**: before a silent ㅇ the final is read as the next initial (공덕역 → gongdeogyeok,
///   of a cluster its second consonant: 읽어 → ilgeo; ㅎ is silent: 좋아 → joa); ㄷ and ㅌ before 이
///   are palatalised (같이 → gachi, 해돋이 → haedoji);
/// - **nasalisation**: a final ㄱ ㄷ ㅂ class before ㄴ or ㅁ becomes ng, n, m (국민 → gungmin,
///   합니다 → hamnida); ㄹ after any final but ㄴ and ㄹ is read ㄴ, and the final is nasalised too
///   (종로 → jongno, 독립 → dongnip, 왕십리 → wangsimni, 대관령 → daegwallyeong);
/// - **lateralisation**: ㄴ next to ㄹ, either order, and ㄹㄹ are ll (신라 → silla, 설날 → seollal,
///   울릉 → ulleung);
/// - **aspiration** where the Revised Romanization writes it: ㅎ before ㄱ ㄷ ㅈ (좋고 → joko,
///   놓다 → nota, 낳지 → nachi); a final ㄱ ㄷ ㅂ before ㅎ stays apart, as it does in nouns
///   (묵호 → mukho, 집현전 → jiphyeonjeon);
/// - the **initial and final forms**: ㄱ ㄷ ㅂ ㄹ are g d b r before a vowel and k t p l before a
///   consonant or at the end (구미 → gumi, 옥천 → okcheon, 설악 → seorak, 칠곡 → chilgok).
///
/// Not written, as the Revised Romanization says (article 5 and the road-name rules): the sound
/// changes between a name and the administrative or road unit after it: 도 시 군 구 읍 면 동 and
/// 대로 로 길, when at least two syllables come before (삼죽면 → samjukmyeon, 당산동 → dangsandong,
/// 독막로 → dongmakro, official Dongmak-ro; 종로 with one syllable before is jongno; the 2000
/// rules' own 신문로 → Sinmunno predates the road names, and its signs now say Sinmun-ro). Tensing
/// is never written. Not handled: the ㄴ inserted between the parts of a compound (학여울 is
/// hangnyeoul; here hagyeoul), which needs a dictionary.
extension SearchText {
    /// `text` romanised by the Revised Romanization with its sound changes (described above),
    /// other letters and digits as in ``key(_:)``: 종로3가 → jongno3ga. `nil` when `text` has no
    /// Hangul syllable.
    public static func revisedRomanizationKey(_ text: String) -> [UInt8]? {
        var out = String.UnicodeScalarView()
        var run: [(Int, Int, Int)] = []
        var sawSyllable = false
        for s in nfkc(text).unicodeScalars {
            if let syllable = syllable(s) {
                run.append(syllable)
                sawSyllable = true
            } else {
                appendRomanized(run, to: &out)
                run.removeAll(keepingCapacity: true)
                append(s, to: &out)
            }
        }
        appendRomanized(run, to: &out)
        return sawSyllable ? Array(String(out).utf8) : nil
    }

    /// Appends a run of syllables (leading, vowel, trailing indexes), split before a unit suffix.
    private static func appendRomanized(_ run: [(Int, Int, Int)], to out: inout String.UnicodeScalarView) {
        var end = run.count
        var words: [Range<Int>] = []
        suffixes: while end > 2 {
            for unit in unitSuffixes where end - unit.count >= 2 && zip(run[(end - unit.count)..<end], unit).allSatisfy({ $0.0 == $0.1 }) {
                words.append((end - unit.count)..<end)
                end -= unit.count
                continue suffixes
            }
            break
        }
        words.append(0..<end)
        for word in words.reversed() where !word.isEmpty { appendWord(run[word], to: &out) }
    }

    /// Appends one word: the first initial as written, each boundary by ``boundary(final:initial:vowel:)``.
    private static func appendWord(_ word: ArraySlice<(Int, Int, Int)>, to out: inout String.UnicodeScalarView) {
        out.append(contentsOf: romanLeading[word.first!.0].unicodeScalars)
        for i in word.indices {
            let (_, vowel, final) = word[i]
            out.append(contentsOf: romanVowel[vowel].unicodeScalars)
            if i + 1 < word.endIndex {
                let (coda, onset) = boundary(final: final, initial: word[i + 1].0, vowel: word[i + 1].1)
                out.append(contentsOf: coda.unicodeScalars)
                out.append(contentsOf: onset.unicodeScalars)
            } else {
                out.append(contentsOf: romanTrailing[final].unicodeScalars)
            }
        }
    }

    /// How a final consonant (trailing index, 0 for none) and the next syllable's initial
    /// (leading index) are written together, given the next vowel (index; 20 is ㅣ).
    static func boundary(final t: Int, initial l: Int, vowel v: Int) -> (String, String) {
        if t == 0 { return ("", romanLeading[l]) }
        if Trailing.withH.contains(t), l != Leading.silent, let onset = aspirated[l] {
            // ㅎ (alone or after ㄴ ㄹ) aspirates ㄱ ㄷ ㅈ, merges into ㅅ, and before ㄴ is read as it.
            if l == Leading.n { return t == Trailing.lh ? ("l", "l") : ("n", "n") }
            return (t == Trailing.h ? "" : t == Trailing.nh ? "n" : "l", onset)
        }
        switch l {
        case Leading.silent:
            if v == 20, t == Trailing.d { return ("", "j") }
            if v == 20, t == Trailing.t { return ("", "ch") }
            return liaison[t]
        case Leading.n, Leading.m:
            let nasal = romanLeading[l]
            switch FinalClass(t) {
            case .k: return ("ng", nasal)
            case .t: return ("n", nasal)
            case .p: return ("m", nasal)
            case .l: return l == Leading.n ? ("l", "l") : ("l", nasal)
            case .other: return (romanTrailing[t], nasal)
            }
        case Leading.r:
            switch FinalClass(t) {
            case .k: return ("ng", "n")
            case .t: return ("n", "n")
            case .p: return ("m", "n")
            case .l: return ("l", "l")
            case .other:
                if t == Trailing.ng { return ("ng", "n") }
                if t == Trailing.m || t == Trailing.lm { return ("m", "n") }
                return ("l", "l")  // ㄴ ㄵ ㄶ before ㄹ
            }
        default:
            return (romanTrailing[t], romanLeading[l])
        }
    }

    /// The class of a final consonant as it sounds before a consonant.
    enum FinalClass {
        /// ㄱ ㄲ ㅋ ㄳ ㄺ (k), ㄷ ㅅ ㅆ ㅈ ㅊ ㅌ ㅎ (t), ㅂ ㅍ ㅄ ㄿ (p), ㄹ ㄼ ㄽ ㄾ ㅀ (l).
        case k, t, p, l, other

        init(_ trailing: Int) {
            switch trailing {
            case 1, 2, 3, 9, 24: self = .k
            case 7, 19, 20, 22, 23, 25, 27: self = .t
            case 14, 17, 18, 26: self = .p
            case 8, 11, 12, 13, 15: self = .l
            default: self = .other
            }
        }
    }

    /// Leading consonant indexes used by the rules.
    enum Leading {
        static let g = 0, n = 2, d = 3, r = 5, m = 6, s = 9, silent = 11, j = 12
    }

    /// Trailing consonant indexes used by the rules.
    enum Trailing {
        static let nh = 6, d = 7, lm = 10, lh = 15, m = 16, ng = 21, t = 25, h = 27
        /// ㅎ, ㄶ, ㅀ.
        static let withH: Set<Int> = [6, 15, 27]
    }

    /// After ㅎ: ㄱ ㄷ ㅈ ㅅ ㄴ as written (ㄴ: see ``boundary(final:initial:vowel:)``).
    private static let aspirated: [Int: String] = [Leading.g: "k", Leading.d: "t", Leading.j: "ch", Leading.s: "s", Leading.n: "n"]

    /// Per trailing index, what stays written as the final and what moves to a silent ㅇ after it.
    private static let liaison: [(String, String)] = [
        ("", ""), ("", "g"), ("", "kk"), ("k", "s"), ("", "n"), ("n", "j"), ("", "n"), ("", "d"), ("", "r"), ("l", "g"),
        ("l", "m"), ("l", "b"), ("l", "s"), ("l", "t"), ("l", "p"), ("", "r"), ("", "m"), ("", "b"), ("p", "s"), ("", "s"),
        ("", "ss"), ("ng", ""), ("", "j"), ("", "ch"), ("", "k"), ("", "t"), ("", "p"), ("", ""),
    ]

    /// Administrative and road units written apart from the name before them, as syllable
    /// indexes, longest first: 대로, then 도 시 군 구 읍 면 동 로 길.
    private static let unitSuffixes: [[(Int, Int, Int)]] = ["대로", "도", "시", "군", "구", "읍", "면", "동", "로", "길"].map { unit in
        unit.unicodeScalars.map { syllable($0)! }
    }
}
