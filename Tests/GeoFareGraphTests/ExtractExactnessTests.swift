import Foundation
import Testing
import GeoFareCore
@testable import GeoFareGraph
@testable import GeoFareGraphBuild

/// On every shared OpenStreetMap extract, built with the car profile: the contraction hierarchy
/// answers exactly what plain Dijkstra answers, to the unit, for both metrics, paths included.
struct ExtractExactnessTests {
    @Test("CH == Dijkstra on 2,000 seeded random queries per extract and metric (path sums included)", arguments: TestData.extracts)
    func chEqualsDijkstra(extract: String) throws {
        let (network, _) = try OSMRoadNetworkBuilder(profile: TestData.carProfile()).build(pbfAt: TestData.extract(extract))
        #expect(network.nodeCount > 100)
        let problems = try checkExactness(network: network, pairs: 2_000, seed: 20_261_123, maxEndpoints: 1)
        #expect(problems.isEmpty, "\(extract): \(problems.prefix(5))")
    }

    @Test("A graph file written and mapped again routes exactly as the network it was built from", .needsExtracts, arguments: ["seoul_mapo.osm.pbf", "nyc_midtown_south.osm.pbf"])
    func fileRoundTrip(extract: String) throws {
        let (network, _) = try OSMRoadNetworkBuilder(profile: TestData.carProfile()).build(pbfAt: TestData.extract(extract))
        let hierarchies = try Dictionary(uniqueKeysWithValues: GraphMetric.allCases.map { ($0, try ContractionHierarchy(network: network, metric: $0)) })
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-\(UUID().uuidString).graph").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try GraphFileWriter.write(network: network, hierarchies: hierarchies, metadata: GraphMetadata(profileID: "car", profileFingerprint: "test", osmTimestamp: "", buildTime: ""), to: path)
        let mapped = try RoadGraph(path: path)
        let inMemory = try RoadGraph(network: network, metadata: GraphMetadata(profileID: "car", profileFingerprint: "test", osmTimestamp: "", buildTime: ""))
        var rng = SeededGenerator(seed: 9)
        let m = mapped.metadata
        var routed = 0
        for _ in 0..<200 {
            let a = Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng))
            let b = Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng))
            for metric in GraphMetric.allCases {
                let x = try? mapped.route(from: a, to: b, metric: metric, maxSnapMeters: 500)
                let y = try? inMemory.route(from: a, to: b, metric: metric, maxSnapMeters: 500)
                #expect(x?.distanceMeters == y?.distanceMeters && x?.timeSeconds == y?.timeSeconds)
                if x != nil { routed += 1 }
            }
        }
        #expect(routed > 200)
    }
}
