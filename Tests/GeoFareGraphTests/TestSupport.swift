import Foundation
import GeoFareGraph
import GeoFareOSM
import GeoFareTestSupport
import Testing

enum TestData {
    /// The package root, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `../shared/data/osm` beside the package.
    static let osmDirectory = SharedData.url("osm")
    /// Whether the tests on the shared extracts run (see ``SharedData/runs(_:)``).
    static var extractsRun: Bool { SharedData.runs("osm") }

    /// Every shared extract, sorted by name.
    static var extracts: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: osmDirectory.path)) ?? []).filter { $0.hasSuffix(".osm.pbf") }.sorted()
    }

    static func extract(_ name: String) -> URL { osmDirectory.appendingPathComponent(name) }

    static func carProfile() throws -> RoadProfile { try RoadProfile.named("car") }

    static func calibrationProfile() throws -> RoadProfile {
        let url = packageRoot.appendingPathComponent("Tests/GeoFareGraphTests/Fixtures/calibration-profile.json")
        return try RoadProfile(json: [UInt8](try Data(contentsOf: url)))
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs where the shared extracts are (``TestData/extractsRun``), and always on CI.
    static var needsExtracts: Self { .enabled(if: TestData.extractsRun, "needs ../shared/data/osm beside the checkout") }
}

extension RoadNetwork {
    /// Checks the shape invariants every network must satisfy and that it is strongly connected
    /// (BFS from node 0 forward and backward reaches every node).
    func expectValid() {
        let n = nodeCount, m = arcCount
        #expect(nodeLongitudes.count == n)
        for column in [arcHead.count, arcDistanceCentimeters.count, arcTimeMilliseconds.count, arcRoadClass.count, arcFlags.count] {
            #expect(column == m)
        }
        #expect(shapeStart.count == m + 1)
        #expect(shapeStart.first == 0)
        #expect(Int(shapeStart.last ?? 0) == shapeLatitudes.count)
        #expect(shapeLongitudes.count == shapeLatitudes.count)
        #expect(zip(shapeStart, shapeStart.dropFirst()).allSatisfy { $0 <= $1 }, "shapeStart must be monotone")
        #expect(arcTail.allSatisfy { Int($0) < n } && arcHead.allSatisfy { Int($0) < n }, "arc endpoints in range")
        #expect(!zip(arcTail, arcHead).contains { $0 == $1 }, "no self-loops")
        #expect(arcDistanceCentimeters.allSatisfy { $0 >= 1 } && arcTimeMilliseconds.allSatisfy { $0 >= 1 })
        #expect(nodeLatitudes.allSatisfy { abs($0) <= 900_000_000 } && nodeLongitudes.allSatisfy { abs($0) <= 1_800_000_000 })
        guard n > 0 else { return }
        for reverse in [false, true] {
            var adjacency = [[Int]](repeating: [], count: n)
            for a in 0..<m {
                let (t, h) = reverse ? (Int(arcHead[a]), Int(arcTail[a])) : (Int(arcTail[a]), Int(arcHead[a]))
                adjacency[t].append(h)
            }
            var seen = [Bool](repeating: false, count: n)
            var queue = [0]; seen[0] = true
            var i = 0
            while i < queue.count {
                for w in adjacency[queue[i]] where !seen[w] { seen[w] = true; queue.append(w) }
                i += 1
            }
            #expect(queue.count == n, "strongly connected (\(reverse ? "backward" : "forward")): reached \(queue.count) of \(n)")
        }
    }

    /// The node at (lat, lon) degrees, or nil (coordinates as the writer rounds them).
    func nodes(at lat: Double, _ lon: Double) -> [Int] {
        let la = Int32((lat * 1e7).rounded()), lo = Int32((lon * 1e7).rounded())
        return (0..<nodeCount).filter { nodeLatitudes[$0] == la && nodeLongitudes[$0] == lo }
    }

    /// Arc indexes from any node at `from` to any node at `to`.
    func arcs(from: (Double, Double), to: (Double, Double)) -> [Int] {
        let t = Set(nodes(at: from.0, from.1)), h = Set(nodes(at: to.0, to.1))
        return (0..<arcCount).filter { t.contains(Int(arcTail[$0])) && h.contains(Int(arcHead[$0])) }
    }
}
