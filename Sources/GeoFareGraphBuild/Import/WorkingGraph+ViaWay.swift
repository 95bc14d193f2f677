/// Turn restrictions via one or more ways (from → via way(s) → to), applied by duplicating the
/// via path: the from way's arcs into the path's first node are redirected to copies of the
/// path's nodes; each copy keeps every outgoing arc of the node it copies (so a car may leave the
/// via path anywhere, or turn back), except that the arc along the path leads to the next copy,
/// and the last copy loses the arcs onto the to way (`no_*`) or keeps only those (`only_*`).
/// Everyone else still drives the original nodes. The forbidden sequence from → via → to thus
/// has no path in the graph, and every other sequence keeps its length: plain Dijkstra and the
/// contraction hierarchy see an ordinary graph (parallel arcs with the same geometry).
///
/// Applied after the via-node restrictions, on the graph as they left it (a path node may be a
/// via-node copy), one restriction at a time: copies copy the outgoing arcs a node has then, so
/// every restriction applied before stays in force on the copies.
extension WorkingGraph {
    /// A via-way restriction matched to the ways: the original nodes from the junction with the
    /// from way to the junction with the to way (shape points included) and the way of each step.
    struct ViaPath {
        var isOnly: Bool
        var from: Int32
        var to: Int32
        /// Original node indices; `nodes[0]` is on the from way, the last one on the to way.
        var nodes: [Int32]
        /// `stepWay[i]`: the via way from `nodes[i]` to `nodes[i + 1]`.
        var stepWay: [Int32]
    }

    /// The via path of `r`, or the reason it is skipped.
    static func viaPath(_ r: WayCollector.Restriction, ways: WayCollector, nodeIds: [Int64], wayIndex: [Int64: Int32]) -> (path: ViaPath?, skip: String) {
        guard let f = wayIndex[r.from[0]], let t = wayIndex[r.to[0]] else { return (nil, "way_not_routable") }
        var remaining: [Int32] = []
        for id in r.viaWays {
            guard let v = wayIndex[id] else { return (nil, "way_not_routable") }
            remaining.append(v)
        }
        func refs(_ w: Int32) -> [Int32] {
            let s = ways.wayRefStart[Int(w)], e = ways.wayRefStart[Int(w) + 1]
            return ways.refs[s..<e].map { Int32(nodeIds.sortedIndex(of: $0)!) }
        }
        // endpoints first: a via way normally ends where it meets the next way
        func pick(_ candidates: [Int32], on wayRefs: [Int32]) -> Int32? {
            candidates.first { $0 == wayRefs.first || $0 == wayRefs.last } ?? candidates.first
        }
        var nodes: [Int32] = [], steps: [Int32] = []
        let fromRefs = Set(refs(f))
        while !remaining.isEmpty {
            // the next via way: the first (in member order) that the path so far reaches
            var next: (index: Int, refs: [Int32], entry: Int32)? = nil
            for (i, v) in remaining.enumerated() {
                let vr = refs(v)
                if let last = nodes.last {
                    if vr.contains(last) { next = (i, vr, last); break }
                } else if let entry = pick(vr.filter { fromRefs.contains($0) }, on: vr) {
                    next = (i, vr, entry); break
                }
            }
            guard let (i, vr, entry) = next.map({ ($0.index, $0.refs, $0.entry) }) else { return (nil, "via_way_not_connected") }
            let v = remaining.remove(at: i)
            guard Set(vr).count == vr.count else { return (nil, "via_way_loop") }
            // leave it where it meets the rest: another via way, or the to way after the last one
            let onward = remaining.isEmpty ? Set(refs(t)) : Set(remaining.flatMap { refs($0) })
            guard let exit = pick(vr.filter { $0 != entry && onward.contains($0) }, on: vr) else { return (nil, "via_way_not_connected") }
            let a = vr.firstIndex(of: entry)!, b = vr.firstIndex(of: exit)!
            let slice = a < b ? Array(vr[a...b]) : Array(vr[b...a].reversed())
            if nodes.isEmpty { nodes.append(entry) }
            nodes.append(contentsOf: slice.dropFirst())
            steps.append(contentsOf: repeatElement(v, count: slice.count - 1))
        }
        guard Set(nodes).count == nodes.count else { return (nil, "via_way_loop") }
        return (ViaPath(isOnly: r.isOnly, from: f, to: t, nodes: nodes, stepWay: steps), "")
    }

