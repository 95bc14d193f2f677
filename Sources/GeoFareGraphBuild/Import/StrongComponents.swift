/// Strongly connected components of a directed graph in CSR form, by Tarjan's algorithm
/// written iteratively (an explicit stack), so a country-sized graph cannot overflow the call stack.
enum StrongComponents {
    /// The component id of each node (0-based) and the number of components.
    /// - Parameters:
    ///   - nodeCount: number of nodes.
    ///   - firstOut: CSR offsets, `nodeCount + 1` entries.
    ///   - heads: arc heads in CSR order.
    /// - Complexity: O(nodes + arcs) time and memory.
    static func tarjan(nodeCount: Int, firstOut: [Int], heads: [Int32]) -> (component: [Int32], count: Int) {
        var index = [Int32](repeating: -1, count: nodeCount)
        var low = [Int32](repeating: 0, count: nodeCount)
        var onStack = [Bool](repeating: false, count: nodeCount)
        var component = [Int32](repeating: -1, count: nodeCount)
        var stack: [Int32] = []
        var call: [(node: Int32, edge: Int)] = []
        var next: Int32 = 0
        var count: Int32 = 0
        for root in 0..<nodeCount where index[root] < 0 {
            call.append((Int32(root), firstOut[root]))
            index[root] = next; low[root] = next; next += 1
            stack.append(Int32(root)); onStack[root] = true
            while let top = call.last {
                let v = Int(top.node)
                if top.edge < firstOut[v + 1] {
                    call[call.count - 1].edge += 1
                    let w = Int(heads[top.edge])
                    if index[w] < 0 {
                        index[w] = next; low[w] = next; next += 1
                        stack.append(Int32(w)); onStack[w] = true
                        call.append((Int32(w), firstOut[w]))
                    } else if onStack[w] {
                        low[v] = min(low[v], index[w])
                    }
                } else {
                    call.removeLast()
                    if let parent = call.last { low[Int(parent.node)] = min(low[Int(parent.node)], low[v]) }
                    if low[v] == index[v] {
                        while true {
                            let w = Int(stack.removeLast())
                            onStack[w] = false
                            component[w] = count
                            if w == v { break }
                        }
                        count += 1
                    }
                }
            }
        }
        return (component, Int(count))
    }
}
