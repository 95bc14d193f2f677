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
    /// - Throws: ``GeoFareError`` naming `bbox.<edge>`, `zoom`, `ids_limit` or a filter field.
    /// - Complexity: unfiltered, O(tree nodes over the box down to the zoom's level + items +
    ///   parties of leaves shallower than that level, ≤ 64 per leaf); filtered, O(parties in
    ///   the box's cells), or one pass over all parties when those are most of them.
    public func clusters(bbox: BoundingBox, zoom: Int, filter: PartyFilter = .none, idsLimit: Int = 10) throws(GeoFareError) -> [ClusterItem] {
        try PartyIndex.validate(bbox)
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
        // The sequential pass reads 4 bytes a party and runs on every core; walking the tree
        // reads 32 bytes a candidate with less locality, so the pass wins once the box's cells
        // hold more than about a tenth of all parties.
        if candidates(in: window) * 10 > columns.slotCount {
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
    /// - Throws: ``GeoFareError`` `unknown_cluster` (field `cluster_id`) when the id is neither
    ///   a well-formed cluster id of a cell that has parties nor a party's id; `out_of_range`
    ///   naming `limit` or `offset`; or a filter field.
    /// - Complexity: O(m log m) for a cluster of m members.
    public func leaves(clusterID: String, limit: Int, offset: Int, filter: PartyFilter = .none) throws(GeoFareError) -> [Party] {
        guard (1...10_000).contains(limit) else { throw .outOfRange("limit", Double(limit), 1...10_000) }
        guard offset >= 0 else { throw .mustNotBeNegative("offset", Int64(offset)) }
        try filter.validate()
        let compiled = CompiledFilter(filter)
        var slots: [UInt32]
        if let cell = grid.parseClusterID(clusterID) {
            var total = 0
            slots = cellSlots(level: cell.level, cx: cell.x, cy: cell.y, filter: compiled, total: &total)
            guard total > 0 else {
                throw .emptyCluster(clusterID)
            }
        } else if let (slot, _) = columns.find(id: clusterID) {
            slots = compiled.matches(columns.hot[Int(slot)], slot: slot, columns: columns) ? [slot] : []
        } else {
            throw .unknownCluster(clusterID)
        }
        guard offset < slots.count else { return [] }
        sortByID(&slots)
        return slots[offset..<min(slots.count, offset + limit)].map { columns.party(at: $0) }
    }

    // MARK: - Helpers

    /// The checks of `BoundingBox.init` (its fields are mutable, so a box may have been
    /// changed since), without its allocations; fields are prefixed `bbox.`.
    static func validate(_ b: BoundingBox) throws(GeoFareError) {
        if !(b.west.isFinite && b.south.isFinite && b.east.isFinite && b.north.isFinite) {
            for (name, v) in [("bbox.west", b.west), ("bbox.south", b.south), ("bbox.east", b.east), ("bbox.north", b.north)] where !v.isFinite {
                throw .notFinite(name, v)
            }
        }
        guard (-180.0...180.0).contains(b.west) else { throw .outOfRange("bbox.west", b.west, -180...180, code: .longitudeOutOfRange) }
        guard (-180.0...180.0).contains(b.east) else { throw .outOfRange("bbox.east", b.east, -180...180, code: .longitudeOutOfRange) }
        guard (-90.0...90.0).contains(b.south) else { throw .outOfRange("bbox.south", b.south, -90...90, code: .latitudeOutOfRange) }
        guard (-90.0...90.0).contains(b.north) else { throw .outOfRange("bbox.north", b.north, -90...90, code: .latitudeOutOfRange) }
        guard b.south <= b.north else {
            throw GeoFareError.southAboveNorth(south: b.south, north: b.north).prefixed("bbox")
        }
    }

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
        let nodes = tree.nodes, tree = tree, columns = columns
        var n = 0, d = 0
        while d < level && nodes[n].child > 0 {
            let bit = UInt32(level - d - 1)
            n = Int(nodes[n].child) + (Int((cx >> bit) & 1) | Int(((cy >> bit) & 1) << 1))
            d += 1
        }
        var slots: [UInt32] = []
        let sh = UInt32(grid.depth - level)
        func collect(_ m: Int, check: Bool) {
            let c = nodes[m].child
            if c > 0 {
                for k in Int(c)..<Int(c) + 4 where nodes[k].count > 0 { collect(k, check: check) }
            } else if c < 0 {
                tree.withSlots(ofLeaf: nodes[m]) { bucket in
                    for slot in bucket {
                        let h = columns.hot[Int(slot)]
                        if check && (grid.x(longitude: h.lon) >> sh != cx || h.y >> sh != cy) { continue }
                        total += 1
                        if filter.matches(h, slot: slot, columns: columns) { slots.append(slot) }
                    }
                }
            }
        }
        // Below a leaf shallower than the level, only some of its parties are in the cell.
        collect(n, check: d < level)
        return slots
    }

    /// Filtered clusters by one sequential pass over every party's ``FilterKey`` (4 bytes), the
    /// few that may match checked exactly; split across the cores (memory bandwidth is the
    /// limit), each chunk with its own cell accumulators.
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
        let layout = CellLayout(
            rowLo: window.y0 >> sh, rowHi: window.y1 >> sh, r0lo: ranges[0].lo, r0hi: ranges[0].hi,
            r1lo: ranges.count > 1 ? ranges[1].lo : 1, r1hi: ranges.count > 1 ? ranges[1].hi : 0, shift: sh
        )
        let cellGrid = grid
        let slotCount = columns.slotCount
        let chunks = Parallel.chunkCount(slotCount, minimumPerChunk: 65_536)
        var partials = [CellAccumulators](repeating: CellAccumulators(layout: layout), count: chunks)
        columns.hot.withUnsafeBufferPointer { hot in
            columns.filterKeys.withUnsafeBufferPointer { fkeys in
                columns.destination.withUnsafeBufferPointer { dest in
                    partials.withUnsafeMutableBufferPointer { out in
                        Parallel.forEachChunk(slotCount, minimumPerChunk: 65_536) { chunk, range in
                            var acc = CellAccumulators(layout: layout)
                            // Candidates are collected, then their records fetched in a tight
                            // loop of independent loads (their cache misses overlap), then
                            // processed from cache: branching on each record right after its
                            // load would serialise the misses.
                            let batch = 512
                            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: batch + 1) { cand in
                                withUnsafeTemporaryAllocation(of: HotRecord.self, capacity: batch) { recs in
                                    var s = range.lowerBound
                                    while s < range.upperBound {
                                        // Branch-free compaction of the candidates' slots.
                                        var count = 0
                                        while s < range.upperBound && count < batch {
                                            cand[count] = UInt32(truncatingIfNeeded: s)
                                            count &+= filter.mayMatch(fkeys[s])
                                            s += 1
                                        }
                                        for i in 0..<count { recs.initializeElement(at: i, to: hot[Int(cand[i])]) }
                                        for i in 0..<count {
                                            let h = recs[i], slot = Int(cand[i])
                                            guard filter.matches(h) else { continue }
                                            let cy = h.y >> sh
                                            guard cy >= layout.rowLo && cy <= layout.rowHi else { continue }
                                            let cx = cellGrid.x(longitude: h.lon) >> sh
                                            guard let col = layout.column(cx) else { continue }
                                            guard filter.destination == nil || filter.matchesDestination(dest[slot]) else { continue }
                                            acc.add(h, slot: UInt32(truncatingIfNeeded: slot), cx: cx, cy: cy, column: col)
                                        }
                                    }
                                }
                            }
                            out[chunk] = acc
                        }
                    }
                }
            }
        }
        var total = partials[0]
        for k in 1..<partials.count { total.merge(partials[k]) }
        var order = Array(0..<total.nodes.count)
        order.sort { total.keys[$0] < total.keys[$1] }
        var items: [ClusterItem] = []
        items.reserveCapacity(order.count)
        for a in order {
            let node = total.nodes[a]
            var slots = [total.firsts[a]]
            if node.count > 1 && Int(node.count) <= idsLimit {
                var count = 0
                let cell = total.keys[a]
                slots = cellSlots(level: window.level, cx: CellGrid.compact(cell), cy: CellGrid.compact(cell >> 1), filter: filter, total: &count)
            }
            items.append(ClusterScan.makeItem(node, slots: &slots, grid: cellGrid, columns: columns, idsLimit: idsLimit))
        }
        return items
    }
}
