import GeoFareCore
@_spi(GraphBuild) import GeoFareGraph
import Synchronization
/// Contracts a road network under one metric into a ``ContractionHierarchy``.
///
/// Follows the classic scheme (Geisberger et al.; as RoutingKit's `contraction_hierarchy.cpp` and
/// OSRM's contractor do it): nodes leave the graph one at a time in order of a priority (level,
/// edge quotient, hop quotient and deleted neighbours), recomputed for every neighbour of a
/// contracted node and checked again when a node reaches the top of the queue; contracting `v`
/// adds a shortcut `u → w` for each pair of neighbours
/// unless a witness search (Dijkstra from `u` avoiding `v`, bounded by the shortcut's weight and
/// a settled-node limit) finds a path no longer. A missed witness only adds a needless shortcut;
/// it never makes an answer wrong. Each shortcut records the two arcs it replaces, so it unpacks
/// to network arcs.
///
/// **Core.** Contraction stops once the remaining graph is dense (``ContractionHierarchy/coreMeanDegree``,
/// checked by ``isDenseCore(remainingNodes:)``); the nodes left get the top ranks `coreStart..<n`
/// in queue order, and each keeps every remaining arc (out-arcs in its upward row, in-arcs in its
/// downward row), as OSRM's core CH does. Those arcs are network arcs or shortcuts made before the
/// core, whose middles are contracted nodes, so they unpack as any other.
///
/// **Threads.** Given ``ContractionLanes`` that allow more than one thread (on this 2-core machine,
/// once the other metric's contraction has finished), a ``ParallelTeam`` shares the witness
/// searches: the priority updates after a contraction (each lane claiming the next neighbour) and
/// the simulation of a popped node with many in-links (each lane claiming the next in-link). Each
/// lane has its own ``WitnessSimulator``; keys and shortcuts come out as one thread computes them,
/// so the hierarchy is the same whatever the threads.
struct ContractionHierarchyBuilder {
    /// An arc of the graph still being contracted, seen from one of its ends.
    struct Link { var node: UInt32; var weight: UInt32; var edge: UInt32 }

    let n: Int
    var outLinks: [[Link]]
    var inLinks: [[Link]]
    // every arc ever created (original and shortcut), indexed by edge id
    var edgeWeight: [UInt32] = []
    var edgeA: [UInt32] = []   // original: the network arc; shortcut: edge id of u → v
    var edgeB: [UInt32] = []   // original: UInt32.max; shortcut: edge id of v → w
    var edgeHops: [UInt32] = []
    var contracted: [Bool]
    var level: [UInt32]
    var deletedNeighbours: [UInt32]
    /// Arcs of the remaining (uncontracted) graph.
    var liveArcs = 0
    /// The core rule's bound: mean arcs (in + out) per remaining node; `Int.max` contracts everything.
    let coreDegree: Int
    // witness searches: one simulator per lane (the first's shortcuts are committed; the others help)
    var simulators: [WitnessSimulator]
    let settleLimit: Int
    /// How many threads may update priorities at a time (nil: one).
    let lanes: ContractionLanes?
    /// The threads helping now (started once ``lanes`` allows more than one; stopped at the end).
    var team: ParallelTeam?
    /// Simulations whose witness searches were spread over a team, and batches of priority updates
    /// shared with one (for tests and progress notes).
    var spreadSimulations = 0, sharedUpdateBatches = 0
    /// Fewer priority updates than this after a contraction are done on the contracting thread alone.
    static let minimumParallelUpdates = 3
    /// Nodes with fewer in-links than this simulate their contraction on the contracting thread alone.
    static let minimumSpreadInLinks = 6
    /// Neighbours' priorities are recomputed after a contraction only when it had at most this many arcs.
    static let maxNeighboursUpdated = 16
    /// A node with more arcs than this is in a dense core (the shortest metric on a grid makes one).
    static let denseCoreArcs = 32
    /// In a dense core, a popped node whose fresh priority is within 1/`denseCoreSlack` of the queue's
    /// smallest key is contracted rather than re-queued. There keys go stale (neighbours are not
    /// updated) and the exact check re-simulated each node about 11 times, each simulation hundreds
    /// of witness searches; on the 100k grid, shortest metric: 327 → 159 s, 4.33 → 4.59 hierarchy
    /// arcs per network arc (1/4: 172 s, 4.98). Any order gives exact answers.
    static let denseCoreSlack: UInt64 = 8

