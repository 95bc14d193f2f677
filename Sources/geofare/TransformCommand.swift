import ArgumentParser
import Foundation
import GeoFareBatch
import GeoFareCLI
import GeoFareCore
import GeoFareProj
import GeoFareText

/// `geofare transform`: converts points between coordinate systems through PROJ.
struct TransformCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transform",
        abstract: "Convert points between coordinate reference systems (through PROJ).",
        discussion: """
        Points are X,Y with X = longitude/easting and Y = latitude/northing, whatever the CRS's
        official axis order. Give points as arguments, or read them from a file (--input) or
        standard input: one point per line as "X,Y" or "X Y", or a CSV file with a header whose
        x and y columns are found by name (x/lon/lng/longitude/easting/mapx and
        y/lat/latitude/northing/mapy) or named with --x-column/--y-column.

        Output: "X Y" per input line (an empty line and a message on stderr for a bad line), or
        for CSV input the same CSV with x and y converted and an `error` column. The exit status
        is 65 when any point was rejected, after all the others were written.

        CRS names: wgs84, webmercator, utmk, korea-central-2010, korea-west-2010,
        korea-east-2010, korea-eastsea-2010, wtm, wcongnamul, katec (tm128), any EPSG:nnnn, or a
        PROJ string (+proj=...).
        """
    )

    @Option(help: "The CRS of the input points.")
    var from: String

    @Option(help: "The CRS to convert to.")
    var to: String

    @Option(name: .shortAndLong, help: "Read points from this file ('-' for standard input).")
    var input: String?

    @Option(help: "Digits after the decimal point (default: 3 for metres, 8 for degrees).")
    var precision: Int?

    @Option(help: "The CSV column holding X (longitude/easting).")
    var xColumn: String?

    @Option(help: "The CSV column holding Y (latitude/northing).")
    var yColumn: String?

    @Option(help: "Threads for a file or standard input (default: the number of cores); the output is the same for any number.")
    var threads: Int?

    @Argument(parsing: .allUnrecognized, help: "Points as X,Y, e.g. 126.9780,37.5665.")
    var points: [String] = []

    func run() throws {
        let transformer: CoordinateTransformer
        do { transformer = try CoordinateTransformer(from: from, to: to) } catch {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw ExitCode.validationFailure
        }
        let decimals = precision ?? (transformer.target.isGeographic ? 8 : 3)
        let out = BufferedWriter()
        defer { out.flush() }
        if !points.isEmpty {
            var failed = false
            for (i, text) in points.enumerated() {
                guard let p = XYPoint(text: Substring(text)) else {
                    Diagnostics.print("geofare: point \(i + 1): expected X,Y, got '\(text)' [\(ErrorCode.invalidCoordinate.rawValue)]")
                    failed = true
                    continue
                }
                do {
                    let q = try transformer.transform(p)
                    var line: [UInt8] = []
                    Self.appendXY(q, decimals: decimals, to: &line)
                    out.write(line)
                } catch {
                    Diagnostics.print("geofare: point \(i + 1): \(error.message) [\(error.code)]")
                    failed = true
                }
            }
            if failed { out.flush(); throw GeoFareExit.dataError }
            return
        }
        let source: ByteSource
        if let input, input != "-" {
            do { source = try ByteSource(path: input) } catch {
                Diagnostics.print("geofare: \(error.message)")
                throw GeoFareExit.noInput
            }
        } else {
            source = .standardInput()
        }
        let lanes = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount) * 4
        let stream = TransformStream(transformer: transformer, decimals: decimals, xColumn: xColumn, yColumn: yColumn)
        let outcome: TransformStream.Outcome
        do {
            outcome = try stream.run(CSVBlockStream(source: source, maxLanes: lanes), out: out)
        } catch {
            out.flush()
            Diagnostics.print("geofare: \(error)")
            throw GeoFareExit.dataError
        }
        out.flush()
        if let error = outcome.unterminated {
            Diagnostics.print("geofare: \(error)")
            throw GeoFareExit.dataError
        }
        if outcome.failedLines > 0 {
            Diagnostics.print("geofare: \(outcome.failedLines) of \(outcome.lines) lines failed")
            throw GeoFareExit.dataError
        }
    }

    static func appendXY(_ p: XYPoint, decimals: Int, to line: inout [UInt8]) {
        DecimalFormat.append(p.x, decimals: decimals, to: &line)
        line.append(UInt8(ascii: " "))
        DecimalFormat.append(p.y, decimals: decimals, to: &line)
        line.append(UInt8(ascii: "\n"))
    }
}

