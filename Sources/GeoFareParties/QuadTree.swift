/// A bucket PR-quadtree over the deepest grid cells, with an aggregate in every node.
///
/// A leaf holds up to ``bucketCapacity`` party slots (more only at the deepest level, where
/// parties share one cell); inserting past that splits it, and an inner node whose subtree
/// falls to ``mergeThreshold`` parties is collapsed back into a leaf. So the tree is deep
/// where parties are dense and shallow where they are sparse, an update walks one node per
/// level (O(depth) ≤ 25 steps) and memory is about one 64-byte node per 20 parties.
///
/// The tree stores slots only; positions are read from the caller's ``HotRecord`` column.
struct QuadTree {
    /// Parties a leaf holds before it splits.
    static let bucketCapacity = 64
    /// An inner node with at most this many parties collapses into a leaf.
    static let mergeThreshold = 24

    let grid: CellGrid
    /// Node 0 is the root (the whole world, level 0).
    private(set) var nodes: [QuadNode] = [QuadNode()]
    /// The party slots of each leaf, unordered; empty for a range leaf.
    private(set) var buckets: [[UInt32]] = []
    /// Per bucket: `.max` for an array bucket, else the first slot of a range leaf, whose
    /// slots are `start ..< start + count` (bulk-loaded leaves until first changed: they cost
    /// 12 bytes instead of an array).
    private(set) var rangeStarts: [UInt32] = []
    private var freeGroups: [Int32] = []
    private var freeBuckets: [Int32] = []
    private var path: [Int32] = []

    init(grid: CellGrid) {
        self.grid = grid
        path.reserveCapacity(32)
    }

    /// Bytes held by nodes and buckets (capacity, not counting allocator overhead).
    var estimatedBytes: Int {
        var total = nodes.capacity * MemoryLayout<QuadNode>.stride + buckets.capacity * MemoryLayout<[UInt32]>.stride
            + rangeStarts.capacity * 4
        for b in buckets where b.capacity > 0 { total += 48 + b.capacity * 4 }
        return total + (freeGroups.capacity + freeBuckets.capacity) * 4
    }

