import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// Addresses (`addr:housenumber` + `addr:street`) searched in the forms riders type, on the
/// shared extracts; what OSM tags there is read from the PBF by the test itself.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct AddressSearchTests {
    /// The US and Korean forms of one address, each with the element (read from the PBF below)
    /// that carries it and must come first: an addressed building before the shops inside.
    static let forms: [(extract: String, query: String, osmID: String)] = [
        // w34633854: building=office, name=Empire State Building, addr:housenumber=350, addr:street=5th Avenue
        (PlacesData.midtown, "350 5th Ave", "w34633854"),
        (PlacesData.midtown, "350 Fifth Avenue", "w34633854"),
        (PlacesData.midtown, "350 fifth ave, New York, NY 10118", "w34633854"),
        (PlacesData.midtown, "350 5th Av Suite 6705", "w34633854"),
        (PlacesData.midtown, "350 5th avenue #5300", "w34633854"),
        // w265302069: Macy's, addr:housenumber=151, addr:street=West 34th Street
        (PlacesData.midtown, "151 W 34th St", "w265302069"),
        (PlacesData.midtown, "151 West 34 Street", "w265302069"),
        (PlacesData.midtown, "151 W. 34th St.", "w265302069"),
        // w471350489: NC백화점, addr:street=동천로, addr:housenumber=92, addr:city=부산광역시, addr:district=부산진구
        ("busan_seomyeon_1km.osm.pbf", "동천로 92", "w471350489"),
        ("busan_seomyeon_1km.osm.pbf", "동천로92", "w471350489"),
        ("busan_seomyeon_1km.osm.pbf", "부산 부산진구 동천로 92", "w471350489"),
        ("busan_seomyeon_1km.osm.pbf", "부산광역시 동천로 92 4층", "w471350489"),
        // w521954205: building=commercial, addr:street=중앙대로692번길, addr:housenumber=16
        ("busan_seomyeon_1km.osm.pbf", "중앙대로692번길 16", "w521954205"),
        ("busan_seomyeon_1km.osm.pbf", "중앙대로 692번길 16", "w521954205"),
        ("busan_seomyeon_1km.osm.pbf", "부산광역시 부산진구 중앙대로692번길16", "w521954205"),
        // n368875586: 서울신촌우체국, addr:street=신촌로, addr:housenumber=161, addr:city=서울특별시 서대문구
        ("seoul_mapo.osm.pbf", "신촌로 161", "n368875586"),
        ("seoul_mapo.osm.pbf", "서울특별시 서대문구 신촌로 161", "n368875586"),
    ]

    @Test("Each address form finds the tagged element first, as an address match", arguments: forms)
    func form(_ c: (extract: String, query: String, osmID: String)) throws {
        let index = try PlacesData.index(c.extract)
        let osm = try OSMElements.of(c.extract)
        let tagged = try #require(osm.element(c.osmID), "\(c.osmID) is not in \(c.extract)")
        let results = try index.search(c.query, limit: 10)
        let first = try #require(results.first, "'\(c.query)' finds nothing")
        #expect(first.place.osmID == c.osmID && first.quality == .address, "'\(c.query)': \(first.place.osmID) \(first.place.name) (\(first.quality))")
        // every address match carries the number and street OSM tags on the element
        for r in results where r.quality == .address {
            #expect(r.place.address.contains { $0.key == "housenumber" && $0.value == tagged.tags["addr:housenumber"] })
            #expect(r.place.address.contains { $0.key == "street" && $0.value == tagged.tags["addr:street"] })
        }
        // a typo or a name's prefix never comes before an address match
        #expect(results.drop { $0.quality == .address }.allSatisfy { $0.quality != .address })
    }

    /// Addressed elements of the PBF, seeded sample.
    static func addressed(_ extract: String, _ n: Int, seed: UInt64) throws -> [OSMElements.Element] {
        let osm = try OSMElements.of(extract)
        let all = (osm.nodes + osm.ways).filter { $0.tags["addr:housenumber"] != nil && $0.tags["addr:street"] != nil && !$0.points.isEmpty }
        var rng = SeededGenerator(seed: seed)
        return (0..<min(n, all.count)).map { _ in all[Int.random(in: 0..<all.count, using: &rng)] }
    }

    /// The US abbreviations a rider types for a street (`West 34th Street` → `W 34th St`).
    static func abbreviated(_ street: String) -> String {
        let short = ["West": "W", "East": "E", "North": "N", "South": "S", "Street": "St", "Avenue": "Ave", "Boulevard": "Blvd", "Place": "Pl"]
        return street.split(separator: " ").map { short[String($0)] ?? String($0) }.joined(separator: " ")
    }

    @Test("Sampled addressed elements are found by their number and street, whole, abbreviated and (in Korea) without the space or with the city before",
          arguments: ["busan_seomyeon_1km.osm.pbf", "seoul_mapo.osm.pbf", "nyc_lower_manhattan.osm.pbf", PlacesData.midtown])
    func sampled(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        var tried = 0, found = 0
        for e in try Self.addressed(extract, 120, seed: 21) {
            // the number as riders type it: its first part (a tag may add a floor: `50, 2층`)
            let n = String(e.tags["addr:housenumber"]!.split { $0 == "," || $0 == ";" || $0 == " " }.first ?? ""), s = e.tags["addr:street"]!
            guard StreetText.houseKey(n) != nil, !s.contains("(") else { continue }
            let korean = s.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
            // (typed together, a street that ends with a digit would run into the number)
            let queries = korean
                ? ["\(s) \(n)", "\(e.tags["addr:city"] ?? "") \(e.tags["addr:district"] ?? "") \(s) \(n)"] + (s.last!.isNumber ? [] : ["\(s)\(n)"])
                : ["\(n) \(s)", "\(n) \(Self.abbreviated(s))", "\(n) \(s.uppercased())"]
            for q in queries {
                tried += 1
                let results = try index.search(q, limit: 100)
                // the element itself, or the station its stop position was merged into, with the address
                let right = { (r: PlaceMatch) in
                    r.quality == .address && (r.place.osmID == e.id || r.place.kind == .station)
                        && r.place.address.contains { $0.key == "street" && $0.value == s }
                }
                if results.contains(where: right) { found += 1 } else {
                    Issue.record("\(extract): '\(q)' misses \(e.id): \(results.prefix(3).map { "\($0.place.name) \($0.quality)" })")
                }
            }
        }
        #expect(tried >= 60, "\(extract): only \(tried) queries")
        #expect(found == tried)
    }

    @Test("A number that is not on the street gives the nearest numbers on each side, marked interpolated, never a typo of another number",
          arguments: ["busan_seomyeon_1km.osm.pbf", PlacesData.midtown])
    func interpolated(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        let osm = try OSMElements.of(extract)
        // numbers per street, from the PBF, by their leading digits (50 of 50-1, 12 of 12A)
        func value(_ n: String) -> Int? { Int(n.prefix { $0.isASCII && $0.isNumber }) }
        // one street however its tags write it (`Avenue Of The Americas`, `Avenue of the Americas`)
        var byStreet: [[UInt8]: (name: String, numbers: Set<Int>)] = [:]
        for e in osm.nodes + osm.ways {
            if let s = e.tags["addr:street"], let n = e.tags["addr:housenumber"].flatMap(value) {
                byStreet[StreetText.streetKey(s), default: (s, [])].numbers.insert(n)
            }
        }
        var checked = 0
        for (street, numbers) in byStreet.values.sorted(by: { $0.name < $1.name }) where numbers.count >= 3 && !street.contains("(") {
            let sorted = numbers.sorted()
            // a missing number between two tagged ones, on the lower one's side of the street
            guard let gap = zip(sorted, sorted.dropFirst()).first(where: { $1 - $0 >= 4 }) else { continue }
            let missing = gap.0 + 2
            let korean = street.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }
            let query = korean ? "\(street) \(missing)" : "\(missing) \(street)"
            let results = try index.search(query, limit: 10)
            let numbered = results.filter { $0.quality == .interpolated }
            #expect(!numbered.isEmpty, "\(extract): '\(query)' gives \(results.prefix(3).map { "\($0.place.name) \($0.quality)" })")
            #expect(!results.contains { $0.quality == .address || $0.quality == .typo }, "\(extract): '\(query)'")
            // the nearest tagged numbers: the same side (parity) first for a US number-first address
            let pool = korean ? sorted : (sorted.filter { $0 % 2 == missing % 2 }.isEmpty ? sorted : sorted.filter { $0 % 2 == missing % 2 })
            let expected = Set([pool.filter { $0 <= missing }.max(), pool.filter { $0 >= missing }.min()].compactMap { $0 })
            for r in numbered {
                let n = r.place.address.first { $0.key == "housenumber" }.flatMap { value($0.value) }
                #expect(n.map { expected.contains($0) } == true, "\(extract): '\(query)' gives number \(String(describing: n)), expected \(expected)")
            }
            checked += 1
            if checked == 25 { break }
        }
        #expect(checked >= 5, "\(extract): only \(checked) streets with a gap")
    }
}