/// Converts a stream of records through ``CSVBlockStream`` (the block pipeline `fare-csv` uses):
/// the first record decides the mode (a point list or a CSV with a header), then lanes convert
/// their pieces in batches (one PROJ call per batch) and the output is written in input order.
/// Messages for failed lines go to standard error in line order, block by block.
struct TransformStream {
    let transformer: CoordinateTransformer
    let decimals: Int
    let xColumn: String?
    let yColumn: String?
    /// Records converted per PROJ call.
    static let batchSize = 65_536

    enum Mode: Sendable { case plain, csv(x: Int, y: Int, width: Int) }

    /// What a run did.
    struct Outcome {
        /// Data lines read (the header of a CSV not counted).
        var lines = 0
        /// Lines that got an error.
        var failedLines = 0
        /// A record that never ended (a quoted field not closed): everything before it was converted.
        var unterminated: GeoFareError?
    }

    /// Messages of failed lines gathered by the lanes, printed in line order after each block.
    final class Messages: @unchecked Sendable {
        private let lock = NSLock()
        private var pending: [(line: Int, text: String)] = []
        private(set) var unterminated: GeoFareError?

        func add(_ items: [(line: Int, text: String)]) {
            lock.lock(); defer { lock.unlock() }
            pending += items
        }

        func fail(_ error: GeoFareError) {
            lock.lock(); defer { lock.unlock() }
            unterminated = error
        }

        /// Prints the messages gathered so far, in line order (blocks finish in order).
        func flush() {
            lock.lock()
            let items = pending.sorted { $0.line < $1.line }
            pending.removeAll()
            lock.unlock()
            for item in items { Diagnostics.print("geofare: line \(item.line): \(item.text)") }
        }
    }

    /// Reads the first record, writes the header (CSV) or converts it (a point list), then
    /// streams every other record through the lanes.
    /// - Throws: ``GeoFareError`` `missing_column` for a CSV header without x/y columns;
    ///   `csv_unterminated_quote` when the first record never ends.
    func run(_ stream: CSVBlockStream, out: BufferedWriter) throws -> Outcome {
        var outcome = Outcome()
        // Blank lines before the first record are skipped, as everywhere else.
        var firstLine = 1
        var header = try stream.header()
        while header == [] {
            firstLine += 1
            header = try stream.header()
        }
        guard let first = header else { return outcome }
        let mode: Mode
        let messages = Messages()
        if xColumn == nil, yColumn == nil, Self.point(from: first) != nil {
            mode = .plain
            var bytes: [UInt8] = [], batch = Batch()
            batch.append(first, line: firstLine, mode: mode)
            let failed = convert(&batch, mode: mode, to: &bytes, messages: messages)
            out.write(bytes)
            outcome.lines += 1
            outcome.failedLines += failed
            messages.flush()
        } else {
            mode = try Self.csvMode(header: first, xColumn: xColumn, yColumn: yColumn)
            var bytes: [UInt8] = []
            CSVWriter.appendRecord(first + (first.contains("error") ? [] : ["error"]), to: &bytes)
            out.write(bytes)
        }
        let counts = stream.run(lane: { piece, output in
            var reader = CSVReader(skipBOM: false, firstLine: piece.firstLine)
            var batch = Batch()
            var counts = CSVBlockStream.Counts()
            var bytes: [UInt8] = []
            func flush() {
                guard !batch.lines.isEmpty else { return }
                counts.rows += batch.lines.count
                counts.failed += convert(&batch, mode: mode, to: &bytes, messages: messages)
                output.append(bytes)
                bytes.removeAll(keepingCapacity: true)
            }
            let accept = { (record: CSVReader.Record) in
                batch.append(record.fields, line: record.line, mode: mode)
                if batch.lines.count >= Self.batchSize { flush() }
            }
            reader.feed(piece.bytes, emit: accept)
            do throws(GeoFareError) { try reader.finish(emit: accept) } catch { messages.fail(error) }
            flush()
            return counts
        }, write: { out.write($0) }, afterBlock: { _ in messages.flush(); return true })
        messages.flush()
        outcome.lines += counts.rows
        outcome.failedLines += counts.failed
        outcome.unterminated = messages.unterminated
        return outcome
    }

