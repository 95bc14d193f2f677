/// A reusable query on a ``ContractionHierarchy``: bidirectional upward Dijkstra with
/// stall-on-demand. With an uncontracted core (``ContractionHierarchy/coreStart``), as core-based
/// CH queries do: (1) the upward searches run below the core as usual, each until its smallest key
/// reaches the best meeting weight, and only note the core nodes they settle (their labels are then
/// final for paths that climb to them); (2) a bidirectional Dijkstra over the core's arcs starts
/// from those nodes with those labels and stops once the two smallest keys sum to the best weight,
/// meeting on arcs as well as at nodes (Goldberg and Harrelson's rule). No stalling in the core.
/// One object per thread; labels are stamped per query, so a query allocates
/// nothing (except the arc list of ``path(into:)``'s caller).
public final class ContractionHierarchyQuery {
    public let hierarchy: ContractionHierarchy
    private let forward: SearchSpace
    private let backward: SearchSpace
    private var meetRank = UInt32.max
    private var stack: [UInt32] = []
    /// The core nodes each side's upward search settled (step 1 of ``search(sources:targets:)``).
    private var forwardCore: [UInt32] = [], backwardCore: [UInt32] = []
    /// Nodes settled by the last query (both directions), for benchmarks.
    public private(set) var settledCount = 0
    /// Skip relaxing a node that a higher node reaches for less (stall-on-demand); on by default,
    /// off only to measure what it saves. Answers are exact either way.
    public var stallOnDemand = true

    public init(hierarchy: ContractionHierarchy) {
        self.hierarchy = hierarchy
        forward = SearchSpace(nodeCount: hierarchy.nodeCount)
        backward = SearchSpace(nodeCount: hierarchy.nodeCount)
    }

