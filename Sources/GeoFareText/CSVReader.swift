import GeoFareCore
import Foundation

/// A streaming RFC 4180 CSV parser: quoted fields with embedded commas, quotes (`""`) and line
/// breaks, LF or CRLF line ends, and a leading UTF-8 byte-order mark.
///
/// Feed it bytes as they arrive; it hands back complete records. Memory is bounded by the
/// longest record, not the file.
///
/// ```swift
/// var reader = CSVReader()
/// reader.feed(bytes) { record in ... }   // for each complete record
/// try reader.finish { record in ... }    // the last record, if the input lacks a final newline
/// ```
public struct CSVReader {
    /// A parsed record: its fields and the 1-based physical line it started on.
    public struct Record: Sendable {
        public var fields: [String]
        public var line: Int
    }

    /// The field separator byte (`,` by default).
    public let separator: UInt8
    private var field: [UInt8] = []
    private var fields: [String] = []
    private var inQuotes = false
    private var quoteSeenInQuotes = false
    private var bomBytesSeen = 0  // 0...3 while matching a leading EF BB BF; -1 once decided
    private var fieldStarted = false
    private var recordHasContent = false
    private var line = 1
    private var recordLine = 1
    private var lastWasCR = false

    /// - Parameters:
    ///   - skipBOM: strip a UTF-8 byte-order mark at the start of the input (off for a reader
    ///     that starts mid-file).
    ///   - firstLine: the physical line number of the input's first byte (for a reader that
    ///     starts mid-file).
    public init(separator: UInt8 = UInt8(ascii: ","), skipBOM: Bool = true, firstLine: Int = 1) {
        self.separator = separator
        field.reserveCapacity(64)
        if !skipBOM { bomBytesSeen = -1 }
        line = firstLine
        recordLine = firstLine
    }

    /// Parses a chunk of `Data` (through its raw bytes, the fast path).
    public mutating func feed(_ data: Data, emit: (Record) throws -> Void) rethrows {
        try data.withUnsafeBytes { raw in try feed(raw, emit: emit) }
    }

    /// Parses `bytes` and calls `emit` for each record completed by them.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes, emit: (Record) throws -> Void) rethrows where Bytes.Element == UInt8 {
        for byte in bytes {
            if bomBytesSeen >= 0 {
                // A UTF-8 BOM (EF BB BF) at the very start is not part of the first field; it
                // may arrive split across chunks.
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                if byte == bom[bomBytesSeen] {
                    bomBytesSeen += 1
                    if bomBytesSeen == 3 { bomBytesSeen = -1 }
                    continue
                }
                let partial = bomBytesSeen
                bomBytesSeen = -1
                if partial > 0 { field.append(contentsOf: bom[0..<partial]) }
            }
            if inQuotes {
                if quoteSeenInQuotes {
                    quoteSeenInQuotes = false
                    if byte == UInt8(ascii: "\"") { field.append(byte); continue }
                    inQuotes = false  // the quote closed the field; fall through to plain handling
                } else if byte == UInt8(ascii: "\"") {
                    quoteSeenInQuotes = true
                    continue
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                    continue
                }
            }
            switch byte {
            case separator:
                endField()
                recordHasContent = true
            case UInt8(ascii: "\n"):
                if lastWasCR, field.last == UInt8(ascii: "\r") { field.removeLast() }
                if recordHasContent || fieldStarted || !field.isEmpty || !fields.isEmpty {
                    endField()
                    try emit(Record(fields: fields, line: recordLine))
                }
                fields.removeAll(keepingCapacity: true)
                recordHasContent = false
                line += 1
                recordLine = line
            case UInt8(ascii: "\""):
                if field.isEmpty && !fieldStarted {
                    inQuotes = true
                    fieldStarted = true
                } else {
                    field.append(byte)  // a stray quote inside an unquoted field is kept as text
                }
            default:
                field.append(byte)
            }
            lastWasCR = byte == UInt8(ascii: "\r")
        }
    }

    /// Every record of a whole file in memory (`pool`'s and `calibrate`'s inputs).
    /// - Throws: ``GeoFareError`` `csv_unterminated_quote` as ``finish(emit:)``.
    public static func records(of data: Data) throws(GeoFareError) -> [Record] {
        var records: [Record] = []
        var reader = CSVReader()
        reader.feed(data) { records.append($0) }
        try reader.finish { records.append($0) }
        return records
    }

    /// Where each logical column is in a header row (`pool`'s and `calibrate`'s inputs): the
    /// header name is `map[logical]` or the logical name itself, trimmed of spaces.
    /// - Throws: ``GeoFareError`` `missing_column` (field: the logical column) for a required
    ///   column the header lacks, saying whether `--map` renamed it and what the header has.
    public static func columns(of header: Record, required: [String], optional: [String] = [],
                               map: [String: String]) throws(GeoFareError) -> [String: Int] {
        let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        var at: [String: Int] = [:]
        for logical in required + optional {
            let name = map[logical] ?? logical
            if let i = names.firstIndex(of: name) { at[logical] = i } else if required.contains(logical) {
                throw .missingColumn(name, for: logical, mapped: map[logical] != nil, has: names)
            }
        }
        return at
    }

    /// Ends the input: emits a final record that lacked a line break.
    /// - Throws: ``GeoFareError/unterminatedQuote(line:)`` when a quoted field never closed.
    public mutating func finish(emit: (Record) throws(GeoFareError) -> Void) throws(GeoFareError) {
        if inQuotes && !quoteSeenInQuotes { throw .unterminatedQuote(line: recordLine) }
        inQuotes = false
        quoteSeenInQuotes = false
        if field.last == UInt8(ascii: "\r") { field.removeLast() }
        if recordHasContent || fieldStarted || !field.isEmpty || !fields.isEmpty {
            endField()
            try emit(Record(fields: fields, line: recordLine))
        }
        fields.removeAll()
    }

    private mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field.removeAll(keepingCapacity: true)
        fieldStarted = false
    }
}

/// Writes CSV fields, quoting only those that need it (RFC 4180).
public enum CSVWriter {
    /// Appends one field, quoted when it holds a separator, quote or line break.
    public static func appendField(_ value: String, to out: inout [UInt8]) {
        var value = value
        value.withUTF8 { appendField(bytes: $0, to: &out) }
    }

    /// Appends a record: the fields joined by commas, then `\n`.
    public static func appendRecord(_ fields: [String], to out: inout [UInt8]) {
        for (i, f) in fields.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            appendField(f, to: &out)
        }
        out.append(UInt8(ascii: "\n"))
    }
}
