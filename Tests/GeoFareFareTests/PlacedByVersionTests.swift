import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare

/// A 시·군 a source places in a tariff group for one tariff version only (Anyang, Gimpo
/// and Pyeongtaek for 2019-05-04, Yeoncheon for 2023-07-01; each group file's
/// `placed_for_versions`, with its source and quote) is `sourced` on that group while that
/// version is in force and `assumed` (on the standard group, with the band over the groups)
/// under every other version; `strict` refuses only the assumed ones. Real data: the embedded
/// tariffs and zones (each 시·군 its own zone from `make_zones.py`).
struct PlacedByVersionTests {
    struct Case: Sendable, CustomStringConvertible {
        let name: String, from: (Double, Double), when: String
        /// The tariff priced on and its basis.
        let tariff: String, basis: TariffBasis
        /// The group and version a source places the 시·군 on (named in an assumed trip's text).
        let placedOn: String, placedVersion: String
        var description: String { "\(name) \(when)" }
    }

    static let anyang = (37.3943, 126.9568), gimpo = (37.6153, 126.7156), pyeongtaek = (36.9921, 127.1129), yeoncheon = (38.0966, 127.0748)
    static let v2019 = "2019-05-04T04:00:00+09:00", v2023 = "2023-07-01T04:00:00+09:00"
    static let standard = "kr-gyeonggi/regular", ga = "kr-gyeonggi/regular-1800", na = "kr-gyeonggi/regular-2000"

    static let cases: [Case] = [
        Case(name: "Anyang", from: anyang, when: "2020-05-13T10:00:00+09:00", tariff: standard, basis: .sourced, placedOn: standard, placedVersion: v2019),
        Case(name: "Anyang", from: anyang, when: "2024-05-15T10:00:00+09:00", tariff: standard, basis: .assumed, placedOn: standard, placedVersion: v2019),
        Case(name: "Anyang", from: anyang, when: "2016-05-11T10:00:00+09:00", tariff: standard, basis: .assumed, placedOn: standard, placedVersion: v2019),
        Case(name: "Gimpo", from: gimpo, when: "2020-05-13T10:00:00+09:00", tariff: standard, basis: .sourced, placedOn: standard, placedVersion: v2019),
        Case(name: "Gimpo", from: gimpo, when: "2024-05-15T10:00:00+09:00", tariff: standard, basis: .assumed, placedOn: standard, placedVersion: v2019),
        Case(name: "Pyeongtaek", from: pyeongtaek, when: "2020-05-13T10:00:00+09:00", tariff: ga, basis: .sourced, placedOn: ga, placedVersion: v2019),
        Case(name: "Pyeongtaek", from: pyeongtaek, when: "2023-07-01T03:59:00+09:00", tariff: ga, basis: .sourced, placedOn: ga, placedVersion: v2019),
        Case(name: "Pyeongtaek", from: pyeongtaek, when: "2023-07-01T04:00:00+09:00", tariff: standard, basis: .assumed, placedOn: ga, placedVersion: v2019),
        Case(name: "Pyeongtaek", from: pyeongtaek, when: "2024-05-15T10:00:00+09:00", tariff: standard, basis: .assumed, placedOn: ga, placedVersion: v2019),
        Case(name: "Yeoncheon-gun", from: yeoncheon, when: "2020-05-13T10:00:00+09:00", tariff: standard, basis: .assumed, placedOn: na, placedVersion: v2023),
        Case(name: "Yeoncheon-gun", from: yeoncheon, when: "2023-07-01T03:59:00+09:00", tariff: standard, basis: .assumed, placedOn: na, placedVersion: v2023),
        Case(name: "Yeoncheon-gun", from: yeoncheon, when: "2023-07-01T04:00:00+09:00", tariff: na, basis: .sourced, placedOn: na, placedVersion: v2023),
        Case(name: "Yeoncheon-gun", from: yeoncheon, when: "2024-05-15T10:00:00+09:00", tariff: na, basis: .sourced, placedOn: na, placedVersion: v2023),
        Case(name: "Yeoncheon-gun", from: yeoncheon, when: "2016-05-11T10:00:00+09:00", tariff: standard, basis: .assumed, placedOn: na, placedVersion: v2023),
    ]

