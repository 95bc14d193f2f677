/// A binary min-heap of node indexes keyed by `UInt64`, with decrease-key (and increase-key)
/// through a per-node position array. Reused across queries: ``clear()`` costs the number of
/// entries left in the heap, not the node count. Storage is raw memory owned by the object (the
/// hot loops of every search run through it, without array checks).
///
/// Shared with `GeoFareGraphBuild`, whose witness searches run through it too, as SPI
/// (`@_spi(GraphBuild) import GeoFareGraph`), not API: public and `@inlinable` so that they inline
/// there as they do here (`package` declarations are not inlined across modules without library
/// evolution: not inlined, the contraction took 2.4 times as long). Even the entry count is in raw
/// memory, since a class `var` inlined into another module costs a dynamic exclusivity check at
/// every access.
@_spi(GraphBuild) public final class IndexedMinHeap {
    @usableFromInline let keys: UnsafeMutablePointer<UInt64>
    @usableFromInline let items: UnsafeMutablePointer<UInt32>
    /// Position of a node in `items`, or -1 when it is not in the heap.
    @usableFromInline let position: UnsafeMutablePointer<Int32>
    @usableFromInline let capacity: Int
    @usableFromInline let countStorage: UnsafeMutablePointer<Int>

    /// The number of entries.
    @inlinable public internal(set) var count: Int {
        get { countStorage.pointee }
        set { countStorage.pointee = newValue }
    }

    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
        keys = .allocate(capacity: self.capacity)
        items = .allocate(capacity: self.capacity)
        position = .allocate(capacity: self.capacity)
        position.initialize(repeating: -1, count: self.capacity)
        countStorage = .allocate(capacity: 1)
        countStorage.initialize(to: 0)
    }

    deinit {
        keys.deallocate()
        items.deallocate()
        position.deallocate()
        countStorage.deallocate()
    }

    @inlinable public var isEmpty: Bool { count == 0 }
    /// The smallest key, or `UInt64.max` when empty.
    @inlinable public var minKey: UInt64 { count == 0 ? UInt64.max : keys[0] }

    @inlinable public func contains(_ node: UInt32) -> Bool { position[Int(node)] >= 0 }

    @inlinable public func clear() {
        for i in 0..<count { position[Int(items[i])] = -1 }
        count = 0
    }

    /// Inserts `node` (an index below the capacity) or changes its key (up or down).
    @inlinable @inline(__always)
    public func push(_ node: UInt32, key: UInt64) {
        precondition(Int(node) < capacity)
        let p = Int(position[Int(node)])
        if p < 0 {
            items[count] = node
            keys[count] = key
            count += 1
            siftUp(count - 1, node, key)
        } else if key < keys[p] {
            siftUp(p, node, key)
        } else if key > keys[p] {
            siftDown(p, node, key)
        }
    }

    /// Removes and returns the node with the smallest key (the heap must not be empty).
    @inlinable @inline(__always)
    public func pop() -> (node: UInt32, key: UInt64) {
        precondition(count > 0)
        let top = items[0], key = keys[0]
        position[Int(top)] = -1
        count -= 1
        if count > 0 { siftDown(0, items[count], keys[count]) }
        return (top, key)
    }

    /// Places `item` with `key` at or above slot `start`.
    @inlinable
    func siftUp(_ start: Int, _ item: UInt32, _ key: UInt64) {
        var i = start
        while i > 0 {
            let parent = (i - 1) >> 1
            if keys[parent] <= key { break }
            place(items[parent], keys[parent], at: i)
            i = parent
        }
        place(item, key, at: i)
    }

    /// Places `item` with `key` at or below slot `start`.
    @inlinable
    func siftDown(_ start: Int, _ item: UInt32, _ key: UInt64) {
        var i = start
        let n = count
        while true {
            var child = 2 * i + 1
            if child >= n { break }
            if child + 1 < n && keys[child + 1] < keys[child] { child += 1 }
            if keys[child] >= key { break }
            place(items[child], keys[child], at: i)
            i = child
        }
        place(item, key, at: i)
    }

    /// Puts `item` with `key` into slot `i` and records where it is.
    @inlinable @inline(__always)
    func place(_ item: UInt32, _ key: UInt64, at i: Int) {
        items[i] = item
        keys[i] = key
        position[Int(item)] = Int32(i)
    }
}