    init(nodeCount: Int, tails: [UInt32], heads: [UInt32], weights: [UInt32], settleLimit: Int = 200,
         coreDegree: Int = ContractionHierarchy.coreMeanDegree, lanes: ContractionLanes? = nil) {
        n = nodeCount
        self.lanes = lanes
        self.settleLimit = settleLimit
        self.coreDegree = coreDegree
        outLinks = [[Link]](repeating: [], count: n)
        inLinks = [[Link]](repeating: [], count: n)
        contracted = [Bool](repeating: false, count: n)
        level = [UInt32](repeating: 0, count: n)
        deletedNeighbours = [UInt32](repeating: 0, count: n)
        simulators = [WitnessSimulator(nodeCount: n, settleLimit: settleLimit)]
        for i in tails.indices {
            let u = tails[i], v = heads[i]
            if u == v { continue }  // a self-loop never shortens a path with positive weights
            _ = addOrImprove(u, v, weight: weights[i], a: UInt32(i), b: UInt32.max, hops: 1)
        }
    }

    /// Adds arc `u → v` or lowers the weight of the existing one (parallel arcs keep the lightest).
    mutating func addOrImprove(_ u: UInt32, _ v: UInt32, weight: UInt32, a: UInt32, b: UInt32, hops: UInt32) -> Bool {
        if let i = outLinks[Int(u)].firstIndex(where: { $0.node == v }) {
            if outLinks[Int(u)][i].weight <= weight { return false }
            let e = outLinks[Int(u)][i].edge
            edgeWeight[Int(e)] = weight; edgeA[Int(e)] = a; edgeB[Int(e)] = b; edgeHops[Int(e)] = hops
            outLinks[Int(u)][i].weight = weight
            if let j = inLinks[Int(v)].firstIndex(where: { $0.node == u }) { inLinks[Int(v)][j].weight = weight }
            return true
        }
        let e = UInt32(edgeWeight.count)
        liveArcs += 1
        edgeWeight.append(weight); edgeA.append(a); edgeB.append(b); edgeHops.append(hops)
        outLinks[Int(u)].append(Link(node: v, weight: weight, edge: e))
        inLinks[Int(v)].append(Link(node: u, weight: weight, edge: e))
        return true
    }

    /// The remaining graph for the simulators, valid during `body` (which must not change the builder).
    func withRemaining<R>(_ body: (RemainingGraph) -> R) -> R {
        body(RemainingGraph(outLinks: outLinks, inLinks: inLinks, edgeHops: edgeHops, level: level,
                            deletedNeighbours: deletedNeighbours))
    }

    /// The priority of `v` from the first simulator, which keeps the shortcuts it found for ``commitPending()``.
    /// A node with at least ``minimumSpreadInLinks`` in-links has its witness searches spread over
    /// the threads ``lanes`` allows now (the dense end of the contraction, where updates stop).
    mutating func priority(_ v: UInt32) -> UInt64 {
        let team = inLinks[Int(v)].count >= Self.minimumSpreadInLinks ? currentTeam() : nil
        if team != nil { spreadSimulations += 1 }
        return withRemaining { simulators[0].priority(v, in: $0, collect: true, helpers: simulators, team: team) }
    }

    /// The team of threads ``lanes`` allows now, started (with a simulator per lane) the first time
    /// more than one is allowed; nil while one is.
    mutating func currentTeam() -> ParallelTeam? {
        let wanted = lanes?.available ?? 1
        if let team, team.lanes >= wanted { return team }
        if wanted <= 1 { return nil }
        team?.stop()
        while simulators.count < wanted { simulators.append(WitnessSimulator(nodeCount: n, settleLimit: settleLimit)) }
        team = ParallelTeam(lanes: wanted)
        return team
    }

