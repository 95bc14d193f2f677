import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareStore
import GeoFareText

/// `geofare bench worker`: requests through a real `geofare worker` process over pipes.
struct WorkerBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Pipeline requests through a real worker subprocess; requests/s and p50/p99 latency per op.",
        discussion: """
        Spawns `geofare worker --db :memory:` (or on --store), loads --parties random parties around
        Seoul (timed: the `party.upsert` row, each acknowledged after its commit), then
        for each op sends --requests requests with at most --window in flight (a pipelining
        client), timing each from its write to its response line. `ping` is the baseline: the
        protocol's own cost through the same process; `vs_ping` = op rate / ping rate. Each phase
        runs --rounds times (the upserts first: round 1 inserts the parties, later rounds write
        the same parties again); a rate is the median over rounds with its range, p50/p99 are
        over every round's requests, errors are summed.
        """
    )

    @OptionGroup var options: BenchOptions
    @Option(help: "Requests per op.") var requests = 100_000
    @Option(help: "Requests in flight at most.") var window = 512
    @Option(help: "Parties loaded before the clusters phase.") var parties = 20_000
    @Option(help: "The worker's party store (--store of geofare worker: a SQLite path or postgres://...); default a private in-memory SQLite. Repeat it to measure several stores one after the other in this run, one report each.")
    var store: [String] = []

    struct OpResult: Encodable {
        let requests: Int
        let requests_per_second: Double
        let p50_us: Double
        let p99_us: Double
        let errors: Int
        let vs_ping: Double
        /// The lowest and highest round's requests per second.
        let range: [Double]
    }

    struct Report: Encodable {
        let benchmark = "worker"
        let machine: MachineInfo
        let window: Int
        /// The store measured (a path, `:memory:`, or the URL without its password).
        let store: String
        let rounds: Int
        let ops: [String: OpResult]
        let requests_per_second: Double
    }

    func run() throws {
        for store in store.isEmpty ? [nil] : store.map(Optional.some) { try measure(store: store) }
    }

    func measure(store: String?) throws {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let client = try WorkerClient(executable: exe, arguments: ["worker"] + (store.map { ["--store", $0] } ?? ["--db", ":memory:"]))
        defer { client.close() }
        var rng = SeededGenerator(seed: options.seed)
        func point(_ latRange: ClosedRange<Double> = 37.45...37.65, _ lonRange: ClosedRange<Double> = 126.85...127.15) -> String {
            #"{"lat":\#(DecimalFormat.string(.random(in: latRange, using: &rng), decimals: 6)),"lon":\#(DecimalFormat.string(.random(in: lonRange, using: &rng), decimals: 6))}"#
        }
        // Load parties: the upsert rate, with the store's commit in each answer.
        let load = (0..<parties).map { i in
            #"{"id":"load\#(i)","op":"party.upsert","party":{"id":"p\#(i)","origin":\#(point()),"destination":\#(point()),"depart_at":"2030-05-15T22:30:00+09:00","seats_total":4,"seats_taken":\#(i % 4)}}"#
        }
        var results: [String: (rates: [Double], latencies: [Double], errors: Int)] = [:]
        func measure(_ op: String, _ lines: [String]) throws {
            let (seconds, latencies, errors) = try client.measure(lines, window: window)
            results[op, default: ([], [], 0)].rates.append(Double(lines.count) / seconds)
            results[op]!.latencies += latencies
            results[op]!.errors += errors
        }
        for _ in 0..<options.roundCount { try measure("party.upsert", load) }

        var lines: [String: [String]] = [:]
        lines["ping"] = (0..<requests).map { #"{"id":\#($0),"op":"ping"}"# }
        lines["fare"] = (0..<requests).map { i in
            #"{"id":\#(i),"op":"fare","from":\#(point()),"to":\#(point()),"depart_at":"2024-05-15T\#(10 + i % 14):30:00+09:00","tariff":"kr-seoul/regular","party_size":\#(i % 4 + 1)}"#
        }
        lines["clusters"] = (0..<requests).map { i in
            let z = 10 + i % 7
            let lat = Double.random(in: 37.50...37.60, using: &rng), lon = Double.random(in: 126.92...127.05, using: &rng)
            // A 390x844-pixel phone viewport at zoom z: the world is 256·2^z pixels wide.
            let w = 390.0 / (256 * pow(2, Double(z))) * 360, h = 844.0 / (256 * pow(2, Double(z))) * 360 * cos(lat * .pi / 180)
            return #"{"id":\#(i),"op":"clusters","zoom":\#(z),"bbox":{"west":\#(lon - w / 2),"south":\#(lat - h / 2),"east":\#(lon + w / 2),"north":\#(lat + h / 2)}}"#
        }
        lines["nearby"] = (0..<requests).map { i in
            #"{"id":\#(i),"op":"nearby","center":\#(point(37.50...37.60, 126.92...127.05)),"radius_m":1000,"limit":20}"#
        }
        for _ in 0..<options.roundCount {
            for op in ["ping", "fare", "nearby", "clusters"] { try measure(op, lines[op]!) }
        }
        let ping = Statistics.median(results["ping"]!.rates)
        var ops: [String: OpResult] = [:]
        for (op, r) in results {
            let rate = Statistics.Rounds(r.rates).rounded()
            ops[op] = OpResult(requests: op == "party.upsert" ? parties : requests, requests_per_second: rate.median.rounded(),
                               p50_us: (Statistics.percentile(r.latencies, 0.5) * 1e6).rounded(), p99_us: (Statistics.percentile(r.latencies, 0.99) * 1e6).rounded(),
                               errors: r.errors, vs_ping: (rate.median / ping * 1000).rounded() / 1000, range: rate.range)
        }
        let shown = store.map { PostgresLocation.isPostgresURL($0) ? PostgresLocation.redact($0) : $0 } ?? ":memory:"
        let report = Report(machine: .current, window: window, store: shown, rounds: options.roundCount, ops: ops, requests_per_second: ops["fare"]!.requests_per_second)
        if options.json { print(try jsonLine(report)); return }
        print("geofare bench worker: \(requests) requests per op, window \(window), \(parties) parties, median of \(options.roundCount) rounds, \(report.machine.cores) cores (\(report.machine.cpu))")
        print("store: \(shown)")
        print("op            requests/s     p50 µs    p99 µs  errors  vs ping  range over rounds")
        for op in ["ping", "fare", "nearby", "clusters", "party.upsert"] {
            let r = ops[op]!
            print("\(op.padding(toLength: 12, withPad: " ", startingAt: 0)) \(String(format: "%11.0f", r.requests_per_second)) \(String(format: "%10.0f", r.p50_us)) \(String(format: "%9.0f", r.p99_us))  \(String(format: "%6d", r.errors))  \(String(format: "%-7.3f", r.vs_ping))  \(Int(r.range[0]))–\(Int(r.range[1]))")
        }
    }
}