    /// Applies via-way turn restrictions (see the extension's description).
    mutating func applyViaWayRestrictions(_ restrictions: [WayCollector.Restriction], ways: WayCollector, nodeIds: [Int64],
                                          wayIndex: [Int64: Int32], report: inout ImportReport) {
        guard !restrictions.isEmpty else { return }
        var paths: [ViaPath] = []
        for r in restrictions {
            let (path, skip) = Self.viaPath(r, ways: ways, nodeIds: nodeIds, wayIndex: wayIndex)
            if let path { paths.append(path) } else { report.restrictionsSkipped[skip, default: 0] += 1 }
        }
        guard !paths.isEmpty else { return }
        // outgoing arcs of every node on a via path (and of its copies), arcs into each path's first node
        var onPath = Set<Int32>(), starts = Set<Int32>()
        for p in paths { onPath.formUnion(p.nodes); starts.insert(p.nodes[0]) }
        var outgoing: [Int32: [Int32]] = [:]
        var incoming: [Int32: [Int32]] = [:]  // by the original node of the head
        func register(_ a: Int32) {
            let t = arcTail[Int(a)], h = nodeOrigin[Int(arcHead[Int(a)])]
            if onPath.contains(nodeOrigin[Int(t)]) { outgoing[t, default: []].append(a) }
            if starts.contains(h) { incoming[h, default: []].append(a) }
        }
        for a in 0..<Int32(arcTail.count) where !arcDeleted[Int(a)] { register(a) }

        for p in paths {
            let last = p.nodes.count - 1
            // the arcs of the from way into the path's first node, grouped by the node they enter
            var entries: [Int32: [Int32]] = [:]
            for a in incoming[p.nodes[0]] ?? [] where !arcDeleted[Int(a)] && arcWay[Int(a)] == p.from {
                entries[arcHead[Int(a)], default: []].append(a)
            }
            var applied = false, pathFound = false
            for x in entries.keys.sorted() {
                // follow the via way(s) from x: the arc whose head is the next routing node along the path
                var stepArcs: [Int32] = [], at: [Int32] = [x]
                var cur = x, pos = 0
                while pos < last {
                    var best: (arc: Int32, pos: Int)? = nil
                    for b in outgoing[cur] ?? [] where !arcDeleted[Int(b)] && arcWay[Int(b)] == p.stepWay[pos] {
                        let o = nodeOrigin[Int(arcHead[Int(b)])]
                        var q = pos + 1
                        while q <= last && p.nodes[q] != o && p.stepWay[q - 1] == p.stepWay[pos] { q += 1 }
                        if q <= last && p.nodes[q] == o && p.stepWay[q - 1] == p.stepWay[pos], best == nil || q < best!.pos { best = (b, q) }
                    }
                    guard let best else { break }
                    stepArcs.append(best.arc); cur = arcHead[Int(best.arc)]; at.append(cur); pos = best.pos
                }
                guard pos == last else { continue }
                pathFound = true
                let end = (outgoing[cur] ?? []).filter { !arcDeleted[Int($0)] }
                let onTo = end.filter { arcWay[Int($0)] == p.to }
                // the to way does not leave the end (one-way, or forbidden already): the rule does not meet the graph
                guard !onTo.isEmpty else { continue }
                applied = true
                // `only_*` and the to way is all there is: nothing to forbid
                if p.isOnly && onTo.count == end.count { continue }
                let copies = at.map { appendNode(copyOf: $0) }
                report.restrictionNodeCopies += copies.count
                for (i, n) in at.enumerated() {
                    for b in (outgoing[n] ?? []) where !arcDeleted[Int(b)] {
                        var head: Int32? = nil
                        if i < stepArcs.count {
                            if b == stepArcs[i] { head = copies[i + 1] }
                        } else if (arcWay[Int(b)] == p.to) != p.isOnly {
                            continue  // the forbidden turn at the end of the via path
                        }
                        register(appendArc(copyOf: Int(b), tail: copies[i], head: head))
                    }
                }
                for a in entries[x]! { arcHead[Int(a)] = copies[0] }
            }
            if applied {
                report.restrictionsApplied += 1
                report.restrictionsAppliedViaWay += 1
            } else {
                report.restrictionsSkipped[pathFound ? "not_at_via" : "via_way_not_drivable", default: 0] += 1
            }
        }
    }
}
