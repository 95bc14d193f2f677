import Foundation
import Testing
import GeoFareTestSupport

/// Every benchmark honours `--rounds`: it says how many rounds it ran and reports, per figure,
/// the median with the range over those rounds (the built binary, small workloads).
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct BenchRoundsTests {
    static let cases: [(String, [String])] = [
        ("transform", ["--points", "20000"]),
        ("fare", ["--trips", "2000"]),
        ("route", ["--trips", "2000"]),
        ("csv", ["--rows", "5000"]),
        ("worker", ["--requests", "300", "--parties", "100", "--window", "32", "--burst", "2000", "--baseline-worker", "general"]),
        ("cluster", ["--points", "2000"]),
        ("places", ["--pbf", SharedData.url("osm/seoul_mapo.osm.pbf").path, "--queries", "300", "--reverses", "300"]),
    ]

    /// `geofare bench ARGUMENTS --json`: expects exit 0 and returns the report object.
    static func report(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        let run = try GeoFareBinary.run(["bench"] + arguments + ["--json"])
        #expect(run.status == 0, "\(run.stderr)", sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], sourceLocation: sourceLocation)
    }

    /// Each `(median, [low, high])` a report holds: top-level figures named in `ranges`, the
    /// transform's pairs, the worker's ops.
    static func figures(_ report: [String: Any]) -> [(String, Double, [Double])] {
        var out: [(String, Double, [Double])] = []
        func collect(_ object: [String: Any], prefix: String) {
            for (name, value) in object["ranges"] as? [String: [Double]] ?? [:] {
                if let median = object[name] as? Double { out.append((prefix + name, median, value)) }
            }
            if let range = object["range"] as? [Double], let median = object["requests_per_second"] as? Double {
                out.append((prefix + "requests_per_second", median, range))
            }
        }
        collect(report, prefix: "")
        if let baseline = report["baseline"] as? [String: Any] { collect(baseline, prefix: "baseline.") }
        for (i, pair) in (report["pairs"] as? [[String: Any]] ?? []).enumerated() { collect(pair, prefix: "pairs[\(i)].") }
        for (op, result) in report["ops"] as? [String: [String: Any]] ?? [:] { collect(result, prefix: op + ".") }
        return out
    }

    @Test("bench places: the indexed search answers as the scan of every key on every drawn query, and the index's size is reported",
          .needsMapo)
    func placesMatchScan() throws {
        let report = try Self.report(["places", "--pbf", SharedData.url("osm/seoul_mapo.osm.pbf").path, "--queries", "500", "--reverses", "100", "--rounds", "1"])
        #expect(report["scan_mismatches"] as? Int == 0)
        #expect((report["places"] as? Int ?? 0) > 500 && (report["index_bytes"] as? Int ?? 0) > 10_000)
        #expect((report["speedup_p50"] as? Double ?? 0) > 0)
        // Korean names with one vowel changed, timed apart
        #expect((report["hangul_typo_queries"] as? Int ?? 0) == 100 && (report["hangul_typo_p50_us"] as? Double ?? 0) > 0)
    }

    @Test("bench --rounds 3 --json: rounds 3, and every figure's median lies in its range over the rounds",
          arguments: cases.map(\.0))
    func roundsAndRanges(_ name: String) throws {
        let extra = Self.cases.first { $0.0 == name }!.1
        let report = try Self.report([name, "--rounds", "3"] + extra)
        #expect(report["rounds"] as? Int == 3)
        let figures = Self.figures(report)
        #expect(figures.count >= 2, "figures with ranges: \(figures.map(\.0))")
        for (figure, median, range) in figures {
            #expect(range.count == 2 && range[0] <= median && median <= range[1], "\(figure): median \(median), range \(range)")
        }
        // Three timed rounds of real work never all land on the same value: a benchmark that
        // ran once and repeated its figure would.
        #expect(figures.contains { $0.2[0] < $0.2[1] }, "no figure varied over the rounds: \(figures)")
    }

    /// bench worker --burst: fresh upserts and fares piped at once into new workers on SQLite
    /// files, answered without error; per-request µs, their ratio and the rate agree; the
    /// general-path baseline measured in the same rounds.
    @Test("bench worker --burst: fresh upserts and fares answered without error, figures consistent, baseline in the same rounds")
    func workerBurst() throws {
        let report = try Self.report(["worker", "--requests", "200", "--parties", "50", "--window", "32", "--burst", "1500",
                                      "--baseline-worker", "general", "--rounds", "1"])
        #expect(report["burst"] as? Int == 1500)
        #expect(report["burst_errors"] as? Int == 0)
        let rate = try #require(report["burst_upserts_per_second"] as? Double)
        let upsertUS = try #require(report["burst_upsert_us"] as? Double), fareUS = try #require(report["burst_fare_us"] as? Double)
        #expect(rate > 0 && upsertUS > 0 && fareUS > 0)
        // One round: the rate is the burst over its time, the ratio the two per-request times.
        #expect(abs(rate * upsertUS / 1e6 - 1) < 0.01, "\(rate)/s against \(upsertUS) µs")
        #expect(abs((report["burst_upsert_vs_fare"] as? Double ?? 0) - upsertUS / fareUS) < 0.02 * upsertUS / fareUS + 0.01)
        let baseline = try #require(report["baseline"] as? [String: Any])
        #expect(baseline["worker"] as? String == "general")
        for key in ["burst_upserts_per_second", "burst_upsert_us", "burst_fare_us", "nearby_per_second", "clusters_per_second"] {
            #expect((baseline[key] as? Double ?? 0) > 0, "\(key)")
        }
    }

    @Test("bench route --pbf: the build's seconds, peak memory and file size, then the graph's queries (CH equal to Dijkstra)",
          .needsMapo)
    func routeBuild() throws {
        let pbf = SharedData.url("osm/seoul_mapo.osm.pbf").path
        let report = try Self.report(["route", "--pbf", pbf, "--queries", "100", "--rounds", "2"])
        let build = try #require(report["build"] as? [String: Any])
        #expect(build["pbf"] as? String == pbf)
        #expect((build["seconds"] as? Double ?? 0) > 0)
        // The child's peak: more than the file it wrote, and far from the bench's own process.
        #expect((build["peak_rss_mib"] as? Int ?? 0) > 5)
        #expect((build["file_bytes"] as? Int ?? 0) > 100_000)
        let metrics = try #require(report["metrics"] as? [String: [String: Any]])
        for metric in ["fastest", "shortest"] {
            #expect(metrics[metric]?["checked_equal"] as? Int == 100, "\(metric)")
        }
        let missing = try GeoFareBinary.run(["bench", "route", "--pbf", "/nonexistent/x.osm.pbf", "--rounds", "1"])
        #expect(missing.status == 65 && missing.stderr.contains("pbf_unreadable"), "\(missing.stderr)")
    }

    @Test("bench route --matrix --rounds 3 --json: the matrix and the route calls timed in the same rounds, every cell equal to its route",
          .needsMapo)
    func routeMatrix() throws {
        let pbf = SharedData.url("osm/seoul_mapo.osm.pbf").path
        let report = try Self.report(["route", "--pbf", pbf, "--matrix", "12", "--rounds", "3"])
        #expect(report["rounds"] as? Int == 3)
        #expect(report["benchmark"] as? String == "route-matrix")
        #expect(report["cells"] as? Int == 144)
        for metric in ["fastest", "shortest"] {
            #expect(report["\(metric)_cells_minimised_equal"] as? Int == 144, "\(metric)")
            #expect((report["\(metric)_cells_equal"] as? Int ?? 0) >= 140, "\(metric)")
        }
        let figures = Self.figures(report)
        #expect(figures.count == 4, "\(figures.map(\.0))")
        for (figure, median, range) in figures {
            #expect(range.count == 2 && range[0] <= median && median <= range[1], "\(figure): median \(median), range \(range)")
        }
        let tooBig = try GeoFareBinary.run(["bench", "route", "--pbf", pbf, "--matrix", "101", "--rounds", "1"])
        #expect(tooBig.status != 0)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs where `../shared/data/osm/seoul_mapo.osm.pbf` is, and always on CI.
    static var needsMapo: Self { .enabled(if: SharedData.runs("osm/seoul_mapo.osm.pbf"), "needs ../shared/data/osm beside the checkout") }
}
