import Dispatch
import Foundation
import GeoFareCore
import GeoFareText

/// Streams a CSV input through every core: it reads blocks of a few MiB, cuts each at record
/// ends (``CSVRecordScanner``'s rule), hands the pieces to lanes on the global queue, and writes
/// the lanes' outputs in input order, while this thread writes the previous block and reads the
/// next one. Memory stays a few blocks, whatever the input's size.
///
/// The job on top (``FareCSVJob``, or any per-record batch) only says what a lane does with its
/// piece: scan its records and append output bytes.
public final class CSVBlockStream {
    /// What the lanes of one block did.
    public struct Counts: Sendable {
        public var rows = 0
        public var failed = 0
        public init(rows: Int = 0, failed: Int = 0) {
            self.rows = rows
            self.failed = failed
        }

        /// Adds another block's or lane's counts to these.
        mutating func add(_ other: Counts) {
            rows += other.rows
            failed += other.failed
        }
    }

    /// One lane's piece of a block: complete records, the physical line of its first byte, and
    /// the lane's index within the block (0 ..< lanes).
    public struct Piece {
        public let bytes: UnsafeBufferPointer<UInt8>
        public let firstLine: Int
        public let lane: Int
    }

    /// Each record of `piece` in order, scanned in place: `row` prices or copies it and returns
    /// false for a failed row; a last record whose quote never closes (blocks are cut at record
    /// ends, so only the input's last record can be broken) is counted as a failed row and
    /// handed to `broken`, the rows before it standing. The loop of every lane on the stream.
    public static func records(of piece: Piece, _ row: (inout CSVRecordScanner) -> Bool, broken: (GeoFareError) -> Void) -> Counts {
        var scanner = CSVRecordScanner(firstLine: piece.firstLine)
        var position = 0
        var counts = Counts()
        do {
            while try scanner.next(in: piece.bytes, from: &position) {
                counts.rows += 1
                if !row(&scanner) { counts.failed += 1 }
            }
        } catch {
            counts.rows += 1
            counts.failed += 1
            broken(error)
        }
        return counts
    }

    public let source: ByteSource
    /// Bytes read per block.
    public let blockBytes: Int
    /// Lanes per block at most (a block is cut into about this many pieces).
    public let maxLanes: Int

    /// Bytes not yet handed out: always starts at a record boundary.
    private var pending: BlockBuffer
    /// The physical line number of `pending`'s first byte.
    private var nextLine = 1
    private var eof = false
    /// Bytes the next fill reads up to: a small first block, doubled block by block up to
    /// ``blockBytes``, so the lanes start after 64 KiB are read instead of a whole block (and
    /// the header's copy-down moves 64 KiB, not 4 MiB).
    private var fillTarget: Int

    public init(source: ByteSource, blockBytes: Int = 4 << 20, maxLanes: Int) {
        self.source = source
        self.blockBytes = blockBytes
        self.maxLanes = max(1, maxLanes)
        pending = BlockBuffer(capacity: blockBytes)
        fillTarget = min(blockBytes, 1 << 16)
    }

    /// A fresh output buffer's size: enough for a full block's piece (about 2.5 output bytes an
    /// input byte), so that the small first blocks do not leave each buffer to grow, onto
    /// fresh pages, as the blocks do.
    private var outputCapacity: Int { blockBytes / maxLanes * 3 + 4096 }

    /// The size to fill the next block to (see ``fillTarget``).
    private func nextFillTarget() -> Int {
        defer { fillTarget = min(blockBytes, fillTarget * 2) }
        return fillTarget
    }

