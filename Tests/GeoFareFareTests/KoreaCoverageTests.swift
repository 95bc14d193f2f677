import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare

/// Every 시·군 of the nine provinces gets a price: the office of each, from the list in
/// `Tests/Data/kr-sigun-offices.csv` (its README says where the coordinates come from), priced on a
/// short trip nearby at three dates, with the tariff and basis the list expects from the sources
/// (`Data/tariffs/*.json`) at each date (a 시·군 placed for one tariff version only has one per
/// date), never an error unless strict. Real data: the embedded tariffs and zones.
struct KoreaCoverageTests {
    struct Office: Sendable, CustomStringConvertible {
        let province: String, sigun: String, office: String
        let at: Coordinate, destination: Coordinate
        /// The tariff and basis at each of ``departures``, in order (the list gives one for all
        /// three, or three joined by ";").
        let tariffs: [String]
        let bases: [TariffBasis]
        var description: String { "\(province) \(sigun)" }
        /// The tariff and basis at the departure at position `d` in ``departures``.
        func expected(_ d: Int) -> (tariff: String, basis: TariffBasis) { (tariffs[d], bases[d]) }
    }

    /// A cell of one value for every departure, or one per departure joined by ";".
    static func perDeparture(_ cell: String) -> [String]? {
        let parts = cell.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 1 { return Array(repeating: parts[0], count: departures.count) }
        return parts.count == departures.count ? parts : nil
    }

    static let listURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Data/kr-sigun-offices.csv")

