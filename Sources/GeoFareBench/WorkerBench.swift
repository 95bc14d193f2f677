import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareParties
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

        The burst (--burst N, a backend's burst of writes): N fresh `party.upsert` lines written at
        once into a new `geofare worker --db FILE` (a new SQLite file in a temporary directory
        each round), timed from the first byte written to the last answer read, so it includes
        every commit (the worker acknowledges a write only after its transaction committed) and
        every acknowledgement; start-up is left out (the worker has answered a `ping` before the
        clock starts). N `fare` lines are piped the same way into another new worker in the same
        round: `burst_upsert_vs_fare` is the per-request time of an upsert over a fare's.

        --baseline-worker general (the same binary with GEOFARE_FAST_PATH=off: every line through
        the general path) or the path of another geofare binary (an older build) measures the
        burst, `nearby` and `clusters` on that worker too, in the same rounds, under `baseline`.
        """
    )

    @OptionGroup var options: BenchOptions
    @Option(help: "Requests per op.") var requests = 100_000
    @Option(help: "Requests in flight at most.") var window = 512
    @Option(help: "Parties loaded before the clusters phase.") var parties = 20_000
    @Option(help: "The worker's party store (--store of geofare worker: a SQLite path or postgres://...); default a private in-memory SQLite. Repeat it to measure several stores one after the other in this run, one report each.")
    var store: [String] = []
    @Option(help: "Fresh party.upsert lines (and as many fares) piped at once into a new worker on a SQLite file; 0: no burst.")
    var burst = 40_000
    @Option(help: "Measure the burst, nearby and clusters on this worker too: 'general' (this binary, GEOFARE_FAST_PATH=off) or a geofare binary's path.")
    var baselineWorker: String?

    struct OpResult: Encodable {
        let requests: Int
        let requests_per_second, p50_us, p99_us: Double
        let errors: Int
        let vs_ping: Double
        /// The lowest and highest round's requests per second.
        let range: [Double]
    }

    struct Report: Encodable {
        let benchmark = "worker"
        let machine: MachineInfo, window: Int
        /// The store measured (a path, `:memory:`, or the URL without its password).
        let store: String
        let rounds: Int
        let ops: [String: OpResult]
        let requests_per_second: Double
        /// The burst (see the discussion): lines per burst, upserts per second end to end, µs
        /// per upsert and per fare, and their ratio; medians over rounds.
        let burst: Int
        let burst_upserts_per_second, burst_upsert_us, burst_fare_us, burst_upsert_vs_fare: Double
        let burst_errors: Int
        /// `[low, high]` over rounds of each burst figure.
        let ranges: [String: [Double]]
        let baseline: Baseline?
    }

    /// The same figures measured on the baseline worker in the same rounds.
    struct Baseline: Encodable {
        let worker: String
        let burst_upserts_per_second, burst_upsert_us, burst_fare_us, burst_upsert_vs_fare: Double
        let nearby_per_second, clusters_per_second: Double
        /// This worker's figure over the baseline's (rates: > 1 is faster).
        let upserts_vs_baseline, nearby_vs_baseline, clusters_vs_baseline: Double
        let ranges: [String: [Double]]
    }

    /// Burst figures of one worker over the rounds.
    struct BurstRounds {
        var upsertSeconds: [Double] = []
        var fareSeconds: [Double] = []
        var errors = 0
    }

    func run() throws {
        for store in store.isEmpty ? [nil] : store.map(Optional.some) { try measure(store: store) }
    }

    func measure(store: String?) throws {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let storeArguments = store.map { ["--store", $0] } ?? ["--db", ":memory:"]
        let client = try WorkerClient(executable: exe, arguments: ["worker"] + storeArguments)
        defer { client.close() }
        // The baseline worker: this binary without the fast path, or another build.
        let baselineExe: (url: URL, environment: [String: String])? = baselineWorker.map { b in
            b == "general" ? (exe, ["GEOFARE_FAST_PATH": "off"]) : (URL(fileURLWithPath: b), [:])
        }
        let baselineClient = try baselineExe.map { try WorkerClient(executable: $0.url, arguments: ["worker"] + storeArguments, environment: $0.environment) }
        defer { baselineClient?.close() }
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
        if let baselineClient { _ = try baselineClient.measure(load, window: window) }

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
        // The burst's lines: fresh parties (new ids every round, into a new file) and fares.
        let burstFares = Array((0..<burst).map { i in
            #"{"id":\#(i),"op":"fare","from":\#(point()),"to":\#(point()),"depart_at":"2024-05-15T\#(10 + i % 14):30:00+09:00","tariff":"kr-seoul/regular","party_size":\#(i % 4 + 1)}"#
        }.joined(separator: "\n").utf8) + [0x0A]
        func burstUpserts(_ round: Int) -> [UInt8] {
            Array((0..<burst).map { i in
                #"{"id":\#(i),"op":"party.upsert","party":{"id":"b\#(round)-\#(i)","origin":\#(point()),"destination":\#(point()),"depart_at":"2030-05-15T22:30:00+09:00","seats_total":4,"seats_taken":\#(i % 4)}}"#
            }.joined(separator: "\n").utf8) + [0x0A]
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-burst-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var bursts = BurstRounds(), baselineBursts = BurstRounds()
        var baselineRates: [String: [Double]] = [:]
        func runBurst(_ executable: URL, _ environment: [String: String], _ name: String, round: Int, into rounds: inout BurstRounds) throws {
            guard burst > 0 else { return }
            let upserts = try WorkerClient.burst(executable: executable, environment: environment,
                                                 file: directory.appendingPathComponent("\(name)-upsert-\(round).db").path, payload: burstUpserts(round), count: burst)
            let fares = try WorkerClient.burst(executable: executable, environment: environment,
                                               file: directory.appendingPathComponent("\(name)-fare-\(round).db").path, payload: burstFares, count: burst)
            rounds.upsertSeconds.append(upserts.seconds)
            rounds.fareSeconds.append(fares.seconds)
            rounds.errors += upserts.errors + fares.errors
        }
        for round in 0..<options.roundCount {
            for op in ["ping", "fare", "nearby", "clusters"] { try measure(op, lines[op]!) }
            try runBurst(exe, [:], "new", round: round, into: &bursts)
            if let baselineClient, let baselineExe {
                for op in ["nearby", "clusters"] {
                    let (seconds, _, _) = try baselineClient.measure(lines[op]!, window: window)
                    baselineRates[op, default: []].append(Double(requests) / seconds)
                }
                try runBurst(baselineExe.url, baselineExe.environment, "baseline", round: round, into: &baselineBursts)
            }
        }
        /// Median and range of a burst's figures.
        func burstFigures(_ b: BurstRounds) -> (rate: Statistics.Rounds, upsertUS: Statistics.Rounds, fareUS: Statistics.Rounds, ratio: Statistics.Rounds) {
            guard burst > 0 else { let z = Statistics.Rounds([0]); return (z, z, z, z) }
            let upsertUS = Statistics.Rounds(b.upsertSeconds.map { ($0 / Double(burst) * 1e7).rounded() / 10 })
            let fareUS = Statistics.Rounds(b.fareSeconds.map { ($0 / Double(burst) * 1e7).rounded() / 10 })
            let ratio = Statistics.Rounds(zip(b.upsertSeconds, b.fareSeconds).map { ($0 / $1 * 100).rounded() / 100 })
            return (Statistics.Rounds(b.upsertSeconds.map { Double(burst) / $0 }).rounded(), upsertUS, fareUS, ratio)
        }
        let burstNew = burstFigures(bursts)
        let ping = Statistics.median(results["ping"]!.rates)
        var ops: [String: OpResult] = [:]
        for (op, r) in results {
            let rate = Statistics.Rounds(r.rates).rounded()
            ops[op] = OpResult(requests: op == "party.upsert" ? parties : requests, requests_per_second: rate.median.rounded(),
                               p50_us: (Statistics.percentile(r.latencies, 0.5) * 1e6).rounded(), p99_us: (Statistics.percentile(r.latencies, 0.99) * 1e6).rounded(),
                               errors: r.errors, vs_ping: (rate.median / ping * 1000).rounded() / 1000, range: rate.range)
        }
        let shown = store.map { PostgresLocation.isPostgresURL($0) ? PostgresLocation.redact($0) : $0 } ?? ":memory:"
        var baseline: Baseline?
        if let baselineWorker {
            let b = burstFigures(baselineBursts)
            let nearby = Statistics.Rounds(baselineRates["nearby"]!).rounded(), clusters = Statistics.Rounds(baselineRates["clusters"]!).rounded()
            func ratio(_ a: Double, _ b: Double) -> Double { b > 0 ? (a / b * 100).rounded() / 100 : 0 }
            baseline = Baseline(worker: baselineWorker, burst_upserts_per_second: b.rate.median, burst_upsert_us: b.upsertUS.median,
                                burst_fare_us: b.fareUS.median, burst_upsert_vs_fare: b.ratio.median,
                                nearby_per_second: nearby.median, clusters_per_second: clusters.median,
                                upserts_vs_baseline: ratio(burstNew.rate.median, b.rate.median),
                                nearby_vs_baseline: ratio(ops["nearby"]!.requests_per_second, nearby.median),
                                clusters_vs_baseline: ratio(ops["clusters"]!.requests_per_second, clusters.median),
                                ranges: ["burst_upserts_per_second": b.rate.range, "burst_upsert_us": b.upsertUS.range, "burst_fare_us": b.fareUS.range,
                                         "burst_upsert_vs_fare": b.ratio.range, "nearby_per_second": nearby.range, "clusters_per_second": clusters.range])
        }
        let report = Report(machine: .current, window: window, store: shown, rounds: options.roundCount, ops: ops, requests_per_second: ops["fare"]!.requests_per_second,
                            burst: burst, burst_upserts_per_second: burstNew.rate.median, burst_upsert_us: burstNew.upsertUS.median,
                            burst_fare_us: burstNew.fareUS.median, burst_upsert_vs_fare: burstNew.ratio.median, burst_errors: bursts.errors,
                            ranges: burst > 0 ? ["burst_upserts_per_second": burstNew.rate.range, "burst_upsert_us": burstNew.upsertUS.range,
                                                 "burst_fare_us": burstNew.fareUS.range, "burst_upsert_vs_fare": burstNew.ratio.range] : [:],
                            baseline: baseline)
        if options.json { print(try jsonLine(report)); return }
        print("geofare bench worker: \(requests) requests per op, window \(window), \(parties) parties, median of \(options.roundCount) rounds, \(report.machine.cores) cores (\(report.machine.cpu))")
        print("store: \(shown)")
        print("op            requests/s     p50 µs    p99 µs  errors  vs ping  range over rounds")
        for op in ["ping", "fare", "nearby", "clusters", "party.upsert"] {
            let r = ops[op]!
            print("\(op.padding(toLength: 12, withPad: " ", startingAt: 0)) \(String(format: "%11.0f", r.requests_per_second)) \(String(format: "%10.0f", r.p50_us)) \(String(format: "%9.0f", r.p99_us))  \(String(format: "%6d", r.errors))  \(String(format: "%-7.3f", r.vs_ping))  \(Int(r.range[0]))–\(Int(r.range[1]))")
        }
        func burstLine(_ who: String, _ rate: Double, _ upsertUS: Double, _ fareUS: Double, _ ratio: Double) {
            print("burst \(who): \(Int(rate)) upserts/s, \(String(format: "%.1f", upsertUS)) µs per upsert, \(String(format: "%.1f", fareUS)) µs per fare, upsert/fare \(String(format: "%.2f", ratio))")
        }
        if burst > 0 {
            print("burst: \(burst) fresh party.upsert lines (and \(burst) fares) piped at once into a new worker on a SQLite file; first write to last answer, start-up excluded")
            burstLine("(this worker)", report.burst_upserts_per_second, report.burst_upsert_us, report.burst_fare_us, report.burst_upsert_vs_fare)
        }
        if let b = baseline {
            burstLine("(baseline \(b.worker))", b.burst_upserts_per_second, b.burst_upsert_us, b.burst_fare_us, b.burst_upsert_vs_fare)
            print("baseline \(b.worker): nearby \(Int(b.nearby_per_second))/s, clusters \(Int(b.clusters_per_second))/s; this worker over baseline: upserts ×\(b.upserts_vs_baseline), nearby ×\(b.nearby_vs_baseline), clusters ×\(b.clusters_vs_baseline)")
        }
    }
}

/// A worker subprocess driven over its stdin/stdout pipes.
final class WorkerClient: @unchecked Sendable {
    let process = Process()
    let input = Pipe(), output = Pipe()

    init(executable: URL, arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
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
            var reader = LineReader(fd: readFD)
            while received < n, reader.fill() {
                let now = DispatchTime.now().uptimeNanoseconds
                let before = received
                reader.forEachLine { line in
                    // Responses come back in request order.
                    record.received(received, at: now, failed: WorkerClient.isFailure(line))
                    received += 1
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

    /// One burst: a new worker on the SQLite file `file`, started and answering a `ping`, then
    /// `payload` (`count` lines) written at once by a writer thread while this thread reads
    /// every answer. Returns the seconds from the first write to the last answer and the
    /// number of error answers; then ends the worker.
    static func burst(executable: URL, environment: [String: String], file: String, payload: [UInt8], count: Int) throws -> (seconds: Double, errors: Int) {
        let client = try WorkerClient(executable: executable, arguments: ["worker", "--db", file], environment: environment)
        defer { client.close() }
        _ = try client.measure([#"{"id":0,"op":"ping"}"#], window: 1)
        let writeFD = client.input.fileHandleForWriting.fileDescriptor, readFD = client.output.fileHandleForReading.fileDescriptor
        let box = PayloadBox(payload)
        let start = DispatchTime.now().uptimeNanoseconds
        Thread.detachNewThread {
            box.bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let wrote = write(writeFD, raw.baseAddress! + offset, raw.count - offset)
                    if wrote < 0 { if errno == EINTR { continue } else { return } }
                    offset += wrote
                }
            }
        }
        var received = 0, errors = 0
        var reader = LineReader(fd: readFD)
        while received < count, reader.fill() {
            reader.forEachLine { line in
                if isFailure(line) { errors += 1 }
                received += 1
            }
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard received == count else { throw GeoFareError(code: .internalError, message: "the burst worker answered \(received) of \(count) lines", field: nil) }
        return (seconds, errors)
    }

    /// Lines from a pipe, read in chunks into one buffer (1 MiB, doubled whenever a line fills
    /// it): ``fill()`` takes the next chunk, ``forEachLine(_:)`` hands over every whole line in
    /// the buffer (without its line feed) and keeps the unfinished rest for the next chunk.
    struct LineReader {
        let fd: Int32
        private var buffer = [UInt8](repeating: 0, count: 1 << 20)
        private var filled = 0

        init(fd: Int32) { self.fd = fd }

        /// Reads what the pipe has (again after an interrupted call); false at its end or on an error.
        mutating func fill() -> Bool {
            while true {
                if filled == buffer.count { buffer += [UInt8](repeating: 0, count: buffer.count) }
                let fd = self.fd, end = filled
                let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + end, $0.count - end) }
                if got < 0 && errno == EINTR { continue }
                if got <= 0 { return false }
                filled += got
                return true
            }
        }

        /// Calls `body` with each whole line read so far, in order, and drops them from the buffer.
        mutating func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
            var lineStart = 0
            let filled = self.filled
            buffer.withUnsafeBufferPointer { b in
                while lineStart < filled, let p = memchr(b.baseAddress! + lineStart, 0x0A, filled - lineStart) {
                    let nl = b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
                    body(UnsafeBufferPointer(rebasing: b[lineStart..<nl]))
                    lineStart = nl + 1
                }
            }
            if lineStart > 0 {
                buffer.withUnsafeMutableBufferPointer { b in _ = memmove(b.baseAddress!, b.baseAddress! + lineStart, filled - lineStart) }
                self.filled -= lineStart
            }
        }
    }

    /// The burst's bytes, handed to the writer thread (read-only).
    final class PayloadBox: @unchecked Sendable {
        let bytes: [UInt8]
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }
}
