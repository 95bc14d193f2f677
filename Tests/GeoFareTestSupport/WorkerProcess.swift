import Foundation
import GeoFareCore
import GeoFareText

/// A `geofare worker` subprocess driven like a backend drives it: lines in, lines out.
public final class WorkerProcess: @unchecked Sendable {
    public let process = Process()
    private let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    private var lines: [[UInt8]] = []
    private var eof = false
    private let arrived = DispatchSemaphore(value: 0)

    /// What the worker wrote to stderr (for failure messages).
    public private(set) var errorOutput = Data()

    /// - Parameter environment: variables added to the test's own for the worker.
    public init(arguments: [String], environment: [String: String] = [:]) throws {
        // A worker that dies must fail its test, not kill the test runner with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        process.executableURL = GeoFareBinary.url
        process.arguments = ["worker"] + arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let handle = stdout.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                lock.lock()
                if data.isEmpty { eof = true; lock.unlock(); arrived.signal(); return }
                buffer.append(contentsOf: data)
                var start = 0
                var added = 0
                while let nl = buffer[start...].firstIndex(of: 0x0A) {
                    lines.append(Array(buffer[start..<nl]))
                    start = nl + 1
                    added += 1
                }
                buffer.removeSubrange(0..<start)
                lock.unlock()
                for _ in 0..<added { arrived.signal() }
            }
        }
        // Drain stderr so the child never blocks on it, and keep it for diagnostics.
        let err = stderr.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let d = err.availableData
                if d.isEmpty { return }
                lock.lock(); errorOutput.append(d); lock.unlock()
            }
        }
    }

    public var pid: Int32 { process.processIdentifier }

    /// Sends raw bytes (lines must end with \n).
    /// (A write to a worker that died is ignored here; the missing answer fails the test.)
    public func send(_ bytes: [UInt8]) { try? stdin.fileHandleForWriting.write(contentsOf: Data(bytes)) }
    public func send(_ line: String) { send(Array((line + "\n").utf8)) }

    /// Waits for `n` more response lines (or end of output / timeout) and returns them parsed.
    public func receive(_ n: Int, timeout: Double = 60) -> [JSONValue] {
        receiveLines(n, timeout: timeout).map { line in
            (try? JSONParser.parse(line)) ?? .string("UNPARSABLE: " + String(decoding: line, as: UTF8.self))
        }
    }

    /// Waits for `n` more response lines (or end of output / timeout) and returns their bytes
    /// (without the newline), for byte-for-byte comparisons.
    public func receiveLines(_ n: Int, timeout: Double = 60) -> [[UInt8]] {
        var out: [[UInt8]] = []
        let deadline = Date().addingTimeInterval(TestTime.seconds(timeout))
        while out.count < n {
            lock.lock()
            if !lines.isEmpty {
                let take = min(n - out.count, lines.count)
                out += lines[0..<take]
                lines.removeFirst(take)
                lock.unlock()
                continue
            }
            let done = eof
            lock.unlock()
            if done || Date() > deadline { break }
            _ = arrived.wait(timeout: .now() + 0.5)
        }
        return out
    }

    /// One request, one response (or a description of why there is none).
    public func call(_ line: String) -> JSONValue? {
        send(line)
        if let r = receive(1).first { return r }
        lock.lock(); defer { lock.unlock() }
        print("worker \(pid) gave no answer to \(line.prefix(80)); running: \(process.isRunning); stderr: \(String(decoding: errorOutput, as: UTF8.self))")
        return nil
    }

    public func closeInput() { try? stdin.fileHandleForWriting.close() }

    /// Ends the requests (closes the worker's input) and waits for its exit status, as
    /// ``wait(timeout:)`` does: 0 when the worker ended cleanly.
    public func finish(timeout: Double = 120) -> Int32 {
        closeInput()
        return wait(timeout: timeout)
    }

    /// Waits for the worker to exit and returns its status; a worker still running `timeout`
    /// seconds later is killed (SIGKILL, status 9 with a message), so a hang fails its test
    /// in bounded time instead of stopping the suite.
    public func wait(timeout: Double = 120) -> Int32 {
        if !GeoFareBinary.waitForExit(process, timeout: timeout) {
            print("worker \(pid) still running \(Int(timeout)) s after it was told to end: killed; stderr: \(String(decoding: errorOutput, as: UTF8.self).suffix(2000))")
        }
        return process.terminationStatus
    }

    /// Waits until the worker's stderr (read on another thread) contains `text`, or `timeout`
    /// seconds pass; whether it does. A line the worker wrote before an answer may reach this
    /// process after the answer: a check of a log line waits for it instead of racing it.
    public func stderrContains(_ text: String, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(TestTime.seconds(timeout))
        while true {
            lock.lock()
            let found = String(decoding: errorOutput, as: UTF8.self).contains(text)
            lock.unlock()
            if found { return true }
            if Date() > deadline { return false }
            usleep(10_000)
        }
    }

    /// The worker's resident memory in KiB (VmRSS).
    public func residentKiB() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in s.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").compactMap { Int($0) }.first ?? 0
        }
        return 0
    }
}

extension JSONValue {
    public subscript(_ key: String) -> JSONValue? { object?[key] }
    public var isOK: Bool { self["ok"] == .bool(true) }
}

/// Every record of a CSV text (the header included), each as its fields.
public func csvRecords<Bytes: Sequence>(_ bytes: Bytes) throws -> [[String]] where Bytes.Element == UInt8 {
    var reader = CSVReader(), records: [[String]] = []
    reader.feed(Array(bytes)) { records.append($0.fields) }
    try reader.finish { records.append($0.fields) }
    return records
}

/// The rows after the header of a CSV text, each by column name; where a name repeats (an
/// input column that `fare-csv` writes again, such as `tariff`), the last column's value.
public func csvRowsByName(_ text: String) throws -> [[String: String]] {
    let records = try csvRecords(text.utf8)
    guard let header = records.first else { return [] }
    return records.dropFirst().map { Dictionary(zip(header, $0), uniquingKeysWith: { $1 }) }
}

/// A path for a new SQLite database in the temporary directory (not created).
public func temporaryDatabase() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("geofare-test-\(UUID().uuidString).db").path
}

/// Removes the SQLite database at `path` with its `-wal` and `-shm` files, those that exist.
public func removeDatabase(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
}

extension WorkerProcess {
    /// A worker (`geofare worker --db PATH`) on a new temporary database, and that path:
    /// the caller removes it with ``removeDatabase(_:)`` once the worker is done.
    public static func onTemporaryDatabase(environment: [String: String] = [:]) throws -> (worker: WorkerProcess, db: String) {
        let db = temporaryDatabase()
        return (try WorkerProcess(arguments: ["--db", db], environment: environment), db)
    }
}

/// A `party` object for `party.upsert` or an import line: destination Gangnam station, four
/// seats, attributes `{"k":"v"}`.
public func partyJSON(_ id: String, lat: Double = 37.5665, lon: Double = 126.978, taken: Int = 1,
                      depart: String = "2030-05-15T22:30:00+09:00") -> String {
    #"{"id":"\#(id)","origin":{"lat":\#(lat),"lon":\#(lon)},"destination":{"lat":37.4979,"lon":127.0276},"depart_at":"\#(depart)","seats_total":4,"seats_taken":\#(taken),"attributes":{"k":"v"}}"#
}
