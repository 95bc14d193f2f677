/// A binary min-heap ordered by a comparison given at creation (the party index's nearest
/// search). Inlinable: a caller's element type is specialised in its own module.
public struct BinaryHeap<Element> {
    @usableFromInline var storage: [Element] = []
    /// The elements in heap order.
    @inlinable public var elements: [Element] { storage }
    @usableFromInline let less: (Element, Element) -> Bool

    @inlinable
    public init(less: @escaping (Element, Element) -> Bool) {
        self.less = less
    }

    @inlinable public var count: Int { storage.count }
    @inlinable public var isEmpty: Bool { storage.isEmpty }
    /// The least element.
    @inlinable public var top: Element? { storage.first }

    /// - Complexity: O(log n).
    @inlinable
    public mutating func push(_ e: Element) {
        storage.append(e)
        var i = storage.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard less(storage[i], storage[parent]) else { break }
            storage.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns the least element.
    /// - Complexity: O(log n).
    @inlinable
    public mutating func pop() -> Element? {
        guard !storage.isEmpty else { return nil }
        if storage.count == 1 { return storage.removeLast() }
        let result = storage[0]
        storage[0] = storage.removeLast()
        siftDown(0)
        return result
    }

    /// Replaces the least element (the heap must not be empty).
    /// - Complexity: O(log n).
    @inlinable
    public mutating func replaceTop(_ e: Element) {
        storage[0] = e
        siftDown(0)
    }

    @inlinable
    mutating func siftDown(_ start: Int) {
        var i = start
        let n = storage.count
        while true {
            let l = 2 * i + 1
            if l >= n { return }
            var m = l
            if l + 1 < n && less(storage[l + 1], storage[l]) { m = l + 1 }
            guard less(storage[m], storage[i]) else { return }
            storage.swapAt(i, m)
            i = m
        }
    }
}