    /// Reads the first record (a UTF-8 byte-order mark stripped): the header.
    /// - Returns: its fields, or `nil` when the input holds nothing but blank lines.
    /// - Throws: ``GeoFareError/unterminatedQuote(line:)`` when the header's quote never closes.
    public func header() throws(GeoFareError) -> [String]? {
        eof = pending.fill(from: source, upTo: nextFillTarget())
        if pending.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
        var end = CSVRecordScanner.firstRecordEnd(pending.bytes)
        while end == nil && !eof {
            eof = pending.fill(from: source, upTo: pending.count + blockBytes)
            end = CSVRecordScanner.firstRecordEnd(pending.bytes)
        }
        let all = pending.bytes
        guard all.contains(where: { $0 != 0x0A && $0 != 0x0D }) else { return nil }
        let stop = end ?? all.count
        var reader = CSVReader(skipBOM: false)
        var fields: [String] = []
        reader.feed(UnsafeBufferPointer(rebasing: all[0..<stop])) { fields = $0.fields }
        try reader.finish { fields = $0.fields }
        let consumed = min(stop + 1, all.count)
        nextLine += all[0..<consumed].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        pending.removeFirst(consumed)
        return fields
    }

    /// Runs every remaining record through `lane`, block by block, and writes the outputs in order.
    /// - Parameters:
    ///   - lane: called concurrently, once per piece; it appends the piece's output to its buffer
    ///     and counts its rows.
    ///   - write: receives the output bytes in input order (on this thread).
    ///   - afterBlock: called after each block with the totals so far; return false to stop.
    ///   - overlap: start each block's lanes before the block before it is done, so a lane that
    ///     finishes its share early goes on with the next block instead of waiting for the
    ///     others (two blocks in memory at once instead of one). The output, the counts and
    ///     `afterBlock`'s calls are the same; what lanes report on the side (not through their
    ///     output) may then arrive while an earlier block's `afterBlock` runs.
    public func run(lane: @escaping @Sendable (Piece, inout ByteWriter) -> Counts, write: (UnsafeBufferPointer<UInt8>) -> Void,
                    afterBlock: (Counts) -> Bool = { _ in true }, overlap: Bool = false) -> Counts {
        if overlap { return runOverlapped(lane: lane, write: write, afterBlock: afterBlock) }
        var total = Counts()
        let pool = BufferPool(capacity: outputCapacity)
        var previous: PartBox?
        var spare = BlockBuffer(capacity: blockBytes)
        // Where the next block ends and how it is cut, found while the lanes priced the block
        // before it: the lanes never wait for this scan of the whole block.
        // `nil`: not planned yet (the first block, or `pending` changed).
        var plan: Plan?
        while let p = nextBlock(planned: plan) {
            // Everything up to the last record boundary goes now; the rest waits for more bytes.
            // The next block starts with this one's incomplete last record and is read into
            // the spare buffer while the lanes work (no copy of the block itself).
            spare.removeAll()
            spare.append(UnsafeBufferPointer(rebasing: pending.bytes[p.complete...]))
            var nextEOF = eof
            var nextPlan: Plan?
            let (group, parts) = startLanes(pending, plan: p, firstLine: nextLine, pool: pool, lane: lane)
            if let previous { previous.emit(write, into: pool) }
            if !eof { nextEOF = spare.fill(from: source, upTo: nextFillTarget()) }
            nextPlan = spare.isEmpty ? nil : Self.plan(spare.bytes, eof: nextEOF, maxLanes: maxLanes)
            group.wait()
            previous = parts
            total.add(parts.counts)
            nextLine += p.newlines
            swap(&pending, &spare)
            eof = nextEOF
            plan = nextPlan
            if !afterBlock(total) { break }
        }
        previous?.emit(write, into: pool)
        return total
    }

    /// A block whose lanes may still be running: its buffer (left unchanged until ``group``
    /// is done, when it is reused for a later block) and their outputs.
    final class BlockInFlight {
        let buffer: BlockBuffer
        let group: DispatchGroup
        let parts: PartBox
        init(buffer: BlockBuffer, group: DispatchGroup, parts: PartBox) {
            self.buffer = buffer
            self.group = group
            self.parts = parts
        }
    }

