import GeoFareCore
import Foundation

/// Reads a file or standard input in large chunks, for streaming parsers.
///
/// Not `Sendable`: one reader per stream.
public final class ByteSource {
    private let handle: FileHandle
    private let ownsHandle: Bool
    /// Bytes read so far (for progress reports).
    public private(set) var bytesRead: Int = 0
    /// The chunk size in bytes.
    public let chunkSize: Int

    /// Reads standard input.
    public static func standardInput(chunkSize: Int = 1 << 20) -> ByteSource {
        ByteSource(handle: .standardInput, ownsHandle: false, chunkSize: chunkSize)
    }

    /// Opens a file for reading.
    /// - Throws: ``GeoFareError`` `file_unreadable` naming the path.
    public convenience init(path: String, chunkSize: Int = 1 << 20) throws(GeoFareError) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw GeoFareError(code: .fileUnreadable, message: "cannot open '\(path)' for reading", field: "input")
        }
        self.init(handle: handle, ownsHandle: true, chunkSize: chunkSize)
    }

    /// Wraps an open handle.
    public init(handle: FileHandle, ownsHandle: Bool, chunkSize: Int = 1 << 20) {
        self.handle = handle
        self.ownsHandle = ownsHandle
        self.chunkSize = chunkSize
    }

    deinit {
        if ownsHandle { try? handle.close() }
    }

    /// Reads up to `limit` bytes (at most one chunk) straight onto the end of `buffer`.
    /// - Returns: false at end of input (or on a read error).
    public func read(into buffer: inout [UInt8], upTo limit: Int) -> Bool {
        let want = min(max(limit, 1), chunkSize)
        let start = buffer.count
        buffer.reserveCapacity(start + want)
        var got = 0
        buffer.append(contentsOf: repeatElement(0, count: want))
        buffer.withUnsafeMutableBytes { raw in
            while true {
                let n = Foundation.read(handle.fileDescriptor, raw.baseAddress! + start, want)
                if n < 0 && errno == EINTR { continue }
                got = max(n, 0)
                return
            }
        }
        buffer.removeLast(want - got)
        bytesRead += got
        return got > 0
    }

    /// The next chunk, or `nil` at end of input.
    public func next() -> Data? {
        let data = handle.readData(ofLength: chunkSize)
        if data.isEmpty { return nil }
        bytesRead += data.count
        return data
    }
}
