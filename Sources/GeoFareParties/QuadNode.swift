/// One cell of the index's quadtree with the aggregate of the parties under it.
///
/// 64 bytes. `child > 0`: an inner cell whose four children are the nodes `child ..< child + 4`
/// (index = x bit + 2 · y bit); `child < 0`: a leaf whose parties are bucket `-child - 1`;
/// `child == 0`: an empty leaf. Sums are of coordinates in units of 1e-9° (wrapping
/// arithmetic: exact whenever the true sum fits in 64 bits, i.e. below ~51 million parties
/// per cell). Bounds are exact minima/maxima of the members' origins; `minY`/`maxY` are their
/// rows at the deepest level.
struct QuadNode {
    var count: Int32 = 0
    var child: Int32 = 0
    var minY: UInt32 = .max
    var maxY: UInt32 = 0
    var sumLonQ: Int64 = 0
    var sumLatQ: Int64 = 0
    var minLon: Double = .infinity
    var maxLon: Double = -.infinity
    var minLat: Double = .infinity
    var maxLat: Double = -.infinity

    static let empty = QuadNode()

    @inline(__always) var isLeaf: Bool { child <= 0 }
    @inline(__always) var bucket: Int { Int(-child - 1) }

    /// Adds one party to the aggregate.
    @inline(__always)
    mutating func add(_ h: HotRecord) {
        count &+= 1
        sumLonQ &+= h.lonQ
        sumLatQ &+= h.latQ
        includeBounds(h)
    }

    /// Widens the bounds to hold a party (count and sums unchanged).
    @inline(__always)
    mutating func includeBounds(_ h: HotRecord) {
        includeBounds(lon: (h.lon, h.lon), lat: (h.lat, h.lat), y: (h.y, h.y))
    }

    /// Widens the bounds to hold another node's members.
    @inline(__always)
    mutating func includeBounds(_ o: QuadNode) {
        includeBounds(lon: (o.minLon, o.maxLon), lat: (o.minLat, o.maxLat), y: (o.minY, o.maxY))
    }

    @inline(__always)
    private mutating func includeBounds(lon: (Double, Double), lat: (Double, Double), y: (UInt32, UInt32)) {
        minLon = min(minLon, lon.0); maxLon = max(maxLon, lon.1)
        minLat = min(minLat, lat.0); maxLat = max(maxLat, lat.1)
        minY = min(minY, y.0); maxY = max(maxY, y.1)
    }

    /// Adds another node's whole aggregate.
    @inline(__always)
    mutating func merge(_ o: QuadNode) {
        count &+= o.count
        sumLonQ &+= o.sumLonQ
        sumLatQ &+= o.sumLatQ
        includeBounds(o)
    }

    /// Resets the bounds to "nothing" (before recomputing them).
    @inline(__always)
    mutating func clearBounds() {
        minLon = .infinity; maxLon = -.infinity; minLat = .infinity; maxLat = -.infinity
        minY = .max; maxY = 0
    }

    /// Whether a member at `h` sits on one of the bounds (so removing it may shrink them).
    @inline(__always)
    func touchesBounds(_ h: HotRecord) -> Bool {
        h.lon == minLon || h.lon == maxLon || h.lat == minLat || h.lat == maxLat || h.y == minY || h.y == maxY
    }
}
