/// A maximum-cardinality matching in a general graph (Edmonds' blossom algorithm, in the
/// breadth-first form with blossom contraction by base relabelling): which riders share a taxi
/// two by two so that as many riders as possible are pooled.
///
/// The search starts from a greedy matching that takes edges in the order given (the caller
/// sorts them best first: most vehicle time saved), then augments from every vertex the greedy
/// left free; a vertex from which no augmenting path exists never gets one later (Berge), so each
/// is searched once. The result has the most matched pairs possible, and keeps most of the greedy
/// choice's savings (an augmentation swaps pairs only along one path).
///
/// Cost: O(V·(E + V)) in the worst case; on shareability networks the greedy leaves few free
/// vertices with neighbours.
public enum PairMatching {
    /// The mate of each of `vertexCount` vertices (`-1`: unmatched).
    /// - Parameter edges: undirected edges, best first (self-loops and repeats are ignored).
    public static func maximum(vertexCount n: Int, edges: [(Int, Int)]) -> [Int] {
        var adjacency = [[Int]](repeating: [], count: n)
        var mate = [Int](repeating: -1, count: n)
        for (a, b) in edges where a != b {
            adjacency[a].append(b)
            adjacency[b].append(a)
            if mate[a] == -1 && mate[b] == -1 { mate[a] = b; mate[b] = a }
        }
        var parent = [Int](repeating: -1, count: n)
        var base = Array(0..<n)
        var used = [Bool](repeating: false, count: n)
        var inBlossom = [Bool](repeating: false, count: n)
        var onPath = [Bool](repeating: false, count: n)
        var queue: [Int] = []
        queue.reserveCapacity(n)
        var touched: [Int] = []

        func lca(_ a0: Int, _ b0: Int) -> Int {
            var a = a0, b = b0
            var marked: [Int] = []
            while true {
                a = base[a]
                onPath[a] = true
                marked.append(a)
                if mate[a] == -1 { break }
                a = parent[mate[a]]
            }
            while true {
                b = base[b]
                if onPath[b] { break }
                b = parent[mate[b]]
            }
            for v in marked { onPath[v] = false }
            return b
        }
        func markPath(_ v0: Int, _ b: Int, _ child0: Int) {
            var v = v0, child = child0
            while base[v] != b {
                inBlossom[base[v]] = true
                inBlossom[base[mate[v]]] = true
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]
            }
        }
        func findPath(_ root: Int) -> Int {
            for v in touched { parent[v] = -1; base[v] = v; used[v] = false }
            touched.removeAll(keepingCapacity: true)
            queue.removeAll(keepingCapacity: true)
            used[root] = true
            touched.append(root)
            queue.append(root)
            var head = 0
            while head < queue.count {
                let v = queue[head]
                head += 1
                for to in adjacency[v] {
                    if base[v] == base[to] || mate[v] == to { continue }
                    if to == root || (mate[to] != -1 && parent[mate[to]] != -1) {
                        let current = lca(v, to)
                        markPath(v, current, to)
                        markPath(to, current, v)
                        // Relabel every touched vertex whose base is in the blossom.
                        for i in touched where inBlossom[base[i]] {
                            base[i] = current
                            if !used[i] { used[i] = true; queue.append(i) }
                        }
                        for i in touched { inBlossom[i] = false }
                        for i in touched { inBlossom[base[i]] = false }
                    } else if parent[to] == -1 {
                        parent[to] = v
                        touched.append(to)
                        if mate[to] == -1 { return to }
                        let next = mate[to]
                        used[next] = true
                        touched.append(next)
                        queue.append(next)
                    }
                }
            }
            return -1
        }
        for root in 0..<n where mate[root] == -1 && !adjacency[root].isEmpty {
            var v = findPath(root)
            while v != -1 {
                let pv = parent[v], ppv = mate[pv]
                mate[v] = pv
                mate[pv] = v
                v = ppv
            }
        }
        return mate
    }
}
