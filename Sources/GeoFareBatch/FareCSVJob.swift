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
        /// Rows priced per chunk (each chunk is spread over the threads).
        public var chunkRows = 16_384
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
        var reader = CSVReader()
        var layout: Layout?
        var chunk: [CSVReader.Record] = []
        chunk.reserveCapacity(options.chunkRows)
        var stop = false

        func flush() {
            guard let l = layout, !chunk.isEmpty, !stop else { chunk.removeAll(keepingCapacity: true); return }
            let (bytes, failed) = price(chunk, layout: l)
            write(bytes)
            summary.rows += chunk.count
            summary.failed += failed
            chunk.removeAll(keepingCapacity: true)
            progress(summary.rows, source.bytesRead)
            if let max = options.maxErrors, summary.failed >= max {
                stop = true
                summary.stoppedEarly = true
            }
        }

        func accept(_ record: CSVReader.Record) throws {
            guard let _ = layout else {
                let l = try Layout(header: record.fields, map: options.columnMap)
                layout = l
                var out: [UInt8] = []
                CSVWriter.appendRecord(record.fields + Self.resultColumns, to: &out)
                write(out)
                return
            }
            chunk.append(record)
            if chunk.count >= options.chunkRows { flush() }
        }

        while !stop, let data = source.next() {
            try reader.feed(data) { try accept($0) }
        }
        if !stop { try reader.finish { try accept($0) } }
        flush()
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return summary
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

    /// Prices a chunk on every thread and formats it in order. Returns the bytes and the failures.
    func price(_ records: [CSVReader.Record], layout: Layout) -> ([UInt8], Int) {
        let lanes = min(options.threads, max(1, records.count / 256))
        let parts = PartBox(count: lanes)
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            let lo = records.count * lane / lanes, hi = records.count * (lane + 1) / lanes
            var out: [UInt8] = []
            out.reserveCapacity((hi - lo) * 160)
            var failed = 0
            for i in lo..<hi {
                let record = records[i]
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
            parts.set(lane, out, failed)
        }
        return parts.joined()
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
        func set(_ i: Int, _ b: [UInt8], _ f: Int) {
            bytes[i] = b
            failures[i] = f
        }
        func joined() -> ([UInt8], Int) {
            var out: [UInt8] = []
            out.reserveCapacity(bytes.reduce(0) { $0 + $1.count })
            for b in bytes { out += b }
            return (out, failures.reduce(0, +))
        }
    }
}
