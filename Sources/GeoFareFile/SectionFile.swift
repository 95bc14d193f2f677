import GeoFareCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The container GeoFare's binary files share (graph files, places indexes), all integers
/// little-endian:
///
/// ```
/// 0   magic (8 bytes: "GEOFAREG" a graph file, "GEOFAREP" a places index)
/// 8   format version, UInt32
/// 12  section count, UInt32
/// 16  file length in bytes, UInt64
/// 24  CRC-32 (IEEE, as zlib's crc32: ``CRC32``) of bytes 32..<file length, UInt32
/// 28  reserved, 0
/// 32  section table: per section id UInt32, alignment UInt32, offset UInt64, length UInt64 (24 bytes)
///     then the sections, each at an offset that is a multiple of 8
/// ```
/// Section 1 is the file's metadata as JSON. Written by ``SectionFileWriter/write(_:to:version:magic:)``,
/// read by ``MappedSectionFile``.
public enum SectionFileLayout {
    public static let headerSize = 32
    public static let tableEntrySize = 24
    public static let alignment = 8
    /// The metadata section's id in every kind of section file.
    public static let metadataSection: UInt32 = 1
}

/// What tells one kind of section file from another: its magic, the format version this build
/// reads, what it is called in messages, and the error codes its problems get.
public struct SectionFileFormat: Sendable {
    /// The 8-byte magic the file starts with.
    public var magic: [UInt8]
    /// The only format version this build reads.
    public var version: UInt32
    /// The file's name in messages ("graph file", "places index").
    public var name: String
    /// The format's name in the version message ("graph format").
    public var formatName: String
    /// What to do about an unsupported version ("rebuild the graph").
    public var remedy: String
    /// The codes for: cannot open or map; not this kind of file (bad magic, empty); another
    /// version; shorter than declared; anything else inconsistent (checksum, table, sizes).
    public var io, notThisFormat, versionUnsupported, truncated, corrupt: ErrorCode

    public init(magic: [UInt8], version: UInt32, name: String, formatName: String, remedy: String,
                io: ErrorCode, notThisFormat: ErrorCode, versionUnsupported: ErrorCode,
                truncated: ErrorCode, corrupt: ErrorCode) {
        self.magic = magic; self.version = version; self.name = name; self.formatName = formatName
        self.remedy = remedy; self.io = io; self.notThisFormat = notThisFormat
        self.versionUnsupported = versionUnsupported; self.truncated = truncated; self.corrupt = corrupt
    }
}

/// A section file (``SectionFileLayout``) opened read-only through `mmap`: its sections are
/// zero-copy views into the mapping, which lives as long as this object does.
///
/// Opening checks, in order: the magic, the format version, the length, the reserved field, the
/// CRC-32 of everything after the header, then the section table (each section inside the file
/// and aligned). Which sections a kind of file needs, and their sizes, its reader checks.
/// Host byte order must be little-endian (x86-64, arm64).
public final class MappedSectionFile: @unchecked Sendable {
    /// The path opened.
    public let path: String
    public let format: SectionFileFormat
    /// The mapping and its length in bytes.
    public let base: UnsafeRawPointer
    public let length: Int
    /// Per section id, its byte offset and length.
    public let sections: [UInt32: (offset: Int, length: Int)]

