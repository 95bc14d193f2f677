/// Plain Dijkstra over an ``ArcGraph``: the exactness reference for the contraction hierarchy and
/// its speed baseline. One object per thread; it keeps its arrays between queries and marks
/// them with a query stamp instead of clearing them.
public final class DijkstraQuery {
    public let graph: ArcGraph
    private let forward: SearchSpace
    private let backward: SearchSpace
    /// Nodes settled by the last query (both directions), for benchmarks.
    public private(set) var settledCount = 0

    public init(graph: ArcGraph) {
        self.graph = graph
        forward = SearchSpace(nodeCount: graph.nodeCount)
        backward = SearchSpace(nodeCount: graph.nodeCount)
    }

    /// The best path from any source to any target, one-directional Dijkstra.
    /// - Returns: `nil` when no target is reachable. Arcs are listed when `withPath`.
    /// - Complexity: O((n + m) log n) at worst.
    public func oneToOne(sources: [RouteEndpoint], targets: [RouteEndpoint], withPath: Bool = true) -> SearchResult? {
        forward.begin()
        settledCount = 0
        for s in sources { forward.reach(s.node, UInt64(s.offset), parentNode: UInt32.max, parentArc: UInt32.max) }
        // target offset per node (min over duplicates), via the backward space's labels
        backward.begin()
        for t in targets { backward.reach(t.node, UInt64(t.offset), parentNode: UInt32.max, parentArc: UInt32.max) }
        var best = infiniteWeight, bestNode = UInt32.max
        let g = graph
        while !forward.heap.isEmpty {
            let (u, d) = forward.heap.pop()
            if d >= best { break }
            settledCount += 1
            if backward.isReached(u) {
                let total = d + backward.labels[Int(u)].dist
                if total < best { best = total; bestNode = u }
            }
            for e in Int(g.forwardFirst[Int(u)])..<Int(g.forwardFirst[Int(u) + 1]) {
                forward.reach(g.forwardHead[e], d + UInt64(g.forwardWeight[e]), parentNode: u, parentArc: g.forwardArc[e])
            }
        }
        guard bestNode != UInt32.max else { return nil }
        return result(best: best, meet: bestNode, sources: sources, targets: targets, withPath: withPath, backwardParents: false)
    }

    /// The best path from any source to any target, bidirectional Dijkstra (stops when the two
    /// frontiers' smallest keys sum to the best meeting weight).
    public func bidirectional(sources: [RouteEndpoint], targets: [RouteEndpoint], withPath: Bool = true) -> SearchResult? {
        forward.begin()
        backward.begin()
        settledCount = 0
        for s in sources { forward.reach(s.node, UInt64(s.offset), parentNode: UInt32.max, parentArc: UInt32.max) }
        for t in targets { backward.reach(t.node, UInt64(t.offset), parentNode: UInt32.max, parentArc: UInt32.max) }
        var best = infiniteWeight, bestNode = UInt32.max
        let g = graph
        while true {
            let fk = forward.heap.minKey, bk = backward.heap.minKey
            if fk == infiniteWeight && bk == infiniteWeight { break }
            if fk != infiniteWeight && bk != infiniteWeight && fk + bk >= best { break }
            if fk >= best && bk >= best { break }
            settledCount += 1
            if fk <= bk {
                let (u, d) = forward.heap.pop()
                if backward.isReached(u) {
                    let t = d + backward.labels[Int(u)].dist
                    if t < best { best = t; bestNode = u }
                }
                for e in Int(g.forwardFirst[Int(u)])..<Int(g.forwardFirst[Int(u) + 1]) {
                    let v = g.forwardHead[e], nd = d + UInt64(g.forwardWeight[e])
                    if forward.reach(v, nd, parentNode: u, parentArc: g.forwardArc[e]), backward.isReached(v) {
                        let t = nd + backward.labels[Int(v)].dist
                        if t < best { best = t; bestNode = v }
                    }
                }
            } else {
                let (u, d) = backward.heap.pop()
                if forward.isReached(u) {
                    let t = d + forward.labels[Int(u)].dist
                    if t < best { best = t; bestNode = u }
                }
                for e in Int(g.backwardFirst[Int(u)])..<Int(g.backwardFirst[Int(u) + 1]) {
                    let v = g.backwardTail[e], nd = d + UInt64(g.backwardWeight[e])
                    if backward.reach(v, nd, parentNode: u, parentArc: g.backwardArc[e]), forward.isReached(v) {
                        let t = nd + forward.labels[Int(v)].dist
                        if t < best { best = t; bestNode = v }
                    }
                }
            }
        }
        guard bestNode != UInt32.max else { return nil }
        return result(best: best, meet: bestNode, sources: sources, targets: targets, withPath: withPath, backwardParents: true)
    }

    private func result(best: UInt64, meet: UInt32, sources: [RouteEndpoint], targets: [RouteEndpoint], withPath: Bool,
                        backwardParents: Bool) -> SearchResult {
        var arcs: [UInt32] = []
        var u = meet
        while forward.labels[Int(u)].parentNode != UInt32.max {
            if withPath { arcs.append(forward.labels[Int(u)].parentArc) }
            u = forward.labels[Int(u)].parentNode
        }
        let sourceNode = u
        arcs.reverse()
        var v = meet
        if backwardParents {
            while backward.labels[Int(v)].parentNode != UInt32.max {
                if withPath { arcs.append(backward.labels[Int(v)].parentArc) }
                v = backward.labels[Int(v)].parentNode
            }
        }
        let targetNode = v
        let so = forward.labels[Int(sourceNode)].dist, to = backward.labels[Int(targetNode)].dist
        let si = sources.firstIndex { $0.node == sourceNode && UInt64($0.offset) == so } ?? 0
        let ti = targets.firstIndex { $0.node == targetNode && UInt64($0.offset) == to } ?? 0
        return SearchResult(weight: best, sourceIndex: si, targetIndex: ti, arcs: withPath ? arcs : [])
    }
}
