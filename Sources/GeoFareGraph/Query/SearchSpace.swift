/// One node's label in a search: tentative weight, the parent it was reached from, and the stamp
/// of the query that wrote it (one cache line holds it all).
@_spi(GraphBuild) public struct SearchLabel {
    public var dist: UInt64
    public var stamp: UInt32
    public var parentNode: UInt32
    public var parentArc: UInt32

    @inlinable
    public init(dist: UInt64, stamp: UInt32, parentNode: UInt32, parentArc: UInt32) {
        self.dist = dist; self.stamp = stamp; self.parentNode = parentNode; self.parentArc = parentArc
    }
}

/// The labels of one search direction and its heap (raw memory owned by the object, so that the
/// search loops run without array checks); labels are valid when their stamp is the query's.
/// SPI for `GeoFareGraphBuild`'s witness searches, inlined there, as ``IndexedMinHeap`` is (the
/// query's stamp in raw memory too, for the same reason).
@_spi(GraphBuild) public final class SearchSpace {
    public let labels: UnsafeMutablePointer<SearchLabel>
    public let count: Int
    public let heap: IndexedMinHeap
    @usableFromInline let nowStorage: UnsafeMutablePointer<UInt32>

    /// The current query's stamp.
    @inlinable public internal(set) var now: UInt32 {
        get { nowStorage.pointee }
        set { nowStorage.pointee = newValue }
    }

    public init(nodeCount n: Int) {
        count = max(n, 1)
        labels = .allocate(capacity: count)
        labels.initialize(repeating: SearchLabel(dist: infiniteWeight, stamp: 0, parentNode: UInt32.max, parentArc: UInt32.max), count: count)
        heap = IndexedMinHeap(capacity: n)
        nowStorage = .allocate(capacity: 1)
        nowStorage.initialize(to: 0)
    }

    deinit {
        labels.deallocate()
        nowStorage.deallocate()
    }

    @inlinable public func begin() {
        heap.clear()
        if now == UInt32.max {
            for i in 0..<count { labels[i].stamp = 0 }
            now = 0
        }
        now += 1
    }

    @inlinable @inline(__always) public func isReached(_ v: UInt32) -> Bool { labels[Int(v)].stamp == now }

    /// Lowers `v`'s label to `d` when better (or first seen); returns whether it changed.
    @discardableResult @inlinable @inline(__always)
    public func reach(_ v: UInt32, _ d: UInt64, parentNode p: UInt32, parentArc a: UInt32) -> Bool {
        let i = Int(v)
        precondition(i < count)
        if labels[i].stamp == now && labels[i].dist <= d { return false }
        labels[i] = SearchLabel(dist: d, stamp: now, parentNode: p, parentArc: a)
        heap.push(v, key: d)
        return true
    }
}
