/// A binary min-heap of node indexes keyed by `UInt64`, with decrease-key (and increase-key)
/// through a per-node position array. Reused across queries: ``clear()`` costs the number of
/// entries left in the heap, not the node count.
struct IndexedMinHeap {
    private var keys: [UInt64] = []
    private var items: [UInt32] = []
    /// Position of a node in `items`, or -1 when it is not in the heap.
    private var position: [Int32]

    init(capacity: Int) {
        position = [Int32](repeating: -1, count: capacity)
        keys.reserveCapacity(64)
        items.reserveCapacity(64)
    }

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    /// The smallest key, or `UInt64.max` when empty.
    var minKey: UInt64 { keys.isEmpty ? UInt64.max : keys[0] }

    func contains(_ node: UInt32) -> Bool { position[Int(node)] >= 0 }

    mutating func clear() {
        for n in items { position[Int(n)] = -1 }
        items.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
    }

    /// Inserts `node` or changes its key (up or down).
    mutating func push(_ node: UInt32, key: UInt64) {
        let p = Int(position[Int(node)])
        if p < 0 {
            items.append(node)
            keys.append(key)
            position[Int(node)] = Int32(items.count - 1)
            siftUp(items.count - 1)
        } else if key < keys[p] {
            keys[p] = key
            siftUp(p)
        } else if key > keys[p] {
            keys[p] = key
            siftDown(p)
        }
    }

    /// Removes and returns the node with the smallest key.
    mutating func pop() -> (node: UInt32, key: UInt64) {
        let top = items[0], key = keys[0]
        position[Int(top)] = -1
        let lastItem = items.removeLast(), lastKey = keys.removeLast()
        if !items.isEmpty {
            items[0] = lastItem
            keys[0] = lastKey
            position[Int(lastItem)] = 0
            siftDown(0)
        }
        return (top, key)
    }

    private mutating func siftUp(_ start: Int) {
        var i = start
        let item = items[i], key = keys[i]
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

    private mutating func siftDown(_ start: Int) {
        var i = start
        let n = items.count
        let item = items[i], key = keys[i]
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
