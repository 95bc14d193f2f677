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
}
