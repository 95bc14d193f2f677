import Foundation
import GeoFareCore
import Testing
@testable import GeoFareGraph
@testable import GeoFareGraphBuild

/// Hierarchies with an uncontracted core (``ContractionHierarchy/coreStart``), forced by a small
/// core bound: routes (weights and unpacked paths) and matrix cells equal plain Dijkstra, through
/// a graph file; a damaged core is `graph_corrupt`; a file without the core section reads as no core.
@Suite struct ContractionCoreTests {
    /// Hierarchies of `net` with core bound `coreDegree`, written to a graph file and mapped again.
    static func coreGraph(_ net: RoadNetwork, coreDegree: Int, name: String) throws -> (RoadGraph, String) {
        var chs: [GraphMetric: ContractionHierarchy] = [:]
        for m in GraphMetric.allCases { chs[m] = try ContractionHierarchy(network: net, metric: m, coreDegree: coreDegree) }
        let path = GraphFileTests.tempPath(name)
        try GraphFileWriter.write(network: net, hierarchies: chs, metadata: GraphFileTests.metadata, to: path)
        let graph = try RoadGraph(path: path)
        for m in GraphMetric.allCases { #expect(graph.hierarchies[m.index].coreStart == chs[m]!.coreStart) }
        return (graph, path)
    }

    static func hierarchies(_ graph: RoadGraph) -> [GraphMetric: ContractionHierarchy] {
        Dictionary(uniqueKeysWithValues: GraphMetric.allCases.map { ($0, graph.hierarchies[$0.index]) })
    }

    /// Every cell of a matrix between `count` random snapped points equals plain Dijkstra from the
    /// source's candidates (at their heads, offsets to the head) to the target's (at their tails,
    /// offsets from the tail), or the drive straight along a shared arc.
    static func matrixProblems(_ graph: RoadGraph, network: RoadNetwork, count: Int, seed: UInt64) -> [String] {
        var rng = SeededGenerator(seed: seed)
        let m = graph.metadata
        var points: [[SnapCandidate]] = []
        while points.count < count {
            let p = Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng))
            if let c = try? graph.snap(p, maxDistanceMeters: 300) { points.append(c) }
        }
        let sources = Array(points[..<(count / 2)]), targets = Array(points[(count / 2)...])
        var problems: [String] = []
        for metric in GraphMetric.allCases {
            let k = metric.index
            let cells = graph.makeMatrix(metric: metric).table(sources: sources, targets: targets)
            let dijkstra = DijkstraQuery(graph: ArcGraph(network: network, metric: metric))
            for (i, s) in sources.enumerated() {
                for (j, t) in targets.enumerated() {
                    var want = dijkstra.bidirectional(sources: s.map { RouteEndpoint(node: network.arcHead[Int($0.arc)], offset: $0.toHead[k]) },
                                                      targets: t.map { RouteEndpoint(node: network.arcTail[Int($0.arc)], offset: $0.fromTail[k]) },
                                                      withPath: false)?.weight
                    for a in s { for b in t where a.arc == b.arc && b.fraction >= a.fraction && b.fromTail[k] >= a.fromTail[k] {
                        want = min(want ?? .max, UInt64(b.fromTail[k] - a.fromTail[k]))
                    } }
                    let got = cells[i * targets.count + j]?.weight
                    if got != want { problems.append("\(metric) cell \(i)→\(j): matrix \(String(describing: got)), Dijkstra \(String(describing: want))") }
                }
            }
        }
        return problems
    }

    @Test func gridsWithACoreAgreeWithDijkstra() throws {
        for (g, bound) in [(0, 8), (1, 9), (2, 10)] {
            let net = TestNetworks.grid(seed: UInt64(g), width: 20 + 4 * g, height: 18 + 3 * g)
            let (graph, _) = try Self.coreGraph(net, coreDegree: bound, name: "core-grid-\(g).graph")
            for m in GraphMetric.allCases {
                // a real core, not the whole graph: both the hierarchy part and the core are searched
                let core = graph.hierarchies[m.index].coreNodeCount
                #expect(core > 10 && core < net.nodeCount * 3 / 4, "grid \(g) \(m): core \(core) of \(net.nodeCount)")
            }
            let problems = try checkExactness(network: net, pairs: 400, seed: UInt64(g), hierarchies: Self.hierarchies(graph))
            #expect(problems.isEmpty, "grid \(g): \(problems.prefix(3))")
            let cells = Self.matrixProblems(graph, network: net, count: 40, seed: UInt64(g))
            #expect(cells.isEmpty, "grid \(g): \(cells.prefix(3))")
        }
    }

    @Test func anAllCoreHierarchyIsPlainDijkstra() throws {
        // bound 0: the core rule holds before the first node, so every node is core
        let net = TestNetworks.grid(seed: 9, width: 14, height: 12)
        var chs: [GraphMetric: ContractionHierarchy] = [:]
        for m in GraphMetric.allCases {
            chs[m] = try ContractionHierarchy(network: net, metric: m, coreDegree: 0)
            #expect(chs[m]!.coreStart == 0)
            try chs[m]!.checkStructure(nodeCount: net.nodeCount, arcCount: net.arcCount)
        }
        #expect(try checkExactness(network: net, pairs: 300, seed: 4, hierarchies: chs).isEmpty)
        // and random graphs of odd shapes (parallel arcs, unreachable parts) with a partial core
        for g in 0..<60 {
            var rng = SeededGenerator(seed: UInt64(g))
            let nodes = Int.random(in: 2...60, using: &rng)
            let random = TestNetworks.random(seed: UInt64(500 + g), nodes: nodes, arcs: Int.random(in: 0...(nodes * 4), using: &rng))
            var hs: [GraphMetric: ContractionHierarchy] = [:]
            for m in GraphMetric.allCases { hs[m] = try ContractionHierarchy(network: random, metric: m, coreDegree: 3 + g % 5) }
            let problems = try checkExactness(network: random, pairs: 40, seed: UInt64(g), hierarchies: hs)
            #expect(problems.isEmpty, "random graph \(g): \(problems.prefix(3))")
        }
    }

    @Test func theDefaultBoundLeavesGridsNoCore() throws {
        // a small grid's remaining graph never gets dense enough for the default rule
        let net = TestNetworks.grid(seed: 1, width: 25, height: 25)
        for m in GraphMetric.allCases { #expect(try ContractionHierarchy(network: net, metric: m).coreNodeCount == 0) }
    }

    @Test("A real extract with a forced core: routes and matrix cells equal Dijkstra",
          .needsExtracts, arguments: ["seoul_mapo.osm.pbf", "nyc_lower_manhattan.osm.pbf"])
    func extractWithACore(extract: String) throws {
        let (network, _) = try OSMRoadNetworkBuilder(profile: TestData.carProfile()).build(pbfAt: TestData.extract(extract))
        let (graph, _) = try Self.coreGraph(network, coreDegree: 7, name: "core-\(extract).graph")
        for m in GraphMetric.allCases {
            let core = graph.hierarchies[m.index].coreNodeCount
            #expect(core > 50 && core < network.nodeCount / 2, "\(extract) \(m): core \(core) of \(network.nodeCount)")
        }
        let problems = try checkExactness(network: network, pairs: 1_000, seed: 20_261_126, hierarchies: Self.hierarchies(graph), maxEndpoints: 2)
        #expect(problems.isEmpty, "\(extract): \(problems.prefix(5))")
        let cells = Self.matrixProblems(graph, network: network, count: 60, seed: 26)
        #expect(cells.isEmpty, "\(extract): \(cells.prefix(5))")
    }

    /// The sections of the graph file at `path`, in the writer's order, optionally without the core starts.
    static func sections(_ path: String, withCore: Bool = true) throws -> [(id: UInt32, bytes: [UInt8])] {
        let file = try GraphFile(path: path)
        typealias S = GraphFileLayout.Section
        var ids = [S.metadata] + Array(10...20).map(UInt32.init)
        for m in GraphMetric.allCases {
            ids += (0..<S.hierarchyArrayCount).map { S.hierarchy(m, $0) }
            if withCore { ids.append(S.hierarchy(m, S.coreStartIndex)) }
        }
        return ids.map { ($0, Array(UnsafeRawBufferPointer(file.view($0, as: UInt8.self)!))) }
    }

    static func setUInt32(_ bytes: inout [UInt8], at index: Int, _ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { for b in 0..<4 { bytes[4 * index + b] = $0[b] } }
    }

    static func uint32(_ bytes: [UInt8], at index: Int) -> UInt32 {
        bytes[(4 * index)..<(4 * index + 4)].withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) }
    }

    @Test func aDamagedCoreIsCorruptWithAValidChecksum() throws {
        let net = TestNetworks.grid(seed: 2, width: 16, height: 14)
        let (graph, path) = try Self.coreGraph(net, coreDegree: 8, name: "core-damage.graph")
        let ch = graph.hierarchies[GraphMetric.shortest.index]
        let n = net.nodeCount
        #expect(ch.coreNodeCount > 0)
        typealias S = GraphFileLayout.Section
        let good = try Self.sections(path)
        func index(_ id: UInt32) -> Int { good.firstIndex { $0.id == id }! }
        // the first arc of the first core rank with an upward row
        let upFirst = good[index(S.hierarchy(.shortest, 2))].bytes
        let r = try #require((ch.coreStart..<n).first { Self.uint32(upFirst, at: $0) < Self.uint32(upFirst, at: $0 + 1) })
        let e = Int(Self.uint32(upFirst, at: r))
        let damages: [(String, UInt32, Int, UInt32)] = [
            ("core arc to a contracted rank", S.hierarchy(.shortest, 3), e, UInt32(ch.coreStart - 1)),
            ("core arc to itself", S.hierarchy(.shortest, 3), e, UInt32(r)),
            ("core arc past the last rank", S.hierarchy(.shortest, 3), e, UInt32(n)),
            ("core start past the node count", S.hierarchy(.shortest, S.coreStartIndex), 0, UInt32(n + 1)),
            // a later core start turns core rows into contracted ones, whose arcs must go up
            ("core start moved up", S.hierarchy(.shortest, S.coreStartIndex), 0, UInt32(n)),
        ]
        for (what, id, at, value) in damages {
            var sections = good
            Self.setUInt32(&sections[index(id)].bytes, at: at, value)
            let bad = GraphFileTests.tempPath("core-damage-bad.graph")
            try GraphFileWriter.writeSections(sections, to: bad)
            GraphFileTests().expectCode(ErrorCode.graphCorrupt.rawValue, bad)
            do { _ = try RoadGraph(path: bad) } catch { #expect(error.message.contains("shortest"), "\(what): \(error.message)") }
        }
        // a core start of two values
        var sections = good
        sections[index(S.hierarchy(.shortest, S.coreStartIndex))].bytes += [0, 0, 0, 0]
        let bad = GraphFileTests.tempPath("core-damage-two.graph")
        try GraphFileWriter.writeSections(sections, to: bad)
        GraphFileTests().expectCode(ErrorCode.graphCorrupt.rawValue, bad)
        // a core file without its core sections is not mistaken for a contracted one
        try GraphFileWriter.writeSections(try Self.sections(path, withCore: false), to: bad)
        GraphFileTests().expectCode(ErrorCode.graphCorrupt.rawValue, bad)
        // the untouched sections rewrite to a file that opens (the rewrite itself is sound)
        try GraphFileWriter.writeSections(good, to: bad)
        _ = try RoadGraph(path: bad)
    }

    @Test func aFileWithoutCoreSectionsReadsAsNoCore() throws {
        // what graph files written before cores look like: the ten arrays per metric only
        let (net, path) = try GraphFileTests.writeGrid("core-old.graph", seed: 6, side: 14)
        let old = GraphFileTests.tempPath("core-old-nocore.graph")
        try GraphFileWriter.writeSections(try Self.sections(path, withCore: false), to: old)
        let graph = try RoadGraph(path: old)
        for m in GraphMetric.allCases { #expect(graph.hierarchies[m.index].coreStart == net.nodeCount) }
        #expect(try checkExactness(network: net, pairs: 200, seed: 8, hierarchies: Self.hierarchies(graph)).isEmpty)
    }
}
