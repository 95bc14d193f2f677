import GeoFareCore

extension PartyIndex {
    /// The clustered view of a bounding box at a zoom: one item per non-empty grid cell of that
    /// zoom (after the filter) that intersects the box.
    ///
    /// Cells are `cellSizePixels` px squares of Web Mercator world pixels on 256-px tiles, i.e.
    /// quadtree level `zoom + 8 − log2(cellSizePixels)`; a box with `west > east` crosses the
    /// antimeridian. An item stands for *all* (matching) parties of its cell, including those
    /// outside the box. A cell with one party gives that party (id = party id,
    /// `expansionZoom` nil); a cell with more gives a cluster whose id names the deepest cell
    /// that still holds all its members (`c<level>-<hex Morton code>`), so the same members
    /// get the same id at every zoom where they stay one cluster, whatever the order of
    /// updates, and ``leaves(clusterID:limit:offset:filter:)`` finds them again. Items come in
    /// Morton (Z) order of their cells.
    ///
    /// - Parameters:
    ///   - bbox: WGS84 degrees; re-validated (`bbox.west`, ...).
    ///   - zoom: 0...20.
    ///   - filter: parties to count; an empty filter uses the per-cell aggregates.
    ///   - idsLimit: 0...1000; items with at most this many members list their ids.
    /// - Throws: ``InvalidInput`` naming `bbox.<edge>`, `zoom`, `ids_limit` or a filter field.
    /// - Complexity: unfiltered, O(tree nodes over the box down to the zoom's level + items +
    ///   parties of leaves shallower than that level, ≤ 64 per leaf); filtered, O(parties in
    ///   the box's cells), or one pass over all parties when those are most of them.
    public func clusters(bbox: BoundingBox, zoom: Int, filter: PartyFilter = .none, idsLimit: Int = 10) throws(InvalidInput) -> [ClusterItem] {
        do { _ = try BoundingBox(west: bbox.west, south: bbox.south, east: bbox.east, north: bbox.north) } catch {
            throw error.prefixed("bbox")
        }
        guard (0...CellGrid.maxZoom).contains(zoom) else { throw .outOfRange("zoom", Double(zoom), 0...Double(CellGrid.maxZoom)) }
        guard (0...1000).contains(idsLimit) else { throw .outOfRange("ids_limit", Double(idsLimit), 0...1000) }
        try filter.validate()
        let window = CellWindow(grid: grid, bbox: bbox, level: grid.level(zoom: zoom))
        if filter.isEmpty {
            var scan = ClusterScan(index: self, window: window, filter: nil, idsLimit: idsLimit)
            scan.run()
            return scan.items
        }
        let compiled = CompiledFilter(filter)
        // Reaching parties through the tree costs a cache miss each; one sequential pass over
        // every party is cheaper once the box holds more than about an eighth of them.
        if candidates(in: window) * 8 > columns.slotCount {
            return linearClusters(window: window, filter: compiled, idsLimit: idsLimit)
        }
        var scan = ClusterScan(index: self, window: window, filter: compiled, idsLimit: idsLimit)
        scan.run()
        return scan.items
    }

    /// The parties of a cluster (or a single party's item), filtered, sorted by id (UTF-8 byte
    /// order), from `offset`, at most `limit`.
    ///
    /// - Parameters:
    ///   - clusterID: an item id from ``clusters(bbox:zoom:filter:idsLimit:)``: a cluster id
    ///     (`c<level>-<hex>`) or a party id.
    ///   - limit: 1...10,000.
    ///   - offset: ≥ 0.
    ///   - filter: normally the filter the clusters were made with.
    /// - Throws: ``InvalidInput`` `unknown_cluster` (field `cluster_id`) when the id is neither
    ///   a well-formed cluster id of a cell that has parties nor a party's id; `out_of_range`
    ///   naming `limit` or `offset`; or a filter field.
    /// - Complexity: O(m log m) for a cluster of m members.
    public func leaves(clusterID: String, limit: Int, offset: Int, filter: PartyFilter = .none) throws(InvalidInput) -> [Party] {
        guard (1...10_000).contains(limit) else { throw .outOfRange("limit", Double(limit), 1...10_000) }
        guard offset >= 0 else { throw InvalidInput(code: "out_of_range", message: "must not be negative, got \(offset)", field: "offset") }
        try filter.validate()
        let compiled = CompiledFilter(filter)
        var slots: [UInt32]
        if let cell = grid.parseClusterID(clusterID) {
            var total = 0
            slots = cellSlots(level: cell.level, cx: cell.x, cy: cell.y, filter: compiled, total: &total)
            guard total > 0 else {
                throw InvalidInput(code: "unknown_cluster", message: "no parties in cluster '\(clusterID)'", field: "cluster_id")
            }
        } else if let (slot, _) = columns.find(id: clusterID) {
            slots = compiled.matches(columns.hot[Int(slot)], slot: slot, columns: columns) ? [slot] : []
        } else {
            throw InvalidInput(code: "unknown_cluster", message: "'\(clusterID)' is neither a cluster id nor a party id", field: "cluster_id")
        }
        guard offset < slots.count else { return [] }
        sortByID(&slots)
        return slots[offset..<min(slots.count, offset + limit)].map { columns.party(at: $0) }
    }

    // MARK: - Helpers