    /// ``run(lane:write:afterBlock:overlap:)`` with two blocks in flight: this thread starts
    /// block k's lanes, then waits for block k − 1's, writes its output and reports it, then
    /// reads and plans block k + 1, while the lanes go from block k − 1's last pieces straight
    /// on to block k's. (With one block at a time, the lane that finished first waited at
    /// every block's end for the other, which this thread's reading had slowed: about 2 ms of
    /// every 16 ms block on an idle 2-core machine.)
    private func runOverlapped(lane: @escaping @Sendable (Piece, inout ByteWriter) -> Counts, write: (UnsafeBufferPointer<UInt8>) -> Void,
                               afterBlock: (Counts) -> Bool) -> Counts {
        var total = Counts()
        let pool = BufferPool(capacity: outputCapacity)
        var inFlight: BlockInFlight?
        // Three buffers in turn (the block in flight, the one starting, the one filling),
        // allocated once each: `free` is the one whose lanes are done.
        var free: BlockBuffer?
        var plan: Plan?
        while let p = nextBlock(planned: plan) {
            // The next block starts with this one's incomplete last record.
            let next = free ?? BlockBuffer(capacity: blockBytes)
            free = nil
            next.removeAll()
            next.append(UnsafeBufferPointer(rebasing: pending.bytes[p.complete...]))
            // This block's buffer moves into its in-flight record, unchanged until its lanes end.
            let block = pending
            pending = next
            let (group, parts) = startLanes(block, plan: p, firstLine: nextLine, pool: pool, lane: lane)
            let started = BlockInFlight(buffer: block, group: group, parts: parts)
            nextLine += p.newlines
            if let previous = inFlight {
                previous.group.wait()
                previous.parts.emit(write, into: pool)
                total.add(previous.parts.counts)
                free = previous.buffer
                inFlight = nil
                if !afterBlock(total) {
                    // Stopped: the block just started is neither written nor counted.
                    started.group.wait()
                    started.parts.discard(into: pool)
                    return total
                }
            }
            inFlight = started
            if !eof { eof = pending.fill(from: source, upTo: nextFillTarget()) }
            plan = pending.isEmpty ? nil : Self.plan(pending.bytes, eof: eof, maxLanes: maxLanes)
        }
        if let last = inFlight {
            last.group.wait()
            last.parts.emit(write, into: pool)
            total.add(last.parts.counts)
            _ = afterBlock(total)
        }
        return total
    }

    /// How a buffer starting at a record boundary goes to the lanes: its complete records
    /// (all of it at the end of the input), cut at record ends into a few pieces per thread.
    struct Plan {
        /// Bytes handed out now (the rest waits for more input).
        let complete: Int
        /// Piece boundaries (first 0, last `complete`) and the line feeds before each piece.
        let cuts: [Int]
        let newlinesBefore: [Int]
        /// Line feeds in the `complete` bytes.
        let newlines: Int
    }

    /// The plan of the block at the start of `pending`: `planned` when the reading thread made
    /// it while the lanes worked, else made now, reading more bytes while no record ends in
    /// `pending` yet; `nil` when no bytes are left. (Both ways of ``run(lane:write:afterBlock:overlap:)``.)
    private func nextBlock(planned: Plan?) -> Plan? {
        if let planned { return planned }
        while true {
            if !pending.isEmpty, let p = Self.plan(pending.bytes, eof: eof, maxLanes: maxLanes) { return p }
            // Empty is the end only at the end of input: a header that ended exactly where a
            // read ended leaves `pending` empty with the rows still to read (the fare-csv fuzz
            // target's finding: every row of such a file was dropped without a word).
            if eof { return nil }
            eof = pending.fill(from: source, upTo: pending.count + blockBytes)
        }
    }

    /// The plan of `buffer`, or nil when no record ends in it yet (and more input may come).
    static func plan(_ all: UnsafeBufferPointer<UInt8>, eof: Bool, maxLanes: Int) -> Plan? {
        let complete = eof ? all.count : (CSVRecordScanner.lastRecordEnd(all).map { $0 + 1 } ?? 0)
        guard complete > 0 else { return nil }
        let block = UnsafeBufferPointer(rebasing: all[0..<complete])
        let lanes = max(1, min(maxLanes, block.count / 65_536 + 1))
        let (cuts, before, newlines) = CSVRecordScanner.cuts(block, parts: lanes)
        return Plan(complete: complete, cuts: cuts, newlinesBefore: before, newlines: newlines)
    }

