import GeoFareCore

/// A contraction hierarchy of a road network under one metric, read-only and shareable between
/// threads; query it with a per-thread ``ContractionHierarchyQuery``.
///
/// Nodes are numbered by rank (the contraction order): `rank[v]` for network node `v`, `order[r]`
/// back. The upward graph holds, at rank `r`, arcs `r → upHead[e]` to higher ranks; the downward
/// graph holds, at rank `r`, arcs `downTail[e] → r` from higher ranks. Edge ids run over the upward
/// arcs then the downward ones (`upCount + index`). Edge `e` is network arc `unpackA[e]` when
/// `unpackB[e] == UInt32.max`, otherwise a shortcut made of edges `unpackA[e]` then `unpackB[e]`.
/// Weights are the metric's unit (ms or cm).
///
/// **Core.** Ranks `coreStart..<nodeCount` are an uncontracted core (empty when `coreStart ==
/// nodeCount`): the builder stopped there because the remaining graph was dense (``coreMeanDegree``).
/// A core rank's upward row holds all its out-arcs and its downward row all its in-arcs, to other
/// core ranks, lower or higher. Searches stay exact: below the core they climb as in any
/// hierarchy, inside it they are plain Dijkstra without stalling (``ContractionHierarchyQuery``
/// climbs first, then searches the core from the core nodes it reached; ``ContractionHierarchyMatrix``
/// runs its searches through the core to exhaustion).
///
/// This module reads hierarchies (from a graph file, through ``RoadGraph``); the initializers that
/// contract a network (`init(network:metric:settleLimit:coreDegree:progress:)`,
/// `contractConcurrently(network:metrics:settleLimit:coreDegree:progress:)`) are in `GeoFareGraphBuild`.
public final class ContractionHierarchy: @unchecked Sendable {
    /// The plain arrays, as the builder makes them and the graph file stores them.
    package struct Arrays {
        package var rank: [UInt32] = [], order: [UInt32] = []
        package var upFirst: [UInt32] = [0], upHead: [UInt32] = [], upWeight: [UInt32] = []
        package var downFirst: [UInt32] = [0], downTail: [UInt32] = [], downWeight: [UInt32] = []
        package var unpackA: [UInt32] = [], unpackB: [UInt32] = []
        package var coreStart = 0

        package init() {}
    }

    /// The core rule's bound (see `ContractionHierarchyBuilder.isDenseCore(remainingNodes:)` in `GeoFareGraphBuild`):
    /// contraction stops when the remaining graph has more than this many arcs (in + out) per node
    /// on average. Measured (docs/benchmarks.md, road graphs): on the synthetic street grid the
    /// shortest metric crosses 32 with about 9–10 % of its nodes left (a 64 bound: 3 %, with more
    /// build time), the fastest with about 0.4–0.5 %; the shared real extracts (Baltimore, Mapo,
    /// lower Manhattan) never do, so they keep no core.
    public static let coreMeanDegree = 32

    public let metric: GraphMetric
    let owner: AnyObject
    let rank: UnsafeBufferPointer<UInt32>, order: UnsafeBufferPointer<UInt32>
    let upFirst: UnsafeBufferPointer<UInt32>, upHead: UnsafeBufferPointer<UInt32>, upWeight: UnsafeBufferPointer<UInt32>
    let downFirst: UnsafeBufferPointer<UInt32>, downTail: UnsafeBufferPointer<UInt32>, downWeight: UnsafeBufferPointer<UInt32>
    let unpackA: UnsafeBufferPointer<UInt32>, unpackB: UnsafeBufferPointer<UInt32>
    /// The first rank of the uncontracted core (`nodeCount` when there is none).
    public let coreStart: Int

    public var nodeCount: Int { rank.count }
    /// Nodes in the uncontracted core (0 when the contraction went to the end).
    public var coreNodeCount: Int { nodeCount - coreStart }
    /// Upward plus downward arcs, shortcuts included.
    public var edgeCount: Int { unpackA.count }
    var upCount: Int { upHead.count }