/// A worker subprocess driven over its stdin/stdout pipes.
final class WorkerClient: @unchecked Sendable {
    let process = Process()
    let input = Pipe(), output = Pipe()

    init(executable: URL, arguments: [String]) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Sends the lines with at most `window` unanswered; returns the wall time, each request's
    /// latency (seconds) and the number of error responses.
    func measure(_ lines: [String], window: Int) throws -> (Double, [Double], Int) {
        let n = lines.count
        let record = Timings(count: n)
        let flow = Window(size: max(1, window))
        let done = DispatchSemaphore(value: 0)
        // The requests as one contiguous buffer (the client should cost the machine as little
        // as possible: it shares the cores with the worker it measures).
        var payload: [UInt8] = []
        var ends: [Int] = []
        for line in lines {
            payload.append(contentsOf: line.utf8)
            payload.append(0x0A)
            ends.append(payload.count)
        }
        let readFD = output.fileHandleForReading.fileDescriptor
        let start = DispatchTime.now().uptimeNanoseconds
        Thread.detachNewThread {
            var received = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            var filled = 0
            while received < n {
                if filled == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
                let got = buffer.withUnsafeMutableBytes { read(readFD, $0.baseAddress! + filled, $0.count - filled) }
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { break }
                filled += got
                let now = DispatchTime.now().uptimeNanoseconds
                let before = received
                var lineStart = 0
                buffer.withUnsafeBufferPointer { b in
                    while lineStart < filled, let p = memchr(b.baseAddress! + lineStart, 0x0A, filled - lineStart) {
                        let nl = b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
                        // Responses come back in request order.
                        record.received(received, at: now, failed: WorkerClient.isFailure(UnsafeBufferPointer(rebasing: b[lineStart..<nl])))
                        received += 1
                        lineStart = nl + 1
                    }
                }
                if lineStart > 0 {
                    buffer.withUnsafeMutableBufferPointer { b in
                        _ = memmove(b.baseAddress!, b.baseAddress! + lineStart, filled - lineStart)
                    }
                    filled -= lineStart
                }
                flow.release(received - before)  // one wake-up per chunk read, not per line
            }
            done.signal()
        }
        let writeFD = input.fileHandleForWriting.fileDescriptor
        var i = 0
        while i < n {
            // Up to 64 lines per write, and never more than `window` unanswered.
            let count = min(64, n - i, max(1, window))
            flow.acquire(count)
            let now = DispatchTime.now().uptimeNanoseconds
            for k in i..<(i + count) { record.sent(k, at: now) }
            let from = i == 0 ? 0 : ends[i - 1], to = ends[i + count - 1]
            var offset = from
            while offset < to {
                let wrote = payload.withUnsafeBytes { write(writeFD, $0.baseAddress! + offset, to - offset) }
                if wrote < 0 { if errno == EINTR { continue } else { break } }
                offset += wrote
            }
            i += count
        }
        done.wait()
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, record.latencies(), record.errors)
    }

    /// Requests in flight, at most `size`: the writer blocks only when the window is full and
    /// the reader wakes it once per chunk of responses (not a semaphore round trip per line).
    final class Window: @unchecked Sendable {
        private let condition = NSCondition()
        private var free: Int
        init(size: Int) { free = size }
        func acquire(_ k: Int) {
            condition.lock()
            while free < k { condition.wait() }
            free -= k
            condition.unlock()
        }
        func release(_ k: Int) {
            guard k > 0 else { return }
            condition.lock()
            free += k
            condition.signal()
            condition.unlock()
        }
    }

    /// Send and receive times of one phase: each slot is written by one thread (the writer
    /// or the reader) and read after both are done.
    final class Timings: @unchecked Sendable {
        private let sentAt: UnsafeMutableBufferPointer<UInt64>
        private let receivedAt: UnsafeMutableBufferPointer<UInt64>
        private var failures = 0  // the reader's alone
        init(count: Int) {
            sentAt = .allocate(capacity: count)
            sentAt.initialize(repeating: 0)
            receivedAt = .allocate(capacity: count)
            receivedAt.initialize(repeating: 0)
        }
        deinit {
            sentAt.deallocate()
            receivedAt.deallocate()
        }
        var errors: Int { failures }
        func sent(_ i: Int, at t: UInt64) { sentAt[i] = t }
        func received(_ i: Int, at t: UInt64, failed: Bool) {
            receivedAt[i] = t
            if failed { failures += 1 }
        }
        func latencies() -> [Double] {
            zip(sentAt, receivedAt).map { Double($1 &- $0) / 1e9 }
        }
    }

    /// Whether a response line says `"ok":false`: the protocol writes it right after the id,
    /// so only the first bytes are searched (a Foundation string search here would make the
    /// benchmark client, not the worker, the bottleneck).
    static let failurePattern = Array(#""ok":false"#.utf8)

    static func isFailure(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let pattern = failurePattern
        let end = min(line.count, 160)
        guard end >= pattern.count else { return false }
        return pattern.withUnsafeBufferPointer { p in
            var i = 0
            while i + p.count <= end {
                if line[i] == p[0], memcmp(line.baseAddress! + i, p.baseAddress!, p.count) == 0 { return true }
                i += 1
            }
            return false
        }
    }

    func close() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