    /// Fresh priorities of `nodes` (in their order) into `keys`, on as many threads as ``lanes`` allows
    /// now, each with its own simulator claiming the next node; the keys do not depend on the threads.
    mutating func priorities(of nodes: [UInt32], into keys: inout [UInt64]) {
        keys.removeAll(keepingCapacity: true)
        let team = nodes.count < Self.minimumParallelUpdates ? nil : currentTeam()
        let sims = simulators
        guard let team else {
            withRemaining { g in for u in nodes { keys.append(sims[0].priority(u, in: g, collect: false)) } }
            return
        }
        sharedUpdateBatches += 1
        keys.append(contentsOf: repeatElement(0, count: nodes.count))  // in the capacity kept
        keys.withUnsafeMutableBufferPointer { out in
            withRemaining { g in
                let next = Atomic<Int>(0)
                team.run { lane in
                    while true {
                        let i = next.add(1, ordering: .relaxed).oldValue
                        guard i < nodes.count else { return }
                        out[i] = sims[lane].priority(nodes[i], in: g, collect: false)
                    }
                }
            }
        }
    }

    /// Adds the shortcuts of the last ``priority(_:)`` (the graph has not changed since, so they are
    /// exactly what contracting its node needs).
    /// - Throws: ``GeoFareError`` `graph_invalid_network` when a shortcut's weight does not fit in 32 bits.
    mutating func commitPending() throws(GeoFareError) {
        for s in simulators[0].pending {
            guard s.via < UInt64(UInt32.max) else {
                throw .invalidNetwork("weights", "a shortcut's weight \(s.via) exceeds 32 bits")
            }
            _ = addOrImprove(s.u, s.w, weight: UInt32(s.via), a: s.first, b: s.second,
                             hops: edgeHops[Int(s.first)] + edgeHops[Int(s.second)])
        }
    }

    /// The core rule: the remaining graph's mean degree (in + out arcs per node) exceeds ``coreDegree``.
    /// Mean, not the popped node's degree, so that one busy junction does not stop the contraction.
    func isDenseCore(remainingNodes: Int) -> Bool {
        // a bound too large to multiply (`Int.max`: no core) never holds
        let (bound, overflow) = coreDegree.multipliedReportingOverflow(by: remainingNodes)
        return remainingNodes > 0 && !overflow && 2 * liveArcs > bound
    }

