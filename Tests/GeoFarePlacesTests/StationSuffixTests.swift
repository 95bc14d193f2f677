import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import GeoFareText
import Testing

/// What riders type that the tags do not say: a station's generic suffix (서면 → "서면역",
/// "Seomyeon Station"), every alt_name of a merged street, blanks that Unicode calls letters.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct StationSuffixTests {
    /// Whether `query`'s first result is an exact station match and `station` is among the
    /// exact results (two stations may share a name: 신촌 on two lines).
    static func stationFirst(_ index: PlacesIndex, _ query: String, _ station: Place) throws -> (Bool, String) {
        let results = try index.search(query, limit: 100)
        let top = results.first.map { "\($0.place.name)/\($0.place.kind)/\($0.quality)" } ?? "(none)"
        let ok = results.first.map { $0.place.kind == .station && $0.quality == .exact } == true
            && results.contains { $0.place.index == station.index && $0.quality == .exact }
        return (ok, top)
    }

    @Test("A station tagged without 역 is found first, exactly, by X역, X 역 and X Station", arguments: PlacesData.extracts)
    func suffixFindsStation(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        var checked = 0
        for i in 0..<index.count where index.place(at: i).kind == .station {
            let station = index.place(at: i)
            for (key, name) in station.names {
                var queries: [String] = []
                if SearchText.initialsKey(name) != nil, !name.hasSuffix("역") { queries += [name + "역", name + " 역"] }
                if SearchText.initialsKey(name) == nil, !name.lowercased().contains("station") { queries += [name + " Station", name + " stn"] }
                for q in queries {
                    let (ok, top) = try Self.stationFirst(index, q, station)
                    #expect(ok, "\(extract): '\(q)' (\(key) of \(station.osmID)) → first \(top)")
                    checked += 1
                }
            }
        }
        #expect(checked >= (extract.hasPrefix("nyc") ? 100 : 10), "\(extract): \(checked) queries")
    }

    @Test("The issue's and the probe's cases: 서면역 is the station 서면, not the bus stops named 서면역; Latin and romanised suffixes")
    func namedCases() throws {
        let busan = try PlacesData.index("busan_seomyeon_1km.osm.pbf")
        let cases = [("서면역", "서면"), ("서면 역", "서면"), ("Seomyeon Station", "서면"), ("seomyeonyeok", "서면"), ("전포역", "전포"),
                     ("전포 역", "전포"), ("Jeonpo Station", "전포"), ("Jeonpoyeok", "전포"), ("가야역", "가야"), ("Gaya Station", "가야")]
        for (q, name) in cases {
            let first = try busan.search(q).first
            #expect(first?.place.kind == .station && first?.quality == .exact && first?.place.name == name,
                    "'\(q)' → \(first.map { "\($0.place.name)/\($0.place.kind)/\($0.quality)" } ?? "none")")
        }
        // while typing the suffix: 전포ㅇ, 전포여 still find the station
        for q in ["전포ㅇ", "전포여"] { #expect(try busan.search(q).first?.place.kind == .station, "'\(q)'") }
        let mapo = try PlacesData.index("seoul_mapo.osm.pbf")
        let ewha = try mapo.search("이대역").first
        #expect(ewha?.place.kind == .station && ewha?.place.name == "이대", "이대역 → \(ewha?.place.name ?? "none")")
        // a suffix is not a name: a shop is not found by its name + 역
        #expect(try mapo.search("스타벅스역").allSatisfy { $0.place.kind == .station || $0.quality == .typo })
    }

    @Test("A merged street keeps every alt_name of its ways: FDR Drive is found as South Street Viaduct and East River Drive")
    func mergedStreetAltNames() throws {
        let nyc = try PlacesData.index("nyc_lower_manhattan.osm.pbf")
        for q in ["South Street Viaduct", "East River Drive"] {
            let results = try nyc.search(q)
            let fdr = results.first { $0.place.kind == .street && $0.place.name == "FDR Drive" }
            #expect(fdr?.quality == .exact && fdr?.matchedName == "alt_name", "'\(q)' → \(results.map(\.place.name))")
        }
        let fdr = try #require(try nyc.search("FDR Drive", limit: 100).first { $0.place.kind == .street && $0.place.name == "FDR Drive" }?.place)
        let alts = Set(fdr.names.filter { $0.key == "alt_name" }.map(\.value))
        #expect(alts.isSuperset(of: ["South Street Viaduct", "East River Drive"]), "\(fdr.names)")
        // on the wire, a tag's several values are one string joined with ';' (OSM's separator)
        let file = PlacesData.directory.appendingPathComponent("nyc_lower_manhattan.osm.pbf.places").path
        let run = try GeoFareBinary.run(["places", "search", file, "East River Drive", "--json", "--limit", "1"])
        #expect(run.status == 0, "\(run.stderr)")
        let names = try JSONParser.parse(Array(run.stdout.utf8)).object?["results"]?.array?.first?.object?["names"]?.object
        let wire = Set((names?["alt_name"]?.string ?? "").split(separator: ";").map(String.init))
        #expect(names?["name"]?.string == "FDR Drive" && wire.isSuperset(of: ["South Street Viaduct", "East River Drive"]), "\(String(describing: names))")
    }

    @Test("Hangul fillers are blanks: alone they are query_empty, inside a query they are ignored", arguments: ["\u{3164}", "\u{115F}", "\u{1160}", "\u{FFA0}", "\u{3164} \u{3164}"])
    func fillers(_ q: String) throws {
        let mapo = try PlacesData.index("seoul_mapo.osm.pbf")
        #expect(SearchText.key(q).isEmpty)
        #expect(throws: GeoFareError.self) { try mapo.search(q) }
        do { _ = try mapo.search(q) } catch { #expect(error.code == .queryEmpty) }
        #expect(try mapo.search("공덕" + q + "역").first?.place.name == mapo.search("공덕역").first?.place.name)
    }
}
