import GeoFareCore
import Foundation
import Testing
@testable import GeoFareGraph
@testable import GeoFareGraphBuild

/// The contraction hierarchy answers exactly what plain Dijkstra answers, with paths that unpack
/// to connected chains of network arcs.
@Suite struct ContractionHierarchyTests {
    @Test func randomGraphsAgreeWithDijkstra() throws {
        // a few hundred small graphs of odd shapes: sparse (disconnected), dense (parallel arcs), tiny
        for g in 0..<300 {
            var rng = SeededGenerator(seed: UInt64(g))
            let nodes = Int.random(in: 1...40, using: &rng)
            let arcs = Int.random(in: 0...(nodes * 4), using: &rng)
            let net = TestNetworks.random(seed: UInt64(1000 + g), nodes: nodes, arcs: arcs, maxWeight: g % 3 == 0 ? 3 : 1000)
            let problems = try checkExactness(network: net, pairs: 30, seed: UInt64(g))
            #expect(problems.isEmpty, "graph \(g) (\(nodes) nodes, \(arcs) arcs): \(problems.prefix(3))")
        }
    }

    @Test func gridsAgreeWithDijkstra() throws {
        for g in 0..<6 {
            let net = TestNetworks.grid(seed: UInt64(g), width: 12 + 5 * g, height: 10 + 4 * g)
            let problems = try checkExactness(network: net, pairs: 300, seed: UInt64(g))
            #expect(problems.isEmpty, "grid \(g): \(problems.prefix(3))")
        }
    }

    @Test func chainsAndUnreachablePartsAgree() throws {
        let net = TestNetworks.chains(count: 300)
        #expect(try checkExactness(network: net, pairs: 500, seed: 7).isEmpty)
        let ch = try ContractionHierarchy(network: net, metric: .fastest)
        let q = ContractionHierarchyQuery(hierarchy: ch)
        // against the one-way chain, and from one chain to the other: no path
        #expect(q.search(sources: [RouteEndpoint(node: 200)], targets: [RouteEndpoint(node: 10)]) == nil)
        #expect(q.search(sources: [RouteEndpoint(node: 0)], targets: [RouteEndpoint(node: 310)]) == nil)
        let r = try #require(q.search(sources: [RouteEndpoint(node: 10)], targets: [RouteEndpoint(node: 200)]))
        #expect(q.path() == (10..<200).map { UInt32($0) })
        #expect(r.weight == (10..<200).reduce(UInt64(0)) { $0 + UInt64(net.arcTimeMilliseconds[$1]) })
    }

    @Test func smallSettleLimitStaysExact() throws {
        // a witness search that gives up at once adds needless shortcuts but must not change answers
        let net = TestNetworks.grid(seed: 42, width: 25, height: 25)
        var hierarchies: [GraphMetric: ContractionHierarchy] = [:]
        for m in GraphMetric.allCases { hierarchies[m] = try ContractionHierarchy(network: net, metric: m, settleLimit: 1) }
        #expect(try checkExactness(network: net, pairs: 500, seed: 3, hierarchies: hierarchies).isEmpty)
    }

    @Test func selfLoopsAndParallelArcs() throws {
        var b = TestNetworks.Builder()
        let a = b.node(xMeters: 0, yMeters: 0), c = b.node(xMeters: 100, yMeters: 0)
        b.arc(a, a, distance: 1, time: 1)
        b.arc(a, c, distance: 500, time: 900)
        b.arc(a, c, distance: 700, time: 300)  // a parallel arc: faster but longer
        let net = b.net
        for (metric, expected, arc) in [(GraphMetric.fastest, UInt64(300), UInt32(2)), (.shortest, 500, 1)] {
            let q = ContractionHierarchyQuery(hierarchy: try ContractionHierarchy(network: net, metric: metric))
            #expect(q.search(sources: [RouteEndpoint(node: a)], targets: [RouteEndpoint(node: c)])?.weight == expected)
            #expect(q.path() == [arc])
            #expect(q.search(sources: [RouteEndpoint(node: c)], targets: [RouteEndpoint(node: a)]) == nil)
        }
    }

    @Test func offsetsPickTheBestEndpoint() throws {
        let net = TestNetworks.chains(count: 20)
        let q = ContractionHierarchyQuery(hierarchy: try ContractionHierarchy(network: net, metric: .shortest))
        // two sources: node 0 with a small offset is farther than node 5 with a large one only when the offset is large enough
        let w = (0..<5).reduce(UInt64(0)) { $0 + UInt64(net.arcDistanceCentimeters[$1]) }
        let r = try #require(q.search(sources: [RouteEndpoint(node: 0, offset: 10), RouteEndpoint(node: 5, offset: UInt32(w) + 11)],
                                      targets: [RouteEndpoint(node: 10, offset: 4)]))
        #expect(r.sourceIndex == 0)
        #expect(r.targetIndex == 0)
        let r2 = try #require(q.search(sources: [RouteEndpoint(node: 0, offset: 10), RouteEndpoint(node: 5, offset: UInt32(w) + 9)],
                                       targets: [RouteEndpoint(node: 10, offset: 4)]))
        #expect(r2.sourceIndex == 1)
        #expect(r2.weight == r.weight - 1)
    }
}

/// `graph build` contracts the two metrics on two threads: each result must be exactly the
/// hierarchy its metric builds alone, in the caller's order, with progress told per metric.
@Suite struct ConcurrentContractionTests {
    /// Counts the progress calls per metric index, from the contraction threads.
    final class Tally: @unchecked Sendable {
        let lock = NSLock()
        var calls: [Int: Int] = [:], last: [Int: Int] = [:], outOfOrder = 0
        func record(_ k: Int, _ done: Int) {
            lock.lock(); defer { lock.unlock() }
            calls[k, default: 0] += 1
            if done != (last[k] ?? 0) + 1 { outOfOrder += 1 }
            last[k] = done
        }
    }

    @Test(arguments: [[GraphMetric.fastest, .shortest], [.shortest, .fastest]])
    func equalsEachMetricBuiltAlone(_ metrics: [GraphMetric]) throws {
        let net = TestNetworks.grid(seed: 5, width: 40, height: 30)
        let tally = Tally()
        let both = try ContractionHierarchy.contractConcurrently(network: net, metrics: metrics, progress: tally.record)
        #expect(both.map(\.metric) == metrics)
        for (k, ch) in both.enumerated() {
            let alone = try ContractionHierarchy(network: net, metric: metrics[k])
            #expect(ch.views.count == alone.views.count)
            for (a, b) in zip(ch.views, alone.views) { #expect(Array(a) == Array(b), "\(metrics[k])") }
            // one call per contracted node, counting up to the node count
            #expect(tally.calls[k] == net.nodeCount && tally.last[k] == net.nodeCount)
        }
        #expect(tally.outOfOrder == 0)
        // and still exact (the hierarchies of both metrics, against Dijkstra)
        let byMetric = Dictionary(uniqueKeysWithValues: both.map { ($0.metric, $0) })
        #expect(try checkExactness(network: net, pairs: 300, seed: 9, hierarchies: byMetric).isEmpty)
    }
}
