import GeoFareCore
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
    // witness search
    let witness: SearchSpace
    var isTarget: [Bool]
    let settleLimit: Int
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
         coreDegree: Int = ContractionHierarchy.coreMeanDegree) {
        n = nodeCount
        self.settleLimit = settleLimit
        self.coreDegree = coreDegree
        outLinks = [[Link]](repeating: [], count: n)
        inLinks = [[Link]](repeating: [], count: n)
        contracted = [Bool](repeating: false, count: n)
        level = [UInt32](repeating: 0, count: n)
        deletedNeighbours = [UInt32](repeating: 0, count: n)
        witness = SearchSpace(nodeCount: n)
        isTarget = [Bool](repeating: false, count: n)
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

    /// Dijkstra from `source` in the remaining graph without `avoid`, until every marked target is
    /// settled, a key exceeds `maxWeight`, or `settleLimit` nodes are settled. Leaves upper bounds in `witness`.
    mutating func witnessSearch(from source: UInt32, avoid: UInt32, maxWeight: UInt64, targets: Int) {
        let ws = witness
        ws.begin()
        ws.reach(source, 0, parentNode: 0, parentArc: 0)
        var settled = 0, targetsLeft = targets
        while !ws.heap.isEmpty {
            let (u, d) = ws.heap.pop()
            if d > maxWeight { break }
            if isTarget[Int(u)] { targetsLeft -= 1; if targetsLeft == 0 { break } }
            settled += 1
            if settled > settleLimit { break }
            outLinks[Int(u)].withUnsafeBufferPointer { links in
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
        witness.isReached(w) && witness.labels[Int(w)].dist <= weight
    }

    /// The shortcuts the last ``simulate(_:)`` found: `u → w` of weight `via` made of edges `first`, `second`.
    var pending: [(u: UInt32, w: UInt32, via: UInt64, first: UInt32, second: UInt32)] = []

    /// Finds the shortcuts contracting `v` needs (into ``pending``) without changing the graph.
    /// - Returns: how many and their original hops.
    mutating func simulate(_ v: UInt32) -> (arcs: Int, hops: Int) {
        var added = 0, addedHops = 0
        pending.removeAll(keepingCapacity: true)
        let ins = inLinks[Int(v)], outs = outLinks[Int(v)]
        if ins.isEmpty || outs.isEmpty { return (0, 0) }
        var maxOut: UInt64 = 0
        for o in outs { isTarget[Int(o.node)] = true; maxOut = max(maxOut, UInt64(o.weight)) }
        defer { for o in outs { isTarget[Int(o.node)] = false } }
        for i in ins {
            if outs.count == 1 && outs[0].node == i.node { continue }
            // the source counts as a target when it is one (it is settled first)
            witnessSearch(from: i.node, avoid: v, maxWeight: UInt64(i.weight) + maxOut, targets: outs.count)
            for o in outs where o.node != i.node {
                let via = UInt64(i.weight) + UInt64(o.weight)
                if witnessed(o.node, within: via) { continue }
                added += 1
                addedHops += Int(edgeHops[Int(i.edge)] + edgeHops[Int(o.edge)])
                pending.append((i.node, o.node, via, i.edge, o.edge))
            }
        }
        return (added, addedHops)
    }

    /// Adds the shortcuts of the last ``simulate(_:)`` (the graph has not changed since, so they are
    /// exactly what contracting its node needs).
    /// - Throws: ``GeoFareError`` `graph_invalid_network` when a shortcut's weight does not fit in 32 bits.
    mutating func commitPending() throws(GeoFareError) {
        for s in pending {
            guard s.via < UInt64(UInt32.max) else {
                throw GeoFareError(code: .graphInvalidNetwork, message: "a shortcut's weight \(s.via) exceeds 32 bits",
                                 field: "weights")
            }
            _ = addOrImprove(s.u, s.w, weight: UInt32(s.via), a: s.first, b: s.second,
                             hops: edgeHops[Int(s.first)] + edgeHops[Int(s.second)])
        }
    }

    /// The contraction priority of `v` (lower goes first); leaves its shortcuts in ``pending``.
    ///
    /// RoutingKit's importance (`contraction_hierarchy.cpp`): level + edge quotient + hop quotient,
    /// each weighted 1000, plus the deleted neighbours (Geisberger et al.) with a smaller weight to
    /// spread contraction evenly. Integer arithmetic, so the order is the same on every machine.
    mutating func priority(_ v: UInt32) -> UInt64 {
        let (added, addedHops) = simulate(v)
        let removed = 1 + inLinks[Int(v)].count + outLinks[Int(v)].count
        var removedHops = 1
        for l in inLinks[Int(v)] { removedHops += Int(edgeHops[Int(l.edge)]) }
        for l in outLinks[Int(v)] { removedHops += Int(edgeHops[Int(l.edge)]) }
        return 1 + 1000 * UInt64(level[Int(v)]) + UInt64(1000 * added / removed) + UInt64(1000 * addedHops / removedHops)
            + 250 * UInt64(deletedNeighbours[Int(v)])
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
        let queue = IndexedMinHeap(capacity: n)
        var isNeighbour = [Bool](repeating: false, count: n)
        for v in 0..<n { queue.push(UInt32(v), key: priority(UInt32(v))) }
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
            for u in neighbours where isNeighbour[Int(u)] {
                isNeighbour[Int(u)] = false
                if update { queue.push(u, key: priority(u)) }
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
