import GeoFareCore
import GeoFareFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A graph file opened read-only through `mmap` (a ``GeoFareFile/MappedSectionFile`` with the graph's
/// magic and codes): its sections are zero-copy views into the mapping, which lives as long as
/// this object (and anything built on its views) does.
///
/// Opening checks, in order: the container's (magic, format version, length, CRC-32, section
/// table: ``GeoFareFile/MappedSectionFile``), the metadata, then (by ``NetworkView`` and the hierarchy's
/// reader) that every section the reader needs is there with a consistent size.
public final class GraphFile: @unchecked Sendable {
    /// The path opened.
    public let path: String
    public let metadata: GraphMetadata
    private let file: MappedSectionFile

    /// The container format of graph files: magic `GEOFAREG`, this build's version, `graph_*` codes.
    static let format = SectionFileFormat(
        magic: GraphFileLayout.magic, version: GraphFileLayout.currentVersion,
        name: "graph file", formatName: "graph format", remedy: "rebuild the graph",
        io: .graphIo, notThisFormat: .graphNotAGraphFile, versionUnsupported: .graphVersionUnsupported,
        truncated: .graphTruncated, corrupt: .graphCorrupt)

    /// Maps and checks the file at `path`.
    /// - Parameter verifyChecksum: compute the CRC-32 of the whole payload (one pass over the file).
    /// - Throws: ``GeoFareError`` `graph_io` (cannot open or map), `graph_not_a_graph_file` (bad magic),
    ///   `graph_version_unsupported`, `graph_truncated`, `graph_corrupt` (checksum, section table or
    ///   section sizes); the field is the path.
    public init(path: String, verifyChecksum: Bool = true) throws(GeoFareError) {
        self.path = path
        file = try MappedSectionFile(path: path, format: Self.format, verifyChecksum: verifyChecksum)
        metadata = try file.metadata(GraphMetadata.self)
    }

    /// The section `id` as `count` values of `T` (zero-copy), or `nil` when it is missing or its
    /// byte length is not `count` values (when `count` is given) or not a whole number of values.
    func view<T: BitwiseCopyable>(_ id: UInt32, as type: T.Type, count: Int? = nil) -> UnsafeBufferPointer<T>? {
        file.view(id, as: type, count: count)
    }

    func corrupt(_ what: String) -> GeoFareError { file.corrupt(what) }
}
