import GeoFareCore
@_spi(GraphBuild) import GeoFareGraph
import Synchronization

/// The graph still being contracted, shared read-only by ``WitnessSimulator``s: copies of the
/// builder's arrays (sharing their storage), made by ``ContractionHierarchyBuilder/withRemaining(_:)``
/// and dropped before the builder changes anything again (else the change would copy them whole).
/// Arrays, not buffer pointers: an immutable array lets the witness search borrow a node's links in
/// place, where a buffer's element would be copied (a retain and release per settled node).
struct RemainingGraph {
    let outLinks: [[ContractionHierarchyBuilder.Link]]
    let inLinks: [[ContractionHierarchyBuilder.Link]]
    let edgeHops: [UInt32]
    let level: [UInt32]
    let deletedNeighbours: [UInt32]
}

/// A shortcut `u → w` of weight `via` that contracting a node needs, made of edges `first` then `second`.
struct PendingShortcut {
    var u: UInt32, w: UInt32, via: UInt64, first: UInt32, second: UInt32
}

/// One thread's witness searches: simulates contracting a node of a ``RemainingGraph`` to find the
/// shortcuts it needs and its priority. Each thread contracting or updating priorities has its own
/// (its search space and target marks are written by every search); the graph it reads is shared.
final class WitnessSimulator {
    let space: SearchSpace
    private let isTarget: UnsafeMutablePointer<Bool>
    private let nodeCount: Int
    /// Nodes a witness search may settle before it gives up.
    let settleLimit: Int
    /// The shortcuts the last ``simulate(_:in:collect:)`` with `collect` found.
    private(set) var pending: [PendingShortcut] = []

    init(nodeCount: Int, settleLimit: Int) {
        self.nodeCount = max(nodeCount, 1)
        self.settleLimit = settleLimit
        space = SearchSpace(nodeCount: nodeCount)
        isTarget = .allocate(capacity: self.nodeCount)
        isTarget.initialize(repeating: false, count: self.nodeCount)
    }

    deinit { isTarget.deallocate() }

    /// Dijkstra from `source` in `g` without `avoid`, until every marked target is settled, a key
    /// exceeds `maxWeight`, or ``settleLimit`` nodes are settled. Leaves upper bounds in the labels.
    func witnessSearch(from source: UInt32, avoid: UInt32, maxWeight: UInt64, targets: Int, in g: RemainingGraph) {
        let ws = space
        ws.begin()
        ws.reach(source, 0, parentNode: 0, parentArc: 0)
        var settled = 0, targetsLeft = targets
        while !ws.heap.isEmpty {
            let (u, d) = ws.heap.pop()
            if d > maxWeight { break }
            if isTarget[Int(u)] { targetsLeft -= 1; if targetsLeft == 0 { break } }
            settled += 1
            if settled > settleLimit { break }
            g.outLinks[Int(u)].withUnsafeBufferPointer { links in
                for link in links where link.node != avoid {
                    let nd = d + UInt64(link.weight)
                    if nd <= maxWeight { ws.reach(link.node, nd, parentNode: 0, parentArc: 0) }
                }
            }
        }
    }

    /// Whether the last witness search reached `w` within `weight`.
    @inline(__always)
    func witnessed(_ w: UInt32, within weight: UInt64) -> Bool {
        space.isReached(w) && space.labels[Int(w)].dist <= weight
    }

    /// Finds the shortcuts contracting `v` needs without changing the graph (into ``pending`` when
    /// `collect`; a priority update only needs their count).
    /// - Returns: how many and their original hops.
    func simulate(_ v: UInt32, in g: RemainingGraph, collect: Bool) -> (arcs: Int, hops: Int) {
        var added = 0, addedHops = 0
        if collect { pending.removeAll(keepingCapacity: true) }
        let ins = g.inLinks[Int(v)], outs = g.outLinks[Int(v)]
        if ins.isEmpty || outs.isEmpty { return (0, 0) }
        let maxOut = outs.reduce(0) { max($0, UInt64($1.weight)) }
        markTargets(outs, true)
        defer { markTargets(outs, false) }
        for i in ins {
            let (a, h) = unwitnessed(from: i, of: v, outs: outs, maxOut: maxOut, in: g) { _, s in
                if collect { pending.append(s) }
            }
            added += a
            addedHops += h
        }
        return (added, addedHops)
    }

