import GeoFareCore

/// One run of ``PartyIndex/clusters(bbox:zoom:filter:idsLimit:)``: walks the quadtree over a
/// ``CellWindow`` and turns cells into ``ClusterItem``s, in Morton (Z) order of their cells.
///
/// Holds read-only copies of the index's arrays (no copying: they share storage) for the
/// duration of one query.
struct ClusterScan {
    let grid: CellGrid
    let window: CellWindow
    let nodes: [QuadNode]
    let tree: QuadTree
    let columns: PartyColumns
    let idsLimit: Int
    /// `nil`: unfiltered (aggregates are used as they are).
    let filter: CompiledFilter?
    /// Deepest level − the query's level.
    let shift: UInt32
    var items: [ClusterItem] = []
    var keys: [UInt64] = []
    /// Member slots of the item being made (reused).
    var members: [UInt32] = []
    /// A valid box to copy (the validating initialiser is dear in a loop).
    let boxTemplate = ClusterScan.emptyBox

    init(index: PartyIndex, window: CellWindow, filter: CompiledFilter?, idsLimit: Int) {
        grid = index.grid
        self.window = window
        nodes = index.tree.nodes
        tree = index.tree
        columns = index.columns
        self.idsLimit = idsLimit
        self.filter = filter
        shift = UInt32(grid.depth - window.level)
        keys.reserveCapacity(QuadTree.bucketCapacity)
    }

    // MARK: Tree walks

    /// Walks the tree from the root.
    mutating func run() {
        let sh = shift
        let width = Int((window.xa1 >> sh) - (window.xa0 >> sh)) + 1 + (window.wraps ? Int(window.xb1 >> sh) + 1 : 0)
        let height = Int((window.y1 >> sh) - (window.y0 >> sh)) + 1
        items.reserveCapacity(min(width * height, 1_024))
        visit(0, depth: 0, cx: 0, cy: 0)
    }

    private mutating func visit(_ n: Int, depth d: Int, cx: UInt32, cy: UInt32) {
        let node = nodes[n]
        if node.count == 0 { return }
        guard window.intersects(cx: cx, cy: cy, shift: UInt32(grid.depth - d)) else { return }
        if d == window.level {
            if let filter {
                var acc = QuadNode()
                var slots: [UInt32] = []
                accumulate(n, filter: filter, into: &acc, slots: &slots)
                if acc.count > 0 { items.append(makeItem(acc, slots: &slots)) }
            } else {
                var slots = takeMembers()
                if node.count == 1 || Int(node.count) <= idsLimit { collectSlots(n, into: &slots) }
                let item = makeItem(node, slots: &slots)
                items.append(item)
                members = slots
            }
        } else if node.child < 0 {
            let tree = self.tree
            tree.withSlots(ofLeaf: node) { scanLeaf($0) }
        } else {
            let g = Int(node.child)
            visit(g, depth: d + 1, cx: cx << 1, cy: cy << 1)
            visit(g + 1, depth: d + 1, cx: cx << 1 | 1, cy: cy << 1)
            visit(g + 2, depth: d + 1, cx: cx << 1, cy: cy << 1 | 1)
            visit(g + 3, depth: d + 1, cx: cx << 1 | 1, cy: cy << 1 | 1)
        }
    }

    /// Adds the matching parties under node `n` to `acc`, keeping up to max(idsLimit, 1) slots.
    private func accumulate(_ n: Int, filter: CompiledFilter, into acc: inout QuadNode, slots: inout [UInt32]) {
        let c = nodes[n].child
        if c > 0 {
            for k in Int(c)..<Int(c) + 4 where nodes[k].count > 0 { accumulate(k, filter: filter, into: &acc, slots: &slots) }
        } else if c < 0 {
            let keep = max(idsLimit, 1)
            columns.hot.withUnsafeBufferPointer { hot in
                columns.destination.withUnsafeBufferPointer { dest in
                    tree.withSlots(ofLeaf: nodes[n]) { bucket in
                        for slot in bucket {
                            let h = hot[Int(slot)]
                            guard filter.matches(h), filter.destination == nil || filter.matchesDestination(dest[Int(slot)]) else { continue }
                            acc.add(h)
                            if slots.count < keep { slots.append(slot) }
                        }
                    }
                }
            }
        }
    }

