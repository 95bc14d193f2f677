/// The arcs of a ``RoadNetwork`` under one metric in forward and backward adjacency arrays
/// (compressed sparse rows): the input of plain Dijkstra.
///
/// Arcs leaving node `v` are `forwardArc[forwardFirst[v]..<forwardFirst[v + 1]]` (arc indexes of the
/// network) with their heads and weights alongside; arcs entering `v` likewise in the backward arrays.
public struct ArcGraph: Sendable {
    public let nodeCount: Int
    let forwardFirst: [UInt32], forwardHead: [UInt32], forwardWeight: [UInt32], forwardArc: [UInt32]
    let backwardFirst: [UInt32], backwardTail: [UInt32], backwardWeight: [UInt32], backwardArc: [UInt32]

    /// Builds the adjacency of `network` with `metric`'s weights (milliseconds or centimetres).
    /// - Complexity: O(nodes + arcs).
    public init(network: RoadNetwork, metric: GraphMetric) {
        self.init(nodeCount: network.nodeCount, tails: network.arcTail, heads: network.arcHead, weights: metric.weights(of: network))
    }

    init(nodeCount n: Int, tails: [UInt32], heads: [UInt32], weights: [UInt32]) {
        nodeCount = n
        (forwardFirst, forwardHead, forwardWeight, forwardArc) = Self.csr(n, keys: tails, values: heads, weights: weights)
        (backwardFirst, backwardTail, backwardWeight, backwardArc) = Self.csr(n, keys: heads, values: tails, weights: weights)
    }

    /// Groups arcs by `keys` (a counting sort, stable in arc order).
    private static func csr(_ n: Int, keys: [UInt32], values: [UInt32], weights: [UInt32])
        -> ([UInt32], [UInt32], [UInt32], [UInt32]) {
        var first = [UInt32](repeating: 0, count: n + 1)
        for k in keys { first[Int(k) + 1] += 1 }
        for i in 0..<n { first[i + 1] += first[i] }
        var fill = first
        let m = keys.count
        var other = [UInt32](repeating: 0, count: m), w = [UInt32](repeating: 0, count: m), arc = [UInt32](repeating: 0, count: m)
        for i in 0..<m {
            let p = Int(fill[Int(keys[i])])
            fill[Int(keys[i])] += 1
            other[p] = values[i]
            w[p] = weights[i]
            arc[p] = UInt32(i)
        }
        return (first, other, w, arc)
    }
}