    /// The least weight from any source to any target (offsets included), or `nil` when none is
    /// reachable. Call ``path(into:)`` afterwards for its arcs. Every endpoint's node must be a node
    /// of the network (a precondition).
    /// - Complexity: the two upward search spaces (typically a few hundred nodes).
    public func search(sources: [RouteEndpoint], targets: [RouteEndpoint]) -> (weight: UInt64, sourceIndex: Int, targetIndex: Int)? {
        let ch = hierarchy
        forward.begin()
        backward.begin()
        settledCount = 0
        meetRank = UInt32.max
        for s in sources {
            precondition(Int(s.node) < ch.nodeCount, "source node \(s.node) is not in the hierarchy")
            forward.reach(ch.rank[Int(s.node)], UInt64(s.offset), parentNode: UInt32.max, parentArc: UInt32.max)
        }
        for t in targets {
            precondition(Int(t.node) < ch.nodeCount, "target node \(t.node) is not in the hierarchy")
            backward.reach(ch.rank[Int(t.node)], UInt64(t.offset), parentNode: UInt32.max, parentArc: UInt32.max)
        }
        var best = infiniteWeight
        let upFirst = ch.upFirst, upHead = ch.upHead, upWeight = ch.upWeight
        let downFirst = ch.downFirst, downTail = ch.downTail, downWeight = ch.downWeight
        let upCount = UInt32(ch.upCount)
        let coreStart = UInt32(ch.coreStart)
        forwardCore.removeAll(keepingCapacity: true)
        backwardCore.removeAll(keepingCapacity: true)
        // 1. the upward searches below the core (a core node they settle waits for step 2)
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
                    let t = d + backward.labels[ui].dist
                    if t < best { best = t; meetRank = u }
                }
                if u >= coreStart { forwardCore.append(u); continue }
                // stall: a higher node reaches u for less through a downward arc x → u
                var stalled = false
                if stallOnDemand {
                for e in Int(downFirst[ui])..<Int(downFirst[ui + 1]) {
                    let x = downTail[e]
                    if forward.isReached(x) && forward.labels[Int(x)].dist + UInt64(downWeight[e]) < d { stalled = true; break }
                }
                }
                if stalled { continue }
                for e in Int(upFirst[ui])..<Int(upFirst[ui + 1]) {
                    forward.reach(upHead[e], d + UInt64(upWeight[e]), parentNode: u, parentArc: UInt32(e))
                }
            } else {
                let (u, d) = backward.heap.pop()
                let ui = Int(u)
                if forward.isReached(u) {
                    let t = d + forward.labels[ui].dist
                    if t < best { best = t; meetRank = u }
                }
                if u >= coreStart { backwardCore.append(u); continue }
                var stalled = false
                if stallOnDemand {
                for e in Int(upFirst[ui])..<Int(upFirst[ui + 1]) {
                    let x = upHead[e]
                    if backward.isReached(x) && backward.labels[Int(x)].dist + UInt64(upWeight[e]) < d { stalled = true; break }
                }
                }
                if stalled { continue }
                for e in Int(downFirst[ui])..<Int(downFirst[ui + 1]) {
                    backward.reach(downTail[e], d + UInt64(downWeight[e]), parentNode: u, parentArc: upCount + UInt32(e))
                }
            }
        }
        // 2. the core: bidirectional Dijkstra from the core nodes step 1 settled, with their final labels
        if forwardCore.isEmpty || backwardCore.isEmpty { return finish(best, sources: sources, targets: targets) }
        forward.heap.clear()
        backward.heap.clear()
        for u in forwardCore { forward.heap.push(u, key: forward.labels[Int(u)].dist) }
        for u in backwardCore { backward.heap.push(u, key: backward.labels[Int(u)].dist) }
        while true {
            let fk = forward.heap.minKey, bk = backward.heap.minKey
            // an empty side has settled all it reaches, checking each node against the other side
            if fk >= best || bk >= best || fk + bk >= best { break }
            settledCount += 1
            if fk <= bk {
                let (u, d) = forward.heap.pop()
                let ui = Int(u)
                if backward.isReached(u) {
                    let t = d + backward.labels[ui].dist
                    if t < best { best = t; meetRank = u }
                }
                for e in Int(upFirst[ui])..<Int(upFirst[ui + 1]) {
                    let x = upHead[e]
                    forward.reach(x, d + UInt64(upWeight[e]), parentNode: u, parentArc: UInt32(e))
                    // meet on the arc too (Goldberg and Harrelson): best may fall sooner, so the loop stops sooner
                    if backward.isReached(x) {
                        let t = forward.labels[Int(x)].dist + backward.labels[Int(x)].dist
                        if t < best { best = t; meetRank = x }
                    }
                }
            } else {
                let (u, d) = backward.heap.pop()
                let ui = Int(u)
                if forward.isReached(u) {
                    let t = d + forward.labels[ui].dist
                    if t < best { best = t; meetRank = u }
                }
                for e in Int(downFirst[ui])..<Int(downFirst[ui + 1]) {
                    let x = downTail[e]
                    backward.reach(x, d + UInt64(downWeight[e]), parentNode: u, parentArc: upCount + UInt32(e))
                    if forward.isReached(x) {
                        let t = forward.labels[Int(x)].dist + backward.labels[Int(x)].dist
                        if t < best { best = t; meetRank = x }
                    }
                }
            }
        }
        return finish(best, sources: sources, targets: targets)
    }

    /// The answer of a search that found `best` at ``meetRank`` (or nothing): the sources and
    /// targets its path starts and ends at.
    private func finish(_ best: UInt64, sources: [RouteEndpoint], targets: [RouteEndpoint]) -> (weight: UInt64, sourceIndex: Int, targetIndex: Int)? {
        let ch = hierarchy
        guard meetRank != UInt32.max else { return nil }
        var s = meetRank
        while forward.labels[Int(s)].parentNode != UInt32.max { s = forward.labels[Int(s)].parentNode }
        var t = meetRank
        while backward.labels[Int(t)].parentNode != UInt32.max { t = backward.labels[Int(t)].parentNode }
        let sNode = ch.order[Int(s)], tNode = ch.order[Int(t)]
        let so = forward.labels[Int(s)].dist, to = backward.labels[Int(t)].dist
        let si = sources.firstIndex { $0.node == sNode && UInt64($0.offset) == so } ?? 0
        let ti = targets.firstIndex { $0.node == tNode && UInt64($0.offset) == to } ?? 0
        return (best, si, ti)
    }

    /// Appends the network arcs of the last successful ``search(sources:targets:)``'s path, in
    /// order, to `arcs` (shortcuts unpacked).
    public func path(into arcs: inout [UInt32]) {
        guard meetRank != UInt32.max else { return }
        let ch = hierarchy
        // the scratch stack, moved out of the object so the loops below work on a local array
        var st: [UInt32] = []
        swap(&st, &stack)
        defer { swap(&st, &stack) }
        // forward edges, collected from the meeting node back to the source, reversed; then the backward ones
        st.removeAll(keepingCapacity: true)
        var u = meetRank
        while forward.labels[Int(u)].parentNode != UInt32.max {
            st.append(forward.labels[Int(u)].parentArc)
            u = forward.labels[Int(u)].parentNode
        }
        st.reverse()
        u = meetRank
        while backward.labels[Int(u)].parentNode != UInt32.max {
            st.append(backward.labels[Int(u)].parentArc)
            u = backward.labels[Int(u)].parentNode
        }
        // unpack each search edge in order (a shortcut pushes its second part, then its first)
        let edges = st
        let unpackA = ch.unpackA, unpackB = ch.unpackB
        for edge in edges {
            st.removeAll(keepingCapacity: true)
            st.append(edge)
            while let e = st.popLast() {
                let b = unpackB[Int(e)]
                if b == UInt32.max {
                    arcs.append(unpackA[Int(e)])
                } else {
                    st.append(b)
                    st.append(unpackA[Int(e)])
                }
            }
        }
    }

    /// The arcs of the last search's path, as a new array.
    public func path() -> [UInt32] {
        var arcs: [UInt32] = []
        path(into: &arcs)
        return arcs
    }
}