    /// Runs `body` over the slots of a leaf.
    @inline(__always)
    func withSlots<R>(ofLeaf node: QuadNode, _ body: (UnsafeBufferPointer<UInt32>) -> R) -> R {
        let b = node.bucket
        let start = rangeStarts[b]
        if start == .max { return buckets[b].withUnsafeBufferPointer(body) }
        let n = Int(node.count)
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: n) { buffer in
            for i in 0..<n { buffer.initializeElement(at: i, to: start &+ UInt32(truncatingIfNeeded: i)) }
            return body(UnsafeBufferPointer(buffer))
        }
    }

    /// Turns a range leaf of `count` slots into an array leaf (before changing it).
    @inline(__always)
    private mutating func materialize(_ b: Int, count: Int) {
        let start = rangeStarts[b]
        guard start != .max else { return }
        buckets[b] = [UInt32](unsafeUninitializedCapacity: count) { buffer, c in
            for i in 0..<count { buffer.initializeElement(at: i, to: start &+ UInt32(truncatingIfNeeded: i)) }
            c = count
        }
        rangeStarts[b] = .max
    }

    // MARK: Allocation

    private mutating func allocateGroup() -> Int32 {
        if let g = freeGroups.popLast() {
            for i in Int(g)..<Int(g) + 4 { nodes[i] = QuadNode() }
            return g
        }
        let g = Int32(nodes.count)
        nodes.append(contentsOf: repeatElement(QuadNode(), count: 4))
        return g
    }

    private mutating func allocateBucket(_ slots: [UInt32], rangeStart: UInt32 = .max) -> Int32 {
        if let b = freeBuckets.popLast() {
            buckets[Int(b)] = slots
            rangeStarts[Int(b)] = rangeStart
            return b
        }
        buckets.append(slots)
        rangeStarts.append(rangeStart)
        return Int32(buckets.count - 1)
    }

    private mutating func freeBucket(_ b: Int) {
        buckets[b] = []
        rangeStarts[b] = .max
        freeBuckets.append(Int32(b))
    }

    // MARK: Insert

    /// Adds the party in `slot`, whose position is `hot[slot]`.
    /// - Complexity: O(depth), plus an amortised O(bucketCapacity) split.
    mutating func insert(slot: UInt32, hot: UnsafeBufferPointer<HotRecord>) {
        let h = hot[Int(slot)]
        let x = grid.x(longitude: h.lon)
        var n = 0
        var d = 0
        while true {
            nodes[n].add(h)
            let c = nodes[n].child
            if c > 0 {
                n = Int(c) + grid.quadrant(x: x, y: h.y, depth: d)
                d += 1
                continue
            }
            if c == 0 {
                nodes[n].child = -allocateBucket([slot]) - 1
                return
            }
            let b = Int(-c - 1)
            materialize(b, count: Int(nodes[n].count) - 1)
            buckets[b].append(slot)
            if buckets[b].count > QuadTree.bucketCapacity && d < grid.depth { split(n, depth: d, hot: hot) }
            return
        }
    }

    /// Turns the leaf `n` at depth `d` into an inner node with four children.
    private mutating func split(_ n: Int, depth d: Int, hot: UnsafeBufferPointer<HotRecord>) {
        let b = nodes[n].bucket
        let slots = buckets[b]
        freeBucket(b)
        let g = Int(allocateGroup())
        nodes[n].child = Int32(g)
        var parts: [[UInt32]] = [[], [], [], []]
        for slot in slots {
            let h = hot[Int(slot)]
            let q = grid.quadrant(x: grid.x(longitude: h.lon), y: h.y, depth: d)
            nodes[g + q].add(h)
            parts[q].append(slot)
        }
        for q in 0..<4 where !parts[q].isEmpty {
            nodes[g + q].child = -allocateBucket(parts[q]) - 1
            if parts[q].count > QuadTree.bucketCapacity && d + 1 < grid.depth { split(g + q, depth: d + 1, hot: hot) }
        }
    }

    // MARK: Remove

    /// Removes the party in `slot`, whose position was `h` (the caller may already have
    /// overwritten `hot[slot]`, but every other slot's record must be current).
    /// - Complexity: O(depth + bucketCapacity); O(members of the leaf) more at the deepest
    ///   level.
    mutating func remove(slot: UInt32, at h: HotRecord, hot: UnsafeBufferPointer<HotRecord>) {
        let x = grid.x(longitude: h.lon)
        path.removeAll(keepingCapacity: true)
        var n = 0
        var d = 0
        while nodes[n].child > 0 {
            path.append(Int32(n))
            n = Int(nodes[n].child) + grid.quadrant(x: x, y: h.y, depth: d)
            d += 1
        }
        path.append(Int32(n))
        precondition(nodes[n].child < 0, "PartyIndex: slot \(slot) is not in the tree")
        let b = nodes[n].bucket
        materialize(b, count: Int(nodes[n].count))
        guard let i = buckets[b].firstIndex(of: slot) else { preconditionFailure("PartyIndex: slot \(slot) is not in its leaf") }
        buckets[b].swapAt(i, buckets[b].count - 1)
        buckets[b].removeLast()
        if buckets[b].isEmpty {
            freeBucket(b)
            nodes[n].child = 0
        }
        let lonQ = h.lonQ, latQ = h.latQ
        var onBounds = true
        for k in stride(from: path.count - 1, through: 0, by: -1) {
            let m = Int(path[k])
            nodes[m].count &-= 1
            nodes[m].sumLonQ &-= lonQ
            nodes[m].sumLatQ &-= latQ
            if nodes[m].count == 0 {
                nodes[m].clearBounds()
            } else if onBounds && nodes[m].touchesBounds(h) {
                recomputeBounds(m, hot: hot)
            } else {
                onBounds = false
            }
        }
        // Collapse the highest inner node on the path that became small.
        for k in 0..<(path.count - 1) {
            let m = Int(path[k])
            if nodes[m].count <= Int32(QuadTree.mergeThreshold) {
                collapse(m)
                break
            }
        }
    }

    /// Recomputes a node's bounds from its bucket or its children.
    private mutating func recomputeBounds(_ m: Int, hot: UnsafeBufferPointer<HotRecord>) {
        var node = nodes[m]
        node.clearBounds()
        if node.child > 0 {
            for c in Int(node.child)..<Int(node.child) + 4 where nodes[c].count > 0 { node.includeBounds(nodes[c]) }
        } else if node.child < 0 {
            withSlots(ofLeaf: node) { slots in
                for slot in slots { node.includeBounds(hot[Int(slot)]) }
            }
        }
        nodes[m] = node
    }

    /// Turns the inner node `m` into a leaf holding every party of its subtree.
    private mutating func collapse(_ m: Int) {
        var slots: [UInt32] = []
        slots.reserveCapacity(Int(nodes[m].count))
        freeSubtree(of: m, into: &slots)
        nodes[m].child = slots.isEmpty ? 0 : -allocateBucket(slots) - 1
    }

    /// Moves the slots under `m` into `slots` and frees its descendants (not `m` itself).
    private mutating func freeSubtree(of m: Int, into slots: inout [UInt32]) {
        let c = nodes[m].child
        if c < 0 {
            withSlots(ofLeaf: nodes[m]) { slots.append(contentsOf: $0) }
            freeBucket(Int(-c - 1))
        } else if c > 0 {
            for k in Int(c)..<Int(c) + 4 { freeSubtree(of: k, into: &slots) }
            freeGroups.append(c)
        }
        nodes[m].child = 0
    }

    // MARK: Bulk build

    /// Builds the tree of an empty index from parties sorted by the Morton codes of their
    /// deepest cells: entry i has code `keys[i] >> keyShift` and slot `slots?[i] ?? i`.
    /// - Complexity: O(n · depth of the leaves), reading the sorted arrays and `hot`
    ///   in order when slots follow the sort.
    mutating func build(keys: UnsafeBufferPointer<UInt64>, keyShift: Int, slots: UnsafeBufferPointer<UInt32>?, hot: UnsafeBufferPointer<HotRecord>) {
        precondition(nodes.count == 1 && nodes[0].count == 0, "bulk build needs an empty tree")
        nodes.reserveCapacity(keys.count / 20 + 64)
        buckets.reserveCapacity(keys.count / 26 + 64)
        rangeStarts.reserveCapacity(keys.count / 26 + 64)
        build(0, depth: 0, keys: keys, keyShift: UInt64(keyShift), slots: slots, range: 0..<keys.count, hot: hot)
    }

    private mutating func build(_ n: Int, depth d: Int, keys: UnsafeBufferPointer<UInt64>, keyShift: UInt64, slots: UnsafeBufferPointer<UInt32>?,
                                range: Range<Int>, hot: UnsafeBufferPointer<HotRecord>) {
        if range.isEmpty { return }
        if range.count <= QuadTree.bucketCapacity || d == grid.depth {
            var node = QuadNode()
            if let slots {
                let bucket = Array(slots[range])
                for slot in bucket { node.add(hot[Int(slot)]) }
                node.child = -allocateBucket(bucket) - 1
            } else {
                for i in range { node.add(hot[i]) }
                node.child = -allocateBucket([], rangeStart: UInt32(truncatingIfNeeded: range.lowerBound)) - 1
            }
            nodes[n] = node
            return
        }
        let g = Int(allocateGroup())
        let shift = keyShift + UInt64(2 * (grid.depth - d - 1))
        var start = range.lowerBound
        for q in 0..<4 {
            // The end of quadrant q: the first code whose quadrant digit exceeds q.
            var lo = start, hi = range.upperBound
            while lo < hi {
                let mid = (lo + hi) >> 1
                if Int((keys[mid] >> shift) & 3) <= q { lo = mid + 1 } else { hi = mid }
            }
            build(g + q, depth: d + 1, keys: keys, keyShift: keyShift, slots: slots, range: start..<lo, hot: hot)
            start = lo
        }
        var node = QuadNode()
        node.child = Int32(g)
        for c in g..<g + 4 where nodes[c].count > 0 { node.merge(nodes[c]) }
        nodes[n] = node
    }
}
