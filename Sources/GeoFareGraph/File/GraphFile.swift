import GeoFareCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A graph file opened read-only through `mmap`: its sections are zero-copy views into the
/// mapping, which lives as long as this object (and anything built on its views) does.
///
/// Opening checks, in order: the magic, the format version, the length, the section table, the
/// CRC-32 of everything after the header, then that every section the reader needs is there with
/// a consistent size. Host byte order must be little-endian (x86-64, arm64).
public final class GraphFile: @unchecked Sendable {
    /// The path opened.
    public let path: String
    public let metadata: GraphMetadata
    private let base: UnsafeRawPointer
    private let length: Int
    private var sections: [UInt32: (offset: Int, length: Int)] = [:]

    /// Maps and checks the file at `path`.
    /// - Parameter verifyChecksum: compute the CRC-32 of the whole payload (one pass over the file).
    /// - Throws: ``GeoFareError`` `graph_io` (cannot open or map), `graph_not_a_graph_file` (bad magic),
    ///   `graph_version_unsupported`, `graph_truncated`, `graph_corrupt` (checksum, section table or
    ///   section sizes); the field is the path.
    public init(path: String, verifyChecksum: Bool = true) throws(GeoFareError) {
        self.path = path
        func error(_ code: ErrorCode, _ message: String) -> GeoFareError { GeoFareError(code: code, message: message, field: path) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw error(ErrorCode.graphIo, "cannot open '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw error(ErrorCode.graphIo, "cannot stat '\(path)'") }
        let size = Int(st.st_size)
        let magic = GraphFileLayout.magic
        guard size > 0, let m = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), m != MAP_FAILED else {
            if size == 0 { throw error(ErrorCode.graphNotAGraphFile, "'\(path)' is empty, not a graph file") }
            throw error(ErrorCode.graphIo, "cannot map '\(path)': \(String(cString: strerror(errno)))")
        }
        let p = UnsafeRawPointer(m)
        base = p
        length = size
        // from here on, deinit unmaps; every failure below must come after `metadata` is set, so read into locals first
        var failure: GeoFareError?
        var parsed: GraphMetadata?
        var table: [UInt32: (offset: Int, length: Int)] = [:]
        check: do {
            let bytes = UnsafeRawBufferPointer(start: p, count: size)
            let prefix = min(size, magic.count)
            guard bytes[0..<prefix].elementsEqual(magic[0..<prefix]) else {
                failure = error(ErrorCode.graphNotAGraphFile, "'\(path)' does not start with GEOFAREG: not a graph file"); break check
            }
            guard size >= GraphFileLayout.headerSize else {
                failure = error(ErrorCode.graphTruncated, "'\(path)' ends inside its header (\(size) bytes)"); break check
            }
            let version = bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
            guard version == GraphFileLayout.currentVersion else {
                failure = error(ErrorCode.graphVersionUnsupported,
                                "'\(path)' has graph format version \(version); this build reads version \(GraphFileLayout.currentVersion) (rebuild the graph)")
                break check
            }
            let count = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
            let declared = bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian
            guard declared <= UInt64(Int.max), Int(declared) <= size else {
                failure = error(ErrorCode.graphTruncated, "'\(path)' has \(size) bytes of the \(declared) its header declares"); break check
            }
            guard Int(declared) == size else {
                failure = error(ErrorCode.graphCorrupt, "'\(path)' has \(size) bytes but its header declares \(declared)"); break check
            }
            guard bytes.loadUnaligned(fromByteOffset: 28, as: UInt32.self) == 0 else {
                failure = error(ErrorCode.graphCorrupt, "'\(path)' has a non-zero reserved header field"); break check
            }
            if verifyChecksum {
                var crc = CRC32()
                crc.update(UnsafeRawBufferPointer(rebasing: bytes[GraphFileLayout.headerSize...]))
                let stored = bytes.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian
                guard crc.value == stored else {
                    failure = error(ErrorCode.graphCorrupt, "'\(path)' fails its checksum (CRC-32 \(crc.value), stored \(stored))"); break check
                }
            }
            guard count <= (size - GraphFileLayout.headerSize) / GraphFileLayout.tableEntrySize else {
                failure = error(ErrorCode.graphCorrupt, "'\(path)' declares \(count) sections, more than fit"); break check
            }
            for i in 0..<count {
                let e = GraphFileLayout.headerSize + i * GraphFileLayout.tableEntrySize
                let id = bytes.loadUnaligned(fromByteOffset: e, as: UInt32.self).littleEndian
                let off = bytes.loadUnaligned(fromByteOffset: e + 8, as: UInt64.self).littleEndian
                let len = bytes.loadUnaligned(fromByteOffset: e + 16, as: UInt64.self).littleEndian
                guard off % UInt64(GraphFileLayout.alignment) == 0, off <= UInt64(size), len <= UInt64(size) - off else {
                    failure = error(ErrorCode.graphCorrupt, "'\(path)': section \(id) lies outside the file or is misaligned"); break check
                }
                table[id] = (Int(off), Int(len))
            }
            guard let meta = table[GraphFileLayout.Section.metadata],
                  let decoded = try? JSONDecoder().decode(GraphMetadata.self,
                                                          from: Data(bytes: p + meta.offset, count: meta.length))
            else { failure = error(ErrorCode.graphCorrupt, "'\(path)' has no readable metadata section"); break check }
            parsed = decoded
        }
        guard failure == nil, let parsed else {
            munmap(UnsafeMutableRawPointer(mutating: p), size)
            throw failure!
        }
        metadata = parsed
        sections = table
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), length) }

    /// The section `id` as `count` values of `T` (zero-copy), or `nil` when it is missing or its
    /// byte length is not `count` values (when `count` is given) or not a whole number of values.
    func view<T: BitwiseCopyable>(_ id: UInt32, as: T.Type, count: Int? = nil) -> UnsafeBufferPointer<T>? {
        guard let s = sections[id], s.length % MemoryLayout<T>.stride == 0 else { return nil }
        let n = s.length / MemoryLayout<T>.stride
        if let count, count != n { return nil }
        return UnsafeBufferPointer(start: (base + s.offset).assumingMemoryBound(to: T.self), count: n)
    }

    func corrupt(_ what: String) -> GeoFareError {
        GeoFareError(code: .graphCorrupt, message: "'\(path)': \(what)", field: path)
    }
}