    /// An upper bound of the parties in the window's cells, from the aggregates.
    func candidates(in window: CellWindow) -> Int {
        let nodes = tree.nodes
        func visit(_ n: Int, _ d: Int, _ cx: UInt32, _ cy: UInt32) -> Int {
            let node = nodes[n]
            guard node.count > 0, window.intersects(cx: cx, cy: cy, shift: UInt32(grid.depth - d)) else { return 0 }
            if d == window.level || node.child <= 0 { return Int(node.count) }
            let g = Int(node.child)
            return visit(g, d + 1, cx << 1, cy << 1) + visit(g + 1, d + 1, cx << 1 | 1, cy << 1)
                + visit(g + 2, d + 1, cx << 1, cy << 1 | 1) + visit(g + 3, d + 1, cx << 1 | 1, cy << 1 | 1)
        }
        return visit(0, 0, 0, 0)
    }

    /// The slots of the matching parties in cell (cx, cy) of `level`; `total` receives the
    /// number of parties in the cell before filtering.
    func cellSlots(level: Int, cx: UInt32, cy: UInt32, filter: CompiledFilter, total: inout Int) -> [UInt32] {
        let nodes = tree.nodes, buckets = tree.buckets, columns = columns
        var n = 0, d = 0
        while d < level && nodes[n].child > 0 {
            let bit = UInt32(level - d - 1)
            n = Int(nodes[n].child) + Int((cx >> bit) & 1) | Int(((cy >> bit) & 1) << 1)
            d += 1
        }
        var slots: [UInt32] = []
        let sh = UInt32(grid.depth - level)
        func collect(_ m: Int, check: Bool) {
            let c = nodes[m].child
            if c > 0 {
                for k in Int(c)..<Int(c) + 4 where nodes[k].count > 0 { collect(k, check: check) }
            } else if c < 0 {
                for slot in buckets[Int(-c - 1)] {
                    let h = columns.hot[Int(slot)]
                    if check && (grid.x(longitude: h.lon) >> sh != cx || h.y >> sh != cy) { continue }
                    total += 1
                    if filter.matches(h, slot: slot, columns: columns) { slots.append(slot) }
                }
            }
        }
        // Below a leaf shallower than the level, only some of its parties are in the cell.
        collect(n, check: d < level)
        return slots
    }

    /// Filtered clusters by one sequential pass over every party.
    func linearClusters(window: CellWindow, filter: CompiledFilter, idsLimit: Int) -> [ClusterItem] {
        let sh = UInt32(grid.depth - window.level)
        let maxCell = UInt32(grid.maxIndex) >> sh
        // Columns of the window at its level as up to two disjoint ranges, mapped to 0..<width.
        var ranges: [(lo: UInt32, hi: UInt32)] = []
        if window.wraps {
            let b1 = window.xb1 >> sh, a0 = window.xa0 >> sh
            if b1 + 1 >= a0 { ranges = [(0, maxCell)] } else { ranges = [(0, b1), (a0, maxCell)] }
        } else {
            ranges = [(window.xa0 >> sh, window.xa1 >> sh)]
        }
        let rowLo = window.y0 >> sh, rowHi = window.y1 >> sh
        let width = ranges.reduce(0) { $0 + Int($1.hi - $1.lo) + 1 }
        let height = Int(rowHi - rowLo) + 1
        let dense = width * height <= 1 << 18
        var grid = dense ? [Int32](repeating: -1, count: width * height) : []
        var sparse: [UInt64: Int32] = [:]
        var accs: [QuadNode] = []
        var keys: [UInt64] = []
        var firsts: [UInt32] = []
        let r0lo = ranges[0].lo, r0hi = ranges[0].hi
        let r1lo = ranges.count > 1 ? ranges[1].lo : 1, r1hi = ranges.count > 1 ? ranges[1].hi : 0
        let r1offset = Int(r0hi - r0lo) + 1
        let cellGrid = self.grid
        columns.hot.withUnsafeBufferPointer { hot in
            for s in 0..<hot.count {
                let h = hot[s]
                guard filter.matches(h) else { continue }
                let cy = h.y >> sh
                guard cy >= rowLo && cy <= rowHi else { continue }
                let cx = cellGrid.x(longitude: h.lon) >> sh
                let col: Int
                if cx >= r0lo && cx <= r0hi { col = Int(cx - r0lo) } else if cx >= r1lo && cx <= r1hi { col = r1offset + Int(cx - r1lo) } else { continue }
                guard filter.destination == nil || filter.matchesDestination(columns.destination[s]) else { continue }
                var a: Int
                if dense {
                    a = Int(grid[Int(cy - rowLo) * width + col])
                    if a < 0 {
                        a = accs.count
                        grid[Int(cy - rowLo) * width + col] = Int32(a)
                    }
                } else {
                    let key = UInt64(cy) << 32 | UInt64(cx)
                    if let found = sparse[key] { a = Int(found) } else {
                        a = accs.count
                        sparse[key] = Int32(a)
                    }
                }
                if a == accs.count {
                    accs.append(QuadNode())
                    keys.append(CellGrid.morton(x: cx, y: cy))
                    firsts.append(UInt32(s))
                }
                accs[a].add(h)
            }
        }
        var order = Array(0..<accs.count)
        order.sort { keys[$0] < keys[$1] }
        var items: [ClusterItem] = []
        items.reserveCapacity(order.count)
        for a in order {
            let acc = accs[a]
            var slots = [firsts[a]]
            if acc.count > 1 && Int(acc.count) <= idsLimit {
                var total = 0
                let cell = keys[a]
                slots = cellSlots(level: window.level, cx: CellGrid.compact(cell), cy: CellGrid.compact(cell >> 1), filter: filter, total: &total)
            }
            items.append(ClusterScan.makeItem(acc, slots: slots, grid: cellGrid, columns: columns, idsLimit: idsLimit))
        }
        return items
    }
}
