import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// What riders type around a place (issue 45): words before and after a name, branches,
/// abbreviations and station exits, names inside names, two streets without a joiner. 79 rider
/// queries on the shared Seoul, Busan and Manhattan extracts, each target tagged in the extract
/// and found by its own name, each asked from a point 500 m away (before issue 45: 12 of 79 in
/// the first three).
@Suite(.serialized, .enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct RiderWordsTests {
    enum Target { case places([String]), streets([String]) }

    static let queries: [(kind: String, extract: String, query: String, lat: Double, lon: Double, target: Target)] = [
        ("words", "busan_seomyeon_1km.osm.pbf", "서면역 7번출구 앞", 35.160474, 129.0618, .places(["n8265954350"])),
        ("words", "busan_seomyeon_1km.osm.pbf", "롯데백화점 건너편", 35.157238, 129.060415, .places(["w244148032"])),
        ("words", "busan_seomyeon_1km.osm.pbf", "NC백화점 근처", 35.156983, 129.058212, .places(["w471350489"])),
        ("words", "busan_seomyeon_1km.osm.pbf", "맥도날드 서면3호점 24시", 35.158292, 129.057853, .places(["n5084910424"])),
        ("words", "busan_seomyeon_1km.osm.pbf", "서면시장 입구", 35.158624, 129.061825, .places(["w244282514"])),
        ("words", "seoul_mapo.osm.pbf", "공덕시장 입구", 37.548434, 126.951066, .places(["w469604274"])),
        ("words", "seoul_mapo.osm.pbf", "세브란스병원 뒤", 37.559226, 126.942876, .places(["w369559505"])),
        ("words", "seoul_mapo.osm.pbf", "이대역 2번출구 앞", 37.552887, 126.948062, .places(["n3404904819"])),
        ("words", "seoul_mapo.osm.pbf", "숙명여자대학교 앞", 37.547554, 126.960297, .places(["w222002669"])),
        ("words", "seoul_mapo.osm.pbf", "24시 다이소 신촌", 37.554333, 126.940984, .places(["n5582345422", "n5896910485"])),
        ("words", "nyc_lower_manhattan.osm.pbf", "in front of Pace University", 40.712628, -73.998879, .places(["w891074473"])),
        ("words", "nyc_lower_manhattan.osm.pbf", "opposite Essex Market", 40.715517, -73.992757, .places(["w690624940"])),
        ("words", "nyc_lower_manhattan.osm.pbf", "near Tompkins Square Park", 40.722509, -73.984962, .places(["w25162896"])),
        ("words", "nyc_midtown_south.osm.pbf", "in front of Chelsea Market", 40.74404, -74.001247, .places(["n4236846690", "n1272608999"])),
        ("words", "nyc_midtown_south.osm.pbf", "opposite Madison Square Park", 40.746535, -73.986278, .places(["w22899286"])),
        ("words", "nyc_midtown_south.osm.pbf", "corner of Bryant Park", 40.750039, -73.984905, .places(["w22727025"])),
        ("branch", "busan_seomyeon_1km.osm.pbf", "롯데백화점 서면점", 35.157238, 129.060415, .places(["w244148032"])),
        ("branch", "busan_seomyeon_1km.osm.pbf", "홈플러스 서면점", 35.153175, 129.061361, .places(["w471352705"])),
        ("branch", "busan_seomyeon_1km.osm.pbf", "홈플러스 서면", 35.153175, 129.061361, .places(["w471352705"])),
        ("branch", "busan_seomyeon_1km.osm.pbf", "맥도날드 범전DT점", 35.161355, 129.06179, .places(["n12759210151"])),
        ("branch", "busan_seomyeon_1km.osm.pbf", "다이소 서면점", 35.158149, 129.056883, .places(["n5084862096"])),
        ("branch", "busan_seomyeon_1km.osm.pbf", "하나은행 서면남지점", 35.157017, 129.058998, .places(["n5104415139"])),
        ("branch", "busan_seomyeon_1km.osm.pbf", "CGV 서면점", 35.15343, 129.061565, .places(["n368634170"])),
        ("branch", "seoul_mapo.osm.pbf", "신촌 현대백화점", 37.55475, 126.941528, .places(["w227814148"])),
        ("branch", "seoul_mapo.osm.pbf", "스타벅스 애오개역점", 37.551142, 126.949826, .places(["n4489660477"])),
        ("branch", "seoul_mapo.osm.pbf", "이마트 신촌점", 37.553986, 126.941659, .places(["n8137943364"])),
        ("branch", "nyc_lower_manhattan.osm.pbf", "Starbucks Allen and Delancey", 40.715898, -73.993803, .places(["n1917136131"])),
        ("branch", "nyc_lower_manhattan.osm.pbf", "Uniqlo Soho", 40.719022, -73.997674, .places(["n1241281004"])),
        ("branch", "nyc_midtown_south.osm.pbf", "Whole Foods Bryant Park", 40.750179, -73.985387, .places(["n4665840837"])),
        ("branch", "nyc_midtown_south.osm.pbf", "Barnes and Noble Union Square", 40.741266, -73.98805, .places(["n368053310"])),
        ("branch", "nyc_midtown_south.osm.pbf", "Starbucks 39th and Park", 40.747983, -73.984079, .places(["n1292790745"])),
        ("branch", "nyc_midtown_south.osm.pbf", "Fairway Kips Bay", 40.744903, -73.982089, .places(["n3775446805"])),
        ("abbrev", "nyc_lower_manhattan.osm.pbf", "Pace Univ", 40.712628, -73.998879, .places(["w891074473"])),
        ("abbrev", "nyc_lower_manhattan.osm.pbf", "NewYork-Presbyterian Lower Manhattan Hosp.", 40.712201, -73.999725, .places(["w799488173"])),
        ("abbrev", "nyc_lower_manhattan.osm.pbf", "Gouverneur Health Med Ctr", 40.713083, -73.993923, .places(["w278254355"])),
        ("abbrev", "nyc_lower_manhattan.osm.pbf", "Brooklyn Bridge City Hall Stn", 40.712825, -73.999171, .places(["n2024879489"])),
        ("abbrev", "nyc_midtown_south.osm.pbf", "NYU Langone Med Ctr", 40.743983, -73.978176, .places(["w150368085"])),
        ("abbrev", "nyc_midtown_south.osm.pbf", "Penn Stn", 40.747848, -73.987784, .places(["n895371274", "n5106082760", "n5406624018"])),
        ("abbrev", "nyc_midtown_south.osm.pbf", "Grand Central Stn", 40.749857, -73.98166, .places(["n7099182377", "w265947358", "r11171793", "n6615147359"])),
        ("abbrev", "busan_seomyeon_1km.osm.pbf", "Seomyeon Station Exit 7", 35.160474, 129.0618, .places(["n8265954350"])),
        ("abbrev", "busan_seomyeon_1km.osm.pbf", "서면 7번 출구", 35.160474, 129.0618, .places(["n8265954350"])),
        ("abbrev", "busan_seomyeon_1km.osm.pbf", "부전역 1번 출구", 35.158201, 129.059745, .places(["n8265931023", "n8276787034"])),
        ("abbrev", "busan_seomyeon_1km.osm.pbf", "Bujeon Stn gate 3", 35.158357, 129.059916, .places(["n8265931025"])),
        ("abbrev", "busan_seomyeon_1km.osm.pbf", "동의대 서면한방병원", 35.155354, 129.060183, .places(["n368746446"])),
        ("abbrev", "seoul_mapo.osm.pbf", "이대 2번출구", 37.552887, 126.948062, .places(["n3404904819"])),
        ("abbrev", "seoul_mapo.osm.pbf", "Sinchon Stn Exit 3", 37.554235, 126.942497, .places(["n3404915395"])),
        ("abbrev", "seoul_mapo.osm.pbf", "이화여대", 37.560425, 126.947627, .places(["r6384813"])),
        ("abbrev", "seoul_mapo.osm.pbf", "숙명여대", 37.547554, 126.960297, .places(["w222002669"])),
        ("abbrev", "seoul_mapo.osm.pbf", "연세대 신촌캠퍼스", 37.564304, 126.940812, .places(["w256932941"])),
        ("inside", "busan_seomyeon_1km.osm.pbf", "시민공원", 35.166275, 129.057811, .places(["w399660588"])),
        ("inside", "busan_seomyeon_1km.osm.pbf", "전자종합시장", 35.159411, 129.060306, .places(["n368867836"])),
        ("inside", "busan_seomyeon_1km.osm.pbf", "서면한방병원", 35.155354, 129.060183, .places(["n368746446"])),
        ("inside", "busan_seomyeon_1km.osm.pbf", "인삼시장", 35.158502, 129.059587, .places(["n368867858"])),
        ("inside", "seoul_mapo.osm.pbf", "바람산공원", 37.555225, 126.944552, .places(["w463899570"])),
        ("inside", "seoul_mapo.osm.pbf", "쌍룡산공원", 37.554223, 126.945329, .places(["w463945690"])),
        ("inside", "seoul_mapo.osm.pbf", "창천공원", 37.555055, 126.941014, .places(["w445431645"])),
        ("inside", "seoul_mapo.osm.pbf", "세브란스", 37.559226, 126.942876, .places(["w369559505"])),
        ("inside", "nyc_lower_manhattan.osm.pbf", "Washington Square", 40.72514, -73.996722, .places(["w22899302"])),
        ("inside", "nyc_lower_manhattan.osm.pbf", "Presbyterian Hospital", 40.712201, -73.999725, .places(["w799488173"])),
        ("inside", "nyc_lower_manhattan.osm.pbf", "Gouverneur", 40.713083, -73.993923, .places(["w278254355"])),
        ("inside", "nyc_lower_manhattan.osm.pbf", "Gouverneur Hospital", 40.713083, -73.993923, .places(["w278254355"])),
        ("inside", "nyc_midtown_south.osm.pbf", "Union Square", 40.741068, -73.988139, .places(["r7095444"])),
        ("inside", "nyc_midtown_south.osm.pbf", "Madison Square", 40.746535, -73.986278, .places(["w22899286"])),
        ("inside", "nyc_midtown_south.osm.pbf", "Bellevue Hospital", 40.741544, -73.979138, .places(["w150365209"])),
        ("inside", "nyc_midtown_south.osm.pbf", "Langone Hospital", 40.743983, -73.978176, .places(["w150368085"])),
        ("inside", "nyc_midtown_south.osm.pbf", "Penn Station", 40.747848, -73.987784, .places(["n895371274", "n5106082760", "n5406624018"])),
        ("streets", "busan_seomyeon_1km.osm.pbf", "중앙대로 가야대로 교차로", 35.160824, 129.063171, .streets(["중앙대로", "가야대로"])),
        ("streets", "busan_seomyeon_1km.osm.pbf", "서전로 전포대로 사거리", 35.157092, 129.059772, .streets(["서전로", "전포대로"])),
        ("streets", "busan_seomyeon_1km.osm.pbf", "동천로 신천대로 교차로", 35.154824, 129.060178, .streets(["동천로", "신천대로"])),
        ("streets", "seoul_mapo.osm.pbf", "신촌로 연세로 사거리", 37.554611, 126.941637, .streets(["신촌로", "연세로"])),
        ("streets", "seoul_mapo.osm.pbf", "마포대로 백범로 교차로", 37.549441, 126.949847, .streets(["마포대로", "백범로"])),
        ("streets", "seoul_mapo.osm.pbf", "성산로 연세로 삼거리", 37.557309, 126.941324, .streets(["성산로", "연세로"])),
        ("streets", "nyc_lower_manhattan.osm.pbf", "corner of Broadway and Canal Street", 40.715508, -73.998913, .streets(["Broadway", "Canal Street"])),
        ("streets", "nyc_lower_manhattan.osm.pbf", "Bowery Delancey", 40.716009, -73.995757, .streets(["Bowery", "Delancey Street"])),
        ("streets", "nyc_lower_manhattan.osm.pbf", "Broadway Houston St", 40.721005, -73.996817, .streets(["Broadway", "Houston Street"])),
        ("streets", "nyc_lower_manhattan.osm.pbf", "meet me at Canal St and Bowery", 40.711747, -73.997345, .streets(["Canal Street", "Bowery"])),
        ("streets", "nyc_midtown_south.osm.pbf", "pick up at W 34th St and 8th Ave", 40.749154, -73.98909, .streets(["West 34th Street", "8th Avenue"])),
        ("streets", "nyc_midtown_south.osm.pbf", "7th Ave 34th St", 40.747619, -73.986712, .streets(["7th Avenue", "34th Street"])),
        ("streets", "nyc_midtown_south.osm.pbf", "corner of 5th Ave and 42nd St", 40.749622, -73.983928, .streets(["5th Avenue", "42nd Street"])),
    ]

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
        for q in Self.queries {
            let index = try PlacesData.index(q.extract)
            let found = try index.find(q.query, near: try Coordinate(latitude: q.lat, longitude: q.lon), limit: 3)
            let hit = Self.hits(found.matches, q.target)
            hitsByKind[q.kind, default: (0, 0)].all += 1
            if hit { hitsByKind[q.kind, default: (0, 0)].hits += 1 } else { misses.append("\(q.kind) '\(q.query)': \(found.matches.map(\.place.name))") }
        }
        let hits = hitsByKind.values.map(\.hits).reduce(0, +)
        #expect(hits >= 72, "\(hits) of \(Self.queries.count); misses:\n\(misses.joined(separator: "\n"))")
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
