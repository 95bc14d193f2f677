/// A binary min-heap ordered by a comparison given at creation.
struct BinaryHeap<Element> {
    private(set) var elements: [Element] = []
    private let less: (Element, Element) -> Bool

    init(less: @escaping (Element, Element) -> Bool) {
        self.less = less
    }

    var count: Int { elements.count }
    var isEmpty: Bool { elements.isEmpty }
    /// The least element.
    var top: Element? { elements.first }

    /// - Complexity: O(log n).
    mutating func push(_ e: Element) {
        elements.append(e)
        var i = elements.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard less(elements[i], elements[parent]) else { break }
            elements.swapAt(i, parent)
            i = parent
        }
    }

    /// Removes and returns the least element.
    /// - Complexity: O(log n).
    mutating func pop() -> Element? {
        guard !elements.isEmpty else { return nil }
        if elements.count == 1 { return elements.removeLast() }
        let result = elements[0]
        elements[0] = elements.removeLast()
        siftDown(0)
        return result
    }

    /// Replaces the least element (the heap must not be empty).
    /// - Complexity: O(log n).
    mutating func replaceTop(_ e: Element) {
        elements[0] = e
        siftDown(0)
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        let n = elements.count
        while true {
            let l = 2 * i + 1
            if l >= n { return }
            var m = l
            if l + 1 < n && less(elements[l + 1], elements[l]) { m = l + 1 }
            guard less(elements[m], elements[i]) else { return }
            elements.swapAt(i, m)
            i = m
        }
    }
}
