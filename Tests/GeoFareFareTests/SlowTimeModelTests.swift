import Foundation
import Testing
import GeoFareCore
import GeoFareData
import GeoFareRoute
@testable import GeoFareFare

/// The slow-time model (`Data/fare/slow-time.json`, `Data/fare/README.md`) and its use in every
/// path that prices from distance and duration or from a route.
struct SlowTimeModelTests {
    static var model: SlowTimeModel {
        get throws { try #require(sharedCatalog.slowTime, "the embedded catalog has no slow-time model") }
    }

    static let nycVStar = 321.8688 / 60
    static let seoulVStar = 131.0 / 30

    /// The README's test vectors. The README shows 3 decimals; the 9-decimal values here are
    /// the README's per-segment algorithm run in Python (double precision) on the stored
    /// parameters, its P_k and P_k1 cross-checked against `scipy.special.gammainc` to 1e-12.
    static let vectors: [(d: Double, t: Double, trip: Double, vStar: Double, mode: TariffVersion.Mode, slow: Double, sigma: Double)] = [
        (2_000, 600, 600, nycVStar, .exclusive, 321.341630625, 30.736217000),
        (10_000, 1_200, 1_200, nycVStar, .exclusive, 351.439972374, 55.096726660),
        (500, 400, 400, nycVStar, .exclusive, 313.451666511, 21.846245968),
        (3_000, 900, 1_800, seoulVStar, .concurrent, 523.041448305, 77.517434761),
        (5_000, 720, 720, seoulVStar, .concurrent, 234.568965860, 35.836299766),
        (0, 120, 120, seoulVStar, .concurrent, 120.000000000, 7.926816375),
    ]

    @Test("The README's test vectors, slow seconds and σ to 1e-6 s")
    func testVectors() throws {
        let m = try Self.model
        #expect(m.speedShape == 12)
        for v in Self.vectors {
            let slow = m.slowSeconds(distanceMeters: v.d, durationSeconds: v.t, cruise: m.cruise(tripSeconds: v.trip), changeoverSpeed: v.vStar, mode: v.mode)
            #expect(abs(slow - v.slow) < 1e-6, "\(v.d) m in \(v.t) s: \(slow)")
            let sigma = m.bandHalfWidth(tripSeconds: v.trip) / m.bandZ
            #expect(abs(sigma - v.sigma) < 1e-6, "σ at \(v.trip) s: \(sigma)")
        }
        // Degenerate segments: no time, no slow time; never more than the duration.
        #expect(m.slowSeconds(distanceMeters: 100, durationSeconds: 0, cruise: m.cruise(tripSeconds: 0), changeoverSpeed: Self.nycVStar, mode: .exclusive) == 0)
        #expect(m.slowSeconds(distanceMeters: 0, durationSeconds: 60, cruise: 0, changeoverSpeed: Self.nycVStar, mode: .exclusive) == 0)
        #expect(m.slowSeconds(distanceMeters: 0, durationSeconds: 60, cruise: m.cruise(tripSeconds: 60), changeoverSpeed: Self.nycVStar, mode: .exclusive) == 60)
    }

    /// A data directory whose `fare/slow-time.json` is `text`.
    static func catalog(withModel text: String) throws -> (DataCatalog, URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-slowtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("fare"), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: dir.appendingPathComponent("fare/slow-time.json"))
        return (DataCatalog(overrideDirectory: dir), dir)
    }

