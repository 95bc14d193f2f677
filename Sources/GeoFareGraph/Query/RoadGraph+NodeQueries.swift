import GeoFareCore

extension RoadGraph {
    /// The number of routing nodes.
    public var nodeCount: Int { network.nodeCount }

    /// Node-to-node shortest-path weights on one thread, by the contraction hierarchy and by plain
    /// bidirectional Dijkstra on the same network: the two answers are equal to the unit (what
    /// `geofare bench route --graph` times side by side, and what a check can compare).
    public final class NodeQueries {
        public let metric: GraphMetric
        private let ch: ContractionHierarchyQuery
        private let dijkstra: DijkstraQuery
        private var source = [RouteEndpoint(node: 0, offset: 0)], target = [RouteEndpoint(node: 0, offset: 0)]

        /// - Complexity: builds the plain search graph once, O(arcs).
        public init(graph: RoadGraph, metric: GraphMetric) {
            self.metric = metric
            ch = ContractionHierarchyQuery(hierarchy: graph.hierarchies[metric.index])
            let net = graph.network
            let weights = metric == .fastest ? Array(net.arcTimeMilliseconds) : Array(net.arcDistanceCentimeters)
            dijkstra = DijkstraQuery(graph: ArcGraph(nodeCount: net.nodeCount, tails: Array(net.arcTail), heads: Array(net.arcHead), weights: weights))
        }

        /// The weight of the best path from node `s` to node `t` by the hierarchy (ms or cm), or nil.
        public func hierarchy(_ s: UInt32, _ t: UInt32) -> UInt64? {
            source[0].node = s; target[0].node = t
            return ch.search(sources: source, targets: target)?.weight
        }

        /// Nodes the last ``hierarchy(_:_:)`` query settled (both directions, stalled ones included).
        public var hierarchySettled: Int { ch.settledCount }

        /// The same by plain bidirectional Dijkstra (no path kept).
        public func plainDijkstra(_ s: UInt32, _ t: UInt32) -> UInt64? {
            source[0].node = s; target[0].node = t
            return dijkstra.bidirectional(sources: source, targets: target, withPath: false)?.weight
        }
    }
}
