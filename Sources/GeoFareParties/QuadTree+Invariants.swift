extension QuadTree {
    /// Checks the tree against its definition: every aggregate equals one recomputed from the
    /// members, buckets respect the capacity, every live slot is in exactly one leaf and in the
    /// cell its position names. Returns the first violation, or `nil`. For tests.
    /// - Complexity: O(n · depth).
    func invariantViolation(hot: [HotRecord], liveSlots: Set<UInt32>) -> String? {
        var seen = Set<UInt32>()
        func check(_ n: Int, depth d: Int, cx: UInt32, cy: UInt32) -> (QuadNode, String?) {
            let node = nodes[n]
            var expected = QuadNode()
            if node.child > 0 {
                let g = Int(node.child)
                for q in 0..<4 {
                    let (child, error) = check(g + q, depth: d + 1, cx: cx << 1 | UInt32(q & 1), cy: cy << 1 | UInt32(q >> 1))
                    if let error { return (expected, error) }
                    if child.count > 0 { expected.merge(child) }
                }
            } else if node.child < 0 {
                let bucket = withSlots(ofLeaf: node) { Array($0) }
                if bucket.isEmpty { return (expected, "empty bucket in node \(n)") }
                if rangeStarts[node.bucket] == .max && bucket.count != buckets[node.bucket].count { return (expected, "bucket size") }
                if bucket.count > QuadTree.bucketCapacity && d < grid.depth { return (expected, "overfull leaf \(n) at depth \(d)") }
                let sh = UInt32(grid.depth - d)
                for slot in bucket {
                    if !seen.insert(slot).inserted { return (expected, "slot \(slot) twice") }
                    if !liveSlots.contains(slot) { return (expected, "dead slot \(slot) in the tree") }
                    let h = hot[Int(slot)]
                    if grid.x(longitude: h.lon) >> sh != cx || h.y >> sh != cy { return (expected, "slot \(slot) in the wrong cell") }
                    if h.y != grid.y(latitude: h.lat) { return (expected, "slot \(slot) has a stale row") }
                    expected.add(h)
                }
            }
            if node.count != expected.count || node.sumLonQ != expected.sumLonQ || node.sumLatQ != expected.sumLatQ
                || (node.count > 0 && (node.minLon != expected.minLon || node.maxLon != expected.maxLon || node.minLat != expected.minLat
                    || node.maxLat != expected.maxLat || node.minY != expected.minY || node.maxY != expected.maxY)) {
                return (expected, "aggregate of node \(n) at depth \(d) is \(node), expected \(expected)")
            }
            return (expected, nil)
        }
        if let error = check(0, depth: 0, cx: 0, cy: 0).1 { return error }
        if seen != liveSlots { return "tree holds \(seen.count) slots, \(liveSlots.count) are live" }
        return nil
    }
}

extension PartyIndex {
    /// The first violated invariant of the index, or `nil`. For tests.
    func invariantViolation() -> String? {
        var live = Set<UInt32>()
        for s in 0..<columns.slotCount where columns.hot[s].status != HotRecord.freeSlot { live.insert(UInt32(s)) }
        if live.count != count { return "\(live.count) live slots, count \(count)" }
        for s in 0..<columns.slotCount where columns.filterKeys[s] != FilterKey.make(columns.hot[s]) {
            return "stale filter key in slot \(s)"
        }
        for s in live {
            let id = columns.id(ofSlot: s)
            guard let found = columns.find(id: id), found.slot == s else { return "id '\(id)' does not find slot \(s)" }
        }
        return tree.invariantViolation(hot: columns.hot, liveSlots: live)
    }
}
