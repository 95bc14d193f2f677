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
        public var blockBytes = 1 << 20
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

    /// The header is unusable: a required column is missing (fatal, before any row).
    public struct HeaderError: CodedError {
        public var code: String { "missing_column" }
        public var message: String
        public var field: String? { "header" }
    }

    let pricer: TripPricer
    let options: Options

    public init(pricer: TripPricer, options: Options = Options()) {
        self.pricer = pricer
        self.options = options
    }

    /// Runs the job from `source` to `write`.
    /// - Parameters:
    ///   - progress: called after each chunk with rows done and bytes read so far.
    /// - Throws: ``HeaderError`` (nothing written but nothing lost either), or a CSV syntax
    ///   error at the end of input (an unterminated quote).
    public func run(source: ByteSource, write: ([UInt8]) -> Void, progress: (Int, Int) -> Void = { _, _ in }) throws -> Summary {
        let start = DispatchTime.now().uptimeNanoseconds
        var summary = Summary()
        var pending: [UInt8] = []     // bytes not yet parsed: always starts at a record boundary
        var layout: Layout?
        var nextLine = 1              // physical line number of pending's first byte
        var eof = false
        var atStart = true
        while !summary.stoppedEarly {
            if !eof {
                // Read about a block's worth before splitting it among the cores.
                while pending.count < options.blockBytes, let data = source.next() { pending.append(contentsOf: data) }
                if pending.count < options.blockBytes { eof = true }
            }
            if atStart {
                // The header: strip a BOM, parse the first record, write the output header.
                if pending.starts(with: [0xEF, 0xBB, 0xBF]) { pending.removeFirst(3) }
                guard let end = Self.recordEnd(in: pending, from: 0) ?? (eof && !pending.isEmpty ? pending.count : nil) else {
                    if eof { break } else { continue }
                }
                var reader = CSVReader(skipBOM: false)
                var header: [String] = []
                reader.feed(pending[0..<end]) { header = $0.fields }
                try reader.finish { header = $0.fields }
                layout = try Layout(header: header, map: options.columnMap)
                var out: [UInt8] = []
                CSVWriter.appendRecord(header + Self.resultColumns, to: &out)
                write(out)
                let consumed = min(end + 1, pending.count)
                nextLine += pending[0..<consumed].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                pending.removeFirst(consumed)
                atStart = false
                continue
            }
            guard let layout else { break }
            // Everything up to the last record boundary is parsed now; the rest waits for more bytes.
            let complete = eof ? pending.count : (Self.lastRecordEnd(in: pending).map { $0 + 1 } ?? 0)
            if complete > 0 {
                let (bytes, rows, failed, newlines) = try process(pending[0..<complete], firstLine: nextLine, final: eof, layout: layout)
                write(bytes)
                summary.rows += rows
                summary.failed += failed
                nextLine += newlines
                pending.removeFirst(complete)
                progress(summary.rows, source.bytesRead)
                if let max = options.maxErrors, summary.failed >= max { summary.stoppedEarly = true }
            }
            if eof { break }
        }
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return summary
    }

    /// The index of the first record-ending newline at or after `from` (not inside quotes).
    static func recordEnd(in bytes: [UInt8], from: Int) -> Int? {
        var inQuotes = false
        var i = from
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { inQuotes.toggle() } else if b == 0x0A && !inQuotes { return i }
            i += 1
        }
        return nil
    }

    /// The index of the last record-ending newline (quote parity from the start, which is a
    /// record boundary: RFC 4180's doubled quotes toggle twice and cancel out).
    static func lastRecordEnd(in bytes: [UInt8]) -> Int? {
        var inQuotes = false
        var last: Int?
        bytes.withUnsafeBufferPointer { b in
            for i in b.indices {
                let c = b[i]
                if c == UInt8(ascii: "\"") { inQuotes.toggle() } else if c == 0x0A && !inQuotes { last = i }
            }
        }
        return last
    }

    /// Parses, prices and formats complete records on every core: the bytes are cut at record
    /// boundaries into one part per thread, each part is parsed by its own reader (with its
    /// first line number), and the parts are joined in order.
    /// - Returns: the output bytes, rows, failed rows, and the newlines in `bytes` (for the
    ///   next block's first line number).
    func process(_ bytes: ArraySlice<UInt8>, firstLine: Int, final: Bool, layout: Layout) throws -> ([UInt8], Int, Int, Int) {
        let lanes = max(1, min(options.threads, bytes.count / 65_536 + 1))
        // Cut points: after the first record end past each lane's share.
        var cuts = [bytes.startIndex]
        var lines = [firstLine]
        var inQuotes = false
        var newlines = 0
        var target = 1
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { inQuotes.toggle() } else if c == 0x0A {
                newlines += 1
                if !inQuotes, target < lanes, i - bytes.startIndex >= bytes.count * target / lanes {
                    cuts.append(i + 1)
                    lines.append(firstLine + newlines)
                    target += 1
                }
            }
            i += 1
        }
        cuts.append(bytes.endIndex)
        let (cutPoints, firstLines) = (cuts, lines)
        let parts = PartBox(count: cuts.count - 1)
        let errors = ErrorBox()
        DispatchQueue.concurrentPerform(iterations: cutPoints.count - 1) { lane in
            var reader = CSVReader(skipBOM: false, firstLine: firstLines[lane])
            var records: [CSVReader.Record] = []
            reader.feed(bytes[cutPoints[lane]..<cutPoints[lane + 1]]) { records.append($0) }
            if final && lane == cutPoints.count - 2 {
                do { try reader.finish { records.append($0) } } catch { errors.set(error) }
            }
            let (out, failed) = price(records, layout: layout)
            parts.set(lane, out, failed, rows: records.count)
        }
        if let error = errors.error { throw error }
        let (out, rows, failed) = parts.joined()
        return (out, rows, failed, newlines)
    }

    /// A CSV syntax error raised on one of the parsing lanes.
    final class ErrorBox: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var error: (any Error)?
        func set(_ e: any Error) { lock.lock(); error = e; lock.unlock() }
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

    /// Prices and formats records in order (one lane's part). Returns the bytes and the failures.
    func price(_ records: [CSVReader.Record], layout: Layout) -> ([UInt8], Int) {
        var out: [UInt8] = []
        out.reserveCapacity(records.count * 160)
        var failed = 0
        for record in records {
            for (k, f) in record.fields.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                CSVWriter.appendField(f, to: &out)
            }
            // Short rows are padded so the result columns stay aligned.
            for _ in record.fields.count..<max(record.fields.count, layout.width) { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: ","))
            do {
                let q = try quote(record, layout: layout)
                Self.appendResult(q, to: &out)
            } catch let error as any CodedError {
                failed += 1
                out.append(contentsOf: ",,,,,,,,,,,".utf8)
                CSVWriter.appendField("line \(record.line): \(error.description) [\(error.code)]", to: &out)
            } catch {
                failed += 1
                out.append(contentsOf: ",,,,,,,,,,,".utf8)
                CSVWriter.appendField("line \(record.line): \(error)", to: &out)
            }
            out.append(UInt8(ascii: "\n"))
        }
        return (out, failed)
    }

    /// The quote of one row, through the same library calls as the worker's `fare` op.
    func quote(_ record: CSVReader.Record, layout: Layout) throws -> FareQuote {
        let fields = record.fields
        func text(_ i: Int?) -> String? {
            guard let i, i < fields.count else { return nil }
            let t = fields[i].trimmingSpaces()
            return t.isEmpty ? nil : String(t)
        }
        func number(_ i: Int?, _ name: String) throws -> Double? {
            guard let t = text(i) else { return nil }
            guard let v = Double(t) else { throw InvalidInput(code: "invalid_number", message: "not a number: '\(t)'", field: name) }
            guard v.isFinite else { throw InvalidInput.notFinite(name, v) }
            return v
        }
        guard let when = text(layout.departAt) else { throw InvalidInput(code: "missing_field", message: "is empty", field: "depart_at") }
        guard let departure = ISO8601.parse(when) else {
            throw InvalidInput(code: "invalid_time", message: "expected ISO 8601 with an offset, got '\(when)'", field: "depart_at")
        }
        var party = 1
        if let t = text(layout.partySize) {
            guard let n = Int(t) else { throw InvalidInput(code: "invalid_number", message: "not an integer: '\(t)'", field: "party_size") }
            party = n
        }
        var split = SplitMethod.equal
        if let t = text(layout.split) {
            guard let m = SplitMethod(rawValue: t) else { throw InvalidInput(code: "invalid_value", message: "split is equal, proportional or shapley, got '\(t)'", field: "split") }
            split = m
        }
        let tariff = text(layout.tariff)
        if let d = try number(layout.distance, "distance_m"), let t = try number(layout.duration, "duration_s") {
            var r = FareRequest(trip: .totals(distanceMeters: d, durationSeconds: t), departure: departure, tariff: tariff)
            if r.tariff == nil, let lat = try number(layout.originLat, "origin_lat"), let lon = try number(layout.originLon, "origin_lon") {
                r.origin = try Coordinate(latitude: lat, longitude: lon)
            }
            r.cruiseKmh = try number(layout.cruise, "cruise_kmh")
            r.partySize = party
            r.split = split
            return try pricer.engine.quote(r)
        }
        guard let oLat = try number(layout.originLat, "origin_lat"), let oLon = try number(layout.originLon, "origin_lon"),
              let dLat = try number(layout.destLat, "dest_lat"), let dLon = try number(layout.destLon, "dest_lon") else {
            throw InvalidInput(code: "missing_field", message: "needs origin and destination coordinates or distance_m and duration_s", field: "origin_lat")
        }
        let origin: Coordinate, destination: Coordinate
        do { origin = try Coordinate(latitude: oLat, longitude: oLon) } catch { throw error.prefixed("origin") }
        do { destination = try Coordinate(latitude: dLat, longitude: dLon) } catch { throw error.prefixed("dest") }
        var r = TripPricer.Request(origin: origin, destination: destination, departure: departure)
        r.tariff = tariff
        r.partySize = party
        r.split = split
        return try pricer.quote(r).quote
    }

    /// Appends `distance_m, ..., tariff,` (the error column left empty) for a quote.
    static func appendResult(_ q: FareQuote, to out: inout [UInt8]) {
        DecimalFormat.append(q.distanceMeters, decimals: 1, to: &out)
        out.append(UInt8(ascii: ","))
        DecimalFormat.append(q.durationSeconds, decimals: 1, to: &out)
        for v in [q.meter, q.surcharges, q.tolls, q.total, q.low, q.high] {
            out.append(UInt8(ascii: ","))
            DecimalFormat.append(v, to: &out)
        }
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: q.currency.utf8)
        out.append(UInt8(ascii: ","))
        for (k, share) in q.perPerson.enumerated() {
            if k > 0 { out.append(UInt8(ascii: ";")) }
            DecimalFormat.append(share, to: &out)
        }
        out.append(UInt8(ascii: ","))
        CSVWriter.appendField(q.tariff, to: &out)
        out.append(UInt8(ascii: ","))
    }

    /// Output parts written by the threads of one chunk.
    final class PartBox: @unchecked Sendable {
        private let bytes: UnsafeMutableBufferPointer<[UInt8]>
        private let failures: UnsafeMutableBufferPointer<Int>
        init(count: Int) {
            bytes = .allocate(capacity: count)
            _ = bytes.initialize(from: repeatElement([], count: count))
            failures = .allocate(capacity: count)
            _ = failures.initialize(from: repeatElement(0, count: count))
        }
        deinit {
            bytes.deinitialize()
            bytes.deallocate()
            failures.deallocate()
        }
        private var rowCount = 0
        private let lock = NSLock()
        func set(_ i: Int, _ b: [UInt8], _ f: Int, rows: Int) {
            bytes[i] = b
            failures[i] = f
            lock.lock(); rowCount += rows; lock.unlock()
        }
        func joined() -> ([UInt8], Int, Int) {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.reduce(0) { $0 + $1.count })
            for b in bytes { out += b }
            return (out, rowCount, failures.reduce(0, +))
        }
    }
}