    /// Maps and checks the file at `path`.
    /// - Parameter verifyChecksum: compute the CRC-32 of the whole payload (one pass over the file).
    /// - Throws: ``GeoFareError`` with `format`'s codes (`io`, `notThisFormat`,
    ///   `versionUnsupported`, `truncated`, `corrupt`); the field is the path.
    public init(path: String, format: SectionFileFormat, verifyChecksum: Bool = true) throws(GeoFareError) {
        self.path = path
        self.format = format
        func error(_ code: ErrorCode, _ message: String) -> GeoFareError { .sectionFile(code, message, path: path) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw error(format.io, "cannot open '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw error(format.io, "cannot stat '\(path)'") }
        let size = Int(st.st_size)
        guard size > 0 else { throw error(format.notThisFormat, "'\(path)' is empty, not a \(format.name)") }
        guard let m = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), m != MAP_FAILED else {
            throw error(format.io, "cannot map '\(path)': \(String(cString: strerror(errno)))")
        }
        switch Self.check(UnsafeRawBufferPointer(start: m, count: size), path: path, format: format, verifyChecksum: verifyChecksum) {
        case let .success(table): sections = table
        case let .failure(failure):
            munmap(m, size)
            throw failure
        }
        base = UnsafeRawPointer(m)
        length = size
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), length) }

    /// The header, checksum and section table of a mapped file.
    private static func check(_ bytes: UnsafeRawBufferPointer, path: String, format: SectionFileFormat, verifyChecksum: Bool)
        -> Result<[UInt32: (offset: Int, length: Int)], GeoFareError> {
        typealias L = SectionFileLayout
        func failure(_ code: ErrorCode, _ message: String) -> Result<[UInt32: (offset: Int, length: Int)], GeoFareError> {
            .failure(.sectionFile(code, message, path: path))
        }
        let size = bytes.count
        let prefix = min(size, format.magic.count)
        guard bytes[0..<prefix].elementsEqual(format.magic[0..<prefix]) else {
            return failure(format.notThisFormat, "'\(path)' does not start with \(String(decoding: format.magic, as: UTF8.self)): not a \(format.name)")
        }
        guard size >= L.headerSize else { return failure(format.truncated, "'\(path)' ends inside its header (\(size) bytes)") }
        let version = bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        guard version == format.version else {
            return failure(format.versionUnsupported,
                           "'\(path)' has \(format.formatName) version \(version); this build reads version \(format.version) (\(format.remedy))")
        }
        let count = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        let declared = bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian
        guard declared <= UInt64(Int.max), Int(declared) <= size else {
            return failure(format.truncated, "'\(path)' has \(size) bytes of the \(declared) its header declares")
        }
        guard Int(declared) == size else { return failure(format.corrupt, "'\(path)' has \(size) bytes but its header declares \(declared)") }
        guard bytes.loadUnaligned(fromByteOffset: 28, as: UInt32.self) == 0 else {
            return failure(format.corrupt, "'\(path)' has a non-zero reserved header field")
        }
        if verifyChecksum {
            var crc = CRC32()
            crc.update(UnsafeRawBufferPointer(rebasing: bytes[L.headerSize...]))
            let stored = bytes.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian
            guard crc.value == stored else { return failure(format.corrupt, "'\(path)' fails its checksum (CRC-32 \(crc.value), stored \(stored))") }
        }
        guard count <= (size - L.headerSize) / L.tableEntrySize else { return failure(format.corrupt, "'\(path)' declares \(count) sections, more than fit") }
        var table: [UInt32: (offset: Int, length: Int)] = [:]
        for i in 0..<count {
            let e = L.headerSize + i * L.tableEntrySize
            let id = bytes.loadUnaligned(fromByteOffset: e, as: UInt32.self).littleEndian
            let off = bytes.loadUnaligned(fromByteOffset: e + 8, as: UInt64.self).littleEndian
            let len = bytes.loadUnaligned(fromByteOffset: e + 16, as: UInt64.self).littleEndian
            guard off % UInt64(L.alignment) == 0, off <= UInt64(size), len <= UInt64(size) - off else {
                return failure(format.corrupt, "'\(path)': section \(id) lies outside the file or is misaligned")
            }
            table[id] = (Int(off), Int(len))
        }
        return .success(table)
    }

    /// The section `id` as `count` values of `T` (zero-copy), or `nil` when it is missing or its
    /// byte length is not `count` values (when `count` is given) or not a whole number of values.
    public func view<T: BitwiseCopyable>(_ id: UInt32, as: T.Type, count: Int? = nil) -> UnsafeBufferPointer<T>? {
        guard let s = sections[id], s.length % MemoryLayout<T>.stride == 0 else { return nil }
        let n = s.length / MemoryLayout<T>.stride
        if let count, count != n { return nil }
        return UnsafeBufferPointer(start: (base + s.offset).assumingMemoryBound(to: T.self), count: n)
    }

    /// The metadata section decoded from JSON.
    /// - Throws: ``GeoFareError`` with the format's `corrupt` code when it is missing or unreadable.
    public func metadata<M: Decodable>(_ type: M.Type) throws(GeoFareError) -> M {
        guard let s = sections[SectionFileLayout.metadataSection],
              let decoded = try? JSONDecoder().decode(M.self, from: Data(bytes: base + s.offset, count: s.length))
        else { throw corrupt("has no readable metadata section", separator: " ") }
        return decoded
    }

    /// The format's `corrupt` error: "'path': what" (or with `separator` after the path).
    public func corrupt(_ what: String, separator: String = ": ") -> GeoFareError {
        .sectionFile(format.corrupt, "'\(path)'\(separator)\(what)", path: path)
    }
}