    /// A 2.6 km trip north from the office (still inside its 시·군).
    static func request(_ c: Case, tariff: String? = nil, strict: Bool = false) -> FareRequest {
        var r = FareRequest(from: Coordinate(uncheckedLatitude: c.from.0, longitude: c.from.1),
                            to: Coordinate(uncheckedLatitude: c.from.0 + 0.008, longitude: c.from.1), departure: at(c.when), tariff: tariff)
        r.strict = strict
        return r
    }

    /// By date: sourced on the group a source names while its version is in force, assumed
    /// (standard group, band over the groups, text naming the versions) otherwise.
    @Test("By date: sourced on a named group while its version is in force, assumed (standard group, band) otherwise", arguments: cases)
    func byDate(c: Case) throws {
        let q = try sharedPricer.quote(Self.request(c)).quote
        #expect(q.tariff == c.tariff, "\(c): \(q.tariff)")
        #expect(q.tariffBasis == c.basis, "\(c): \(q.assumption ?? "")")
        // The same trip with the tariff named and strict: the sourced fare is exactly it; the assumed one is priced on it.
        let named = try sharedPricer.quote(Self.request(c, tariff: c.tariff, strict: true)).quote
        #expect(named.total == q.total && named.tariffVersion == q.tariffVersion, "\(c)")
        if c.basis == .sourced {
            #expect(q.assumption == nil && q.low == named.low && q.high == named.high, "\(c): \(q.assumption ?? "")")
            #expect(q.tariffVersion == c.placedVersion, "\(c): \(q.tariffVersion)")
            return
        }
        let why = try #require(q.assumption, "\(c)")
        #expect(why.hasPrefix("Gyeonggi standard group (kr-gyeonggi/regular): no source names the tariff group of this city or county in Gyeonggi-do at this departure: "), "\(why)")
        #expect(why.contains("a source places \(c.name) on \(c.placedOn) for version \(c.placedVersion) only"), "\(why)")
        // The version of the placing group in force then, or that it has none (나형 before 2019).
        if let inForce = try? sharedCatalog.meter(tariff: c.placedOn, at: at(c.when)) {
            #expect(why.contains("not the one in force at departure (\(inForce.versionLabel))"), "\(why)")
        } else {
            #expect(why.contains("and no version of it is known to be in force at departure"), "\(why)")
        }
        // The band covers every group with a version in force (only 표준형 before 2019-05-04).
        var lows: [Int64] = [], highs: [Int64] = []
        for group in [Self.standard, Self.ga, Self.na] {
            guard let n = try? sharedPricer.quote(Self.request(c, tariff: group, strict: true)).quote else { continue }
            lows.append(n.low)
            highs.append(n.high)
        }
        #expect(q.low == lows.min()! && q.high == highs.max()!, "\(c): \(q.low)–\(q.high) vs \(lows) \(highs)")
    }

    @Test("strict refuses only the assumed dates (unknown_tariff_group naming the placed version); the sourced ones price the same", arguments: cases)
    func strict(c: Case) throws {
        let loose = try sharedPricer.quote(Self.request(c)).quote
        if c.basis == .sourced {
            let q = try sharedPricer.quote(Self.request(c, strict: true)).quote
            #expect(q.total == loose.total && q.low == loose.low && q.high == loose.high && q.tariff == loose.tariff, "\(c)")
        } else {
            let error = try #require(throws: GeoFareError.self, "\(c)") { try sharedPricer.quote(Self.request(c, strict: true)) }
            #expect(error.code == .unknownTariffGroup && error.field == "from", "\(c): \(error)")
            #expect(error.message.contains("; name a tariff. At this departure: a source places \(c.name) on \(c.placedOn) for version \(c.placedVersion) only"), "\(error.message)")
        }
    }