    /// Groups the parties of a leaf shallower than the query's level by their cells.
    private mutating func scanLeaf(_ bucket: UnsafeBufferPointer<UInt32>) {
        keys.removeAll(keepingCapacity: true)
        let sh = shift
        columns.hot.withUnsafeBufferPointer { hot in
            for (i, slot) in bucket.enumerated() {
                let h = hot[Int(slot)]
                if let filter, !filter.matches(h, slot: slot, columns: columns) { continue }
                let cx = grid.x(longitude: h.lon) >> sh, cy = h.y >> sh
                guard window.intersects(cx: cx, cy: cy, shift: sh) else { continue }
                keys.append(CellGrid.morton(x: cx, y: cy) << 8 | UInt64(i))
            }
        }
        if keys.isEmpty { return }
        if keys.count > 1 { keys.sort() }
        var start = 0
        while start < keys.count {
            let cell = keys[start] >> 8
            var end = start + 1
            while end < keys.count && keys[end] >> 8 == cell { end += 1 }
            var acc = QuadNode()
            var slots = takeMembers()
            columns.hot.withUnsafeBufferPointer { hot in
                for k in start..<end {
                    let slot = bucket[Int(keys[k] & 0xFF)]
                    acc.add(hot[Int(slot)])
                    slots.append(slot)
                }
            }
            let item = makeItem(acc, slots: &slots)
            items.append(item)
            members = slots
            start = end
        }
    }

    /// Every slot under node `n`.
    private func collectSlots(_ n: Int, into slots: inout [UInt32]) {
        let c = nodes[n].child
        if c > 0 {
            for k in Int(c)..<Int(c) + 4 where nodes[k].count > 0 { collectSlots(k, into: &slots) }
        } else if c < 0 {
            tree.withSlots(ofLeaf: nodes[n]) { slots.append(contentsOf: $0) }
        }
    }

    // MARK: Items

    /// The emptied scratch member list, moved out of `self` (so it can be passed `inout`
    /// alongside reads of `self` without copying the scan).
    @inline(__always)
    private mutating func takeMembers() -> [UInt32] {
        var slots: [UInt32] = []
        swap(&slots, &members)
        slots.removeAll(keepingCapacity: true)
        return slots
    }

    /// The item of an aggregate; `slots` holds its members when `count == 1` or
    /// `count <= idsLimit` (at least the first member otherwise, or none).
    func makeItem(_ a: QuadNode, slots: inout [UInt32]) -> ClusterItem {
        ClusterScan.makeItem(a, slots: &slots, grid: grid, columns: columns, idsLimit: idsLimit, boxTemplate: boxTemplate)
    }

    /// A ``ClusterItem`` from an aggregate and (when few) its members' slots, which it sorts
    /// by id.
    static func makeItem(_ a: QuadNode, slots: inout [UInt32], grid: CellGrid, columns: PartyColumns, idsLimit: Int,
                         boxTemplate: BoundingBox = emptyBox) -> ClusterItem {
        if a.count == 1 {
            let slot = slots[0]
            let h = columns.hot[Int(slot)]
            let id = columns.id(ofSlot: slot)
            return ClusterItem(
                id: id, count: 1, center: Coordinate(uncheckedLatitude: h.lat, longitude: h.lon),
                bounds: box(boxTemplate, west: h.lon, south: h.lat, east: h.lon, north: h.lat), expansionZoom: nil,
                partyIDs: idsLimit >= 1 ? [id] : nil
            )
        }
        let x0 = grid.x(longitude: a.minLon), x1 = grid.x(longitude: a.maxLon)
        let level = grid.commonLevel(x0: x0, y0: a.minY, x1: x1, y1: a.maxY)
        let sh = UInt32(grid.depth - level)
        let n = Double(a.count)
        let lat = min(max(Double(a.sumLatQ) / n * 1e-9, a.minLat), a.maxLat)
        let lon = min(max(Double(a.sumLonQ) / n * 1e-9, a.minLon), a.maxLon)
        var ids: [String]?
        if Int(a.count) <= idsLimit {
            columns.sortByID(&slots)
            ids = slots.map { columns.id(ofSlot: $0) }
        }
        return ClusterItem(
            id: CellGrid.clusterID(level: level, x: x0 >> sh, y: a.minY >> sh), count: Int(a.count),
            center: Coordinate(uncheckedLatitude: lat, longitude: lon),
            bounds: box(boxTemplate, west: a.minLon, south: a.minLat, east: a.maxLon, north: a.maxLat),
            expansionZoom: level >= grid.depth ? ClusterItem.neverSplits : grid.zoom(level: level + 1),
            partyIDs: ids
        )
    }

    static let emptyBox = try! BoundingBox(west: 0, south: 0, east: 0, north: 0)

    /// A box of known-valid values without the validating initialiser's cost.
    @inline(__always)
    static func box(_ template: BoundingBox, west: Double, south: Double, east: Double, north: Double) -> BoundingBox {
        var b = template
        b.west = west
        b.south = south
        b.east = east
        b.north = north
        return b
    }
}
