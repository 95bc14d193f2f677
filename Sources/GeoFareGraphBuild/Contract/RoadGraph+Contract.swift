import GeoFareCore
import GeoFareGraph

extension RoadGraph {
    /// Builds a graph in memory: contracts `network` under both metrics (for tests and tools; a
    /// service should map a file). The metadata's counts and bbox are taken from the network.
    /// - Throws: ``GeoFareError`` `graph_invalid_network`.
    public convenience init(network: RoadNetwork, metadata: GraphMetadata) throws(GeoFareError) {
        try network.validate()
        let owner = BufferOwner()
        let chs = try GraphMetric.allCases.map { (m) throws(GeoFareError) in try ContractionHierarchy(network: network, metric: m) }
        self.init(owner: owner, network: NetworkView(keeping: network, in: owner), hierarchies: chs, metadata: metadata.describing(network))
    }
}
