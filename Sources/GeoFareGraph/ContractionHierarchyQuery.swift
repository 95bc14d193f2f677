/// A reusable query on a ``ContractionHierarchy``: bidirectional upward Dijkstra with
/// stall-on-demand. One object per thread; labels are stamped per query, so a query allocates
/// nothing (except the arc list of ``path(into:)``'s caller).
public final class ContractionHierarchyQuery {
    public let hierarchy: ContractionHierarchy
    private var forward: SearchSpace
    private var backward: SearchSpace
    private var meetRank = UInt32.max
    private var stack: [UInt32] = []
    /// Nodes settled by the last query (both directions), for benchmarks.
    public private(set) var settledCount = 0

    public init(hierarchy: ContractionHierarchy) {
        self.hierarchy = hierarchy
        forward = SearchSpace(nodeCount: hierarchy.nodeCount)
        backward = SearchSpace(nodeCount: hierarchy.nodeCount)
    }

    /// The least weight from any source to any target (offsets included), or `nil` when none is
    /// reachable. Call ``path(into:)`` afterwards for its arcs.
    /// - Complexity: the two upward search spaces (typically a few hundred nodes).
    public func search(sources: [RouteEndpoint], targets: [RouteEndpoint]) -> (weight: UInt64, sourceIndex: Int, targetIndex: Int)? {
        let ch = hierarchy
        forward.begin()
        backward.begin()
        settledCount = 0
        meetRank = UInt32.max
        for s in sources { forward.reach(ch.rank[Int(s.node)], UInt64(s.offset), parentNode: UInt32.max, parentArc: UInt32.max) }
        for t in targets { backward.reach(ch.rank[Int(t.node)], UInt64(t.offset), parentNode: UInt32.max, parentArc: UInt32.max) }
        var best = infiniteWeight
        let upFirst = ch.upFirst, upHead = ch.upHead, upWeight = ch.upWeight
        let downFirst = ch.downFirst, downTail = ch.downTail, downWeight = ch.downWeight
        let upCount = UInt32(ch.upCount)
        while true {
            let fk = forward.heap.minKey, bk = backward.heap.minKey
            let goForward: Bool
            if fk < best && (fk <= bk || bk >= best) { goForward = true }
            else if bk < best { goForward = false }
            else { break }
            settledCount += 1
            if goForward {
                let (u, d) = forward.heap.pop()
                let ui = Int(u)
                if backward.isReached(u) {
                    let t = d + backward.dist[ui]
                    if t < best { best = t; meetRank = u }
                }
                // stall: a higher node reaches u for less through a downward arc x → u
                var stalled = false
                for e in Int(downFirst[ui])..<Int(downFirst[ui + 1]) {
                    let x = downTail[e]
                    if forward.isReached(x) && forward.dist[Int(x)] + UInt64(downWeight[e]) < d { stalled = true; break }
                }
                if stalled { continue }
                for e in Int(upFirst[ui])..<Int(upFirst[ui + 1]) {
                    forward.reach(upHead[e], d + UInt64(upWeight[e]), parentNode: u, parentArc: UInt32(e))
                }
            } else {
                let (u, d) = backward.heap.pop()
                let ui = Int(u)
                if forward.isReached(u) {
                    let t = d + forward.dist[ui]
                    if t < best { best = t; meetRank = u }
                }
                var stalled = false
                for e in Int(upFirst[ui])..<Int(upFirst[ui + 1]) {
                    let x = upHead[e]
                    if backward.isReached(x) && backward.dist[Int(x)] + UInt64(upWeight[e]) < d { stalled = true; break }
                }
                if stalled { continue }
                for e in Int(downFirst[ui])..<Int(downFirst[ui + 1]) {
                    backward.reach(downTail[e], d + UInt64(downWeight[e]), parentNode: u, parentArc: upCount + UInt32(e))
                }
            }
        }
        guard meetRank != UInt32.max else { return nil }
        var s = meetRank
        while forward.parentNode[Int(s)] != UInt32.max { s = forward.parentNode[Int(s)] }
        var t = meetRank
        while backward.parentNode[Int(t)] != UInt32.max { t = backward.parentNode[Int(t)] }
        let sNode = ch.order[Int(s)], tNode = ch.order[Int(t)]
        let so = forward.dist[Int(s)], to = backward.dist[Int(t)]
        let si = sources.firstIndex { $0.node == sNode && UInt64($0.offset) == so } ?? 0
        let ti = targets.firstIndex { $0.node == tNode && UInt64($0.offset) == to } ?? 0
        return (best, si, ti)
    }

    /// Appends the network arcs of the last successful ``search(sources:targets:)``'s path, in
    /// order, to `arcs` (shortcuts unpacked).
    public func path(into arcs: inout [UInt32]) {
        guard meetRank != UInt32.max else { return }
        let ch = hierarchy
        // forward edges, collected from the meeting node back to the source, then unpacked in order
        stack.removeAll(keepingCapacity: true)
        var u = meetRank
        while forward.parentNode[Int(u)] != UInt32.max {
            stack.append(forward.parentArc[Int(u)])
            u = forward.parentNode[Int(u)]
        }
        var edges = stack
        edges.reverse()
        u = meetRank
        while backward.parentNode[Int(u)] != UInt32.max {
            edges.append(backward.parentArc[Int(u)])
            u = backward.parentNode[Int(u)]
        }
        for e in edges { unpack(e, into: &arcs, ch) }
    }

    /// The arcs of the last search's path, as a new array.
    public func path() -> [UInt32] {
        var arcs: [UInt32] = []
        path(into: &arcs)
        return arcs
    }

    private func unpack(_ edge: UInt32, into arcs: inout [UInt32], _ ch: ContractionHierarchy) {
        stack.removeAll(keepingCapacity: true)
        stack.append(edge)
        while let e = stack.popLast() {
            let b = ch.unpackB[Int(e)]
            if b == UInt32.max {
                arcs.append(ch.unpackA[Int(e)])
            } else {
                stack.append(b)
                stack.append(ch.unpackA[Int(e)])
            }
        }
    }
}
