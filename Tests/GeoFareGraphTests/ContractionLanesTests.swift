import Foundation
import GeoFareCore
import Testing
@testable import GeoFareGraph
@testable import GeoFareGraphBuild

/// A contraction that spreads its witness searches and priority updates over a team of threads
/// (``ContractionLanes``, ``ParallelTeam``) builds exactly the hierarchy one thread builds.
@Suite struct ContractionLanesTests {
    /// The arrays of `net`'s hierarchy under `metric`, built alone or with `lanes`; with lanes, also
    /// how often the team was used.
    static func build(_ net: RoadNetwork, _ metric: GraphMetric, lanes: ContractionLanes?, coreDegree: Int = ContractionHierarchy.coreMeanDegree)
        throws -> (ContractionHierarchy.Arrays, spread: Int, shared: Int) {
        var builder = ContractionHierarchyBuilder(nodeCount: net.nodeCount, tails: net.arcTail, heads: net.arcHead,
                                                  weights: metric.weights(of: net), coreDegree: coreDegree, lanes: lanes)
        let arrays = try builder.build()
        return (arrays, builder.spreadSimulations, builder.sharedUpdateBatches)
    }

    static func expectSame(_ a: ContractionHierarchy.Arrays, _ b: ContractionHierarchy.Arrays, _ what: String) {
        #expect(a.coreStart == b.coreStart, "\(what)")
        #expect(a.rank == b.rank && a.order == b.order, "\(what): order")
        #expect(a.upFirst == b.upFirst && a.upHead == b.upHead && a.upWeight == b.upWeight, "\(what): upward")
        #expect(a.downFirst == b.downFirst && a.downTail == b.downTail && a.downWeight == b.downWeight, "\(what): downward")
        #expect(a.unpackA == b.unpackA && a.unpackB == b.unpackB, "\(what): unpacking")
    }

    @Test("Two and three lanes build the one-thread hierarchy, on grids (with and without a core) and random graphs",
          arguments: [2, 3])
    func teamEqualsOneThread(lanes: Int) throws {
        var cases: [(String, RoadNetwork, Int)] = []
        for g in 0..<2 { cases.append(("grid \(g)", TestNetworks.grid(seed: UInt64(40 + g), width: 30 + 3 * g, height: 26), g == 1 ? 10 : ContractionHierarchy.coreMeanDegree)) }
        cases.append(("random", TestNetworks.random(seed: 70, nodes: 300, arcs: 1_000), ContractionHierarchy.coreMeanDegree))
        var spread = 0, shared = 0
        for (name, net, bound) in cases {
            for metric in GraphMetric.allCases {
                let alone = try Self.build(net, metric, lanes: nil, coreDegree: bound)
                #expect(alone.spread == 0 && alone.shared == 0)
                let team = try Self.build(net, metric, lanes: ContractionLanes(cores: lanes, running: 1), coreDegree: bound)
                Self.expectSame(team.0, alone.0, "\(name), \(metric), \(lanes) lanes")
                spread += team.spread
                shared += team.shared
            }
        }
        // the team did the work: searches spread and updates shared (else this test proves nothing)
        #expect(spread > 100 && shared > 1_000, "spread \(spread), shared \(shared)")
    }

    @Test("A shared extract: the team's hierarchies equal one thread's (which route exactly: ExtractExactnessTests)", .needsExtracts)
    func extractWithTeam() throws {
        let (network, _) = try OSMRoadNetworkBuilder(profile: TestData.carProfile()).build(pbfAt: TestData.extract("seoul_mapo.osm.pbf"))
        for metric in GraphMetric.allCases {
            let alone = try Self.build(network, metric, lanes: nil)
            let team = try Self.build(network, metric, lanes: ContractionLanes(cores: 2, running: 1))
            Self.expectSame(team.0, alone.0, "Mapo, \(metric)")
            #expect(team.shared > 100, "Mapo, \(metric): \(team.shared) shared batches")
        }
    }

    @Test func lanesShareTheCoresAmongRunningContractions() {
        let two = ContractionLanes(cores: 2, running: 2)
        #expect(two.available == 1)
        two.finished()
        #expect(two.available == 2)
        two.finished()
        #expect(two.available == 2)
        #expect(ContractionLanes(cores: 1, running: 1).available == 1)
        #expect(ContractionLanes(cores: 64, running: 2).available == ContractionLanes.maximum)
        #expect(ContractionLanes(cores: 6, running: 2).available == 3)
    }
}
