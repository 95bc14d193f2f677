import Foundation

/// The search keys of names and queries: one rule for both, so a query matches a name when its
/// key is a prefix of the name's key.
///
/// A key is the text in Unicode NFKC (full-width forms and compatibility jamo folded), lower-cased,
/// with diacritics, spaces, Hangul fillers, punctuation and symbols removed, and every Hangul syllable spelt as
/// its jamo in typing order (compatibility jamo, compound vowels and final clusters split:
/// 과 → ㄱㅗㅏ, 닭 → ㄷㅏㄹㄱ). So a query typed half-way through its last syllable is a prefix of
/// the name ("공더" and "공ㄷ" of 공덕역), and a final consonant that is the next syllable's first
/// ("섬", typed on the way to 서면) still is.
public enum SearchText {
    /// The longest query accepted, bytes of UTF-8.
    public static let maxQueryBytes = 256

    /// `text` in Unicode NFKC. Text of ASCII and precomposed Hangul syllables only (almost every
    /// query and name) is already NFKC and comes back as it is, without Foundation's
    /// normalisation (a bridge to NSString: most of a short query's search time before this).
    public static func nfkc(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy({ $0.value < 0x80 || (0xAC00...0xD7A3).contains($0.value) }) { return text }
        return text.precomposedStringWithCompatibilityMapping
    }

    /// The key of `text` (UTF-8 bytes), as described above; empty when nothing searchable is left.
    public static func key(_ text: String) -> [UInt8] {
        var out = String.UnicodeScalarView()
        for s in nfkc(text).unicodeScalars { append(s, to: &out) }
        return Array(String(out).utf8)
    }

