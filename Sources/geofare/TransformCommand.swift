import ArgumentParser
import Foundation
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

    @Argument(parsing: .allUnrecognized, help: "Points as X,Y, e.g. 126.9780,37.5665.")
    var points: [String] = []

    func run() throws {
        let transformer: CoordinateTransformer
        do { transformer = try CoordinateTransformer(from: from, to: to) } catch {
            StandardError.print("geofare: \(error.description) [\(error.code)]")
            throw ExitCode.validationFailure
        }
        let decimals = precision ?? (transformer.target.isGeographic ? 8 : 3)
        let out = OutputStream()
        defer { out.flush() }
        if !points.isEmpty {
            var failed = false
            for (i, text) in points.enumerated() {
                guard let p = XYPoint(text: Substring(text)) else {
                    StandardError.print("geofare: point \(i + 1): expected X,Y, got '\(text)' [invalid_point]")
                    failed = true
                    continue
                }
                do {
                    let q = try transformer.transform(p)
                    var line: [UInt8] = []
                    Self.appendXY(q, decimals: decimals, to: &line)
                    out.write(line)
                } catch {
                    StandardError.print("geofare: point \(i + 1): \(error.message) [\(error.code)]")
                    failed = true
                }
            }
            if failed { out.flush(); throw GeoFareExit.dataError }
            return
        }
        let source: ByteSource
        if let input, input != "-" {
            do { source = try ByteSource(path: input) } catch {
                StandardError.print("geofare: \(error.message)")
                throw GeoFareExit.noInput
            }
        } else {
            source = .standardInput()
        }
        var stream = TransformStream(transformer: transformer, decimals: decimals, xColumn: xColumn, yColumn: yColumn, out: out)
        var reader = CSVReader()
        do {
            while let chunk = source.next() {
                try reader.feed(chunk) { try stream.accept($0) }
            }
            try reader.finish { try stream.accept($0) }
        } catch {
            stream.flushBatch()
            out.flush()
            StandardError.print("geofare: \(error)")
            throw GeoFareExit.dataError
        }
        stream.flushBatch()
        out.flush()
        if stream.failedLines > 0 {
            StandardError.print("geofare: \(stream.failedLines) of \(stream.lines) lines failed")
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

/// Converts a stream of records in batches (one PROJ call per batch), in input order.
struct TransformStream {
    let transformer: CoordinateTransformer
    let decimals: Int
    let xColumn: String?
    let yColumn: String?
    let out: GeoFareCLI.OutputStream

    private(set) var lines = 0
    private(set) var failedLines = 0
    private var mode: Mode = .undecided
    private var batch: [XYPoint] = []
    private var pending: [Pending] = []
    private let batchSize = 65_536

    enum Mode { case undecided, plain, csv(x: Int, y: Int, width: Int) }

    /// One record waiting for its batch: the fields (CSV mode), its line, and a parse error.
    struct Pending {
        var fields: [String]
        var line: Int
        var error: String?
    }

    init(transformer: CoordinateTransformer, decimals: Int, xColumn: String?, yColumn: String?, out: GeoFareCLI.OutputStream) {
        self.transformer = transformer
        self.decimals = decimals
        self.xColumn = xColumn
        self.yColumn = yColumn
        self.out = out
        batch.reserveCapacity(batchSize)
    }

    mutating func accept(_ record: CSVReader.Record) throws {
        if case .undecided = mode {
            if xColumn == nil, yColumn == nil, Self.point(from: record.fields) != nil {
                mode = .plain
            } else {
                mode = try Self.csvMode(header: record.fields, xColumn: xColumn, yColumn: yColumn)
                var header: [UInt8] = []
                CSVWriter.appendRecord(record.fields + (record.fields.contains("error") ? [] : ["error"]), to: &header)
                out.write(header)
                return
            }
        }
        lines += 1
        switch mode {
        case .plain:
            if let p = Self.point(from: record.fields) {
                batch.append(p)
                pending.append(Pending(fields: [], line: record.line, error: nil))
            } else {
                batch.append(XYPoint(x: .nan, y: .nan))
                pending.append(Pending(fields: [], line: record.line, error: "expected X,Y or X Y, got '\(record.fields.joined(separator: ","))' [invalid_point]"))
            }
        case let .csv(x, y, _):
            var error: String?
            var p = XYPoint(x: .nan, y: .nan)
            if record.fields.count <= max(x, y) {
                error = "missing x/y column [missing_column]"
            } else if let px = Double(record.fields[x]), let py = Double(record.fields[y]) {
                p = XYPoint(x: px, y: py)
            } else {
                error = "x/y are not numbers: '\(record.fields[x])', '\(record.fields[y])' [invalid_point]"
            }
            batch.append(p)
            pending.append(Pending(fields: record.fields, line: record.line, error: error))
        case .undecided:
            break
        }
        if batch.count >= batchSize { flushBatch() }
    }

    mutating func flushBatch() {
        guard !batch.isEmpty else { return }
        var errors = pending.map(\.error)
        let failures = batch.withUnsafeMutableBufferPointer { transformer.transformInPlace($0) }
        for f in failures where errors[f.index] == nil {
            errors[f.index] = "\(f.error.message) [\(f.error.code)]"
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(batch.count * 32)
        for i in batch.indices {
            if let e = errors[i] {
                failedLines += 1
                StandardError.print("geofare: line \(pending[i].line): \(e)")
            }
            switch mode {
            case .plain:
                if errors[i] == nil { TransformCommand.appendXY(batch[i], decimals: decimals, to: &bytes) } else { bytes.append(UInt8(ascii: "\n")) }
            case let .csv(x, y, width):
                var fields = pending[i].fields
                if errors[i] == nil {
                    fields[x] = DecimalFormat.string(batch[i].x, decimals: decimals)
                    fields[y] = DecimalFormat.string(batch[i].y, decimals: decimals)
                }
                while fields.count < width { fields.append("") }
                fields.append(errors[i] ?? "")
                CSVWriter.appendRecord(fields, to: &bytes)
            case .undecided:
                break
            }
        }
        out.write(bytes)
        batch.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
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
                    throw InvalidInput(code: .missingColumn, message: "the header has no column '\(explicit)' (columns: \(header.joined(separator: ",")))", field: "\(axis)-column")
                }
                return i
            }
            guard let i = names.firstIndex(where: candidates.contains) else {
                throw InvalidInput(code: .missingColumn, message: "cannot find the \(axis) column in the header (\(header.joined(separator: ","))); name it with --\(axis)-column", field: "header")
            }
            return i
        }
        let x = try find(xColumn, ["x", "lon", "lng", "long", "longitude", "easting", "mapx"], "x")
        let y = try find(yColumn, ["y", "lat", "latitude", "northing", "mapy"], "y")
        return .csv(x: x, y: y, width: header.count)
    }
}