    @Test("The catalog's lookup: with a departure the version decides; without one a zone placed by version places nothing")
    func catalogLookup() throws {
        let anyang = Coordinate(uncheckedLatitude: Self.anyang.0, longitude: Self.anyang.1)
        #expect(try sharedCatalog.tariff(forOrigin: anyang, at: at("2020-05-13T10:00:00+09:00")).id == Self.standard)
        #expect { try sharedCatalog.tariff(forOrigin: anyang, at: at("2024-05-15T10:00:00+09:00")) } throws: { ($0 as? GeoFareError)?.code == .unknownTariffGroup }
        #expect { try sharedCatalog.tariff(forOrigin: anyang) } throws: { ($0 as? GeoFareError)?.code == .unknownTariffGroup }
        // A neighbour placed for every version is untouched by the date (Suwon).
        let suwon = Coordinate(uncheckedLatitude: 37.2636, longitude: 127.0286)
        for when in ["2016-05-11T10:00:00+09:00", "2020-05-13T10:00:00+09:00", "2024-05-15T10:00:00+09:00"] {
            #expect(try sharedCatalog.tariff(forOrigin: suwon, at: at(when)).id == Self.standard)
        }
    }

    /// A copy of the 나형 file with `placed_for_versions` replaced.
    static func naFile(placed: String) throws -> Data {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/tariffs/kr-gyeonggi-regular-2000.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        json["placed_for_versions"] = try JSONSerialization.jsonObject(with: Data(placed.utf8))
        return try JSONSerialization.data(withJSONObject: json)
    }

    @Test("placed_for_versions is validated on load: a version that is not the tariff's, no source, the tariff's own region",
          arguments: [
            (#"[{"zone":"kr-gyeonggi-yeoncheon","versions":["2023-07-01"],"sources":["s"]}]"#, "placed_for_versions[0].versions[0]"),
            (#"[{"zone":"kr-gyeonggi-yeoncheon","versions":["2023-07-01T04:00:00+09:00","2023-07-01T04:00:00+09:00"],"sources":["s"]}]"#, "placed_for_versions[0].versions[1]"),
            (#"[{"zone":"kr-gyeonggi-yeoncheon","versions":[],"sources":["s"]}]"#, "placed_for_versions[0].versions"),
            (#"[{"zone":"kr-gyeonggi-yeoncheon","versions":["2023-07-01T04:00:00+09:00"],"sources":[]}]"#, "placed_for_versions[0].sources"),
            (#"[{"zone":"kr-gyeonggi-na","versions":["2023-07-01T04:00:00+09:00"],"sources":["s"]}]"#, "placed_for_versions[0].zone"),
          ])
    func fileValidated(placed: String, field: String) throws {
        let error = try #require(throws: GeoFareError.self) { try TariffFile.load(try Self.naFile(placed: placed), origin: "na.json") }
        #expect(error.code == .invalidTariff && error.field == "na.json: \(field)", "\(error)")
    }

    @Test("The catalog checks each placement's zone: loaded, no tariff's region, inside a province",
          arguments: [("kr-gyeonggi-nowhere", "is not in any"), ("kr-gyeonggi-ga", "is a tariff's region"), ("kr-seoul", "is a tariff's region"),
                      ("kr-seoul-business", "has no parent")])
    func catalogValidated(zone: String, message: String) throws {
        var tariffs = sharedCatalog.tariffs
        let i = try #require(tariffs.firstIndex { $0.id == Self.na })
        tariffs[i].placedForVersions = [.init(zone: zone, versions: [1], sources: ["s"])]
        let error = try #require(throws: GeoFareError.self) { try TariffCatalog(tariffs: tariffs, zones: sharedCatalog.zones) }
        #expect(error.code == .invalidTariff && error.field == "\(tariffs[i].origin): placed_for_versions[0].zone" && error.message.contains(message), "\(error)")
    }
}