    /// The initial consonants (초성) of `text`'s Hangul syllables, other letters and digits as in
    /// ``key(_:)``: 공덕역 → ㄱㄷㅇ. `nil` when `text` has no Hangul syllable.
    public static func initialsKey(_ text: String) -> [UInt8]? {
        var out = String.UnicodeScalarView()
        var sawSyllable = false
        for s in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            if let (l, _, _) = syllable(s) { out.append(scalar(leading[l])); sawSyllable = true } else { append(s, to: &out) }
        }
        return sawSyllable ? Array(String(out).utf8) : nil
    }

    /// `text` with its Hangul syllables romanised letter by letter (the Revised Romanization's
    /// letters without the sound changes between syllables: 공덕역 → gongdeokyeok, 종로 → jongro),
    /// other letters and digits as in ``key(_:)``. `nil` when `text` has no Hangul syllable.
    /// ``revisedRomanizationKey(_:)`` writes the sound changes.
    public static func romanizedKey(_ text: String) -> [UInt8]? {
        var out = String.UnicodeScalarView()
        var sawSyllable = false
        for s in nfkc(text).unicodeScalars {
            if let (l, v, t) = syllable(s) {
                out.append(contentsOf: romanLeading[l].unicodeScalars)
                out.append(contentsOf: romanVowel[v].unicodeScalars)
                out.append(contentsOf: romanTrailing[t].unicodeScalars)
                sawSyllable = true
            } else { append(s, to: &out) }
        }
        return sawSyllable ? Array(String(out).utf8) : nil
    }

    /// The later parts of a name that a query may start at: from the second word on, at most
    /// five (스타벅스 공덕역점 → [공덕역점]; Burger Shop Jeonpo버거샵 → [Shop Jeonpo버거샵, Jeonpo버거샵, 버거샵]).
    /// Words break at spaces, `·`, `-`, `(`, `/`, `,` and where Latin letters or digits meet Hangul.
    public static func laterWords(_ name: String) -> [String] {
        let chars = Array(name)
        func isSeparator(_ c: Character) -> Bool { c.isWhitespace || "·-(/,".contains(c) }
        let isHangul = StreetText.isHangul
        var starts: [Int] = []
        var sawWord = false
        for i in chars.indices where !isSeparator(chars[i]) {
            let boundary = i == 0 || isSeparator(chars[i - 1]) || (isHangul(chars[i]) != isHangul(chars[i - 1]) && (chars[i - 1].isASCII && (chars[i - 1].isLetter || chars[i - 1].isNumber) || chars[i].isASCII && (chars[i].isLetter || chars[i].isNumber)))
            if boundary {
                if sawWord { starts.append(i) }
                sawWord = true
            }
        }
        return starts.prefix(5).map { String(chars[$0...]) }
    }

    /// Whether a key is made of Hangul consonants only (a 초성 query such as ㄱㄷㅇ).
    public static func isInitialsOnly(_ key: [UInt8]) -> Bool {
        guard !key.isEmpty else { return false }
        return String(decoding: key, as: UTF8.self).unicodeScalars.allSatisfy { (0x3131...0x314E).contains($0.value) }
    }

    /// Whether a key is Hangul jamo only (a Hangul query, where one wrong jamo is tolerated).
    public static func isJamoOnly(_ key: [UInt8]) -> Bool {
        !key.isEmpty && String(decoding: key, as: UTF8.self).unicodeScalars.allSatisfy { (0x3131...0x3163).contains($0.value) }
    }

    /// The number of Hangul syllables in `text` (after NFKC, so conjoining jamo count once).
    public static func syllableCount(_ text: String) -> Int {
        nfkc(text).unicodeScalars.count { syllable($0) != nil }
    }

    /// Whether a key is ASCII letters and digits only (where one typo is tolerated).
    public static func isLatin(_ key: [UInt8]) -> Bool {
        !key.isEmpty && key.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) }
    }

    // MARK: - Scalars

    /// Appends `s` as ``key(_:)`` spells it (a syllable as its jamo, ASCII lower-cased, punctuation dropped).
    static func append(_ s: Unicode.Scalar, to out: inout String.UnicodeScalarView) {
        let v = s.value
        if fillers.contains(v) { return }
        if let (l, vowel, t) = syllable(s) {
            out.append(scalar(leading[l]))
            appendVowel(0x314F + UInt32(vowel), to: &out)
            if t > 0 { appendConsonant(trailing[t - 1], to: &out) }
        } else if (0x1100...0x1112).contains(v) {
            out.append(scalar(leading[Int(v - 0x1100)]))
        } else if (0x1161...0x1175).contains(v) {
            appendVowel(0x314F + (v - 0x1161), to: &out)
        } else if (0x11A8...0x11C2).contains(v) {
            appendConsonant(trailing[Int(v - 0x11A8)], to: &out)
        } else if (0x3131...0x314E).contains(v) {
            appendConsonant(v, to: &out)
        } else if (0x314F...0x3163).contains(v) {
            appendVowel(v, to: &out)
        } else if v < 0x80 {
            // ASCII: letters lower-cased, digits kept, the rest (spaces, punctuation) dropped.
            if v >= 0x41 && v <= 0x5A { out.append(scalar(v + 0x20)) } else if (v >= 0x61 && v <= 0x7A) || (v >= 0x30 && v <= 0x39) { out.append(s) }
        } else if s.properties.isAlphabetic || s.properties.numericType != nil {
            // Other letters: lower-cased, without their combining marks (é → e).
            for d in String(s).lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
            where d.properties.generalCategory != .nonspacingMark && d.properties.generalCategory != .spacingMark {
                out.append(d)
            }
        }
    }

    /// The Hangul fillers (choseong, jungseong, compatibility and half-width): letters to
    /// Unicode, blanks to a reader, so dropped like spaces (U+3164 alone is `query_empty`).
    static let fillers: Set<UInt32> = [0x115F, 0x1160, 0x3164, 0xFFA0]

    /// (leading, vowel, trailing) indexes of a precomposed Hangul syllable (trailing 0: none).
    @inline(__always)
    static func syllable(_ s: Unicode.Scalar) -> (Int, Int, Int)? {
        guard (0xAC00...0xD7A3).contains(s.value) else { return nil }
        let i = Int(s.value - 0xAC00)
        return (i / 588, (i % 588) / 28, i % 28)
    }

    @inline(__always) private static func scalar(_ v: UInt32) -> Unicode.Scalar { Unicode.Scalar(v)! }

    private static func appendConsonant(_ v: UInt32, to out: inout String.UnicodeScalarView) {
        if let pair = clusters[v] { out.append(scalar(pair.0)); out.append(scalar(pair.1)) } else { out.append(scalar(v)) }
    }

    private static func appendVowel(_ v: UInt32, to out: inout String.UnicodeScalarView) {
        if let pair = compoundVowels[v] { out.append(scalar(pair.0)); out.append(scalar(pair.1)) } else { out.append(scalar(v)) }
    }

    /// Compatibility jamo of the 19 leading consonants (ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ).
    private static let leading: [UInt32] = [0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141, 0x3142, 0x3143, 0x3145,
                                            0x3146, 0x3147, 0x3148, 0x3149, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E]
    /// Compatibility jamo of the 27 trailing consonants, in Unicode's order (ㄱ ㄲ ㄳ ㄴ ㄵ ㄶ ㄷ ㄹ ㄺ ... ㅎ).
    private static let trailing: [UInt32] = [0x3131, 0x3132, 0x3133, 0x3134, 0x3135, 0x3136, 0x3137, 0x3139, 0x313A, 0x313B,
                                             0x313C, 0x313D, 0x313E, 0x313F, 0x3140, 0x3141, 0x3142, 0x3144, 0x3145, 0x3146,
                                             0x3147, 0x3148, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E]
    /// Final clusters as the two consonants typed (ㄳ → ㄱ ㅅ, ㄺ → ㄹ ㄱ, ...).
    private static let clusters: [UInt32: (UInt32, UInt32)] = [
        0x3133: (0x3131, 0x3145), 0x3135: (0x3134, 0x3148), 0x3136: (0x3134, 0x314E), 0x313A: (0x3139, 0x3131),
        0x313B: (0x3139, 0x3141), 0x313C: (0x3139, 0x3142), 0x313D: (0x3139, 0x3145), 0x313E: (0x3139, 0x314C),
        0x313F: (0x3139, 0x314D), 0x3140: (0x3139, 0x314E), 0x3144: (0x3142, 0x3145),
    ]
    /// Compound vowels as the two vowels typed (ㅘ → ㅗ ㅏ, ...).
    private static let compoundVowels: [UInt32: (UInt32, UInt32)] = [
        0x3158: (0x3157, 0x314F), 0x3159: (0x3157, 0x3150), 0x315A: (0x3157, 0x3163), 0x315D: (0x315C, 0x3153),
        0x315E: (0x315C, 0x3154), 0x315F: (0x315C, 0x3163), 0x3162: (0x3161, 0x3163),
    ]
    static let romanLeading = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
    static let romanVowel = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi",
                                     "yu", "eu", "ui", "i"]
    static let romanTrailing = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t",
                                        "t", "ng", "t", "t", "k", "t", "p", "t"]
}
