import Foundation
import GeoFarePlaces
import Testing

/// The key rule: what a query must match as a prefix, and what must not match.
struct SearchTextTests {
    static func starts(_ name: String, _ query: String) -> Bool {
        let k = SearchText.key(name), q = SearchText.key(query)
        return !q.isEmpty && k.starts(with: q)
    }

    @Test("A query typed on the way to a name is a prefix of its key", arguments: [
        ("공덕역", "공덕"), ("공덕역", "공더"), ("공덕역", "공ㄷ"), ("공덕역", "고"), ("공덕역", "공덕ㅇ"),
        ("서면", "섬"), ("서면", "서며"), ("과천", "고"), ("과천", "과ㅊ"), ("닭갈비", "달"), ("닭갈비", "닭ㄱ"),
        ("서면역", "서면 역"), ("서면 역", "서면역"), ("Gongdeok Station", "gongdeok st"), ("Café Ölk", "cafe olk"),
        ("ＧＳ２５ 공덕점", "gs25공덕"), ("St. Mark's Place", "st marks"),
    ])
    func prefixes(_ pair: (String, String)) {
        #expect(Self.starts(pair.0, pair.1), "\(pair.1) should be a prefix of \(pair.0)")
    }

    /// The fast path of ``SearchText/nfkc(_:)`` (ASCII and Hangul syllables come back as they
    /// are) against Foundation's NFKC: fixed texts, including the ones that must change
    /// (full-width forms, compatibility and conjoining jamo, a decomposed é, ﬁ), and seeded
    /// random texts drawn from those characters and the fast path's own.
    @Test("nfkc equals Foundation's NFKC, fast path or not")
    func nfkcAgreesWithFoundation() {
        var texts = ["", "Starbucks 34th St", "공덕역 2번 출구", "ＧＳ２５ 공덕점", "ㄱㄷㅇ", "\u{1100}\u{1161}\u{11A8}", "Cafe\u{301}",
                     "ﬁve", "①", "가\u{11A8}", "350 Fifth Ave & W 34th St", "신촌로와 연세로 교차로"]
        let pool: [Unicode.Scalar] = ["a", "Z", "3", " ", "&", "가", "힣", "ㄱ", "ㅏ", "\u{1100}", "\u{1161}", "\u{11A8}", "\u{301}", "Ａ", "é", "ﬁ", "\u{3000}"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<500 {
            var t = String.UnicodeScalarView()
            for _ in 0..<8 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                t.append(pool[Int(state >> 33) % pool.count])
            }
            texts.append(String(t))
        }
        for t in texts {
            #expect(Array(SearchText.nfkc(t).unicodeScalars) == Array(t.precomposedStringWithCompatibilityMapping.unicodeScalars), "\(t.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("What is not a prefix stays apart", arguments: [("공덕역", "공도"), ("서면", "섬ㅁ"), ("과천", "가"), ("Gongdeok", "gongdoek"), ("마포", "ㅁㅍ")])
    func nonPrefixes(_ pair: (String, String)) {
        #expect(!Self.starts(pair.0, pair.1))
    }

    @Test("초성 and romanised keys")
    func initialsAndRoman() {
        #expect(SearchText.initialsKey("공덕역") == SearchText.key("ㄱㄷㅇ"))
        #expect(SearchText.initialsKey("GS25 공덕점") == Array("gs25ㄱㄷㅈ".utf8))
        #expect(SearchText.initialsKey("Starbucks") == nil)
        #expect(SearchText.romanizedKey("서면") == Array("seomyeon".utf8))
        #expect(SearchText.romanizedKey("합정역") == Array("hapjeongyeok".utf8))
        #expect(SearchText.isInitialsOnly(SearchText.key("ㄱㄷㅇ")))
        #expect(!SearchText.isInitialsOnly(SearchText.key("공ㄷ")))
        #expect(SearchText.key(" .,!? ").isEmpty)
        #expect(SearchText.laterWords("스타벅스 공덕역점") == ["공덕역점"])
        #expect(SearchText.laterWords("Burger Shop Jeonpo버거샵 전포") == ["Shop Jeonpo버거샵 전포", "Jeonpo버거샵 전포", "버거샵 전포", "전포"])
        #expect(SearchText.laterWords("GS25 공덕점") == ["공덕점"])
        #expect(SearchText.laterWords("공덕역") == [])
    }

    /// The Revised Romanization's own examples (2000 rules, chapter 3) and names from Seoul and Busan.
    @Test("Revised Romanization with its sound changes", arguments: [
        ("공덕역", "gongdeogyeok"), ("종로", "jongno"), ("합정", "hapjeong"), ("왕십리", "wangsimni"), ("독립문", "dongnimmun"),
        ("신림", "sillim"), ("신라", "silla"), ("백마", "baengma"), ("선릉", "seolleung"), ("별내", "byeollae"),
        ("울릉", "ulleung"), ("대관령", "daegwallyeong"), ("해돋이", "haedoji"), ("같이", "gachi"), ("좋고", "joko"), ("백암", "baegam"),
        ("놓다", "nota"), ("낳지", "nachi"), ("묵호", "mukho"), ("집현전", "jiphyeonjeon"), ("압구정", "apgujeong"),
        ("낙동강", "nakdonggang"), ("샛별", "saetbyeol"), ("울산", "ulsan"), ("구미", "gumi"), ("영동", "yeongdong"),
        ("옥천", "okcheon"), ("합덕", "hapdeok"), ("호법", "hobeop"), ("월곶", "wolgot"), ("벚꽃", "beotkkot"), ("한밭", "hanbat"),
        ("설악", "seorak"), ("칠곡", "chilgok"), ("임실", "imsil"), ("팔당", "paldang"),
        // units written apart (article 5, road names): no sound change across them after two syllables
        ("삼죽면", "samjukmyeon"), ("당산동", "dangsandong"), ("충청북도", "chungcheongbukdo"), ("독막로", "dongmakro"),
        ("종로구", "jongnogu"), ("만리재로", "mallijaero"), ("서면", "seomyeon"),
        // runs end at spaces, digits and Latin letters
        ("종로 3가", "jongno3ga"), ("GS25 신림역점", "gs25sillimyeokjeom"), ("공덕 역", "gongdeokyeok"),
    ])
    func revisedRomanization(_ pair: (String, String)) {
        #expect(SearchText.revisedRomanizationKey(pair.0) == Array(pair.1.utf8),
                "\(pair.0): \(String(decoding: SearchText.revisedRomanizationKey(pair.0) ?? [], as: UTF8.self))")
    }

    @Test("The letter-by-letter key stays as it was, for the spellings that follow the letters")
    func letterByLetter() {
        let pairs = [("공덕역", "gongdeokyeok"), ("종로", "jongro"), ("신림", "sinrim"), ("독립문", "dokripmun"), ("같이", "gati")]
        for (name, letters) in pairs {
            #expect(SearchText.romanizedKey(name) == Array(letters.utf8))
            #expect(SearchText.revisedRomanizationKey(name) != SearchText.romanizedKey(name), "\(name)")
        }
        #expect(SearchText.revisedRomanizationKey("Starbucks") == nil)
    }
}