    static let offices: [Office] = {
        guard let text = try? String(contentsOf: listURL, encoding: .utf8) else { fatalError("missing \(listURL.path)") }
        var out: [Office] = []
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 10, let lat = Double(f[3]), let lon = Double(f[4]), let dlat = Double(f[6]), let dlon = Double(f[7]),
                  let tariffs = perDeparture(f[8]), let bases = perDeparture(f[9])?.compactMap(TariffBasis.init(rawValue:)),
                  bases.count == departures.count else { fatalError("bad row: \(line)") }
            out.append(Office(province: f[0], sigun: f[1], office: f[2], at: Coordinate(uncheckedLatitude: lat, longitude: lon),
                              destination: Coordinate(uncheckedLatitude: dlat, longitude: dlon), tariffs: tariffs, bases: bases))
        }
        return out
    }()

    static let departures = ["2019-06-01T10:00:00+09:00", "2023-08-01T10:00:00+09:00", "2025-10-01T10:00:00+09:00"]

    @Test("The list holds every 시·군 of the nine provinces once (151, and Jeju's two cities), each with a source for its coordinate")
    func listIsComplete() {
        #expect(Self.offices.count == 153)
        #expect(Set(Self.offices.map(\.description)).count == 153)
        var perProvince: [String: Int] = [:]
        for o in Self.offices { perProvince[o.province, default: 0] += 1 }
        #expect(perProvince == ["경기도": 31, "강원특별자치도": 18, "충청북도": 11, "충청남도": 15, "전북특별자치도": 14,
                                "전라남도": 22, "경상북도": 22, "경상남도": 18, "제주특별자치도": 2])
    }

    @Test("Each office gets a price on its expected tariff and basis at 2019-06-01, 2023-08-01 and 2025-10-01 10:00, a short trip nearby; an assumed one says why", arguments: departures.indices)
    func everyOfficePriced(d: Int) throws {
        let when = Self.departures[d]
        for o in Self.offices {
            let (tariff, basis) = o.expected(d)
            let (q, _) = try sharedPricer.quote(FareRequest(from: o.at, to: o.destination, departure: at(when)))
            #expect(q.tariff == tariff, "\(o) \(when): \(q.tariff)")
            #expect(q.tariffBasis == basis, "\(o) \(when): \(q.tariffBasis) \(q.assumption ?? "")")
            #expect(q.total > 0 && q.low <= q.total && q.total <= q.high, "\(o) \(when)")
            if basis == .assumed {
                let why = try #require(q.assumption, "\(o)")
                #expect(why.contains("(\(tariff)): no source names the tariff group of this city or county in "), "\(o): \(why)")
            } else {
                #expect(q.assumption == nil, "\(o): \(q.assumption ?? "")")
            }
        }
    }

    @Test("strict: a sourced office prices the same; an assumed one is unknown_tariff_group", arguments: departures.indices)
    func strictOffices(d: Int) throws {
        for o in Self.offices {
            var r = FareRequest(from: o.at, to: o.destination, departure: at(Self.departures[d]))
            let loose = try sharedPricer.quote(r).quote
            r.strict = true
            if o.expected(d).basis == .sourced {
                let q = try sharedPricer.quote(r).quote
                #expect(q.total == loose.total && q.low == loose.low && q.high == loose.high, "\(o)")
            } else {
                let error = try #require(throws: GeoFareError.self, "\(o)") { try sharedPricer.quote(r) }
                #expect(error.code == .unknownTariffGroup, "\(o): \(error)")
            }
        }
    }

    @Test("README's coverage row matches the list at the latest departure (2025-10-01): sourced and assumed 시·군 of the nine provinces, none not modelled")
    func readmeCounts() throws {
        let provinces = Self.offices.filter { $0.province != "제주특별자치도" }, last = Self.departures.count - 1
        let sourced = provinces.filter { $0.expected(last).basis == .sourced }.count, assumed = provinces.filter { $0.expected(last).basis == .assumed }.count
        let readme = try String(contentsOf: Self.listURL.deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md"), encoding: .utf8)
        let row = try #require(readme.split(separator: "\n").first { $0.hasPrefix("| \(provinces.count) 시·군 of the nine provinces |") })
        let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(cells.count >= 4 && cells[1].hasPrefix("\(sourced)") && cells[2].hasPrefix("\(assumed)") && cells[3].hasPrefix("0"), "\(row) vs \(sourced)/\(assumed)")
    }

    @Test("Out of city, by hand: each added tariff's rate, night caps, and no guess where no rate is known")
    func outOfCity() throws {
        // 2,050 m inside then 3,000 m outside, free flow (N(F) = ⌊(F − base) / unit⌋ + 1 units by counter F).
        let crossing: [(meters: Double, seconds: Double, slow: Double?, outside: Bool)] = [(2_050, 240, 0, false), (3_000, 300, 0, true)]
        let day = "2024-05-15T14:00:00+09:00"
        let cases: [(tariff: String, at: String, meter: Int64, total: Int64)] = [
            // Gyeongnam 2023, day: 4,000 / 2,000 m, 130 m; N(2,050) = 1 inside at 100, N(5,050) = ⌊3,050 / 130⌋ + 1 = 24,
            // so 23 outside at 100 × 1.3 = 130: 4,000 + 100 + 23 × 130 = 7,090 → 7,100.
            ("kr-gyeongnam/regular", day, 7_090, 7_100),
            // Gyeongbuk 2023, day: 4,000 / 2,000 m, 131 m; 1 inside at 100; N(5,050) = ⌊3,050 / 131⌋ + 1 = 24, 23 outside
            // at 120 (20 %, secondary): 4,000 + 100 + 23 × 120 = 6,860 → 6,900.
            ("kr-gyeongbuk/regular", day, 6_860, 6_900),
            // Chungnam guideline 2023, day: 4,000 / 1,400 m, 127 m; N(2,050) = ⌊650 / 127⌋ + 1 = 6 inside at 100,
            // N(5,050) = ⌊3,650 / 127⌋ + 1 = 29, 23 outside at 100 × 1.32 = 132 → 130: 4,000 + 600 + 23 × 130 = 7,590 → 7,600.
            ("kr-chungnam/regular", day, 7_590, 7_600),
            // Jeonnam counties 2023 (Hampyeong), 00:30: night 20 %, outside 35 %, together capped at 40 %. Base 5,000 × 1.2 = 6,000;
            // 1 unit inside at 160 × 1.2 = 192 → 190; N(5,050) = ⌊3,050 / 130⌋ + 1 = 24, 23 outside at 160 × 1.4 = 224 → 220:
            // 6,000 + 190 + 23 × 220 = 11,250 → 11,300 (half up).
            ("kr-jeonnam/regular-county", "2024-05-16T00:30:00+09:00", 11_250, 11_300),
            // By day the county's outside units are 160 × 1.35 = 216 → 220: 5,000 + 160 + 23 × 220 = 10,220 → 10,200.
            ("kr-jeonnam/regular-county", day, 10_220, 10_200),
            // Jeonnam cities 2019 (Mokpo), 00:30: night 20 + outside 35 capped at 40. Base 3,300 × 1.2 = 3,960; 1 inside at 120;
            // N(5,050) = ⌊3,050 / 134⌋ + 1 = 23, 22 outside at 140: 3,960 + 120 + 22 × 140 = 7,160 → 7,200.
            ("kr-jeonnam/regular", "2021-05-13T00:30:00+09:00", 7_160, 7_200),
        ]
        for c in cases {
            let q = try quote(c.tariff, segments: crossing, at: c.at)
            #expect(q.meter == c.meter && q.total == c.total, "\(c.tariff) \(c.at): meter \(q.meter), total \(q.total)")
        }
        // Jeonbuk's provincial tariff: no source gives a provincial 시계외 rate, so leaving Jeonbuk is not guessed.
        let error = try #require(throws: GeoFareError.self) {
            try quote("kr-jeonbuk/regular", segments: crossing, at: day)
        }
        #expect(error.code == .unknownOutOfZoneRate && error.field == "segments[1].outside")
    }

    @Test("Night windows by hand: a 1 km ride boarding late in the evening, base fare only")
    func nightWindows() throws {
        // (tariff, boarding, expected): the night rate on the base, rounded to 10 (paid to 100), or none before the window.
        let cases: [(String, String, Int64)] = [
            ("kr-gyeongbuk/regular", "2024-05-15T23:30:00+09:00", 4_800),  // 2023: 23–04 +20 %: 4,000 × 1.2
            ("kr-gyeongbuk/regular", "2021-05-12T23:30:00+09:00", 3_300),  // 2019: 00–04 only
            ("kr-gyeongnam/regular", "2024-05-15T22:30:00+09:00", 4_800),  // 2023: 22–04 +20 %: 4,000 × 1.2
            ("kr-gyeongnam/regular", "2021-05-12T22:30:00+09:00", 3_300),  // 2019: 00–04 only
            ("kr-chungnam/regular", "2024-05-15T22:30:00+09:00", 5_200),   // 2023: 22–04 +30 %: 4,000 × 1.3
            ("kr-jeonnam/regular-county", "2024-05-15T23:30:00+09:00", 5_000),  // 00–04 only
            ("kr-jeonnam/regular-county", "2024-05-16T00:30:00+09:00", 6_000),  // 5,000 × 1.2
            ("kr-jeonbuk/regular", "2024-05-16T03:50:00+09:00", 5_200),    // 4,300 × 1.2 = 5,160 → paid 5,200
        ]
        for (tariff, when, total) in cases {
            let q = try quote(tariff, segments: [(1_000, 120, 0, false)], at: when)
            #expect(q.total == total, "\(tariff) \(when): \(q.total)")
        }
    }

    @Test("An unplaced Jeonnam county prices on the counties' tier with a band over the province's other tariffs; Hampyeong itself is sourced")
    func jeonnamBand() throws {
        let haenam = Coordinate(uncheckedLatitude: 34.5732, longitude: 126.5989), nearby = Coordinate(uncheckedLatitude: 34.5812, longitude: 126.5989)
        let q = try sharedPricer.quote(FareRequest(from: haenam, to: nearby, departure: at("2025-10-01T10:00:00+09:00"))).quote
        #expect(q.tariff == "kr-jeonnam/regular-county" && q.tariffBasis == .assumed)
        let why = try #require(q.assumption)
        #expect(why.hasPrefix("Jeonnam counties' 160-won tier (kr-jeonnam/regular-county): no source names the tariff group of this city or county in "), "\(why)")
        #expect(why.contains("low/high cover ") && why.contains("kr-jeonnam/regular 2023-11-01T00:00:00+09:00") && why.contains("kr-jeonnam/regular-suncheon 2023-11-01T00:00:00+09:00"), "\(why)")
        // The cities' tier (4,300 KRW, 100 KRW units) is cheaper than the counties' (5,000, 160): the band reaches below the fare.
        #expect(q.low < q.total)
        var named = FareRequest(from: haenam, to: nearby, departure: at("2025-10-01T10:00:00+09:00"), tariff: "kr-jeonnam/regular")
        named.strict = true
        #expect(try q.low == sharedPricer.quote(named).quote.low)
    }
}
