import Foundation
import GeoFareCore
import GeoFareGraph
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A places index file opened read-only through `mmap`: search (``search(_:near:limit:typos:)``) and
/// reverse look-up (``reverse(_:radiusMeters:)``) read the mapping in place; nothing is copied.
///
/// Opening checks, in order: the magic, the format version, the length, the CRC-32 of everything
/// after the header, the section table, then that every section is there with sizes and offsets
/// that agree (so a file that passes cannot make a query read outside it). Immutable once
/// open and safe to share across threads.
public final class PlacesIndex: @unchecked Sendable {
    public let path: String
    public let metadata: PlacesMetadata
    private let base: UnsafeRawPointer
    private let length: Int

    let latitudes: UnsafeBufferPointer<Int32>, longitudes: UnsafeBufferPointer<Int32>, kinds: UnsafeBufferPointer<UInt8>
    let textStart: UnsafeBufferPointer<UInt32>, text: UnsafeBufferPointer<UInt8>
    let keyStart: UnsafeBufferPointer<UInt32>, keyBytes: UnsafeBufferPointer<UInt8>
    let keyPlace: UnsafeBufferPointer<UInt32>, keyFlags: UnsafeBufferPointer<UInt8>, keyName: UnsafeBufferPointer<UInt8>
    let cellKeys: UnsafeBufferPointer<UInt64>, cellStart: UnsafeBufferPointer<UInt32>, cellItems: UnsafeBufferPointer<UInt32>
    let shapeStart: UnsafeBufferPointer<UInt32>, shapeLatitudes: UnsafeBufferPointer<Int32>, shapeLongitudes: UnsafeBufferPointer<Int32>

    /// The number of places.
    public var count: Int { latitudes.count }
    /// The number of search keys.
    public var keyCount: Int { keyPlace.count }
    /// The file size in bytes.
    public var byteCount: Int { length }

