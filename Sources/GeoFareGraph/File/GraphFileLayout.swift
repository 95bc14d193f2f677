/// A GeoFare graph file (one per region): the ``SectionFileLayout`` container with magic
/// "GEOFAREG" and these sections: the metadata JSON (``GraphMetadata``), the network's arrays
/// (``RoadNetwork``'s fields) and, per metric, the contraction hierarchy's arrays
/// (``ContractionHierarchy``).
enum GraphFileLayout {
    static let magic: [UInt8] = Array("GEOFAREG".utf8)
    static let currentVersion: UInt32 = 1

    enum Section {
        static let metadata: UInt32 = 1
        static let nodeLatitudes: UInt32 = 10, nodeLongitudes: UInt32 = 11
        static let arcTail: UInt32 = 12, arcHead: UInt32 = 13
        static let arcDistanceCentimeters: UInt32 = 14, arcTimeMilliseconds: UInt32 = 15
        static let arcRoadClass: UInt32 = 16, arcFlags: UInt32 = 17
        static let shapeStart: UInt32 = 18, shapeLatitudes: UInt32 = 19, shapeLongitudes: UInt32 = 20
        /// The hierarchy of `metric`: ten arrays in the order of ``ContractionHierarchy/Arrays``.
        static func hierarchy(_ metric: GraphMetric, _ k: Int) -> UInt32 { UInt32(100 + metric.index * 16 + k) }
        static let hierarchyArrayCount = 10
        /// `hierarchy(metric, coreStartIndex)`: one `UInt32`, the hierarchy's first core rank. Files
        /// written before cores existed lack it and read as no core (`coreStart` = node count): their
        /// rows are all upward, which ``ContractionHierarchy/checkStructure(nodeCount:arcCount:)`` requires
        /// then, so the format version did not change.
        static let coreStartIndex = 10
    }
}
