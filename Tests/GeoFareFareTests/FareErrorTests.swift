import Foundation
import Testing
import GeoFareCore
import GeoFareData
@testable import GeoFareFare

struct FareErrorTests {
    func code(_ body: () throws -> FareQuote) -> (String?, String?) {
        do { _ = try body(); return (nil, nil) } catch let e as GeoFareError { return (e.code.rawValue, e.field) } catch { return ("other", nil) }
    }

    @Test("Bad requests get a clear error naming the field")
    func badRequests() {
        #expect(code { try quote("kr-seoul/regular", meters: -1, seconds: 60, at: "2024-05-15T14:00:00+09:00") } == ("negative_value", "distance_m"))
        #expect(code { try quote("kr-seoul/regular", meters: .nan, seconds: 60, at: "2024-05-15T14:00:00+09:00") } == ("not_finite", "distance_m"))
        #expect(code { try quote("kr-seoul/regular", meters: 100, seconds: 60, at: "2024-05-15T14:00:00+09:00", party: 0) } == ("invalid_party_size", "party_size"))
        #expect(code { try quote("kr-seoul/regular", meters: 100, seconds: 60, at: "2024-05-15T14:00:00+09:00", party: 21) } == ("invalid_party_size", "party_size"))
        #expect(code { try quote("kr-nowhere/regular", meters: 100, seconds: 60, at: "2024-05-15T14:00:00+09:00") } == ("unknown_tariff", "tariff"))
        #expect(code { try quote("kr-seoul/regular", meters: 100, seconds: 60, at: "2010-01-01T14:00:00+09:00") } == ("no_tariff_version", "depart_at"))
        #expect(code { try quote("kr-seoul/regular", meters: 100, seconds: 60, at: "2024-05-15T14:00:00+09:00", cruiseKmh: 0) } == ("out_of_range", "cruise_kmh"))
        #expect(code { try quote("kr-seoul/regular", segments: [(100, 60, 61, false)], at: "2024-05-15T14:00:00+09:00") } == ("out_of_range", "segments[0].slow_s"))
    }

    static let valid = """
    {"id": "xx-test/regular", "name": "Test", "currency": "KRW", "time_zone": "Asia/Seoul", "region": null,
     "business_zone": null, "default_cruise_kmh": 25,
     "versions": [{"effective_from": "2023-01-01T00:00:00+09:00", "sources": ["test"], "base_fare": 4800,
       "base_distance_m": 1600, "unit_price": 100, "unit_distance_m": 131, "unit_time_s": 30, "mode": "concurrent",
       "charge_unit": "on_start", "night": [], "out_of_zone_rate_percent": 20, "surcharged_base_step": 10,
       "surcharged_unit_step": 10, "flat_surcharges": [], "rounding": {"step": 100, "mode": "half_up"}}]}
    """

    @Test("A valid tariff file loads")
    func validFile() throws {
        let t = try TariffFile.load(Data(Self.valid.utf8), origin: "test.json")
        #expect(t.id == "xx-test/regular")
        #expect(t.versions[0].changeoverSpeed == 131.0 / 30.0)
    }

