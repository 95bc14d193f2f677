/// A binary min-heap of node indexes keyed by `UInt64`, with decrease-key (and increase-key)
/// through a per-node position array. Reused across queries: ``clear()`` costs the number of
/// entries left in the heap, not the node count. Storage is raw memory owned by the object (the
/// hot loops of every search run through it, without array checks).
final class IndexedMinHeap {
    private let keys: UnsafeMutablePointer<UInt64>
    private let items: UnsafeMutablePointer<UInt32>
    /// Position of a node in `items`, or -1 when it is not in the heap.
    private let position: UnsafeMutablePointer<Int32>
    private let capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        keys = .allocate(capacity: self.capacity)
        items = .allocate(capacity: self.capacity)
        position = .allocate(capacity: self.capacity)
        position.initialize(repeating: -1, count: self.capacity)
    }

    deinit {
        keys.deallocate()
        items.deallocate()
        position.deallocate()
    }

    var isEmpty: Bool { count == 0 }
    /// The smallest key, or `UInt64.max` when empty.
    var minKey: UInt64 { count == 0 ? UInt64.max : keys[0] }

    func contains(_ node: UInt32) -> Bool { position[Int(node)] >= 0 }

    func clear() {
        for i in 0..<count { position[Int(items[i])] = -1 }
        count = 0
    }

    /// Inserts `node` (an index below the capacity) or changes its key (up or down).
    @inline(__always)
    func push(_ node: UInt32, key: UInt64) {
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
    @inline(__always)
    func pop() -> (node: UInt32, key: UInt64) {
        precondition(count > 0)
        let top = items[0], key = keys[0]
        position[Int(top)] = -1
        count -= 1
        if count > 0 { siftDown(0, items[count], keys[count]) }
        return (top, key)
    }

    /// Places `item` with `key` at or above slot `start`.
    private func siftUp(_ start: Int, _ item: UInt32, _ key: UInt64) {
        var i = start
        while i > 0 {
            let parent = (i - 1) >> 1
            if keys[parent] <= key { break }
            items[i] = items[parent]
            keys[i] = keys[parent]
            position[Int(items[i])] = Int32(i)
            i = parent
        }
        items[i] = item
        keys[i] = key
        position[Int(item)] = Int32(i)
    }

    /// Places `item` with `key` at or below slot `start`.
    private func siftDown(_ start: Int, _ item: UInt32, _ key: UInt64) {
        var i = start
        let n = count
        while true {
            var child = 2 * i + 1
            if child >= n { break }
            if child + 1 < n && keys[child + 1] < keys[child] { child += 1 }
            if keys[child] >= key { break }
            items[i] = items[child]
            keys[i] = keys[child]
            position[Int(items[i])] = Int32(i)
            i = child
        }
        items[i] = item
        keys[i] = key
        position[Int(item)] = Int32(i)
    }
}
