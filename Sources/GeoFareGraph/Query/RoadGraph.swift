import GeoFareCore

/// A road graph ready to route on: a network with a contraction hierarchy per metric and a snapping
/// grid, from a memory-mapped graph file (or built in memory). Immutable and `Sendable`; route with
/// a per-thread ``RoadGraphRouter`` (``makeRouter()``) or the allocating ``route(from:to:metric:withGeometry:)``.
/// (Building one in memory from a ``RoadNetwork``, which contracts it, is `GeoFareGraphBuild`'s.)
public final class RoadGraph: Sendable {
    let owner: any AnyObject & Sendable
    let network: NetworkView
    let hierarchies: [ContractionHierarchy]  // by GraphMetric.index
    let snapper: Snapper
    public let metadata: GraphMetadata

    /// Opens a graph file (see ``GraphFile``) and checks every section it uses.
    /// - Throws: ``GeoFareError`` with the codes of ``GraphFile/init(path:verifyChecksum:)``, or `graph_corrupt`
    ///   when a section is missing or inconsistent.
    public convenience init(path: String, verifyChecksum: Bool = true) throws(GeoFareError) {
        let file = try GraphFile(path: path, verifyChecksum: verifyChecksum)
        let net = try NetworkView(file: file)
        var chs: [ContractionHierarchy] = []
        for metric in GraphMetric.allCases {
            var views: [UnsafeBufferPointer<UInt32>] = []
            for k in 0..<GraphFileLayout.Section.hierarchyArrayCount {
                guard let v = file.view(GraphFileLayout.Section.hierarchy(metric, k), as: UInt32.self) else {
                    throw file.corrupt("the \(metric.rawValue) hierarchy's section \(k) is missing")
                }
                views.append(v)
            }
            // no core section: a file from before cores, read as no core (see GraphFileLayout)
            var coreStart = net.nodeCount
            if let c = file.view(GraphFileLayout.Section.hierarchy(metric, GraphFileLayout.Section.coreStartIndex), as: UInt32.self) {
                guard c.count == 1 else { throw file.corrupt("the \(metric.rawValue) hierarchy's core start has \(c.count) values") }
                coreStart = Int(c[0])
            }
            let ch = ContractionHierarchy(metric: metric, owner: file, views: views, coreStart: coreStart)
            do { try ch.checkStructure(nodeCount: net.nodeCount, arcCount: net.arcCount) } catch { throw file.corrupt(error.message) }
            chs.append(ch)
        }
        self.init(owner: file, network: net, hierarchies: chs, metadata: file.metadata)
    }

    /// Wraps a network, its hierarchies (by ``GraphMetric/index``) and metadata; `owner` keeps their
    /// memory alive. (`GeoFareGraphBuild`'s `init(network:metadata:)` builds a graph in memory.)
    package init(owner: any AnyObject & Sendable, network: NetworkView, hierarchies: [ContractionHierarchy], metadata: GraphMetadata) {
        self.owner = owner
        self.network = network
        self.hierarchies = hierarchies
        self.metadata = metadata
        snapper = Snapper(network: network)
    }

    /// The `metric` hierarchy's size: its arcs (upward plus downward, shortcuts included) and the
    /// nodes of its uncontracted core (0 when contracted to the end).
    public func hierarchySize(_ metric: GraphMetric) -> (arcs: Int, coreNodes: Int) {
        let ch = hierarchies[metric.index]
        return (ch.edgeCount, ch.coreNodeCount)
    }

    /// Counts and extent: nodes, arcs, bbox (degrees), the OSM timestamp.
    public var stats: (nodes: Int, arcs: Int, west: Double, south: Double, east: Double, north: Double, osmTimestamp: String) {
        (network.nodeCount, network.arcCount, metadata.west, metadata.south, metadata.east, metadata.north, metadata.osmTimestamp)
    }

    /// Whether `coordinate` lies in the box of the graph's nodes (edges included).
    public func contains(_ coordinate: Coordinate) -> Bool {
        coordinate.latitude >= metadata.south && coordinate.latitude <= metadata.north
            && coordinate.longitude >= metadata.west && coordinate.longitude <= metadata.east
    }

    /// The arcs of the road nearest `point` (both directions of a two-way road), and of any other
    /// road within ``Snapper/tieMeters`` (1 m) of it, nearest first; each candidate's
    /// `distanceMeters` is the distance from `point` to the road.
    /// - Parameter maxDistanceMeters: the largest snap distance, metres.
    /// - Throws: ``GeoFareError`` `no_road_nearby` with `field` when no arc is that close,
    ///   `invalid_snap_distance` when `maxDistanceMeters` is not in (0, 100 000].
    public func snap(_ point: Coordinate, maxDistanceMeters: Double = 200, field: String = "point") throws(GeoFareError) -> [SnapCandidate] {
        var found: [SnapCandidate] = []
        try snap(point, maxDistanceMeters: maxDistanceMeters, field: field, scratch: SnapScratch(), into: &found)
        return found
    }

    /// ``snap(_:maxDistanceMeters:field:)`` into `found` with a thread's reusable buffers.
    func snap(_ point: Coordinate, maxDistanceMeters: Double, field: String, scratch: SnapScratch,
              into found: inout [SnapCandidate]) throws(GeoFareError) {
        guard maxDistanceMeters.isFinite, maxDistanceMeters > 0, maxDistanceMeters <= 100_000 else {
            throw .invalidSnapDistance(maxDistanceMeters)
        }
        guard point.latitude.isFinite, point.longitude.isFinite else {
            throw .pointNotFinite(point, field: field)
        }
        snapper.candidates(near: point, maxDistanceMeters: maxDistanceMeters, scratch: scratch, into: &found)
        guard !found.isEmpty else {
            throw .noRoadNearby(point, within: maxDistanceMeters, field: field)
        }
    }

    /// A router for the calling thread (it holds per-query scratch space of a few bytes per node).
    public func makeRouter() -> RoadGraphRouter { RoadGraphRouter(graph: self) }

    /// Routes with a fresh router (allocates its scratch space; reuse ``makeRouter()`` in loops).
    public func route(from: Coordinate, to: Coordinate, metric: GraphMetric = .fastest, withGeometry: Bool = false,
                      maxSnapMeters: Double = 200) throws(GeoFareError) -> GraphPath {
        try makeRouter().route(from: from, to: to, metric: metric, withGeometry: withGeometry, maxSnapMeters: maxSnapMeters)
    }
}