    @Test("A malformed tariff file names the file and the field", arguments: [
        ("\"base_fare\": 4800", "\"base_fare\": \"lots\"", "versions[0].base_fare"),
        ("\"unit_distance_m\": 131", "\"unit_distance_m\": 0", "versions[0].unit_distance_m"),
        // Bounds that keep the meter's arithmetic inside Int64 (the tariff fuzz target's
        // finding: a step of 222222222222222221 trapped on overflow while pricing).
        ("\"surcharged_base_step\": 10", "\"surcharged_base_step\": 222222222222222221", "versions[0].surcharged_base_step"),
        ("\"surcharged_unit_step\": 10", "\"surcharged_unit_step\": 1000000001", "versions[0].surcharged_unit_step"),
        ("\"base_fare\": 4800", "\"base_fare\": 9000000000000000000", "versions[0].base_fare"),
        ("\"unit_price\": 100", "\"unit_price\": 4611686018427387904", "versions[0].unit_price"),
        ("\"unit_distance_m\": 131", "\"unit_distance_m\": 1e-300", "versions[0].unit_distance_m"),
        ("\"unit_time_s\": 30", "\"unit_time_s\": 0.5", "versions[0].unit_time_s"),
        ("\"rounding\": {\"step\": 100", "\"rounding\": {\"step\": 1000000000000", "versions[0].rounding.step"),
        ("\"flat_surcharges\": []", "\"flat_surcharges\": [{\"name\": \"x\", \"amount\": 1000000000000000000}]", "versions[0].flat_surcharges[0].amount"),
        ("\"flat_surcharges\": []", "\"flat_surcharges\": [], \"max_combined_rate_percent\": -100", "versions[0].max_combined_rate_percent"),
        ("\"mode\": \"concurrent\"", "\"mode\": \"sometimes\"", "versions[0].mode"),
        ("\"night\": []", "\"night\": [{\"from\": \"25:00\", \"to\": \"04:00\", \"rate_percent\": 20}]", "versions[0].night[0].from"),
        ("\"night\": []", "\"night\": [{\"from\": \"22:00\", \"to\": \"04:00\", \"rate_percent\": 20}, {\"from\": \"23:00\", \"to\": \"02:00\", \"rate_percent\": 40}]", "versions[0].night"),
        ("\"time_zone\": \"Asia/Seoul\"", "\"time_zone\": \"Mars/Olympus\"", "time_zone"),
        ("\"effective_from\": \"2023-01-01T00:00:00+09:00\"", "\"effective_from\": \"2023-01-01\"", "versions[0].effective_from"),
        ("\"id\": \"xx-test/regular\"", "\"id\": \"flat\"", "id"),
        ("\"sources\": [\"test\"], ", "", "versions[0].sources"),
        ("\"effective_from\": \"2023-01-01T00:00:00+09:00\"", "\"effective_month\": \"2023-13\"", "versions[0].effective_month"),
        ("\"effective_from\": \"2023-01-01T00:00:00+09:00\"", "\"effective_month\": \"2023-1\"", "versions[0].effective_month"),
        ("\"effective_from\": \"2023-01-01T00:00:00+09:00\"", "\"effective_from\": \"2023-01-01T00:00:00+09:00\", \"effective_month\": \"2023-01\"", "versions[0]"),
        ("\"effective_from\": \"2023-01-01T00:00:00+09:00\", ", "", "versions[0]"),
        ("\"effective_from\": \"2023-01-01T00:00:00+09:00\"", "\"in_force_on\": \"2018-1-01\"", "versions[0].in_force_on"),
        ("\"effective_from\": \"2023-01-01T00:00:00+09:00\"", "\"in_force_on\": \"2018-02-30\"", "versions[0].in_force_on"),
        ("\"effective_from\": \"2023-01-01T00:00:00+09:00\"", "\"effective_from\": \"2023-01-01T00:00:00+09:00\", \"in_force_on\": \"2018-01-01\"", "versions[0]"),
    ])
    func malformed(find: String, replace: String, field: String) {
        let text = Self.valid.replacingOccurrences(of: find, with: replace)
        #expect(text != Self.valid)
        do {
            _ = try TariffFile.load(Data(text.utf8), origin: "bad.json")
            Issue.record("accepted a malformed file")
        } catch {
            #expect(error.code == .invalidTariff)
            #expect(error.field == "bad.json: \(field)", "field was \(error.field ?? "nil")")
        }
        #expect(throws: GeoFareError.self) { try TariffFile.load(Data("{not json".utf8), origin: "broken.json") }
    }

