import Foundation
import GeoFareCore
import GeoFareFile
import Testing
@testable import GeoFareGraph
@testable import GeoFareGraphBuild
@testable import GeoFareOSM

/// The graph file: a round trip gives the same answers; wrong, old, truncated and corrupt files
/// give their own typed errors and never crash.
@Suite struct GraphFileTests {
    static let metadata = GraphMetadata(profileID: "car", profileFingerprint: "test", osmTimestamp: "2026-11-01T00:00:00Z",
                                        buildTime: "2026-11-23T00:00:00Z")

    static func tempPath(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-graph-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    /// Writes a small grid's graph file; returns the network and the path.
    static func writeGrid(_ name: String, seed: UInt64 = 5, side: Int = 12) throws -> (RoadNetwork, String) {
        let net = TestNetworks.grid(seed: seed, width: side, height: side)
        var chs: [GraphMetric: ContractionHierarchy] = [:]
        for m in GraphMetric.allCases { chs[m] = try ContractionHierarchy(network: net, metric: m) }
        let path = tempPath(name)
        try GraphFileWriter.write(network: net, hierarchies: chs, metadata: metadata, to: path)
        return (net, path)
    }

    @Test func crcMatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        // the 8-byte loop and the byte tail agree with a bitwise reference on odd lengths
        var rng = SeededGenerator(seed: 1)
        let bytes = (0..<1001).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c ^= UInt32(b); for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 } }
        #expect(CRC32.checksum(bytes) == ~c)
    }

    @Test func roundTripGivesTheSameAnswersAndData() throws {
        let (net, path) = try Self.writeGrid("roundtrip.graph")
        let graph = try RoadGraph(path: path)
        #expect(graph.metadata.attribution == "© OpenStreetMap contributors, ODbL 1.0 (https://www.openstreetmap.org/copyright)")
        #expect(graph.metadata.nodeCount == net.nodeCount && graph.metadata.arcCount == net.arcCount)
        #expect(graph.metadata.profileID == "car" && graph.metadata.osmTimestamp == "2026-11-01T00:00:00Z")
        #expect(Array(graph.network.arcTail) == net.arcTail && Array(graph.network.shapeLongitudes) == net.shapeLongitudes)
        #expect(Array(graph.network.arcTimeMilliseconds) == net.arcTimeMilliseconds)
        // the mapped hierarchies answer exactly as Dijkstra on the original network
        var chs: [GraphMetric: ContractionHierarchy] = [:]
        for m in GraphMetric.allCases { chs[m] = graph.hierarchies[m.index] }
        #expect(try checkExactness(network: net, pairs: 300, seed: 11, hierarchies: chs).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp.\(getpid())"))
    }

    func expectCode(_ code: String, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try RoadGraph(path: path)
            Issue.record("opened \(path) without error", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code.rawValue == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.field == path, sourceLocation: sourceLocation)
        }
    }

    @Test func wrongFilesGiveTypedErrors() throws {
        let (_, path) = try Self.writeGrid("good.graph")
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        func variant(_ name: String, _ change: (inout Data) -> Void) throws -> String {
            var d = good
            change(&d)
            let p = Self.tempPath(name)
            try d.write(to: URL(fileURLWithPath: p))
            return p
        }
        expectCode(ErrorCode.graphNotAGraphFile.rawValue, try variant("magic.graph") { $0[3] = UInt8(ascii: "X") })
        expectCode(ErrorCode.graphNotAGraphFile.rawValue, try variant("text.graph") { $0 = Data("hello, world, not a graph".utf8) })
        expectCode(ErrorCode.graphNotAGraphFile.rawValue, try variant("empty.graph") { $0 = Data() })
        expectCode(ErrorCode.graphVersionUnsupported.rawValue, try variant("old.graph") { $0[8] = 0 })
        expectCode(ErrorCode.graphVersionUnsupported.rawValue, try variant("future.graph") { $0[8] = 2 })
        expectCode(ErrorCode.graphTruncated.rawValue, try variant("short.graph") { $0 = $0.prefix($0.count - 100) })
        expectCode(ErrorCode.graphTruncated.rawValue, try variant("header.graph") { $0 = $0.prefix(20) })
        expectCode(ErrorCode.graphCorrupt.rawValue, try variant("flip.graph") { $0[$0.count / 2] ^= 0x10 })
        expectCode(ErrorCode.graphCorrupt.rawValue, try variant("longer.graph") { $0.append(contentsOf: [0, 0, 0, 0, 0, 0, 0, 0]) })
        expectCode(ErrorCode.graphIo.rawValue, Self.tempPath("missing.graph"))
    }

    @Test func structurallyBadSectionsWithAValidChecksumAreCorrupt() throws {
        // a writer bug (an arc to a node that does not exist) must be caught even when the CRC matches
        let net = TestNetworks.grid(seed: 3, width: 6, height: 6)
        var chs: [GraphMetric: ContractionHierarchy] = [:]
        for m in GraphMetric.allCases { chs[m] = try ContractionHierarchy(network: net, metric: m) }
        let p = Self.tempPath("badarc.graph")
        try GraphFileWriter.write(network: net, hierarchies: chs, metadata: Self.metadata, to: p)
        let file = try GraphFile(path: p)
        var sections: [(id: UInt32, bytes: [UInt8])] = []
        for id in [GraphFileLayout.Section.metadata] + Array(10...20).map(UInt32.init)
            + GraphMetric.allCases.flatMap({ m in (0..<10).map { GraphFileLayout.Section.hierarchy(m, $0) } }) {
            var bytes = Array(UnsafeRawBufferPointer(file.view(id, as: UInt8.self)!))
            if id == GraphFileLayout.Section.arcHead { bytes[0] = 0xFF; bytes[1] = 0xFF }
            sections.append((id, bytes))
        }
        let bad = Self.tempPath("badarc2.graph")
        try GraphFileWriter.writeSections(sections, to: bad)
        expectCode(ErrorCode.graphCorrupt.rawValue, bad)
        // the same sections untouched open fine (the rewrite itself is sound)
        sections[4].bytes = Array(UnsafeRawBufferPointer(file.view(GraphFileLayout.Section.arcHead, as: UInt8.self)!))
        try GraphFileWriter.writeSections(sections, to: bad)
        _ = try RoadGraph(path: bad)
    }

    /// A graph file's positions are not checked against the globe when it opens (a mapped
    /// file is read in place), so a route's geometry must survive any two Int32 positions: the
    /// graph-file fuzz target's input `regression-positions-overflow-int32.graph` trapped here,
    /// subtracting them in Int32.
    @Test func polylineFractionsSurviveAnyTwoPositions() {
        let c = RoadGraphRouter.cumulativeFractions([(lat: 0, lon: Int32.min), (lat: Int32.max, lon: Int32.max), (lat: Int32.min, lon: Int32.max)])
        #expect(c.count == 3 && c[0] == 0 && c[2] == 1 && c[1] > 0 && c[1] < 1, "\(c)")
        #expect(RoadGraphRouter.cumulativeFractions([(lat: 5, lon: 5), (lat: 5, lon: 5)]) == [0, 0])
    }

    @Test func randomDamageNeverCrashes() throws {
        let (_, path) = try Self.writeGrid("fuzz-source.graph", side: 6)
        let good = try Data(contentsOf: URL(fileURLWithPath: path))
        var rng = SeededGenerator(seed: 99)
        let p = Self.tempPath("fuzz.graph")
        var codes: [String: Int] = [:]
        for round in 0..<300 {
            var d = good
            switch round % 3 {
            case 0: d = d.prefix(Int.random(in: 0..<d.count, using: &rng))
            case 1:
                for _ in 0..<Int.random(in: 1...8, using: &rng) { d[Int.random(in: 0..<d.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng) }
            default:
                // damage the header or table only
                d[Int.random(in: 0..<min(d.count, 200), using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
            }
            try d.write(to: URL(fileURLWithPath: p))
            do {
                _ = try RoadGraph(path: p)
                if d != good { Issue.record("round \(round): a damaged file opened") }
            } catch {
                codes[error.code.rawValue, default: 0] += 1
            }
        }
        #expect(Set(codes.keys).isSubset(of: [ErrorCode.graphNotAGraphFile.rawValue, ErrorCode.graphVersionUnsupported.rawValue,
                                               ErrorCode.graphTruncated.rawValue, ErrorCode.graphCorrupt.rawValue]), "\(codes)")
        #expect(codes[ErrorCode.graphTruncated.rawValue, default: 0] > 0 && codes[ErrorCode.graphCorrupt.rawValue, default: 0] > 0)
    }
}
