import Dispatch
import Foundation
import GeoFareCore
import GeoFareFare

/// Prices a CSV file of trips, streaming: constant memory, every core, rows in input order,
/// and never stopping at a bad row.
///
/// Input: RFC 4180 CSV with a header (quoted fields, embedded commas and newlines, CRLF, a
/// UTF-8 BOM). Columns (renamable with ``Options/columnMap``): `origin_lat, origin_lon,
/// dest_lat, dest_lon, depart_at, party_size`, optional `tariff, split, cruise_kmh`, and
/// `distance_m, duration_s` which, when present in a row, price it from them instead of a
/// route estimate. Output: every input column, then ``resultColumns``. A bad row gets its
/// `error` and empty results; the job goes on.
public final class FareCSVJob: @unchecked Sendable {
    /// The result columns appended to every row.
    public static let resultColumns = ["distance_m", "duration_s", "meter", "surcharges", "tolls", "total", "low", "high", "currency", "per_person", "tariff", "error"]

    public struct Options: Sendable {
        /// Logical column → header name in this file (`--map origin_lat=pickup_lat`).
        public var columnMap: [String: String] = [:]
        /// Stop after this many failed rows (`nil`: never).
        public var maxErrors: Int?
        /// Bytes read before a block is split among the threads (memory is a few times this).
        public var blockBytes = 4 << 20
        public var threads = ProcessInfo.processInfo.activeProcessorCount
        public init() {}
    }

    /// What a run did.
    public struct Summary: Sendable {
        public var rows = 0
        public var failed = 0
        public var seconds = 0.0
        /// True when `maxErrors` stopped the job early.
        public var stoppedEarly = false
        public var rowsPerSecond: Double { seconds > 0 ? Double(rows) / seconds : 0 }
    }

    /// The input holds no header at all (nothing but blank lines or a byte-order mark).
    public struct EmptyInput: CodedError {
        public var code: String { ErrorCode.emptyInput.rawValue }
        public var message: String { "the input is empty: expected a header line and rows" }
        public var field: String? { "header" }
    }

    /// The header is unusable: a required column is missing (fatal, before any row).
    public struct HeaderError: CodedError {
        public var code: String { ErrorCode.missingColumn.rawValue }
        public var message: String
        public var field: String? { "header" }
    }

    let pricer: TripPricer
    let options: Options
    /// One pricer per lane (``TripPricer/lane()``), made once per job: lane k of every block
    /// uses the k-th (a block's lanes finish before the next block's start).
    let lanePricers: [TripPricer]

    public init(pricer: TripPricer, options: Options = Options()) {
        self.pricer = pricer
        self.options = options
        lanePricers = (0..<max(1, options.threads * 4)).map { _ in pricer.lane() }
    }

