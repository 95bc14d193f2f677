import Dispatch
import Foundation
import GeoFareCore
import GeoFareText
import Synchronization

/// Set by SIGTERM/SIGINT: stop reading, answer what was read, exit 0.
let stopRequested = Atomic<Bool>(false)

/// The JSON-lines loop: reads requests from a file descriptor, answers each line exactly once,
/// in order, and writes the answers to another.
///
/// - Complete lines available at once are answered as a batch: runs of stateless requests are
///   spread over the cores, party requests run in order on this thread, and each run of party
///   writes (`party.upsert`/`party.remove`) is committed as one transaction. The batch's party
///   ops share one look at the store for other processes' changes
///   (``WorkerDispatcher/batch(_:)``). Responses are
///   written in input order, after the commits they acknowledge.
/// - While no input comes (every 200 ms of quiet), the party store's change notices are acted
///   on (``WorkerDispatcher/idle()``).
/// - Output is flushed whenever the worker is about to wait for more input, so a client that
///   sends a line and waits always gets its answer; a pipelining client gets batched writes.
/// - A line longer than `maxLineBytes` is skipped to its end and answered `request_too_large`.
/// - End of input: answer everything, flush, return 0. SIGTERM/SIGINT: stop reading, answer
///   the complete lines already read, flush, return 0.
public final class WorkerLoop: @unchecked Sendable {
    let dispatcher: WorkerDispatcher
    let input: Int32
    let output: Int32
    let maxLineBytes: Int
    let threads: Int
    /// Whether requests in the fast forms are read straight from their bytes
    /// (``FastFareRequest``, ``FastPartyRequest``); off, every line takes the general path
    /// (the same answers: for agreement tests and before/after benchmarks).
    let fastPath: Bool

    /// One output buffer per lane, reused batch after batch: responses computed in parallel
    /// are written here and copied out in input order (no array per response).
    let laneWriters: LaneWriters

    public init(dispatcher: WorkerDispatcher, input: Int32 = 0, output: Int32 = 1, maxLineBytes: Int = 1 << 20,
                threads: Int = ProcessInfo.processInfo.activeProcessorCount, fastPath: Bool = true) {
        self.fastPath = fastPath
        self.dispatcher = dispatcher
        self.input = input
        self.output = output
        self.maxLineBytes = maxLineBytes
        self.threads = max(1, threads)
        laneWriters = LaneWriters(count: self.threads)
    }