    @Test("A broken slow-time file is invalid_tariff naming the file and the parameter; a valid one overrides the embedded model")
    func brokenFile() throws {
        let embedded = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Data/fare/slow-time.json"), encoding: .utf8)
        let cases: [(String, String)] = [
            (embedded.replacingOccurrences(of: #""speed_shape": 12"#, with: #""speed_shape": 0"#), "parameters.speed_shape"),
            (embedded.replacingOccurrences(of: #""cruise_slope": 0.892888,"#, with: ""), "parameters.cruise_slope"),
            (embedded.replacingOccurrences(of: #""band_z": 0.5348"#, with: #""band_z": "wide""#), "parameters.band_z"),
            (embedded.replacingOccurrences(of: #""model": "gamma-stop-v1""#, with: #""model": "gamma-stop-v2""#), "model"),
        ]
        for (text, path) in cases {
            #expect(text != embedded, "the test's edit did not apply for \(path)")
            let (data, dir) = try Self.catalog(withModel: text)
            defer { try? FileManager.default.removeItem(at: dir) }
            do {
                _ = try TariffCatalog.load(from: data)
                Issue.record("a broken slow-time file (\(path)) loaded")
            } catch {
                #expect(error.code == .invalidTariff)
                #expect(error.field?.contains("fare/slow-time.json") == true && error.field?.hasSuffix(path) == true, "\(error)")
            }
        }
        let (data, dir) = try Self.catalog(withModel: embedded.replacingOccurrences(of: #""speed_shape": 12"#, with: #""speed_shape": 2"#))
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try TariffCatalog.load(from: data).slowTime?.speedShape == 2)
    }

    @Test("A .totals trip takes the model's slow time and band; cruise_kmh keeps the cruise rule and the physical bounds")
    func totals() throws {
        for (tariff, meters, seconds) in [("us-nyc/yellow", 2_000.0, 600.0), ("kr-seoul/regular", 5_000, 720), ("kr-seoul/deluxe", 7_000, 1_380)] {
            let time = tariff.hasPrefix("us") ? "2024-05-15T14:00:00-04:00" : "2024-05-15T14:00:00+09:00"
            let q = try quote(tariff, meters: meters, seconds: seconds, at: time)
            let meter = try sharedCatalog.meter(tariff: tariff, at: at(time))
            // Each tariff's own model: New York's default, Korea's `kr` (slow-time-kr.json).
            let m = try #require(meter.slowTime)
            #expect(m == (tariff.hasPrefix("kr-") ? sharedCatalog.slowTimeModels["kr"] : sharedCatalog.slowTime), "\(tariff)")
            let expected = m.slowSeconds(distanceMeters: meters, durationSeconds: seconds, cruise: m.cruise(tripSeconds: seconds),
                                         changeoverSpeed: meter.changeoverSpeed, mode: meter.mode)
            #expect(q.slowSeconds == expected, "\(tariff)")
            // The band is the meter run with slow ∓ band_z·σ, clamped to what D and T allow.
            let w = m.bandHalfWidth(tripSeconds: seconds)
            let lower = SlowTimeModel.lowerBound(distanceMeters: meters, durationSeconds: seconds, changeoverSpeed: meter.changeoverSpeed, mode: meter.mode)
            let lowSlow = min(max(expected - w, lower), seconds), highSlow = min(max(expected + w, lower), seconds)
            let low = try quote(tariff, segments: [(meters, seconds, lowSlow, false)], at: time)
            let high = try quote(tariff, segments: [(meters, seconds, highSlow, false)], at: time)
            #expect(q.low == min(low.total, q.total), "\(tariff)")
            #expect(q.high == max(high.total, q.total), "\(tariff)")
            // ... and narrower than the physical bounds the cruise rule reports.
            let cruise = try quote(tariff, meters: meters, seconds: seconds, at: time, cruiseKmh: 25)
            #expect(cruise.slowSeconds == max(0, seconds - meters / (25 / 3.6)))
            #expect(cruise.low <= q.low && q.high <= cruise.high)
            #expect(q.high - q.low < cruise.high - cruise.low, "\(tariff): \(q.low)–\(q.high) vs \(cruise.low)–\(cruise.high)")
        }
    }

    @Test("Korean regular (concurrent) and deluxe (exclusive) tariffs use their own v* and mode")
    func korea() throws {
        // Data/fare/README.md's table, 20-minute trips on the Korean model: Seoul regular 727 s at
        // 15 km/h, 468 s at 30 km/h (New York's parameters gave 600 and 352).
        for (kmh, slow) in [(15.0, 727.0), (30.0, 468.0)] {
            let q = try quote("kr-seoul/regular", meters: kmh / 3.6 * 1_200, seconds: 1_200, at: "2024-05-15T14:00:00+09:00")
            #expect(abs(q.slowSeconds - slow) < 0.5, "\(kmh) km/h: \(q.slowSeconds)")
        }
        let deluxe = try quote("kr-seoul/deluxe", meters: 5_000, seconds: 1_200, at: "2024-05-15T14:00:00+09:00")
        let meter = try sharedCatalog.meter(tariff: "kr-seoul/deluxe", at: at("2024-05-15T14:00:00+09:00"))
        #expect(meter.mode == .exclusive)
        #expect(deluxe.slowSeconds >= 1_200 - 5_000 / meter.changeoverSpeed)
    }

    @Test("Routed trips: segments get the model's slow time for the meter's v*, unless the estimator's is road-derived")
    func routed() throws {
        let request = FareRequest(from: TripPricerTests.cityHall, to: TripPricerTests.gangnam, departure: at("2024-05-15T08:30:00+09:00"))
        let (q, routed) = try pricer.quote(request)
        let priced = try #require(routed)
        let route = try pricer.route(request)   // the estimator's own segments (cruise rule)
        #expect(route.segments.count == priced.segments.count)
        let meter = try pricer.catalog.meter(tariff: q.tariff, at: request.departure)
        let m = try #require(meter.slowTime)
        let c = m.cruise(tripSeconds: route.durationSeconds)
        var expected = 0.0, cruiseRule = 0.0
        for s in route.segments {
            expected += m.slowSeconds(distanceMeters: s.distanceMeters, durationSeconds: s.durationSeconds, cruise: c, changeoverSpeed: meter.changeoverSpeed, mode: meter.mode)
            cruiseRule += s.slowSeconds ?? 0
        }
        #expect(abs(q.slowSeconds - expected) < 1e-6)
        // The route returned is the one priced: its segments carry the model's slow seconds.
        #expect(abs(priced.segments.reduce(0) { $0 + ($1.slowSeconds ?? 0) } - expected) < 1e-6)
        #expect(abs(expected - cruiseRule) > 1, "the route's own slow time already equals the model's: the test cannot tell them apart")
        #expect(q.low <= q.total && q.total <= q.high)
        // The same route with the estimator's slow time kept.
        let keeping = TripPricer(engine: pricer.engine, estimator: pricer.estimator, roadDerivedSlowTime: [route.estimator])
        let (k, _) = try keeping.quote(request)
        #expect(abs(k.slowSeconds - cruiseRule) < 1e-6)
        // figures (the batch path) agrees with quote.
        let (f, _) = try pricer.figures(request)
        #expect(f.total == q.total && f.low == q.low && f.high == q.high && f.slowSeconds == q.slowSeconds)
    }

    @Test("Segments keep a caller's slow_s; modelled segments of a uniform trip sum to the whole trip's slow time")
    func segments() throws {
        let given = try quote("kr-seoul/regular", segments: [(3_000, 600, 200, false), (2_000, 300, 50, false)], at: "2024-05-15T14:00:00+09:00")
        #expect(given.slowSeconds == 250)
        var list: [TripSegment] = []
        var start = at("2024-05-15T14:00:00+09:00")
        for (d, t) in [(2_000.0, 400.0), (3_000, 600), (1_000, 200)] {   // 5 m/s throughout
            list.append(TripSegment(distanceMeters: d, durationSeconds: t, start: start))
            start = start.addingTimeInterval(t)
        }
        var r = FareRequest(trip: .segments(list), departure: at("2024-05-15T14:00:00+09:00"), tariff: "kr-seoul/regular")
        r.modelSlowTime = true
        let split = try sharedPricer.quote(r).quote
        let whole = try quote("kr-seoul/regular", meters: 6_000, seconds: 1_200, at: "2024-05-15T14:00:00+09:00")
        #expect(abs(split.slowSeconds - whole.slowSeconds) < 1e-9)
        #expect(split.total == whole.total && split.low == whole.low && split.high == whole.high)
    }
}
