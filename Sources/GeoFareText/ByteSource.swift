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
            throw .cannotOpenInput(path)
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

    /// Reads up to `buffer.count` bytes (at most one chunk) into `buffer`, whose bytes need not
    /// be initialized: nothing is zero-filled first, and the caller's storage is reused as it is
    /// (filling a fresh zeroed array per read cost the reading thread page faults and a pass
    /// over every block).
    /// - Returns: the bytes read, 0 at end of input (or on a read error; `EINTR` is retried).
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        let want = min(buffer.count, chunkSize)
        while true {
            let n = Foundation.read(handle.fileDescriptor, base, want)
            if n < 0 && errno == EINTR { continue }
            let got = max(n, 0)
            bytesRead += got
            return got
        }
    }

    /// The next chunk, or `nil` at end of input.
    public func next() -> Data? {
        let data = handle.readData(ofLength: chunkSize)
        if data.isEmpty { return nil }
        bytesRead += data.count
        return data
    }
}