    /// Installs the SIGTERM/SIGINT handlers and ignores SIGPIPE (a closed stdout ends the loop).
    public static func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        for sig in [SIGTERM, SIGINT] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { stopRequested.store(true, ordering: .relaxed) }
            source.resume()
            retainedSources.append(source)
        }
    }

    nonisolated(unsafe) private static var retainedSources: [any DispatchSourceSignal] = []

    /// Runs until end of input or a stop signal. Returns the process exit status.
    public func run() -> Int32 {
        var pending: [UInt8] = []
        pending.reserveCapacity(1 << 17)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var out: [UInt8] = []
        out.reserveCapacity(1 << 17)
        var discarding = false      // inside an over-long line, skipping to its end
        var discarded = 0
        var eof = false
        while true {
            // Answer every complete line we have.
            var lines: [Range<Int>] = []
            var start = 0
            var tooLargeAt: [Int: Int] = [:]  // index in `lines` → byte count of a skipped line
            while let nl = pending[start...].firstIndex(of: 0x0A) {
                if discarding {
                    discarded += nl - start
                    tooLargeAt[lines.count] = discarded
                    lines.append(start..<start)
                    discarding = false
                } else if nl - start > maxLineBytes {
                    tooLargeAt[lines.count] = nl - start
                    lines.append(start..<start)
                } else {
                    lines.append(start..<nl)
                }
                start = nl + 1
            }
            if !lines.isEmpty {
                dispatcher.batch { answer(lines, in: pending, tooLarge: tooLargeAt, into: &out) }
                pending.removeSubrange(0..<start)
            }
            if !discarding && pending.count > maxLineBytes {
                discarding = true
                discarded = pending.count
                pending.removeAll(keepingCapacity: true)
            } else if discarding {
                discarded += pending.count
                pending.removeAll(keepingCapacity: true)
            }
            if eof || stopRequested.load(ordering: .relaxed) {
                if eof && (!pending.isEmpty || discarding) {
                    // A last line without a newline is still a line.
                    if discarding {
                        out += dispatcher.tooLarge(discarded + pending.count, limit: maxLineBytes)
                    } else {
                        dispatcher.batch { answer([0..<pending.count], in: pending, tooLarge: [:], into: &out) }
                    }
                }
                return write(&out) ? 0 : 1
            }
            // About to wait for input: flush what is answered.
            guard write(&out) else { return 1 }
            var fds = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&fds, 1, 200)
            if ready == 0 { dispatcher.idle(); continue }
            if ready < 0 { if errno == EINTR { continue } else { return 1 } }
            let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR || errno == EAGAIN { continue } else { return 1 } }
            if n == 0 { eof = true; continue }
            pending.append(contentsOf: chunk[0..<n])
        }
    }

    /// Answers a batch of lines in order into `out`.
    func answer(_ lines: [Range<Int>], in buffer: [UInt8], tooLarge: [Int: Int], into out: inout [UInt8]) {
        // Parse everything first, on every core when the batch is large, so we know which
        // requests are stateful before running any.
        let parseErrors = Slots(repeating: [UInt8](), count: lines.count)
        let parsedBox = Slots<JSONValue?>(repeating: nil, count: lines.count)
        let fastBox = Slots<FastFareRequest?>(repeating: nil, count: lines.count)
        let partyBox = Slots<FastPartyRequest?>(repeating: nil, count: lines.count)
        let fastPath = self.fastPath
        buffer.withUnsafeBytes { raw in
            let base = UnsafeRawBufferPointerBox(raw)
            let lanes = lines.count >= 64 && threads > 1 ? threads : 1
            Parallel.run(lanes: lanes) { lane in
                var k = lane
                while k < lines.count {
                    defer { k += lanes }
                    guard tooLarge[k] == nil else { continue }
                    var range = lines[k]
                    if range.count > 0, base.raw[range.upperBound - 1] == 0x0D { range = range.lowerBound..<(range.upperBound - 1) }
                    if fastPath {
                        let line = UnsafeRawBufferPointer(rebasing: base.raw[range])
                        if let fast = FastFareRequest.decode(line, names: self.dispatcher.lane(lane).tariffNames) {
                            fastBox.set(k, fast)
                            continue
                        }
                        if let party = FastPartyRequest.decode(line) {
                            partyBox.set(k, party)
                            continue
                        }
                    }
                    let line = UnsafeRawBufferPointer(rebasing: base.raw[range])
                    switch Result(catching: { () throws(GeoFareError) in try JSONParser.parse(line) }) {
                    case let .success(value): parsedBox.set(k, value)
                    case let .failure(error): parseErrors.set(k, self.dispatcher.response(to: error, line: line))
                    }
                }
            }
        }
        var responses = parseErrors.values
        let parsed = parsedBox.values
        let fast = fastBox.values
        let party = partyBox.values
        dispatcher.countFastPath(fast.reduce(0) { $0 + ($1 == nil ? 0 : 1) } + party.reduce(0) { $0 + ($1 == nil ? 0 : 1) })
        /// Whether line i is a party write, read either way.
        func isPartyWrite(_ i: Int) -> Bool {
            if let p = party[i] { return p.isWrite }
            guard fast[i] == nil, tooLarge[i] == nil, let r = parsed[i] else { return false }
            return WorkerOp(request: r)?.isPartyWrite == true
        }
        /// Fast-path fares and stateless ops may run on any core; party ops run in order here.
        func isStateless(_ i: Int) -> Bool {
            if fast[i] != nil { return true }
            if party[i] != nil { return false }
            guard tooLarge[i] == nil, let r = parsed[i] else { return false }
            return !(WorkerOp(request: r)?.runsInOrder ?? false)
        }
        @Sendable func respond(_ i: Int) -> [UInt8] {
            if let f = fast[i] { return dispatcher.respond(to: f) }
            return dispatcher.respond(to: parsed[i]!)
        }
        let spans = Slots<Span?>(repeating: nil, count: lines.count)
        for lane in 0..<threads { laneWriters[lane].removeAll() }
        /// Answers the run of party writes that starts at `k`: one transaction, each
        /// answered after its commit. Returns where the run ends.
        func answerWrites(from k: Int) -> Int {
            var end = k + 1
            while end < lines.count, isPartyWrite(end) { end += 1 }
            let run = (k..<end).map { i in party[i].map(WorkerDispatcher.WriteLine.fast) ?? .parsed(parsed[i]!) }
            for (i, bytes) in zip(k..<end, dispatcher.respond(toWrites: run)) { responses[i] = bytes }
            return end
        }
        var k = 0
        while k < lines.count {
            if let bytes = tooLarge[k] {
                responses[k] = dispatcher.tooLarge(bytes, limit: maxLineBytes)
                k += 1
                continue
            }
            if let p = party[k] {
                if p.isWrite { k = answerWrites(from: k); continue }
                responses[k] = dispatcher.respond(toQuery: p)
                k += 1
                continue
            }
            if fast[k] == nil {
                guard let request = parsed[k] else { k += 1; continue }
                if let op = WorkerOp(request: request), op.runsInOrder {
                    guard op.isPartyWrite else {
                        responses[k] = dispatcher.respond(to: request)
                        k += 1
                        continue
                    }
                    // A run of party writes: one transaction, each answered after its commit.
                    k = answerWrites(from: k)
                    continue
                }
            }
            // A run of stateless requests: spread it over the cores.
            var end = k
            while end < lines.count, isStateless(end) { end += 1 }
            let run = k..<end
            if run.count >= 16 && threads > 1 {
                let lanes = threads
                let writers = laneWriters, dispatcher = self.dispatcher
                let successes = LaneCounts(lanes: lanes)
                Parallel.run(lanes: lanes) { lane in
                    // Request i goes to lane i % lanes, the lane that decoded it.
                    var i = run.lowerBound + ((lane - run.lowerBound % lanes) % lanes + lanes) % lanes
                    var ok = 0
                    while i < run.upperBound {
                        let start = writers[lane].count
                        if let f = fast[i] {
                            if dispatcher.respond(to: f, lane: lane, into: &writers[lane]) == nil { ok += 1 }
                        } else {
                            writers[lane].append(dispatcher.respond(to: parsed[i]!))
                        }
                        spans.set(i, Span(lane: lane, start: start, end: writers[lane].count))
                        i += lanes
                    }
                    successes.set(lane, ok)
                }
                dispatcher.countSuccesses(successes.total)
            } else {
                for i in run { responses[i] = respond(i) }
            }
            k = end
        }
        for i in 0..<lines.count {
            if let s = spans[i] {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: laneWriters[s.lane].bytes[s.start..<s.end]))
            } else {
                out += responses[i]
            }
        }
    }

    /// Writes and empties `out`; false when the output is closed.
    func write(_ out: inout [UInt8]) -> Bool {
        var offset = 0
        while offset < out.count {
            let n = out[offset...].withUnsafeBytes { Foundation.write(output, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += n
        }
        out.removeAll(keepingCapacity: true)
        return true
    }

    /// A raw buffer handed to the parsing lanes (read-only while they run).
    struct UnsafeRawBufferPointerBox: @unchecked Sendable {
        let raw: UnsafeRawBufferPointer
        init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }
    }

    /// Per-lane counts, a cache line apart.
    final class LaneCounts: @unchecked Sendable {
        private let slots: UnsafeMutablePointer<Int>
        private let lanes: Int
        init(lanes: Int) {
            self.lanes = lanes
            slots = .allocate(capacity: lanes * 16)
            slots.initialize(repeating: 0, count: lanes * 16)
        }
        deinit { slots.deallocate() }
        func set(_ lane: Int, _ n: Int) { slots[lane * 16] = n }
        var total: Int { (0..<lanes).reduce(0) { $0 + slots[$1 * 16] } }
    }

    /// Per-lane output buffers (each lane touches only its own).
    final class LaneWriters: @unchecked Sendable {
        private let writers: UnsafeMutablePointer<ByteWriter>
        let count: Int
        init(count: Int) {
            self.count = count
            writers = .allocate(capacity: count)
            for i in 0..<count { (writers + i).initialize(to: ByteWriter(capacity: 1 << 16)) }
        }
        deinit {
            for i in 0..<count { writers[i].deallocate() }
            writers.deinitialize(count: count)
            writers.deallocate()
        }
        subscript(_ lane: Int) -> ByteWriter {
            get { writers[lane] }
            _modify { yield &writers[lane] }
        }
    }

    /// Values written by several threads into distinct, preallocated slots (no shared array
    /// is mutated, so there is no copy-on-write check to race on): parsed and fast-path
    /// requests, parse-error responses, where each parallel response lies.
    final class Slots<Value>: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<Value>
        init(repeating value: Value, count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: value)
        }
        deinit {
            slots.deinitialize()
            slots.deallocate()
        }
        func set(_ i: Int, _ v: Value) { slots[i] = v }
        subscript(_ i: Int) -> Value { slots[i] }
        var values: [Value] { Array(slots) }
    }

    /// Where a response computed in parallel lies in its lane's buffer.
    struct Span {
        let lane: Int, start: Int, end: Int
    }
}