    /// Runs the job from `source` to `write`.
    /// - Parameters:
    ///   - progress: called after each chunk with rows done and bytes read so far.
    /// - Throws: ``EmptyInput`` when there is no header, ``HeaderError`` when it lacks a needed
    ///   column (nothing written but nothing lost either). A record that cannot be read (a
    ///   quoted field never closed) is not thrown: it gets an error row, like any bad row.
    public func run(source: ByteSource, write: (UnsafeBufferPointer<UInt8>) -> Void, progress: (Int, Int) -> Void = { _, _ in }) throws -> Summary {
        let start = DispatchTime.now().uptimeNanoseconds
        var summary = Summary()
        var pending: [UInt8] = []     // bytes not yet parsed: always starts at a record boundary
        var nextLine = 1              // physical line number of pending's first byte
        /// Appends input to `buffer` until it holds `count` bytes; true at end of input.
        func fill(_ buffer: inout [UInt8], upTo count: Int) -> Bool {
            while buffer.count < count, source.read(into: &buffer, upTo: count - buffer.count) { }
            return buffer.count < count
        }
        var eof = fill(&pending, upTo: options.blockBytes)

        // The header: strip a BOM, parse the first record, write the output header.
        if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
        func firstRecordEnd() -> Int? { pending.withUnsafeBufferPointer { CSVRecordScanner.firstRecordEnd($0) } }
        var headerEnd = firstRecordEnd()
        while headerEnd == nil && !eof {
            eof = fill(&pending, upTo: pending.count + options.blockBytes)
            headerEnd = firstRecordEnd()
        }
        guard pending.contains(where: { $0 != 0x0A && $0 != 0x0D }) else { throw EmptyInput() }
        let end = headerEnd ?? pending.count
        var reader = CSVReader(skipBOM: false)
        var header: [String] = []
        reader.feed(pending[0..<end]) { header = $0.fields }
        try reader.finish { header = $0.fields }
        let layout = try Layout(header: header, map: options.columnMap)
        var out: [UInt8] = []
        CSVWriter.appendRecord(header + Self.resultColumns, to: &out)
        out.withUnsafeBufferPointer { write($0) }
        let consumed = min(end + 1, pending.count)
        nextLine += pending[0..<consumed].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        pending.removeFirst(consumed)

        // The rows, block by block. While the cores price one block, this thread writes the
        // previous block's output and reads the next block's input.
        let pool = BufferPool()
        var previous: PartBox?
        var spare: [UInt8] = []
        while !pending.isEmpty {
            // Everything up to the last record boundary is priced now; the rest waits for more bytes.
            let complete = eof ? pending.count : (pending.withUnsafeBufferPointer { CSVRecordScanner.lastRecordEnd($0) }.map { $0 + 1 } ?? 0)
            if complete == 0 {
                eof = fill(&pending, upTo: pending.count + options.blockBytes)
                continue
            }
            // The next block starts with this one's incomplete last record and is read into
            // the spare buffer while the lanes work (no copy of the block itself).
            spare.removeAll(keepingCapacity: true)
            spare.append(contentsOf: pending[complete...])
            var nextEOF = eof
            let (parts, newlines) = try pending.withUnsafeBufferPointer { all in
                let block = UnsafeBufferPointer(rebasing: all[0..<complete])
                let running = startLanes(block, firstLine: nextLine, layout: layout, pool: pool)
                if let previous { previous.emit(write, into: pool) }
                if !eof { nextEOF = fill(&spare, upTo: options.blockBytes) }
                running.group.wait()
                return (running.parts, running.newlines)
            }
            previous = parts
            summary.rows += parts.rowCount
            summary.failed += parts.failures
            nextLine += newlines
            swap(&pending, &spare)
            eof = nextEOF
            progress(summary.rows, source.bytesRead)
            if let max = options.maxErrors, summary.failed >= max {
                summary.stoppedEarly = true
                break
            }
        }
        previous?.emit(write, into: pool)
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return summary
    }

    /// Lanes pricing one block, started on the global queue.
    struct RunningBlock {
        let group: DispatchGroup
        let parts: PartBox
        let newlines: Int
    }

    /// Starts parsing, pricing and formatting complete records on every core: the bytes are
    /// cut at record boundaries into a few parts per thread, and each part is scanned in place
    /// (with its first line number) into its own output buffer. `block` must stay valid until
    /// the group is done.
    func startLanes(_ block: UnsafeBufferPointer<UInt8>, firstLine: Int, layout: Layout, pool: BufferPool) -> RunningBlock {
        let lanes = max(1, min(options.threads * 4, block.count / 65_536 + 1))
        let (cutPoints, before, newlines) = CSVRecordScanner.cuts(block, parts: lanes)
        let parts = PartBox(count: cutPoints.count - 1)
        let shared = SharedBytes(buffer: block)
        let group = DispatchGroup()
        let queue = DispatchQueue.global(qos: .userInitiated)
        for lane in 0..<(cutPoints.count - 1) {
            queue.async(group: group) {
                let part = UnsafeBufferPointer(rebasing: shared.buffer[cutPoints[lane]..<cutPoints[lane + 1]])
                var out = pool.take()
                out.reserve(part.count * 5 / 2 + 256)
                var lanePricer = RowPricer(layout: layout, pricer: self.lanePricers[lane % self.lanePricers.count])
                var scanner = CSVRecordScanner(firstLine: firstLine + before[lane])
                var position = 0
                var rows = 0, failed = 0
                do {
                    while try scanner.next(in: part, from: &position) {
                        rows += 1
                        if !lanePricer.row(&scanner, in: part, to: &out) { failed += 1 }
                    }
                } catch {
                    // A quoted field still open at the end of the input (blocks are cut at
                    // record ends, so only the last record can be broken): the rows before it
                    // stand; it gets an error row of its own.
                    rows += 1
                    failed += 1
                    lanePricer.errorRow(error, to: &out)
                }
                parts.set(lane, out, failed, rows: rows)
            }
        }
        return RunningBlock(group: group, parts: parts, newlines: newlines)
    }

