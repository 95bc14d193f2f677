import Foundation
import GeoFareTestSupport
import GeoFareText
import Testing

/// Distance tiers (복합할증 beyond a distance) through the built binary: `geofare fare` and the
/// worker, its fast path and its general path (`GEOFARE_FAST_PATH=off`), each to the won as
/// computed by hand (`docs/tariffs.md`, "Distance tiers").
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(5))))
struct TierCLITests {
    /// (request fields, total) pairs. With `cruise_kmh` the slow time is T − D / cruise.
    static let trips: [(String, Int64)] = [
        // Gunsan 2023, 10,000 m in 1,100 s at a 36 km/h cruise: 100 s slow, F = 10,000 + 100 × 134/32
        // = 10,418.75 m, N = ⌊8,418.75 / 134⌋ + 1 = 63; units 24–63 (40) at 140:
        // 4,300 + 2,300 + 5,600 = 12,200.
        (#""trip":{"distance_m":10000,"duration_s":1100},"cruise_kmh":36,"tariff":"kr-jeonbuk/regular-gunsan","depart_at":"2026-11-18T14:00:00+09:00""#, 12_200),
        // The same at 00:30 (+20 %): 5,160 + 23 × 120 + 40 × 160 = 5,160 + 2,760 + 6,400 = 14,320 → 14,300.
        (#""trip":{"distance_m":10000,"duration_s":1100},"cruise_kmh":36,"tariff":"kr-jeonbuk/regular-gunsan","depart_at":"2026-11-19T00:30:00+09:00""#, 14_300),
        // Below the tier: 4,000 m in 400 s at 36 km/h (no slow time): 15 units → 5,800.
        (#""trip":{"distance_m":4000,"duration_s":400},"cruise_kmh":36,"tariff":"kr-jeonbuk/regular-gunsan","depart_at":"2026-11-18T14:00:00+09:00""#, 5_800),
        // Out of city by segments: 3,000 m inside, 7,000 m outside (+20 %): 12,820 → 12,800.
        (#""segments":[{"distance_m":3000,"duration_s":270,"slow_s":0},{"distance_m":7000,"duration_s":630,"slow_s":0,"outside":true}],"tariff":"kr-jeonbuk/regular-gunsan","depart_at":"2026-11-18T14:00:00+09:00""#, 12_800),
        // Iksan 2023, the same 10,000 m / 1,100 s / 36 km/h: 63 units, from unit 31 (6,020 m) at 140:
        // 4,300 + 3,000 + 33 × 140 = 11,920 → 11,900.
        (#""trip":{"distance_m":10000,"duration_s":1100},"cruise_kmh":36,"tariff":"kr-jeonbuk/regular-iksan","depart_at":"2026-11-18T14:00:00+09:00""#, 11_900),
        // Yeosu 2023, 15,050 m in 1,300 s at 45 km/h: 96 s slow, F = 15,050 + 96 × 130/30 = 15,466 m,
        // N = ⌊13,466 / 130⌋ + 1 = 104; from unit 55 (9,020 m) at 140: 4,300 + 5,400 + 50 × 140 = 16,700.
        (#""trip":{"distance_m":15050,"duration_s":1300},"cruise_kmh":45,"tariff":"kr-jeonnam/regular-yeosu","depart_at":"2026-11-18T14:00:00+09:00""#, 16_700),
        // Yeosu out of city (+35 %): 5,000 m inside, 10,050 m outside: 19,360 → 19,400 (docs/tariffs.md).
        (#""segments":[{"distance_m":5000,"duration_s":400,"slow_s":0},{"distance_m":10050,"duration_s":800,"slow_s":0,"outside":true}],"tariff":"kr-jeonnam/regular-yeosu","depart_at":"2026-11-18T14:00:00+09:00""#, 19_400),
        // Jeju 2023, 30,000 m in 2,200 s at 54 km/h: 200 s slow, F = 30,000 + 200 × 126/31 = 30,812.9 m,
        // N = ⌊28,812.9 / 126⌋ + 1 = 229; units 144–229 (86) at 120: 4,100 + 14,300 + 10,320 = 28,720 → 28,700.
        (#""trip":{"distance_m":30000,"duration_s":2200},"cruise_kmh":54,"tariff":"kr-jeju/regular","depart_at":"2026-11-18T14:00:00+09:00""#, 28_700),
    ]

    @Test("The worker prices tiered tariffs to the won, and its fast path answers byte for byte as its general path")
    func worker() throws {
        let db1 = temporaryDatabase(), db2 = temporaryDatabase()
        defer { removeDatabase(db1); removeDatabase(db2) }
        let fast = try WorkerProcess(arguments: ["--db", db1])
        let general = try WorkerProcess(arguments: ["--db", db2], environment: ["GEOFARE_FAST_PATH": "off"])
        for (i, (fields, total)) in Self.trips.enumerated() {
            let line = #"{"id":\#(i),"op":"fare",\#(fields)}"#
            fast.send(line)
            general.send(line)
            let a = fast.receiveLines(1), b = general.receiveLines(1)
            #expect(a == b, "fast and general paths differ on \(line)")
            let answer = try #require(fast.call(#"{"id":"again","op":"fare",\#(fields)}"#))
            #expect(answer["result"]?["total"]?.int64 == total, "\(line): \(answer)")
            #expect(answer["result"]?["tariff_basis"] == .string("sourced"))
        }
    }

    @Test("geofare fare --distance-m --duration-s --tariff prices past the tier")
    func fareCommand() throws {
        let r = try GeoFareBinary.run(["fare", "--distance-m", "10000", "--duration-s", "1100", "--cruise-kmh", "36",
                                       "--tariff", "kr-jeonbuk/regular-gunsan", "--at", "2026-11-18T14:00:00+09:00", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONParser.parse(Array(r.stdout.utf8))
        #expect(json["total"]?.int64 == 12_200, "\(r.stdout)")
        let night = try GeoFareBinary.run(["fare", "--distance-m", "10000", "--duration-s", "1100", "--cruise-kmh", "36",
                                           "--tariff", "kr-jeonbuk/regular-gunsan", "--at", "2026-11-19T00:30:00+09:00"])
        #expect(night.status == 0)
        #expect(night.stdout.contains("14,300") || night.stdout.contains("14300"), "\(night.stdout)")
        let iksan = try GeoFareBinary.run(["fare", "--distance-m", "10000", "--duration-s", "1100", "--cruise-kmh", "36",
                                           "--tariff", "kr-jeonbuk/regular-iksan", "--at", "2026-11-18T14:00:00+09:00", "--json"])
        #expect(try JSONParser.parse(Array(iksan.stdout.utf8))["total"]?.int64 == 11_900, "\(iksan.stdout)")
    }
}
