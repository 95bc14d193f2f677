import CZlib
import Foundation
import GeoFareCore

/// The `OSMHeader` block of a PBF file.
public struct OSMHeader: Sendable, Hashable {
    /// The bounding box the file declares, in 1e-9 degrees (`left, right, top, bottom` as in
    /// the format), or `nil` when absent.
    public var bboxNanodegrees: (left: Int64, right: Int64, top: Int64, bottom: Int64)? {
        get { bbox.map { ($0[0], $0[1], $0[2], $0[3]) } }
        set { bbox = newValue.map { [$0.left, $0.right, $0.top, $0.bottom] } }
    }
    var bbox: [Int64]?
    /// The features a reader must understand (`OsmSchema-V0.6`, `DenseNodes`).
    public var requiredFeatures: [String] = []
    /// Optional features (`Sort.Type_then_ID`, ...).
    public var optionalFeatures: [String] = []
    /// The program that wrote the file.
    public var writingProgram: String?
    /// `osmosis_replication_timestamp`: seconds since 1970, when the file gives one.
    public var replicationTimestampSeconds: Int64?

    /// The required features this reader implements; any other refuses the file.
    public static let supportedRequiredFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]
}

/// Reads an OpenStreetMap PBF file (the `.osm.pbf` format): the blob sequence, the header
/// and the primitive blocks, raw or zlib-compressed.
///
/// The file is memory-mapped (or held as given bytes). ``header`` is decoded on
/// initialisation; ``visit(_:kinds:)`` decodes the data blocks in file order and may be called
/// several times (two-pass extraction reads ways first, node coordinates second).
///
/// Errors are ``GeoFareError``s: `pbf_truncated` (the file ends inside a blob), `pbf_corrupt`
/// (bytes that do not decode, an inflate failure), `pbf_unsupported` (lzma/zstd/lz4/bzip2
/// blobs, unknown required features), each naming the blob index and the byte offset of its
/// header. Corrupt or random bytes never trap or hang.
public struct PBFReader: Sendable {
    /// A blob's place in the file.
    struct BlobEntry: Sendable {
        /// The blob's number in the file, and the byte offsets of its header and its data.
        var index, headerOffset, dataOffset, dataSize: Int
        var isData: Bool
    }

    /// The largest blob header and blob the format allows (64 KiB, 32 MiB).
    static let maxHeaderSize = 64 * 1024
    static let maxBlobSize = 32 * 1024 * 1024

    private let data: Data
    private let blobs: [BlobEntry]
    /// The decoded `OSMHeader`.
    public let header: OSMHeader

    /// The number of `OSMData` blobs.
    public var dataBlobCount: Int { blobs.reduce(0) { $0 + ($1.isData ? 1 : 0) } }
    /// The file size in bytes.
    public var byteCount: Int { data.count }

    /// Opens (memory-maps) the file at `url` and decodes its header.
    /// - Throws: ``GeoFareError`` `pbf_unreadable`, or a decoding error.
    public init(contentsOf url: URL) throws(GeoFareError) {
        let bytes: Data
        do { bytes = try Data(contentsOf: url, options: .alwaysMapped) } catch {
            throw .pbfUnreadable(url.path, error.localizedDescription)
        }
        try self.init(data: bytes)
    }