    /// Output buffers handed back after writing, so lanes reuse their capacity instead of
    /// faulting in fresh pages for every block.
    final class BufferPool: @unchecked Sendable {
        private let lock = NSLock()
        private var free: [ByteWriter] = []
        func take() -> ByteWriter {
            lock.lock(); defer { lock.unlock() }
            return free.popLast() ?? ByteWriter(capacity: 1 << 16)
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

    /// The block the lanes read, shared read-only for the duration of `concurrentPerform`.
    struct SharedBytes: @unchecked Sendable {
        let buffer: UnsafeBufferPointer<UInt8>
    }

    /// Which input column holds each logical field.
    struct Layout {
        let width: Int
        let originLat, originLon, destLat, destLon, departAt, partySize: Int?
        let tariff, split, cruise, distance, duration: Int?

        init(header: [String], map: [String: String]) throws {
            width = header.count
            let names = header.map { String($0.trimmingSpaces()) }
            func col(_ logical: String) throws -> Int? {
                let name = map[logical] ?? logical
                if let i = names.firstIndex(of: name) { return i }
                if map[logical] != nil { throw HeaderError(message: "--map \(logical)=\(name): the header has no column '\(name)'") }
                return nil
            }
            originLat = try col("origin_lat"); originLon = try col("origin_lon")
            destLat = try col("dest_lat"); destLon = try col("dest_lon")
            departAt = try col("depart_at"); partySize = try col("party_size")
            tariff = try col("tariff"); split = try col("split"); cruise = try col("cruise_kmh")
            distance = try col("distance_m"); duration = try col("duration_s")
            let coords = originLat != nil && originLon != nil && destLat != nil && destLon != nil
            let totals = distance != nil && duration != nil
            guard coords || totals else {
                throw HeaderError(message: "the header needs origin_lat,origin_lon,dest_lat,dest_lon or distance_m,duration_s (use --map to rename); it has: \(names.joined(separator: ","))")
            }
            guard departAt != nil else { throw HeaderError(message: "the header needs a depart_at column (ISO 8601 with offset)") }
        }
    }

    /// Prices and formats the rows of one lane, reading fields in place: it parses each row into
    /// a ``FareRequest``, prices it with the lane's ``TripPricer`` (the library's one entry) and
    /// formats the answer.
    struct RowPricer {
        let layout: Layout
        /// This lane's pricer (``TripPricer/lane()``: its own meter copies).
        let pricer: TripPricer
        /// The last tariff column seen and what it resolved to (an index into the catalog, or
        /// the error it gave): a file names the same tariff on most rows.
        var tariffBytes: [UInt8] = []
        var tariffResolved: Result<Int, FareError>?
        /// The meter of the last priced row and its `tariff` and `currency` column bytes.
        var lastMeter: Meter?
        var tariffField: [UInt8] = []
        var currencyField: [UInt8] = []

        init(layout: Layout, pricer: TripPricer) {
            self.layout = layout
            self.pricer = pricer
        }

        /// Appends one output row: the input columns, then the results or the error.
        /// - Returns: false when the row failed.
        mutating func row(_ scanner: inout CSVRecordScanner, in bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) -> Bool {
            let count = scanner.fieldCount
            if scanner.isUnescaped {
                for k in 0..<count {
                    if k > 0 { out.append(0x2C) }
                    out.appendCSVField(scanner.field(k, in: bytes))
                }
            } else {
                // Nothing needed quoting: the record's own bytes are its output.
                out.append(UnsafeBufferPointer(rebasing: bytes[scanner.rawRange]))
            }
            // Short rows are padded so the result columns stay aligned.
            for _ in count..<max(count, layout.width) { out.append(0x2C) }
            out.append(0x2C)
            var ok = true
            do {
                switch try quote(&scanner, in: bytes) {
                case let .figures(f, riders):
                    FareCSVJob.appendMoney(distance: f.distanceMeters, duration: f.durationSeconds, meter: f.reading.amount,
                                           surcharges: f.surcharges, tolls: f.tolls, total: f.total, low: f.low, high: f.high, to: &out)
                    out.append(currencyField)
                    out.append(0x2C)
                    if f.tolls == 0 && f.callFee == 0 {
                        let shares = FareSplit.EqualShares(total: f.total, riders: riders, unit: f.splitUnit)
                        for k in 0..<riders {
                            if k > 0 { out.append(0x3B) }
                            out.appendDecimal(shares[k])
                        }
                    } else {
                        for k in 0..<riders {
                            if k > 0 { out.append(0x3B) }
                            out.appendDecimal(f.equalShare(k, riders: riders))
                        }
                    }
                    out.append(0x2C)
                case let .quote(q):
                    FareCSVJob.appendResult(q, to: &out)
                }
                out.append(tariffField)
                out.append(0x2C)
            } catch let error as any CodedError {
                ok = false
                for _ in 0..<11 { out.append(0x2C) }
                out.appendCSVField("line \(scanner.line): \(error.description) [\(error.code)]")
            } catch {
                ok = false
                for _ in 0..<11 { out.append(0x2C) }
                out.appendCSVField("line \(scanner.line): \(error)")
            }
            out.append(0x0A)
            return ok
        }

        /// Appends the row of a record that could not be read at all: empty input and result
        /// columns, and the error (what and on which line the record starts).
        func errorRow(_ error: any Error, to out: inout ByteWriter) {
            for _ in 0..<(layout.width + FareCSVJob.resultColumns.count - 1) { out.append(0x2C) }
            if let coded = error as? any CodedError {
                out.appendCSVField("\(coded.description) [\(coded.code)]")
            } else {
                out.appendCSVField("\(error)")
            }
            out.append(0x0A)
        }

        /// Notes the meter a row was priced with (its tariff and currency columns).
        mutating func use(_ meter: Meter) {
            if meter === lastMeter { return }
            lastMeter = meter
            tariffField.removeAll()
            CSVWriter.appendField(meter.tariffID, to: &tariffField)
            currencyField = Array(meter.currency.utf8)
        }

        /// The catalog index of a tariff column's text, resolved once per distinct text.
        mutating func tariffIndex(_ t: UnsafeBufferPointer<UInt8>) throws(FareError) -> Int {
            if tariffResolved == nil || tariffBytes.count != t.count || memcmp(tariffBytes, t.baseAddress!, t.count) != 0 {
                tariffBytes = Array(t)
                let name = String(decoding: t, as: UTF8.self)
                let catalog = pricer.engine.catalog
                tariffResolved = Result { () throws(FareError) -> Int in try catalog.tariffIndex(name) }
            }
            return try tariffResolved!.get()
        }

        /// A priced row: equal splits need only the figures; other splits the whole quote.
        enum Priced {
            case figures(FareEngine.Figures, riders: Int)
            case quote(FareQuote)
        }

        /// The price of one row: its fields parsed into a ``FareRequest``, priced by the lane's
        /// ``TripPricer`` exactly as the worker's `fare` op and the library price it.
        mutating func quote(_ scanner: inout CSVRecordScanner, in bytes: UnsafeBufferPointer<UInt8>) throws -> Priced {
            func text(_ i: Int?) -> UnsafeBufferPointer<UInt8>? {
                guard let i, i < scanner.fieldCount else { return nil }
                let t = ByteNumber.trimmed(scanner.field(i, in: bytes))
                return t.isEmpty ? nil : t
            }
            func number(_ i: Int?, _ name: String) throws -> Double? {
                guard let t = text(i) else { return nil }
                guard let v = ByteNumber.double(t) else {
                    throw InvalidInput(code: .invalidNumber, message: "not a number: '\(String(decoding: t, as: UTF8.self))'", field: name)
                }
                guard v.isFinite else { throw InvalidInput.notFinite(name, v) }
                return v
            }
            guard let when = text(layout.departAt) else { throw InvalidInput(code: .missingField, message: "is empty", field: "depart_at") }
            guard let departure = ISO8601.parse(bytes: when) else {
                throw InvalidInput(code: .invalidTime, message: "expected ISO 8601 with an offset, got '\(String(decoding: when, as: UTF8.self))'", field: "depart_at")
            }
            var party = 1
            if let t = text(layout.partySize) {
                guard let n = ByteNumber.int(t) else {
                    throw InvalidInput(code: .invalidNumber, message: "not an integer: '\(String(decoding: t, as: UTF8.self))'", field: "party_size")
                }
                party = n
            }
            var split = SplitMethod.equal
            if let t = text(layout.split) {
                let name = String(decoding: t, as: UTF8.self)
                guard let m = SplitMethod(rawValue: name) else { throw InvalidInput(code: .invalidValue, message: "split is equal, proportional or shapley, got '\(name)'", field: "split") }
                split = m
            }
            let tariffColumn = text(layout.tariff)
            var r: FareRequest
            if let d = try number(layout.distance, "distance_m"), let t = try number(layout.duration, "duration_s") {
                r = FareRequest(trip: .totals(distanceMeters: d, durationSeconds: t), departure: departure)
                if tariffColumn == nil, let lat = try number(layout.originLat, "origin_lat"), let lon = try number(layout.originLon, "origin_lon") {
                    r.origin = try Coordinate(latitude: lat, longitude: lon)
                }
                r.cruiseKmh = try number(layout.cruise, "cruise_kmh")
            } else {
                guard let oLat = try number(layout.originLat, "origin_lat"), let oLon = try number(layout.originLon, "origin_lon"),
                      let dLat = try number(layout.destLat, "dest_lat"), let dLon = try number(layout.destLon, "dest_lon") else {
                    throw InvalidInput(code: .missingField, message: "needs origin and destination coordinates or distance_m and duration_s", field: "origin_lat")
                }
                let origin: Coordinate, destination: Coordinate
                do { origin = try Coordinate(latitude: oLat, longitude: oLon) } catch { throw error.prefixed("origin") }
                do { destination = try Coordinate(latitude: dLat, longitude: dLon) } catch { throw error.prefixed("dest") }
                r = FareRequest(from: origin, to: destination, departure: departure)
            }
            r.partySize = party
            r.split = split
            if let t = tariffColumn { r.tariffIndex = try tariffIndex(t) }
            if split == .equal {
                let (f, meter) = try pricer.figures(r)
                use(meter)
                return .figures(f, riders: party)
            }
            let q = try pricer.quote(r).quote
            use(try pricer.engine.catalog.meter(tariff: q.tariff, at: departure))
            return .quote(q)
        }
    }

    /// `distance_m, ..., high,` (the currency follows).
    @inline(__always)
    static func appendMoney(distance: Double, duration: Double, meter: Int64, surcharges: Int64, tolls: Int64,
                            total: Int64, low: Int64, high: Int64, to out: inout ByteWriter) {
        out.append(distance, decimals: 1)
        out.append(0x2C)
        out.append(duration, decimals: 1)
        out.append(0x2C); out.appendDecimal(meter)
        out.append(0x2C); out.appendDecimal(surcharges)
        out.append(0x2C); out.appendDecimal(tolls)
        out.append(0x2C); out.appendDecimal(total)
        out.append(0x2C); out.appendDecimal(low)
        out.append(0x2C); out.appendDecimal(high)
        out.append(0x2C)
    }

    /// Appends `distance_m, ..., per_person,` for a quote (the tariff and error columns follow).
    static func appendResult(_ q: FareQuote, to out: inout ByteWriter) {
        appendMoney(distance: q.distanceMeters, duration: q.durationSeconds, meter: q.meter, surcharges: q.surcharges,
                    tolls: q.tolls, total: q.total, low: q.low, high: q.high, to: &out)
        out.append(Array(q.currency.utf8))
        out.append(0x2C)
        for (k, share) in q.perPerson.enumerated() {
            if k > 0 { out.append(0x3B) }
            out.appendDecimal(share)
        }
        out.append(0x2C)
    }

    /// Output parts written by the lanes of one block.
    final class PartBox: @unchecked Sendable {
        private var bytes: [ByteWriter?]
        private var failureCounts: [Int]
        private var rowCounts: [Int]
        private let lock = NSLock()
        init(count: Int) {
            bytes = Array(repeating: nil, count: count)
            failureCounts = Array(repeating: 0, count: count)
            rowCounts = Array(repeating: 0, count: count)
        }
        func set(_ i: Int, _ b: ByteWriter, _ f: Int, rows: Int) {
            lock.lock(); defer { lock.unlock() }
            bytes[i] = b
            failureCounts[i] = f
            rowCounts[i] = rows
        }
        var rowCount: Int { lock.lock(); defer { lock.unlock() }; return rowCounts.reduce(0, +) }
        var failures: Int { lock.lock(); defer { lock.unlock() }; return failureCounts.reduce(0, +) }
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
