import Foundation
import GeoFareCore
import GeoFareFile
import GeoFareGraph
import GeoFareOSM

/// Writes a graph file (layout in `GraphFileLayout`) atomically through ``SectionFileWriter``: into a
/// temporary file beside the target, flushed, then renamed over it, so a reader never sees half a file.
public enum GraphFileWriter {
    /// Writes `network`, its hierarchies (one per metric, all of ``GraphMetric/allCases``) and `metadata`
    /// (its counts and bbox are filled in from the network) to `path`.
    /// - Throws: ``GeoFareError`` `graph_io` when the file cannot be written, `graph_invalid_network`
    ///   when a hierarchy is missing or does not match the network.
    public static func write(network: RoadNetwork, hierarchies: [GraphMetric: ContractionHierarchy], metadata: GraphMetadata,
                             to path: String) throws(GeoFareError) {
        try network.validate()
        let meta = metadata.describing(network)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(meta) else {
            throw .metadataNotEncodable()
        }
        typealias S = GraphFileLayout.Section
        // views of the arrays, not copies: at 2.5 M nodes the file is 1.2 GB, and two copies of it
        // (the sections, then the laid-out body) took the build's peak from 3.5 to 4.7 GB
        var sections: [SectionFileWriter.Section] = [SectionFileWriter.Section(id: S.metadata, bytes: Array(json))]
        func add<T: BitwiseCopyable>(_ id: UInt32, _ a: [T]) { sections.append(SectionFileWriter.Section(id: id, array: a)) }
        add(S.nodeLatitudes, network.nodeLatitudes); add(S.nodeLongitudes, network.nodeLongitudes)
        add(S.arcTail, network.arcTail); add(S.arcHead, network.arcHead)
        add(S.arcDistanceCentimeters, network.arcDistanceCentimeters); add(S.arcTimeMilliseconds, network.arcTimeMilliseconds)
        add(S.arcRoadClass, network.arcRoadClass); add(S.arcFlags, network.arcFlags)
        add(S.shapeStart, network.shapeStart); add(S.shapeLatitudes, network.shapeLatitudes); add(S.shapeLongitudes, network.shapeLongitudes)
        for metric in GraphMetric.allCases {
            guard let ch = hierarchies[metric], ch.nodeCount == network.nodeCount, ch.metric == metric else {
                throw .invalidNetwork("hierarchies", "no \(metric.rawValue) hierarchy for this network")
            }
            // the views live as long as `ch`, which `hierarchies` holds until the write returns
            for (k, view) in ch.views.enumerated() {
                sections.append(SectionFileWriter.Section(id: S.hierarchy(metric, k), count: view.count * 4) { body in body(UnsafeRawBufferPointer(view)) })
            }
            add(S.hierarchy(metric, S.coreStartIndex), [UInt32(ch.coreStart)])
        }
        try withExtendedLifetime(hierarchies) { () throws(GeoFareError) in
            try SectionFileWriter.stream(sections, to: path, version: GraphFileLayout.currentVersion, magic: GraphFileLayout.magic)
        }
    }

    /// Lays out `sections`, checksums them and writes the file atomically.
    static func writeSections(_ sections: [(id: UInt32, bytes: [UInt8])], to path: String,
                              version: UInt32 = GraphFileLayout.currentVersion) throws(GeoFareError) {
        try SectionFileWriter.write(sections, to: path, version: version, magic: GraphFileLayout.magic)
    }
}