    /// Contracts nodes until none is left or ``isDenseCore(remainingNodes:)`` holds; returns the
    /// hierarchy's arrays (`coreStart` is the number contracted).
    /// - Parameter progress: called after each contracted node with the number contracted so far.
    mutating func build(progress: ((Int) -> Void)? = nil) throws(GeoFareError) -> ContractionHierarchy.Arrays {
        defer { team?.stop(); team = nil }  // also when a shortcut's weight throws
        let queue = IndexedMinHeap(capacity: n)
        var isNeighbour = [Bool](repeating: false, count: n)
        var batch = (0..<n).map { UInt32($0) }, keys: [UInt64] = []
        priorities(of: batch, into: &keys)
        for v in 0..<n { queue.push(UInt32(v), key: keys[v]) }
        var order: [UInt32] = []
        order.reserveCapacity(n)
        // per contracted node, in contraction order: its remaining arcs become final
        var upFirst: [UInt32] = [0], upHeadNode: [UInt32] = [], upEdge: [UInt32] = []
        var downFirst: [UInt32] = [0], downTailNode: [UInt32] = [], downEdge: [UInt32] = []
        upHeadNode.reserveCapacity(edgeWeight.count * 2)
        while !queue.isEmpty && !isDenseCore(remainingNodes: n - order.count) {
            let (v, key) = queue.pop()
            let fresh = priority(v)
            let dense = inLinks[Int(v)].count + outLinks[Int(v)].count > Self.denseCoreArcs
            let slack = dense ? queue.minKey / Self.denseCoreSlack : 0
            if fresh > key && !queue.isEmpty && fresh > queue.minKey + slack {
                queue.push(v, key: fresh)
                continue
            }
            for l in outLinks[Int(v)] { upHeadNode.append(l.node); upEdge.append(l.edge) }
            for l in inLinks[Int(v)] { downTailNode.append(l.node); downEdge.append(l.edge) }
            upFirst.append(UInt32(upHeadNode.count))
            downFirst.append(UInt32(downTailNode.count))
            order.append(v)
            try commitPending()  // found by the priority(v) just above
            contracted[Int(v)] = true
            var neighbours: [UInt32] = []
            for l in outLinks[Int(v)] {
                inLinks[Int(l.node)].removeAll { $0.node == v }
                neighbours.append(l.node)
            }
            for l in inLinks[Int(v)] {
                outLinks[Int(l.node)].removeAll { $0.node == v }
                neighbours.append(l.node)
            }
            liveArcs -= outLinks[Int(v)].count + inLinks[Int(v)].count
            outLinks[Int(v)] = []
            inLinks[Int(v)] = []
            // each neighbour once: its level and deleted-neighbour count rise, and its priority is
            // recomputed now, as RoutingKit and OSRM do (the lazy check at the top stays for witnesses lost farther away)
            for u in neighbours where !contracted[Int(u)] && !isNeighbour[Int(u)] {
                isNeighbour[Int(u)] = true
                level[Int(u)] = max(level[Int(u)], level[Int(v)] + 1)
                deletedNeighbours[Int(u)] += 1
            }
            // in a dense core (a node with many neighbours, as the shortest metric makes on grids) the
            // updates would cost the cube of the degree: there the lazy check at the top alone keeps
            // keys honest (on the 100k grid, shortest: 25 s → 10 s, 420 → 427 nodes settled per query)
            let update = neighbours.count <= Self.maxNeighboursUpdated
            batch.removeAll(keepingCapacity: true)
            for u in neighbours where isNeighbour[Int(u)] {
                isNeighbour[Int(u)] = false
                if update { batch.append(u) }
            }
            if !batch.isEmpty {
                priorities(of: batch, into: &keys)
                for (u, key) in zip(batch, keys) { queue.push(u, key: key) }
            }
            progress?(order.count)
        }
        // the core: every node left keeps all its remaining arcs, out-arcs up, in-arcs down
        let coreStart = order.count
        while !queue.isEmpty {
            let v = queue.pop().node
            for l in outLinks[Int(v)] { upHeadNode.append(l.node); upEdge.append(l.edge) }
            for l in inLinks[Int(v)] { downTailNode.append(l.node); downEdge.append(l.edge) }
            upFirst.append(UInt32(upHeadNode.count))
            downFirst.append(UInt32(downTailNode.count))
            order.append(v)
        }
        if coreStart < n { progress?(n) }
        outLinks = []; inLinks = []
        // renumber by rank; map edge ids to final positions (up first, then down)
        var rank = [UInt32](repeating: 0, count: n)
        for (r, v) in order.enumerated() { rank[Int(v)] = UInt32(r) }
        let upCount = upEdge.count
        var position = [UInt32](repeating: UInt32.max, count: edgeWeight.count)
        for (p, e) in upEdge.enumerated() { position[Int(e)] = UInt32(p) }
        for (p, e) in downEdge.enumerated() { position[Int(e)] = UInt32(upCount + p) }
        func unpack(_ e: UInt32) -> (UInt32, UInt32) {
            let b = edgeB[Int(e)]
            return b == UInt32.max ? (edgeA[Int(e)], UInt32.max) : (position[Int(edgeA[Int(e)])], position[Int(b)])
        }
        var a = ContractionHierarchy.Arrays()
        a.coreStart = coreStart
        a.rank = rank
        a.order = order
        a.upFirst = upFirst
        a.upHead = upHeadNode.map { rank[Int($0)] }
        a.upWeight = upEdge.map { edgeWeight[Int($0)] }
        a.downFirst = downFirst
        a.downTail = downTailNode.map { rank[Int($0)] }
        a.downWeight = downEdge.map { edgeWeight[Int($0)] }
        a.unpackA.reserveCapacity(upCount + downEdge.count)
        a.unpackB.reserveCapacity(upCount + downEdge.count)
        for e in upEdge { let (x, y) = unpack(e); a.unpackA.append(x); a.unpackB.append(y) }
        for e in downEdge { let (x, y) = unpack(e); a.unpackA.append(x); a.unpackB.append(y) }
        return a
    }
}