    /// The witness search from in-link `i` of `v` (targets marked), and the shortcuts `u → w` it leaves
    /// unwitnessed, each passed to `found` with its out-link's index in `outs`, in that order.
    /// - Returns: how many and their original hops.
    @inline(__always)
    func unwitnessed(from i: ContractionHierarchyBuilder.Link, of v: UInt32, outs: [ContractionHierarchyBuilder.Link],
                     maxOut: UInt64, in g: RemainingGraph, _ found: (Int, PendingShortcut) -> Void) -> (arcs: Int, hops: Int) {
        if outs.count == 1 && outs[0].node == i.node { return (0, 0) }
        var added = 0, addedHops = 0
        // the source counts as a target when it is one (it is settled first)
        witnessSearch(from: i.node, avoid: v, maxWeight: UInt64(i.weight) + maxOut, targets: outs.count, in: g)
        for (j, o) in outs.enumerated() where o.node != i.node {
            let via = UInt64(i.weight) + UInt64(o.weight)
            if witnessed(o.node, within: via) { continue }
            added += 1
            addedHops += Int(g.edgeHops[Int(i.edge)] + g.edgeHops[Int(o.edge)])
            found(j, PendingShortcut(u: i.node, w: o.node, via: via, first: i.edge, second: o.edge))
        }
        return (added, addedHops)
    }

    /// Marks (or unmarks) `outs`' heads as the targets of this simulator's witness searches.
    func markTargets(_ outs: [ContractionHierarchyBuilder.Link], _ on: Bool) {
        for o in outs { isTarget[Int(o.node)] = on }
    }

    /// As ``simulate(_:in:collect:)`` with `collect`, the witness searches (one per in-link) spread
    /// over `team`'s lanes (lane `l` using `helpers[l]`, this simulator first), each claiming the next in-link; ``pending`` ends in the
    /// same order as the one-thread simulation's, so the hierarchy does not depend on the threads.
    func simulateSpread(_ v: UInt32, in g: RemainingGraph, helpers: [WitnessSimulator], team: ParallelTeam) -> (arcs: Int, hops: Int) {
        pending.removeAll(keepingCapacity: true)
        let ins = g.inLinks[Int(v)], outs = g.outLinks[Int(v)]
        if ins.isEmpty || outs.isEmpty { return (0, 0) }
        let maxOut = outs.reduce(0) { max($0, UInt64($1.weight)) }
        let lanes = team.lanes
        var results = [(arcs: Int, hops: Int, found: [(place: Int, shortcut: PendingShortcut)])](repeating: (0, 0, []), count: lanes)
        results.withUnsafeMutableBufferPointer { lane in
            let next = Atomic<Int>(0)
            team.run { l in
                let sim = helpers[l]
                sim.markTargets(outs, true)
                defer { sim.markTargets(outs, false) }
                while true {
                    let k = next.add(1, ordering: .relaxed).oldValue
                    guard k < ins.count else { return }
                    let (a, h) = sim.unwitnessed(from: ins[k], of: v, outs: outs, maxOut: maxOut, in: g) { j, s in
                        lane[l].found.append((k * outs.count + j, s))  // its place in the one-thread order
                    }
                    lane[l].arcs += a
                    lane[l].hops += h
                }
            }
        }
        var all: [(place: Int, shortcut: PendingShortcut)] = []
        for r in results { all += r.found }
        all.sort { $0.place < $1.place }  // places are distinct: the one-thread order exactly
        pending = all.map(\.shortcut)
        return (results.reduce(0) { $0 + $1.arcs }, results.reduce(0) { $0 + $1.hops })
    }

    /// The contraction priority of `v` (lower goes first); with `collect`, leaves its shortcuts in ``pending``.
    ///
    /// RoutingKit's importance (`contraction_hierarchy.cpp`): level + edge quotient + hop quotient,
    /// each weighted 1000, plus the deleted neighbours (Geisberger et al.) with a smaller weight to
    /// spread contraction evenly. Integer arithmetic, so the order is the same on every machine and
    /// whichever thread computes it.
    /// With a `team`, its witness searches are spread over the team's lanes, lane `l` using `helpers[l]`
    /// (this simulator first).
    func priority(_ v: UInt32, in g: RemainingGraph, collect: Bool, helpers: [WitnessSimulator] = [],
                  team: ParallelTeam? = nil) -> UInt64 {
        let (added, addedHops) = if let team { simulateSpread(v, in: g, helpers: helpers, team: team) } else {
            simulate(v, in: g, collect: collect)
        }
        let ins = g.inLinks[Int(v)], outs = g.outLinks[Int(v)]
        let removed = 1 + ins.count + outs.count
        var removedHops = 1
        for l in ins { removedHops += Int(g.edgeHops[Int(l.edge)]) }
        for l in outs { removedHops += Int(g.edgeHops[Int(l.edge)]) }
        return 1 + 1000 * UInt64(g.level[Int(v)]) + UInt64(1000 * added / removed) + UInt64(1000 * addedHops / removedHops)
            + 250 * UInt64(g.deletedNeighbours[Int(v)])
    }
}