    /// Starts the lanes of the block at the start of `buffer` (its first `plan.complete`
    /// bytes), one per piece of `plan`, each handed to `lane` on the global queue with its own
    /// output buffer. The lanes hold `buffer` until they end; it must not change until the
    /// group is done.
    private func startLanes(_ buffer: BlockBuffer, plan: Plan, firstLine: Int, pool: BufferPool,
                            lane: @escaping @Sendable (Piece, inout ByteWriter) -> Counts) -> (DispatchGroup, PartBox) {
        let cutPoints = plan.cuts, before = plan.newlinesBefore
        let parts = PartBox(count: cutPoints.count - 1)
        let shared = SharedBytes(owner: buffer, buffer: UnsafeBufferPointer(rebasing: buffer.bytes[0..<plan.complete]))
        let group = Parallel.start(lanes: 0..<(cutPoints.count - 1)) { k in
            let piece = Piece(bytes: UnsafeBufferPointer(rebasing: shared.buffer[cutPoints[k]..<cutPoints[k + 1]]),
                              firstLine: firstLine + before[k], lane: k)
            var out = pool.take()
            out.reserve(piece.bytes.count * 5 / 2 + 256)
            let counts = lane(piece, &out)
            parts.set(k, out, counts)
        }
        return (group, parts)
    }

    /// Output buffers handed back after writing, so lanes reuse their capacity instead of
    /// faulting in fresh pages for every block.
    final class BufferPool: @unchecked Sendable {
        private let lock = NSLock()
        private var free: [ByteWriter] = []
        /// Bytes a new buffer starts with.
        let capacity: Int
        init(capacity: Int) { self.capacity = capacity }
        func take() -> ByteWriter {
            lock.lock(); defer { lock.unlock() }
            return free.popLast() ?? ByteWriter(capacity: capacity)
        }
        func give(_ buffer: ByteWriter) {
            var buffer = buffer
            buffer.removeAll()
            lock.lock(); free.append(buffer); lock.unlock()
        }
        deinit {
            for b in free { b.deallocate() }
        }
    }

    /// The block the lanes read, shared read-only while they run; `owner` keeps its storage
    /// alive as long as a lane can reach it.
    struct SharedBytes: @unchecked Sendable {
        let owner: BlockBuffer
        let buffer: UnsafeBufferPointer<UInt8>
    }

    /// Output parts written by the lanes of one block.
    final class PartBox: @unchecked Sendable {
        private var bytes: [ByteWriter?]
        private var perLane: [Counts]
        private let lock = NSLock()
        init(count: Int) {
            bytes = Array(repeating: nil, count: count)
            perLane = Array(repeating: Counts(), count: count)
        }
        func set(_ i: Int, _ b: ByteWriter, _ c: Counts) {
            lock.lock(); defer { lock.unlock() }
            bytes[i] = b
            perLane[i] = c
        }
        var counts: Counts {
            lock.lock(); defer { lock.unlock() }
            return perLane.reduce(into: Counts()) { $0.add($1) }
        }
        /// Hands the buffers back to the pool unwritten.
        func discard(into pool: BufferPool) {
            for i in bytes.indices {
                if let b = bytes[i] { pool.give(b) }
                bytes[i] = nil
            }
        }
        /// Hands the parts to `write` in order, then their buffers to the pool.
        func emit(_ write: (UnsafeBufferPointer<UInt8>) -> Void, into pool: BufferPool) {
            for i in bytes.indices {
                guard let b = bytes[i] else { continue }
                if b.count > 0 { write(b.bytes) }
                pool.give(b)
                bytes[i] = nil
            }
        }
    }
}