    /// Wraps views in the order of ``Arrays``' fields; `owner` keeps their memory alive.
    package init(metric: GraphMetric, owner: AnyObject, views v: [UnsafeBufferPointer<UInt32>], coreStart: Int) {
        self.metric = metric
        self.coreStart = coreStart
        self.owner = owner
        rank = v[0]; order = v[1]
        upFirst = v[2]; upHead = v[3]; upWeight = v[4]
        downFirst = v[5]; downTail = v[6]; downWeight = v[7]
        unpackA = v[8]; unpackB = v[9]
    }

    /// The views in the order of ``Arrays``' fields (what the graph file writes).
    package var views: [UnsafeBufferPointer<UInt32>] {
        [rank, order, upFirst, upHead, upWeight, downFirst, downTail, downWeight, unpackA, unpackB]
    }

    /// Checks the structure so that no query can index out of bounds (for hierarchies read from files).
    /// - Throws: ``GeoFareError`` `graph_corrupt`.
    func checkStructure(nodeCount n: Int, arcCount m: Int) throws(GeoFareError) {
        func bad(_ what: String) -> GeoFareError {
            .inconsistentHierarchy(metric, what)
        }
        guard rank.count == n, order.count == n, upFirst.count == n + 1, downFirst.count == n + 1 else { throw bad("array sizes") }
        guard coreStart >= 0 && coreStart <= n else { throw bad("core start \(coreStart)") }
        guard upHead.count == upWeight.count, downTail.count == downWeight.count,
              unpackA.count == upHead.count + downTail.count, unpackB.count == unpackA.count else { throw bad("edge arrays") }
        for r in 0..<n {
            guard order[r] < n, rank[Int(order[r])] == r else { throw bad("rank and order disagree at \(r)") }
        }
        for (first, count) in [(upFirst, upHead.count), (downFirst, downTail.count)] {
            guard first[0] == 0, Int(first[n]) == count else { throw bad("row starts") }
            for r in 0..<n where first[r] > first[r + 1] { throw bad("row starts decrease") }
        }
        for r in 0..<coreStart {
            for e in Int(upFirst[r])..<Int(upFirst[r + 1]) where upHead[e] <= r || upHead[e] >= n { throw bad("upward arc") }
            for e in Int(downFirst[r])..<Int(downFirst[r + 1]) where downTail[e] <= r || downTail[e] >= n { throw bad("downward arc") }
        }
        // a core row joins core ranks only, lower or higher, never itself
        for r in coreStart..<n {
            for e in Int(upFirst[r])..<Int(upFirst[r + 1]) where upHead[e] < coreStart || upHead[e] == r || upHead[e] >= n {
                throw bad("core arc out of rank \(r)")
            }
            for e in Int(downFirst[r])..<Int(downFirst[r + 1]) where downTail[e] < coreStart || downTail[e] == r || downTail[e] >= n {
                throw bad("core arc into rank \(r)")
            }
        }
        // every edge's ends as ranks, so that a shortcut can be checked to unpack through a lower middle
        // (the lowest end rank then falls at each level, so unpacking terminates)
        let e = unpackA.count
        var tail = [UInt32](repeating: 0, count: e), head = [UInt32](repeating: 0, count: e)
        for r in 0..<n {
            for i in Int(upFirst[r])..<Int(upFirst[r + 1]) { tail[i] = UInt32(r); head[i] = upHead[i] }
            for i in Int(downFirst[r])..<Int(downFirst[r + 1]) { tail[upCount + i] = downTail[i]; head[upCount + i] = UInt32(r) }
        }
        for i in 0..<e {
            if unpackB[i] == UInt32.max {
                guard unpackA[i] < m else { throw bad("edge \(i) names arc \(unpackA[i])") }
            } else {
                let a = Int(unpackA[i]), b = Int(unpackB[i])
                guard a < e, b < e, tail[a] == tail[i], head[b] == head[i], head[a] == tail[b],
                      head[a] < tail[i], head[a] < head[i] else { throw bad("shortcut \(i) does not unpack") }
            }
        }
    }
}
