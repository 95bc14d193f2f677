/// The layout of a GeoFare graph file (one per region), all integers little-endian:
///
/// ```
/// 0   magic "GEOFAREG" (8 bytes)
/// 8   format version, UInt32 (``currentVersion``)
/// 12  section count, UInt32
/// 16  file length in bytes, UInt64
/// 24  CRC-32 (IEEE) of bytes 32..<file length, UInt32
/// 28  reserved, 0
/// 32  section table: per section id UInt32, alignment UInt32, offset UInt64, length UInt64 (24 bytes)
///     then the sections, each at an offset that is a multiple of 8
/// ```
/// Sections: the metadata JSON (``GraphMetadata``), the network's arrays (``RoadNetwork``'s fields)
/// and, per metric, the contraction hierarchy's arrays (``ContractionHierarchy``).
enum GraphFileLayout {
    static let magic: [UInt8] = Array("GEOFAREG".utf8)
    static let currentVersion: UInt32 = 1
    static let headerSize = 32
    static let tableEntrySize = 24
    static let alignment = 8

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
    }
}