    /// `valid` with a second version, 4,000 KRW, known only to the month `month`.
    static func withMonthVersion(_ month: String) -> String {
        let first = valid[valid.index(after: valid.firstIndex(of: "[")!)..<valid.lastIndex(of: "]")!]
        let second = first.replacingOccurrences(of: "\"effective_from\": \"2023-01-01T00:00:00+09:00\"", with: "\"effective_month\": \"\(month)\"")
            .replacingOccurrences(of: "\"base_fare\": 4800", with: "\"base_fare\": 4000")
        return valid.replacingOccurrences(of: first, with: first + ", " + second)
    }

    /// A version known only to the month: the one before runs until the month begins, the month is
    /// tariff_version_uncertain, the new one starts on the next month's first day (local time).
    @Test("A version known only to the month: the old one until it, the month uncertain, the new one from the next month")
    func monthPrecisionVersion() throws {
        let tariff = try TariffFile.load(Data(Self.withMonthVersion("2024-02").utf8), origin: "month.json")
        #expect(tariff.versions[1].label == "2024-02")
        let catalog = try TariffCatalog(tariffs: [tariff], zones: ZoneSet())
        func meter(_ time: String) throws(GeoFareError) -> Meter { try catalog.meter(tariff: "xx-test/regular", at: ISO8601.parse(time)!) }
        // Asia/Seoul: February 2024 begins at 2024-01-31T15:00Z and March at 2024-02-29T15:00Z (a leap year).
        #expect(try meter("2024-01-31T14:59:59Z").version.baseFare == 4800)
        #expect(try meter("2024-03-01T00:00:00+09:00").version.baseFare == 4000)
        #expect(try meter("2024-02-29T15:00:00Z").version.label == "2024-02")
        for inside in ["2024-01-31T15:00:00Z", "2024-02-15T12:00:00+09:00", "2024-02-29T23:59:59+09:00"] {
            let error = try #require(throws: GeoFareError.self) { try meter(inside) }
            #expect(error.code == .tariffVersionUncertain && error.field == "depart_at", "\(inside)")
            #expect(error.message.contains("xx-test/regular") && error.message.contains("2024-02")
                    && error.message.contains("version 2023-01-01T00:00:00+09:00 applies until the month begins"), "\(error.message)")
        }
        #expect(tariff.version(at: ISO8601.parse("2024-02-15T12:00:00+09:00")!) == nil)
        // The month must begin after the version before it starts.
        do {
            _ = try TariffFile.load(Data(Self.withMonthVersion("2022-12").utf8), origin: "bad.json")
            Issue.record("accepted a month before the previous version")
        } catch {
            #expect(error.code == .invalidTariff && error.field == "bad.json: versions[1].effective_month")
        }
        #expect(throws: GeoFareError.self) { try TariffFile.load(Data(Self.withMonthVersion("2023-01").utf8), origin: "bad.json") }
    }

    @Test("in_force_on: the first version is modelled from 00:00 local time on that day and labelled as in force then; only the first version may use it")
    func inForceOnFirstVersion() throws {
        let text = Self.valid.replacingOccurrences(of: "\"effective_from\": \"2023-01-01T00:00:00+09:00\"", with: "\"in_force_on\": \"2018-01-01\"")
        let tariff = try TariffFile.load(Data(text.utf8), origin: "period.json")
        #expect(tariff.versions[0].label == "in force on 2018-01-01" && tariff.versions[0].startsAtPeriodStart)
        // Asia/Seoul is UTC+9: 2018-01-01 00:00 local is 2017-12-31T15:00Z.
        #expect(tariff.versions[0].effectiveFrom == ISO8601.parse("2017-12-31T15:00:00Z"))
        let catalog = try TariffCatalog(tariffs: [tariff], zones: ZoneSet())
        #expect(try catalog.meter(tariff: "xx-test/regular", at: ISO8601.parse("2017-12-31T15:00:00Z")!).version.baseFare == 4800)
        let error = try #require(throws: GeoFareError.self) { try catalog.meter(tariff: "xx-test/regular", at: ISO8601.parse("2017-12-31T14:59:59Z")!) }
        #expect(error.code == .noTariffVersion && error.message.contains("modelled period starts at 2018-01-01"), "\(error.message)")
        // A later version with in_force_on is refused: it needs its own start.
        let second = Self.withMonthVersion("2024-02").replacingOccurrences(of: "\"effective_month\": \"2024-02\"", with: "\"in_force_on\": \"2024-02-01\"")
        let refused = try #require(throws: GeoFareError.self) { try TariffFile.load(Data(second.utf8), origin: "bad.json") }
        #expect(refused.code == .invalidTariff && refused.field == "bad.json: versions[1].in_force_on", "\(refused.field ?? "nil")")
    }

    @Test("also_regions: zones whose origins take the tariff; refused without a region, repeated, or naming a zone that is not loaded")
    func alsoRegions() throws {
        func load(_ region: String, _ also: String) throws(GeoFareError) -> Tariff {
            let text = Self.valid.replacingOccurrences(of: "\"region\": null,", with: "\"region\": \(region), \"also_regions\": \(also),")
            return try TariffFile.load(Data(text.utf8), origin: "also.json")
        }
        #expect(try load("\"kr-seoul\"", "[\"kr-gyeonggi-gwangmyeong\"]").alsoRegions == ["kr-gyeonggi-gwangmyeong"])
        for (region, also, field) in [("null", "[\"kr-gyeonggi\"]", "also.json: also_regions"),
                                      ("\"kr-seoul\"", "[\"kr-seoul\"]", "also.json: also_regions[0]"),
                                      ("\"kr-seoul\"", "[\"a\", \"a\"]", "also.json: also_regions[1]")] {
            let error = try #require(throws: GeoFareError.self) { try load(region, also) }
            #expect(error.code == .invalidTariff && error.field == field, "\(also): \(error.field ?? "nil")")
        }
        let unknownZone = try load("\"kr-seoul\"", "[\"xx-nowhere\"]")
        let error = try #require(throws: GeoFareError.self) { try TariffCatalog(tariffs: [unknownZone], zones: sharedCatalog.zones) }
        #expect(error.code == .invalidTariff && error.message.contains("xx-nowhere"))
    }

    @Test("A user data directory adds a tariff and a broken one is reported with its path")
    func userDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-tariffs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tariffs"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.valid.utf8).write(to: dir.appendingPathComponent("tariffs/xx-test.json"))
        let catalog = try TariffCatalog.load(from: DataCatalog(overrideDirectory: dir))
        #expect(try catalog.tariff("xx-test/regular").origin.hasSuffix("tariffs/xx-test.json"))
        #expect(try catalog.tariff("kr-seoul/regular").id == "kr-seoul/regular")
        try Data("{}".utf8).write(to: dir.appendingPathComponent("tariffs/zz-broken.json"))
        do { _ = try TariffCatalog.load(from: DataCatalog(overrideDirectory: dir)); Issue.record("loaded a broken tariff") } catch {
            #expect(error.field?.contains("zz-broken.json") == true)
        }
    }

    @Test("ISO 8601 parsing")
    func iso() {
        #expect(ISO8601.parse("2023-02-01T04:00:00+09:00")?.timeIntervalSince1970 == 1_675_191_600)
        #expect(ISO8601.parse("2023-01-31T19:00:00Z")?.timeIntervalSince1970 == 1_675_191_600)
        #expect(ISO8601.parse("2023-01-31T19:00:00.5Z")?.timeIntervalSince1970 == 1_675_191_600.5)
        #expect(ISO8601.parse("2023-01-31T14:00-0500")?.timeIntervalSince1970 == 1_675_191_600)
        #expect(ISO8601.parse("2023-01-31T19:00:00") == nil)
        #expect(ISO8601.parse("2023-13-01T00:00:00Z") == nil)
        #expect(ISO8601.parse("yesterday") == nil)
    }
}
