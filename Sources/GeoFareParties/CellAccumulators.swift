/// The cells of a window at one level, as a dense row-major table when small.
struct CellLayout {
    let rowLo: UInt32, rowHi: UInt32
    let r0lo: UInt32, r0hi: UInt32
    let r1lo: UInt32, r1hi: UInt32
    let shift: UInt32
    var width: Int { Int(r0hi - r0lo) + 1 + (r1hi >= r1lo ? Int(r1hi - r1lo) + 1 : 0) }
    var height: Int { Int(rowHi - rowLo) + 1 }
    /// Dense tables up to 2^18 cells; a dictionary beyond.
    var isDense: Bool { width * height <= 1 << 18 }

    /// The window column of a cell column, or nil outside the window.
    @inline(__always)
    func column(_ cx: UInt32) -> Int? {
        if cx >= r0lo && cx <= r0hi { return Int(cx - r0lo) }
        if cx >= r1lo && cx <= r1hi { return Int(r0hi - r0lo) + 1 + Int(cx - r1lo) }
        return nil
    }
}

/// Per-cell aggregates of a linear scan: one ``QuadNode`` per touched cell, found through a
/// dense table or a dictionary; `firsts` keeps one member per cell (for single-party items).
struct CellAccumulators {
    let layout: CellLayout
    var table: [Int32]
    var sparse: [UInt64: Int32] = [:]
    var nodes: [QuadNode] = []
    var keys: [UInt64] = []
    var firsts: [UInt32] = []

    init(layout: CellLayout) {
        self.layout = layout
        table = []
    }

    @inline(__always)
    mutating func index(cx: UInt32, cy: UInt32, column: Int) -> Int {
        if layout.isDense {
            if table.isEmpty { table = [Int32](repeating: -1, count: layout.width * layout.height) }
            let t = Int(cy - layout.rowLo) * layout.width + column
            let a = table[t]
            if a >= 0 { return Int(a) }
            table[t] = Int32(nodes.count)
        } else {
            let key = UInt64(cy) << 32 | UInt64(cx)
            if let a = sparse[key] { return Int(a) }
            sparse[key] = Int32(nodes.count)
        }
        nodes.append(QuadNode())
        keys.append(CellGrid.morton(x: cx, y: cy))
        firsts.append(UInt32.max)
        return nodes.count - 1
    }

    @inline(__always)
    mutating func add(_ h: HotRecord, slot: UInt32, cx: UInt32, cy: UInt32, column: Int) {
        let a = index(cx: cx, cy: cy, column: column)
        if firsts[a] == UInt32.max { firsts[a] = slot }
        nodes[a].add(h)
    }

    /// Adds another scan's cells.
    mutating func merge(_ o: CellAccumulators) {
        for k in o.nodes.indices {
            let key = o.keys[k]
            let cx = CellGrid.compact(key), cy = CellGrid.compact(key >> 1)
            let a = index(cx: cx, cy: cy, column: layout.column(cx)!)
            if firsts[a] == UInt32.max { firsts[a] = o.firsts[k] }
            nodes[a].merge(o.nodes[k])
        }
    }
}
