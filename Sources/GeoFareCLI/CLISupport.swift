import ArgumentParser
import Foundation
import GeoFareCore

/// Exit codes of the `geofare` command (sysexits.h where one fits).
public enum GeoFareExit {
    /// Some input rows or values were rejected (EX_DATAERR); the rest was processed.
    public static let dataError = ExitCode(65)
    /// A file could not be opened (EX_NOINPUT).
    public static let noInput = ExitCode(66)
}

/// Diagnostics for people, on standard error: logs, progress and error messages (never on stdout,
/// which carries results).
public enum Diagnostics {
    public static func print(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// A buffered binary writer to standard output or a file (results); flush before exit.
public final class BufferedWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private let limit: Int

    public init(handle: FileHandle = .standardOutput, bufferBytes: Int = 1 << 16) {
        self.handle = handle
        self.limit = bufferBytes
        buffer.reserveCapacity(bufferBytes + 4096)
    }

    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        if bytes.count >= limit / 2 {
            // Large blocks go straight to the file: no copy into the buffer and into a Data.
            flush()
            writeAll(UnsafeRawBufferPointer(bytes))
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    private func writeAll(_ raw: UnsafeRawBufferPointer) {
        var done = 0
        let fd = handle.fileDescriptor
        while done < raw.count {
            let n = Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                Diagnostics.print("geofare: cannot write the output: \(String(cString: strerror(errno)))")
                exit(74)
            }
            done += n
        }
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Opens `path` for writing, created or truncated in place (`open(2)`, not an atomic replace:
/// `-o /dev/null` or a named pipe must stay what it is). `nil` when it cannot be opened.
public func openForWriting(_ path: String) -> FileHandle? {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    return fd < 0 ? nil : FileHandle(fileDescriptor: fd, closeOnDealloc: true)
}

extension ParsableCommand {
    /// Runs `body`, turning a ``GeoFareError`` into a message on stderr and exit code 65 (other
    /// errors, such as an `ExitCode`, pass through).
    package func reportingErrors(_ body: () throws -> Void) throws {
        do { try body() } catch let error as GeoFareError {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw GeoFareExit.dataError
        }
    }
}

/// Encodes a value as one line of JSON with sorted keys.
/// - Throws: `internal_error` when the value cannot be encoded (a NaN or infinite number).
public func jsonLine<T: Encodable>(_ value: T) throws(GeoFareError) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
        throw .cannotEncodeJSON(error)
    }
}
