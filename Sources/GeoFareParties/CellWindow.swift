import GeoFareCore

/// The cells of one quadtree level that intersect a bounding box, as ranges of deepest-level
/// rows and columns (two column ranges when the box crosses the antimeridian).
///
/// A cell intersects the box when its row range and column range overlap the box's; edges
/// count as inside.
struct CellWindow {
    /// The level whose cells are asked for.
    let level: Int
    /// Deepest-level rows y0...y1 (north to south).
    let y0: UInt32, y1: UInt32
    /// Deepest-level columns: xa0...xa1, and xb0...xb1 when `wraps`.
    let xa0: UInt32, xa1: UInt32
    let xb0: UInt32, xb1: UInt32
    let wraps: Bool

    init(grid: CellGrid, bbox: BoundingBox, level: Int) {
        self.level = level
        y0 = grid.y(latitude: bbox.north)
        y1 = grid.y(latitude: bbox.south)
        let w = grid.x(longitude: bbox.west), e = grid.x(longitude: bbox.east)
        if bbox.west <= bbox.east {
            (xa0, xa1, xb0, xb1, wraps) = (w, e, 1, 0, false)
        } else {
            (xa0, xa1, xb0, xb1, wraps) = (w, UInt32(grid.maxIndex), 0, e, true)
        }
    }

    /// Whether the cell (cx, cy) of the level `depth − shift` intersects the box.
    @inline(__always)
    func intersects(cx: UInt32, cy: UInt32, shift: UInt32) -> Bool {
        guard cy >= y0 >> shift && cy <= y1 >> shift else { return false }
        if cx >= xa0 >> shift && cx <= xa1 >> shift { return true }
        return wraps && cx >= xb0 >> shift && cx <= xb1 >> shift
    }
}
