/// One node's label in a search: tentative weight, the parent it was reached from, and the stamp
/// of the query that wrote it (one cache line holds it all).
struct SearchLabel {
    var dist: UInt64
    var stamp: UInt32
    var parentNode: UInt32
    var parentArc: UInt32
}

/// The labels of one search direction and its heap (raw memory owned by the object, so that the
/// search loops run without array checks); labels are valid when their stamp is the query's.
final class SearchSpace {
    let labels: UnsafeMutablePointer<SearchLabel>
    let count: Int
    private(set) var now: UInt32 = 0
    let heap: IndexedMinHeap

    init(nodeCount n: Int) {
        count = max(n, 1)
        labels = .allocate(capacity: count)
        labels.initialize(repeating: SearchLabel(dist: infiniteWeight, stamp: 0, parentNode: UInt32.max, parentArc: UInt32.max), count: count)
        heap = IndexedMinHeap(capacity: n)
    }

    deinit { labels.deallocate() }

    func begin() {
        heap.clear()
        if now == UInt32.max {
            for i in 0..<count { labels[i].stamp = 0 }
            now = 0
        }
        now += 1
    }

    @inline(__always) func isReached(_ v: UInt32) -> Bool { labels[Int(v)].stamp == now }

    /// Lowers `v`'s label to `d` when better (or first seen); returns whether it changed.
    @discardableResult @inline(__always)
    func reach(_ v: UInt32, _ d: UInt64, parentNode p: UInt32, parentArc a: UInt32) -> Bool {
        let i = Int(v)
        precondition(i < count)
        if labels[i].stamp == now && labels[i].dist <= d { return false }
        labels[i] = SearchLabel(dist: d, stamp: now, parentNode: p, parentArc: a)
        heap.push(v, key: d)
        return true
    }
}