    /// Maps and checks the file at `path`.
    /// - Throws: ``GeoFareError`` `places_io` (cannot open or map), `places_not_a_places_file`
    ///   (bad magic, or empty), `places_version_unsupported`, `places_truncated`, `places_corrupt`
    ///   (checksum, section table, sizes or offsets); the field is the path.
    public init(path: String) throws(GeoFareError) {
        self.path = path
        func error(_ code: ErrorCode, _ message: String) -> GeoFareError { GeoFareError(code: code, message: message, field: path) }
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw error(.placesIo, "cannot open '\(path)': \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw error(.placesIo, "cannot stat '\(path)'") }
        let size = Int(st.st_size)
        guard size > 0 else { throw error(.placesNotAPlacesFile, "'\(path)' is empty, not a places index") }
        guard let m = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), m != MAP_FAILED else {
            throw error(.placesIo, "cannot map '\(path)': \(String(cString: strerror(errno)))")
        }
        let p = UnsafeRawPointer(m)
        let meta: PlacesMetadata, table: [UInt32: (offset: Int, length: Int)]
        switch Self.check(p, size, "'\(path)'", error) {
        case let .success(checked): (meta, table) = checked
        case let .failure(failure):
            munmap(m, size)
            throw failure
        }
        base = p
        length = size
        metadata = meta
        typealias S = PlacesFileLayout.Section
        func view<T: BitwiseCopyable>(_ id: UInt32, _: T.Type) -> UnsafeBufferPointer<T> {
            let s = table[id]!
            return UnsafeBufferPointer(start: (p + s.offset).assumingMemoryBound(to: T.self), count: s.length / MemoryLayout<T>.stride)
        }
        latitudes = view(S.latitudes, Int32.self); longitudes = view(S.longitudes, Int32.self); kinds = view(S.kinds, UInt8.self)
        textStart = view(S.textStart, UInt32.self); text = view(S.text, UInt8.self)
        keyStart = view(S.keyStart, UInt32.self); keyBytes = view(S.keyBytes, UInt8.self)
        keyPlace = view(S.keyPlace, UInt32.self); keyFlags = view(S.keyFlags, UInt8.self); keyName = view(S.keyName, UInt8.self)
        cellKeys = view(S.cellKeys, UInt64.self); cellStart = view(S.cellStart, UInt32.self); cellItems = view(S.cellItems, UInt32.self)
        shapeStart = view(S.shapeStart, UInt32.self); shapeLatitudes = view(S.shapeLatitudes, Int32.self)
        shapeLongitudes = view(S.shapeLongitudes, Int32.self)
        if let problem = structureProblem() {
            munmap(m, size)
            throw error(.placesCorrupt, "'\(path)': \(problem)")
        }
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: base), length) }

    /// The header, checksum, section table and metadata of a mapped file.
    private static func check(_ p: UnsafeRawPointer, _ size: Int, _ path: String, _ error: (ErrorCode, String) -> GeoFareError)
        -> Result<(PlacesMetadata, [UInt32: (offset: Int, length: Int)]), GeoFareError> {
        typealias L = PlacesFileLayout
        let bytes = UnsafeRawBufferPointer(start: p, count: size)
        let prefix = min(size, L.magic.count)
        guard bytes[0..<prefix].elementsEqual(L.magic[0..<prefix]) else {
            return .failure(error(.placesNotAPlacesFile, "\(path) does not start with GEOFAREP: not a places index"))
        }
        guard size >= L.headerSize else { return .failure(error(.placesTruncated, "\(path) ends inside its header (\(size) bytes)")) }
        let version = bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        guard version == L.currentVersion else {
            return .failure(error(.placesVersionUnsupported, "\(path) has places format version \(version); this build reads version \(L.currentVersion) (rebuild it)"))
        }
        let count = Int(bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        let declared = bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self).littleEndian
        guard declared <= UInt64(Int.max), Int(declared) <= size else {
            return .failure(error(.placesTruncated, "\(path) has \(size) bytes of the \(declared) its header declares"))
        }
        guard Int(declared) == size else { return .failure(error(.placesCorrupt, "\(path) has \(size) bytes but its header declares \(declared)")) }
        var crc = CRC32()
        crc.update(UnsafeRawBufferPointer(rebasing: bytes[L.headerSize...]))
        let stored = bytes.loadUnaligned(fromByteOffset: 24, as: UInt32.self).littleEndian
        guard crc.value == stored else { return .failure(error(.placesCorrupt, "\(path) fails its checksum (CRC-32 \(crc.value), stored \(stored))")) }
        guard count <= (size - L.headerSize) / L.tableEntrySize else { return .failure(error(.placesCorrupt, "\(path) declares \(count) sections, more than fit")) }
        var table: [UInt32: (offset: Int, length: Int)] = [:]
        for i in 0..<count {
            let e = L.headerSize + i * L.tableEntrySize
            let id = bytes.loadUnaligned(fromByteOffset: e, as: UInt32.self).littleEndian
            let off = bytes.loadUnaligned(fromByteOffset: e + 8, as: UInt64.self).littleEndian
            let len = bytes.loadUnaligned(fromByteOffset: e + 16, as: UInt64.self).littleEndian
            guard off % UInt64(L.alignment) == 0, off <= UInt64(size), len <= UInt64(size) - off else {
                return .failure(error(.placesCorrupt, "\(path): section \(id) lies outside the file or is misaligned"))
            }
            table[id] = (Int(off), Int(len))
        }
        typealias S = L.Section
        let needed: [(UInt32, Int)] = [(S.latitudes, 4), (S.longitudes, 4), (S.kinds, 1), (S.textStart, 4), (S.text, 1), (S.keyStart, 4),
                                       (S.keyBytes, 1), (S.keyPlace, 4), (S.keyFlags, 1), (S.keyName, 1), (S.cellKeys, 8), (S.cellStart, 4),
                                       (S.cellItems, 4), (S.shapeStart, 4), (S.shapeLatitudes, 4), (S.shapeLongitudes, 4)]
        for (id, stride) in needed {
            guard let s = table[id], s.length % stride == 0 else { return .failure(error(.placesCorrupt, "\(path): section \(id) is missing or not whole values")) }
        }
        guard let meta = table[S.metadata],
              let decoded = try? JSONDecoder().decode(PlacesMetadata.self, from: Data(bytes: p + meta.offset, count: meta.length))
        else { return .failure(error(.placesCorrupt, "\(path) has no readable metadata section")) }
        return .success((decoded, table))
    }

    /// What is inconsistent between the sections, or `nil` (one pass over the index arrays).
    private func structureProblem() -> String? {
        let n = latitudes.count
        guard longitudes.count == n, kinds.count == n, textStart.count == n + 1, shapeStart.count == n + 1 else { return "per-place sections differ in length" }
        guard kinds.allSatisfy({ PlaceKind(rawValue: $0) != nil }) else { return "an unknown place kind" }
        func ascending(_ a: UnsafeBufferPointer<UInt32>, upTo end: Int) -> Bool {
            guard a.first == 0, let last = a.last, Int(last) == end else { return false }
            for i in 1..<a.count where a[i] < a[i - 1] { return false }
            return true
        }
        guard ascending(textStart, upTo: text.count) else { return "record offsets out of order or range" }
        guard shapeLatitudes.count == shapeLongitudes.count, ascending(shapeStart, upTo: shapeLatitudes.count) else { return "shape offsets out of order or range" }
        let k = keyPlace.count
        guard keyFlags.count == k, keyName.count == k, keyStart.count == k + 1, ascending(keyStart, upTo: keyBytes.count) else { return "key sections differ in length" }
        guard keyPlace.allSatisfy({ Int($0) < n }) else { return "a key names a place beyond the places" }
        guard cellStart.count == cellKeys.count + 1, ascending(cellStart, upTo: cellItems.count) else { return "grid sections differ in length" }
        guard cellItems.allSatisfy({ Int($0) < n }) else { return "a grid cell names a place beyond the places" }
        for i in 1..<max(cellKeys.count, 1) where cellKeys[i] <= cellKeys[i - 1] { return "grid cells out of order" }
        return nil
    }

    /// The place at `index` (0..<``count``), decoded from its record.
    public func place(at index: Int) -> Place {
        let record = UnsafeBufferPointer(rebasing: text[Int(textStart[index])..<Int(textStart[index + 1])])
        let parts = record.split(separator: 0x1D, maxSplits: 2, omittingEmptySubsequences: false)
        func pairs(_ i: Int) -> [(key: String, value: String)] {
            guard parts.count > i, !parts[i].isEmpty else { return [] }
            return parts[i].split(separator: 0x1F).map { pair in
                let kv = pair.split(separator: 0x1E, maxSplits: 1, omittingEmptySubsequences: false)
                return (String(decoding: kv[0], as: UTF8.self), kv.count > 1 ? String(decoding: kv[1], as: UTF8.self) : "")
            }
        }
        return Place(index: index, osmID: parts.first.map { String(decoding: $0, as: UTF8.self) } ?? "",
                     kind: PlaceKind(rawValue: kinds[index]) ?? .amenity, coordinate: coordinate(index), names: pairs(1), address: pairs(2))
    }

    /// The coordinate of place `index`.
    @inline(__always)
    func coordinate(_ index: Int) -> Coordinate {
        Coordinate(uncheckedLatitude: Double(latitudes[index]) / 1e7, longitude: Double(longitudes[index]) / 1e7)
    }
}