    /// Reads a PBF file held in memory and decodes its header.
    /// - Throws: ``GeoFareError`` when the blob sequence or the header does not decode.
    public init(data: Data) throws(GeoFareError) {
        self.data = data
        var entries: [BlobEntry] = []
        var headerBytes: [UInt8]? = nil
        let result: Result<Void, GeoFareError> = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<Void, GeoFareError> in
            do throws(GeoFareError) {
                var offset = 0
                var index = 0
                while offset < raw.count {
                    let entry = try Self.scanBlob(raw, at: offset, index: index)
                    if index == 0 {
                        let blobHeaderIsHeader = !entry.isData
                        guard blobHeaderIsHeader else {
                            throw GeoFareError.corrupt("the first blob is not an OSMHeader").located(blob: 0, offset: 0)
                        }
                        let scratch = InflateBuffer()
                        do throws(GeoFareError) {
                            let bytes = try Self.blobContent(raw, entry, scratch: scratch)
                            headerBytes = Array(bytes)
                        } catch { throw error.located(blob: index, offset: offset) }
                    } else {
                        entries.append(entry)
                    }
                    offset = entry.dataOffset + entry.dataSize
                    index += 1
                }
                if index == 0 { throw GeoFareError.emptyPBF() }
                return .success(())
            } catch { return .failure(error) }
        }
        try result.get()
        self.blobs = entries
        let decoded: Result<OSMHeader, GeoFareError> = headerBytes!.withUnsafeBytes { b in
            do throws(GeoFareError) { return .success(try Self.decodeHeader(b)) } catch { return .failure(error.located(blob: 0, offset: 0)) }
        }
        self.header = try decoded.get()
    }

    /// The number of data blocks (`OSMData` blobs): what ``visit(_:kinds:progress:)`` counts its progress in.
    public var dataBlockCount: Int { blobs.reduce(0) { $0 + ($1.isData ? 1 : 0) } }

    /// Decodes every data block and hands the elements of `kinds` to `visitor`, in file order.
    /// - Parameter progress: called after each data block with the number decoded so far (of
    ///   ``dataBlockCount``), on the calling thread.
    /// - Returns: the newest object timestamp seen in the decoded elements, seconds since 1970 (0 when none).
    /// - Throws: ``GeoFareError`` located at the failing blob.
    @discardableResult
    public func visit<V: PBFVisitor>(_ visitor: inout V, kinds: PBFElementKinds = .all,
                                     progress: ((_ blocksDone: Int) -> Void)? = nil) throws(GeoFareError) -> Int64 {
        var decoder = PBFBlockDecoder()
        let scratch = InflateBuffer()
        let blobs = self.blobs
        var done = 0
        let result: Result<Void, GeoFareError> = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<Void, GeoFareError> in
            for entry in blobs where entry.isData {
                do throws(GeoFareError) {
                    let content = try Self.blobContent(raw, entry, scratch: scratch)
                    try decoder.decode(content, kinds: kinds, visitor: &visitor)
                } catch { return .failure(error.located(blob: entry.index, offset: entry.headerOffset)) }
                done += 1
                progress?(done)
            }
            return .success(())
        }
        try result.get()
        return decoder.newestTimestampSeconds
    }

    /// Reads the blob header at `offset`: its 4-byte big-endian length, then `BlobHeader`.
    private static func scanBlob(_ raw: UnsafeRawBufferPointer, at offset: Int, index: Int) throws(GeoFareError) -> BlobEntry {
        func fail(_ code: ErrorCode, _ message: String) -> GeoFareError {
            GeoFareError.pbf(code, message).located(blob: index, offset: offset)
        }
        guard raw.count - offset >= 4 else { throw fail(ErrorCode.pbfTruncated, "the file ends inside a blob-header length") }
        let length = Int(raw[offset]) << 24 | Int(raw[offset + 1]) << 16 | Int(raw[offset + 2]) << 8 | Int(raw[offset + 3])
        guard length > 0, length <= maxHeaderSize else { throw fail(ErrorCode.pbfCorrupt, "blob-header length \(length) out of 1...\(maxHeaderSize)") }
        guard raw.count - offset - 4 >= length else { throw fail(ErrorCode.pbfTruncated, "the file ends inside a blob header") }
        var r = ProtobufReader(UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<(offset + 4 + length)]))
        var type: String? = nil
        var dataSize: Int64 = -1
        do throws(GeoFareError) {
            while !r.isAtEnd {
                let (f, w) = try r.key()
                switch (f, w) {
                case (1, .lengthDelimited): type = String(decoding: try r.bytes(), as: UTF8.self)
                case (3, .varint): dataSize = try r.int64()
                default: try r.skip(w)
                }
            }
        } catch { throw error.located(blob: index, offset: offset) }
        guard let type else { throw fail(ErrorCode.pbfCorrupt, "blob header without a type") }
        guard dataSize >= 0, dataSize <= maxBlobSize else { throw fail(ErrorCode.pbfCorrupt, "blob size \(dataSize) out of 0...\(maxBlobSize)") }
        let dataOffset = offset + 4 + length
        guard raw.count - dataOffset >= Int(dataSize) else {
            throw fail(ErrorCode.pbfTruncated, "the file ends inside a blob (\(dataSize) bytes expected, \(raw.count - dataOffset) left)")
        }
        if index == 0, type != "OSMHeader" { throw fail(ErrorCode.pbfCorrupt, "the first blob is '\(type.prefix(40))', not OSMHeader") }
        if index > 0, type == "OSMHeader" { throw fail(ErrorCode.pbfCorrupt, "a second OSMHeader blob") }
        return BlobEntry(index: index, headerOffset: offset, dataOffset: dataOffset, dataSize: Int(dataSize), isData: type == "OSMData")
    }

    /// The uncompressed content of a blob: the raw bytes, or zlib inflated into `scratch`.
    private static func blobContent(_ raw: UnsafeRawBufferPointer, _ entry: BlobEntry, scratch: InflateBuffer) throws(GeoFareError) -> UnsafeRawBufferPointer {
        var r = ProtobufReader(UnsafeRawBufferPointer(rebasing: raw[entry.dataOffset..<(entry.dataOffset + entry.dataSize)]))
        var rawData: UnsafeRawBufferPointer? = nil
        var zlibData: UnsafeRawBufferPointer? = nil
        var rawSize: Int64 = -1
        while !r.isAtEnd {
            let (f, w) = try r.key()
            switch (f, w) {
            case (1, .lengthDelimited): rawData = try r.bytes()
            case (2, .varint): rawSize = try r.int64()
            case (3, .lengthDelimited): zlibData = try r.bytes()
            case (4, _): throw GeoFareError.unsupportedCompression("lzma", recompress: "osmium cat -f pbf,pbf_compression=zlib")
            case (5, _): throw GeoFareError.unsupportedCompression("bzip2", recompress: nil)
            case (6, _): throw GeoFareError.unsupportedCompression("lz4", recompress: "zlib")
            case (7, _): throw GeoFareError.unsupportedCompression("zstd", recompress: "osmium cat -f pbf,pbf_compression=zlib")
            default: try r.skip(w)
            }
        }
        if let rawData { return rawData }
        guard let zlibData else { throw .corrupt("blob has neither raw nor zlib data") }
        guard rawSize >= 0, rawSize <= Int64(maxBlobSize) else { throw .corrupt("blob raw_size \(rawSize) out of 0...\(maxBlobSize)") }
        let size = Int(rawSize)
        let out = scratch.reserve(size + 1)
        // uncompress returns Z_OK only for a complete zlib stream with a matching Adler-32;
        // Z_BUF_ERROR when the output would exceed the buffer (one spare byte detects a raw_size too small).
        var outLength = uLongf(size + 1)
        let status = CZlib.uncompress(out.baseAddress!.assumingMemoryBound(to: Bytef.self), &outLength,
                                      zlibData.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(zlibData.count))
        guard status == Z_OK else { throw .corrupt("zlib inflate failed (status \(status))") }
        guard Int(outLength) == size else { throw .corrupt("inflated \(outLength) bytes, raw_size says \(size)") }
        return UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(out)[0..<size])
    }

    private static func decodeHeader(_ bytes: UnsafeRawBufferPointer) throws(GeoFareError) -> OSMHeader {
        var header = OSMHeader()
        var r = ProtobufReader(bytes)
        while !r.isAtEnd {
            let (f, w) = try r.key()
            switch (f, w) {
            case (1, .lengthDelimited):
                var b = ProtobufReader(try r.bytes())
                var box: [Int64] = [0, 0, 0, 0]
                while !b.isAtEnd {
                    let (bf, bw) = try b.key()
                    if (1...4).contains(bf), bw == .varint { box[Int(bf) - 1] = try b.sint64() } else { try b.skip(bw) }
                }
                header.bbox = box
            case (4, .lengthDelimited): header.requiredFeatures.append(String(decoding: try r.bytes(), as: UTF8.self))
            case (5, .lengthDelimited): header.optionalFeatures.append(String(decoding: try r.bytes(), as: UTF8.self))
            case (16, .lengthDelimited): header.writingProgram = String(decoding: try r.bytes(), as: UTF8.self)
            case (32, .varint): header.replicationTimestampSeconds = try r.int64()
            default: try r.skip(w)
            }
        }
        for feature in header.requiredFeatures where !OSMHeader.supportedRequiredFeatures.contains(feature) {
            throw GeoFareError.unsupportedFeature(feature)
        }
        return header
    }
}

/// The buffer blobs are inflated into, reused across blobs; the one owner of its memory.
final class InflateBuffer {
    private var storage = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    /// At least `count` writable bytes (valid until the next call or until the buffer is freed).
    func reserve(_ count: Int) -> UnsafeMutableRawBufferPointer {
        if storage.count < count {
            storage.deallocate()
            storage = .allocate(byteCount: max(count, 1), alignment: 16)
        }
        return storage
    }

    deinit { storage.deallocate() }
}
