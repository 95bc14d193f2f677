/// A GeoFare graph file (one per region): the ``GeoFareFile/SectionFileLayout`` container with magic
/// "GEOFAREG" and these sections: the metadata JSON (``GraphMetadata``), the network's arrays
/// (``RoadNetwork``'s fields) and, per metric, the contraction hierarchy's arrays
/// (``ContractionHierarchy``).
package enum GraphFileLayout {
    package static let magic: [UInt8] = Array("GEOFAREG".utf8)
    package static let currentVersion: UInt32 = 1

    package enum Section {
        package static let metadata: UInt32 = 1
        package static let nodeLatitudes: UInt32 = 10, nodeLongitudes: UInt32 = 11
        package static let arcTail: UInt32 = 12, arcHead: UInt32 = 13
        package static let arcDistanceCentimeters: UInt32 = 14, arcTimeMilliseconds: UInt32 = 15
        package static let arcRoadClass: UInt32 = 16, arcFlags: UInt32 = 17
        package static let shapeStart: UInt32 = 18, shapeLatitudes: UInt32 = 19, shapeLongitudes: UInt32 = 20
        /// The hierarchy of `metric`: ten arrays in the order of ``ContractionHierarchy/Arrays``.
        package static func hierarchy(_ metric: GraphMetric, _ k: Int) -> UInt32 { UInt32(100 + metric.index * 16 + k) }
        package static let hierarchyArrayCount = 10
        /// `hierarchy(metric, coreStartIndex)`: one `UInt32`, the hierarchy's first core rank. Files
        /// written before cores existed lack it and read as no core (`coreStart` = node count): their
        /// rows are all upward, which ``ContractionHierarchy/checkStructure(nodeCount:arcCount:)`` requires
        /// then, so the format version did not change.
        package static let coreStartIndex = 10
    }
}
