import GeoFareCore

/// The quadtree of Web Mercator cells behind the index: integer cell coordinates, levels,
/// Morton codes and cluster ids.
///
/// With 256-px tiles and cells of 2^k px, the cells of zoom `z` are the quadtree level
/// `z + 8 − k`; the deepest level the index uses, ``depth``, is that of zoom 20. A point's
/// cell at any level is its deepest cell's coordinates shifted right, because multiplying a
/// world fraction by a power of two is exact in floating point.
struct CellGrid: Sendable {
    /// log2 of the cell size in pixels (4...8).
    let cellShift: Int
    /// The deepest level, that of zoom 20: `28 − cellShift` (20...24).
    let depth: Int
    /// 2^depth as a Double.
    let scale: Double
    /// The largest cell coordinate at ``depth``.
    let maxIndex: Int

    /// The deepest zoom a query may ask for.
    static let maxZoom = 20

    init(cellShift: Int) {
        self.cellShift = cellShift
        depth = CellGrid.maxZoom + 8 - cellShift
        scale = Double(1 << depth)
        maxIndex = (1 << depth) - 1
    }

    /// The quadtree level of a zoom's cells.
    @inline(__always) func level(zoom: Int) -> Int { zoom + 8 - cellShift }

    /// The zoom whose cells are a quadtree level (may be < 0 or > 20 for levels outside the zooms).
    @inline(__always) func zoom(level: Int) -> Int { level - 8 + cellShift }

    /// The column of a longitude at ``depth`` (0 at −180°; 180° falls in the last column).
    @inline(__always)
    func x(longitude: Double) -> UInt32 {
        let v = WebMercator.unitX(longitude: longitude) * scale
        guard v > 0 else { return 0 }
        return UInt32(truncatingIfNeeded: min(Int(v), maxIndex))
    }

    /// The row of a latitude at ``depth`` (0 at the north edge; latitudes beyond ±85.05° fall
    /// in the edge rows).
    @inline(__always)
    func y(latitude: Double) -> UInt32 {
        let v = WebMercator.unitY(latitude: latitude) * scale
        guard v > 0 else { return 0 }
        return UInt32(truncatingIfNeeded: min(Int(v), maxIndex))
    }

    /// The child (0...3, x in bit 0, y in bit 1) of the depth-`d` cell that holds the deepest
    /// cell (x, y).
    @inline(__always)
    func quadrant(x: UInt32, y: UInt32, depth d: Int) -> Int {
        let b = UInt32(depth - d - 1)
        return Int((x >> b) & 1) | Int(((y >> b) & 1) << 1)
    }

    /// The level of the deepest cell holding both deepest cells (x0, y0) and (x1, y1).
    @inline(__always)
    func commonLevel(x0: UInt32, y0: UInt32, x1: UInt32, y1: UInt32) -> Int {
        let diff = (x0 ^ x1) | (y0 ^ y1)
        return depth - (32 - diff.leadingZeroBitCount)
    }

    // MARK: Morton codes

    /// Spreads the low 32 bits of `v` to the even bits of a UInt64.
    @inline(__always)
    static func spread(_ v: UInt32) -> UInt64 {
        var x = UInt64(v)
        x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
        x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
        x = (x | (x << 4)) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | (x << 2)) & 0x3333_3333_3333_3333
        x = (x | (x << 1)) & 0x5555_5555_5555_5555
        return x
    }

    /// Gathers the even bits of `v` (inverse of ``spread(_:)``).
    @inline(__always)
    static func compact(_ v: UInt64) -> UInt32 {
        var x = v & 0x5555_5555_5555_5555
        x = (x | (x >> 1)) & 0x3333_3333_3333_3333
        x = (x | (x >> 2)) & 0x0F0F_0F0F_0F0F_0F0F
        x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF
        x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF
        x = (x | (x >> 16)) & 0x0000_0000_FFFF_FFFF
        return UInt32(truncatingIfNeeded: x)
    }

    /// The Morton (Z-order) code of a cell: x in the even bits, y in the odd bits.
    @inline(__always)
    static func morton(x: UInt32, y: UInt32) -> UInt64 { spread(x) | (spread(y) << 1) }

    // MARK: Cluster ids

    /// The id of the cell (x, y) at `level`: `c<level>-<hex Morton code>` with
    /// max(1, ⌈level/2⌉) hex digits, e.g. `c14-2f3a1b0` (a cell is its quadkey in base 16).
    /// Up to level 22 the id fits a small string (no allocation).
    static func clusterID(level: Int, x: UInt32, y: UInt32) -> String {
        let code = morton(x: x, y: y)
        let digits = max(1, (level + 1) / 2)
        let length = (level >= 10 ? 4 : 3) + digits
        return String(unsafeUninitializedCapacity: length) { out in
            var i = 0
            out[i] = UInt8(ascii: "c"); i += 1
            if level >= 10 { out[i] = UInt8(ascii: "0") + UInt8(level / 10); i += 1 }
            out[i] = UInt8(ascii: "0") + UInt8(level % 10); i += 1
            out[i] = UInt8(ascii: "-"); i += 1
            for k in stride(from: digits - 1, through: 0, by: -1) {
                let v = UInt8((code >> UInt64(4 * k)) & 0xF)
                out[i] = v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10
                i += 1
            }
            return i
        }
    }

    /// The cell a cluster id names, or `nil` when the text is not an id ``clusterID(level:x:y:)``
    /// makes for a level 0...``depth``.
    func parseClusterID(_ text: String) -> (level: Int, x: UInt32, y: UInt32)? {
        let u = Array(text.utf8)
        guard u.count >= 4, u[0] == UInt8(ascii: "c") else { return nil }
        var i = 1
        var level = 0
        while i < u.count, u[i] >= UInt8(ascii: "0"), u[i] <= UInt8(ascii: "9"), i <= 2 {
            level = level * 10 + Int(u[i] - UInt8(ascii: "0"))
            i += 1
        }
        guard i > 1, i < u.count, u[i] == UInt8(ascii: "-"), level <= depth else { return nil }
        // No leading zero in the level ("c05-..." is not an id).
        if i == 3 && u[1] == UInt8(ascii: "0") { return nil }
        i += 1
        let digits = max(1, (level + 1) / 2)
        guard u.count - i == digits else { return nil }
        var code: UInt64 = 0
        for b in u[i...] {
            let v: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): v = b - UInt8(ascii: "a") + 10
            default: return nil
            }
            code = code << 4 | UInt64(v)
        }
        guard code >> UInt64(2 * level) == 0 else { return nil }
        return (level, CellGrid.compact(code), CellGrid.compact(code >> 1))
    }
}
