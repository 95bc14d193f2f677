import Foundation
import GeoFareCore
import GeoFareFile
import GeoFareOSM
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A places index file opened read-only through `mmap`: search (``search(_:near:limit:typos:)``) and
/// reverse look-up (``reverse(_:radiusMeters:)``) read the mapping in place; nothing is copied.
///
/// Opening checks, in order: the container's (magic, format version, length, CRC-32 of everything
/// after the header, section table: ``GeoFareFile/MappedSectionFile``), then that every section is there with sizes and offsets
/// that agree (so a file that passes cannot make a query read outside it). Immutable once
/// open and safe to share across threads.
public final class PlacesIndex: @unchecked Sendable {
    public let path: String
    public let metadata: PlacesMetadata
    private let file: MappedSectionFile

    let latitudes: UnsafeBufferPointer<Int32>, longitudes: UnsafeBufferPointer<Int32>, kinds: UnsafeBufferPointer<UInt8>
    let textStart: UnsafeBufferPointer<UInt32>, text: UnsafeBufferPointer<UInt8>
    let keyStart: UnsafeBufferPointer<UInt32>, keyBytes: UnsafeBufferPointer<UInt8>
    let keyPlace: UnsafeBufferPointer<UInt32>, keyFlags: UnsafeBufferPointer<UInt8>, keyName: UnsafeBufferPointer<UInt8>
    let cellKeys: UnsafeBufferPointer<UInt64>, cellStart: UnsafeBufferPointer<UInt32>, cellItems: UnsafeBufferPointer<UInt32>
    let shapeStart: UnsafeBufferPointer<UInt32>, shapeLatitudes: UnsafeBufferPointer<Int32>, shapeLongitudes: UnsafeBufferPointer<Int32>
    let placeFlags: UnsafeBufferPointer<UInt8>
    let streetKeyStart: UnsafeBufferPointer<UInt32>, streetKeyBytes: UnsafeBufferPointer<UInt8>
    let streetKeyPlace: UnsafeBufferPointer<UInt32>, streetKeyNumber: UnsafeBufferPointer<Int32>
    let categoryStart: UnsafeBufferPointer<UInt32>, categoryItems: UnsafeBufferPointer<UInt32>

    /// The number of places.
    public var count: Int { latitudes.count }
    /// The number of search keys.
    public var keyCount: Int { keyPlace.count }
    /// The file size in bytes.
    public var byteCount: Int { file.length }

    /// Maps and checks the file at `path`.
    /// - Throws: ``GeoFareError`` `places_io` (cannot open or map), `places_not_a_places_file`
    ///   (bad magic, or empty), `places_version_unsupported`, `places_truncated`, `places_corrupt`
    ///   (checksum, section table, sizes or offsets); the field is the path.
    public init(path: String) throws(GeoFareError) {
        self.path = path
        let file = try MappedSectionFile(path: path, format: Self.format)
        typealias S = PlacesFileLayout.Section
        let needed: [(UInt32, Int)] = [(S.latitudes, 4), (S.longitudes, 4), (S.kinds, 1), (S.textStart, 4), (S.text, 1), (S.keyStart, 4),
                                       (S.keyBytes, 1), (S.keyPlace, 4), (S.keyFlags, 1), (S.keyName, 1), (S.cellKeys, 8), (S.cellStart, 4),
                                       (S.cellItems, 4), (S.shapeStart, 4), (S.shapeLatitudes, 4), (S.shapeLongitudes, 4),
                                       (S.placeFlags, 1), (S.streetKeyStart, 4), (S.streetKeyBytes, 1), (S.streetKeyPlace, 4), (S.streetKeyNumber, 4),
                                       (S.categoryStart, 4), (S.categoryItems, 4)]
        for (id, stride) in needed {
            guard let s = file.sections[id], s.length % stride == 0 else { throw file.corrupt("section \(id) is missing or not whole values") }
        }
        metadata = try file.metadata(PlacesMetadata.self)
        self.file = file
        func view<T: BitwiseCopyable>(_ id: UInt32, _: T.Type) -> UnsafeBufferPointer<T> { file.view(id, as: T.self)! }
        latitudes = view(S.latitudes, Int32.self); longitudes = view(S.longitudes, Int32.self); kinds = view(S.kinds, UInt8.self)
        textStart = view(S.textStart, UInt32.self); text = view(S.text, UInt8.self)
        keyStart = view(S.keyStart, UInt32.self); keyBytes = view(S.keyBytes, UInt8.self)
        keyPlace = view(S.keyPlace, UInt32.self); keyFlags = view(S.keyFlags, UInt8.self); keyName = view(S.keyName, UInt8.self)
        cellKeys = view(S.cellKeys, UInt64.self); cellStart = view(S.cellStart, UInt32.self); cellItems = view(S.cellItems, UInt32.self)
        shapeStart = view(S.shapeStart, UInt32.self); shapeLatitudes = view(S.shapeLatitudes, Int32.self)
        shapeLongitudes = view(S.shapeLongitudes, Int32.self)
        placeFlags = view(S.placeFlags, UInt8.self)
        streetKeyStart = view(S.streetKeyStart, UInt32.self); streetKeyBytes = view(S.streetKeyBytes, UInt8.self)
        streetKeyPlace = view(S.streetKeyPlace, UInt32.self); streetKeyNumber = view(S.streetKeyNumber, Int32.self)
        categoryStart = view(S.categoryStart, UInt32.self); categoryItems = view(S.categoryItems, UInt32.self)
        if let problem = structureProblem() { throw file.corrupt(problem) }
    }

    /// The container format of places indexes: magic `GEOFAREP`, this build's version, `places_*` codes.
    static let format = SectionFileFormat(
        magic: PlacesFileLayout.magic, version: PlacesFileLayout.currentVersion,
        name: "places index", formatName: "places format", remedy: "rebuild it",
        io: .placesIo, notThisFormat: .placesNotAPlacesFile, versionUnsupported: .placesVersionUnsupported,
        truncated: .placesTruncated, corrupt: .placesCorrupt)

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
        guard placeFlags.count == n else { return "place flags differ in length" }
        let sk = streetKeyPlace.count
        guard streetKeyNumber.count == sk, streetKeyStart.count == sk + 1, ascending(streetKeyStart, upTo: streetKeyBytes.count) else { return "street key sections differ in length" }
        guard streetKeyPlace.allSatisfy({ Int($0) < n }) else { return "a street key names a place beyond the places" }
        guard categoryStart.count == metadata.categories.count + 1, ascending(categoryStart, upTo: categoryItems.count) else { return "category sections differ from the metadata's categories" }
        guard categoryItems.allSatisfy({ Int($0) < n }) else { return "a category names a place beyond the places" }
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