    /// Records waiting for their PROJ call, parsed as they arrive (a point list keeps only the
    /// point, a CSV also its fields).
    struct Batch {
        var points: [XYPoint] = []
        var lines: [Int] = []
        var errors: [String?] = []
        var fields: [[String]] = []

        mutating func append(_ record: [String], line: Int, mode: Mode) {
            lines.append(line)
            switch mode {
            case .plain:
                if let p = TransformStream.point(from: record) {
                    points.append(p)
                    errors.append(nil)
                } else {
                    points.append(XYPoint(x: .nan, y: .nan))
                    errors.append("expected X,Y or X Y, got '\(record.joined(separator: ","))' [\(ErrorCode.invalidCoordinate.rawValue)]")
                }
            case let .csv(x, y, _):
                var error: String?
                var p = XYPoint(x: .nan, y: .nan)
                if record.count <= max(x, y) {
                    error = "missing x/y column [\(ErrorCode.missingColumn.rawValue)]"
                } else if let px = Double(record[x]), let py = Double(record[y]) {
                    p = XYPoint(x: px, y: py)
                } else {
                    error = "x/y are not numbers: '\(record[x])', '\(record[y])' [\(ErrorCode.invalidCoordinate.rawValue)]"
                }
                points.append(p)
                errors.append(error)
                fields.append(record)
            }
        }

        mutating func removeAll() {
            points.removeAll(keepingCapacity: true)
            lines.removeAll(keepingCapacity: true)
            errors.removeAll(keepingCapacity: true)
            fields.removeAll(keepingCapacity: true)
        }
    }

    /// Converts the batch with one PROJ call, appends its output lines to `bytes` and empties
    /// it; the messages of failed lines go to `messages`.
    /// - Returns: the number of failed lines.
    func convert(_ pending: inout Batch, mode: Mode, to bytes: inout [UInt8], messages: Messages) -> Int {
        defer { pending.removeAll() }
        var errors = pending.errors
        let failures = pending.points.withUnsafeMutableBufferPointer { transformer.transformInPlace($0) }
        for f in failures where errors[f.index] == nil {
            errors[f.index] = "\(f.error.message) [\(f.error.code)]"
        }
        let batch = pending.points
        bytes.reserveCapacity(bytes.count + batch.count * 32)
        var failed: [(line: Int, text: String)] = []
        for i in batch.indices {
            if let e = errors[i] { failed.append((pending.lines[i], e)) }
            switch mode {
            case .plain:
                if errors[i] == nil { TransformCommand.appendXY(batch[i], decimals: decimals, to: &bytes) } else { bytes.append(UInt8(ascii: "\n")) }
            case let .csv(x, y, width):
                var fields = pending.fields[i]
                if errors[i] == nil {
                    fields[x] = DecimalFormat.string(batch[i].x, decimals: decimals)
                    fields[y] = DecimalFormat.string(batch[i].y, decimals: decimals)
                }
                while fields.count < width { fields.append("") }
                fields.append(errors[i] ?? "")
                CSVWriter.appendRecord(fields, to: &bytes)
            }
        }
        if !failed.isEmpty { messages.add(failed) }
        return failed.count
    }

    static func point(from fields: [String]) -> XYPoint? {
        if fields.count == 2, let x = Double(fields[0].trimmingSpaces()), let y = Double(fields[1].trimmingSpaces()) {
            return XYPoint(x: x, y: y)
        }
        if fields.count == 1 { return XYPoint(text: Substring(fields[0])) }
        return nil
    }

    static func csvMode(header: [String], xColumn: String?, yColumn: String?) throws -> Mode {
        let names = header.map { $0.trimmingSpaces().lowercased() }
        func find(_ explicit: String?, _ candidates: [String], _ axis: String) throws -> Int {
            if let explicit {
                guard let i = names.firstIndex(of: explicit.lowercased()) else {
                    throw GeoFareError.noSuchColumn(explicit, axis: axis, header: header)
                }
                return i
            }
            guard let i = names.firstIndex(where: candidates.contains) else {
                throw GeoFareError.axisColumnNotFound(axis, header: header)
            }
            return i
        }
        let x = try find(xColumn, ["x", "lon", "lng", "long", "longitude", "easting", "mapx"], "x")
        let y = try find(yColumn, ["y", "lat", "latitude", "northing", "mapy"], "y")
        return .csv(x: x, y: y, width: header.count)
    }
}
