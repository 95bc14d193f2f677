import GeoFareCore
/// Splits complete CSV records in a contiguous byte buffer into fields without copying them:
/// the zero-copy counterpart of ``CSVReader`` for hot batch loops.
///
/// It follows ``CSVReader``'s rules exactly (RFC 4180 quotes, CRLF, blank lines skipped, a
/// stray quote inside an unquoted field kept as text), so both readers give the same fields.
/// A record without quotes or stray carriage returns — the common case — is scanned once and
/// its fields are byte ranges into the input; only a record that needs unescaping is copied,
/// into ``scratch``.
///
/// The buffer must start at a record boundary; its end is taken as the end of the input
/// (a last record without a line break is still a record).
///
/// ```swift
/// var scanner = CSVRecordScanner(firstLine: 2)
/// var position = 0
/// while try scanner.next(in: buffer, from: &position) {
///     for k in 0..<scanner.fieldCount { let bytes = scanner.field(k, in: buffer) ... }
/// }
/// ```
public struct CSVRecordScanner {
    /// The field separator byte.
    public let separator: UInt8
    /// Field k spans `starts[k] ..< ends[k]` of the input, or of ``scratch`` when
    /// ``isUnescaped`` is true.
    @usableFromInline var table = FieldTable(capacity: 32)
    /// Which bytes end the fast scan: the separator, LF, CR and the quote.
    let classes: ByteClasses
    /// The number of fields in the current record.
    public private(set) var fieldCount = 0
    /// The unescaped fields of the current record when it had quotes or stray carriage returns.
    public private(set) var scratch: [UInt8] = []
    /// True when the current record's fields live in ``scratch`` (it needed unescaping).
    public private(set) var isUnescaped = false
    /// The current record's bytes in the input, without its line break.
    public private(set) var rawRange: Range<Int> = 0..<0
    /// The 1-based physical line the current record started on.
    public private(set) var line: Int
    private var nextLine: Int

    /// - Parameter firstLine: the physical line number of the buffer's first byte.
    public init(separator: UInt8 = UInt8(ascii: ","), firstLine: Int = 1) {
        self.separator = separator
        classes = ByteClasses(separator: separator)
        line = firstLine
        nextLine = firstLine
    }


    @inline(__always)
    mutating func append(_ start: Int, _ end: Int) {
        if fieldCount == table.capacity { table = table.grown(keeping: fieldCount) }
        table.starts[fieldCount] = start
        table.ends[fieldCount] = end
        fieldCount += 1
    }

    /// Field `k` of the current record (valid until the next call to ``next(in:from:)``).
    @inlinable @inline(__always)
    public func field(_ k: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if isUnescaped {
            return scratch.withUnsafeBufferPointer { s in UnsafeBufferPointer(rebasing: s[table.starts[k]..<table.ends[k]]) }
        }
        return UnsafeBufferPointer(start: bytes.baseAddress! + table.starts[k], count: table.ends[k] - table.starts[k])
    }

    /// Scans the next non-blank record starting at `position`, and moves `position` past it.
    /// - Returns: false when no record is left.
    /// - Throws: ``GeoFareError/unterminatedQuote(line:)`` when a quoted field is still open at the end.
    public mutating func next(in bytes: UnsafeBufferPointer<UInt8>, from position: inout Int) throws(GeoFareError) -> Bool {
        let n = bytes.count
        let sep = separator
        while position < n {
            let start = position
            line = nextLine
            fieldCount = 0
            isUnescaped = false
            var fieldStart = start
            var i = start
            var fast = true
            var terminator = 0  // bytes of the line break after the record
            let special = classes.table
            while i < n {
                let b = bytes[i]
                // One table look-up tells the ordinary bytes from the four that matter.
                if special[Int(b)] == 0 { i += 1; continue }
                if b == sep {
                    append(fieldStart, i)
                    fieldStart = i + 1
                } else if b == 0x0A {
                    terminator = 1
                    break
                } else if b == 0x22 {
                    fast = false
                    break
                } else if b == 0x0D {
                    if i + 1 < n, bytes[i + 1] == 0x0A { terminator = 2; break }
                    if i + 1 == n { terminator = 1; break }  // a final CR is dropped, as CSVReader.finish does
                    fast = false              // a CR inside a field is data: quote it on output
                    break
                }
                i += 1
            }
            if fast {
                position = i + terminator
                if terminator > 0 && bytes[i + terminator - 1] == 0x0A { nextLine += 1 }
                if fieldCount == 0 && i == fieldStart { continue }  // a blank line
                append(fieldStart, i)
                rawRange = start..<i
                return true
            }
            if try slowRecord(bytes, from: &position) { return true }
        }
        return false
    }

    /// One record with quotes or stray carriage returns: ``CSVReader``'s state machine, with
    /// the fields unescaped into ``scratch``. Returns false for a blank line.
    private mutating func slowRecord(_ bytes: UnsafeBufferPointer<UInt8>, from position: inout Int) throws(GeoFareError) -> Bool {
        scratch.removeAll(keepingCapacity: true)
        fieldCount = 0
        isUnescaped = true
        let start = position
        var fieldStart = 0
        var inQuotes = false, quoteSeen = false, fieldStarted = false, hasContent = false, lastWasCR = false
        var i = position
        let n = bytes.count
        func endField() {
            append(fieldStart, scratch.count)
            fieldStart = scratch.count
            fieldStarted = false
        }
        while i < n {
            let b = bytes[i]
            i += 1
            if inQuotes {
                if quoteSeen {
                    quoteSeen = false
                    if b == 0x22 { scratch.append(b); continue }
                    inQuotes = false
                } else if b == 0x22 {
                    quoteSeen = true
                    continue
                } else {
                    if b == 0x0A { nextLine += 1 }
                    scratch.append(b)
                    continue
                }
            }
            switch b {
            case separator:
                endField()
                hasContent = true
            case 0x0A:
                if lastWasCR, scratch.count > fieldStart, scratch.last == 0x0D { scratch.removeLast() }
                nextLine += 1
                position = i
                if hasContent || fieldStarted || scratch.count > fieldStart || fieldCount > 0 {
                    endField()
                    rawRange = start..<(i - 1)
                    return true
                }
                return false
            case 0x22:
                if scratch.count == fieldStart && !fieldStarted {
                    inQuotes = true
                    fieldStarted = true
                } else {
                    scratch.append(b)
                }
            default:
                scratch.append(b)
            }
            lastWasCR = b == 0x0D
        }
        // End of input: CSVReader.finish.
        if inQuotes && !quoteSeen { throw .unterminatedQuote(line: line) }
        position = n
        if scratch.count > fieldStart, scratch.last == 0x0D { scratch.removeLast() }
        if hasContent || fieldStarted || scratch.count > fieldStart || fieldCount > 0 {
            endField()
            rawRange = start..<n
            return true
        }
        return false
    }
}

/// A 256-entry table marking the bytes the record scanner stops at.
final class ByteClasses {
    let table: UnsafeMutablePointer<UInt8>
    init(separator: UInt8) {
        table = .allocate(capacity: 256)
        table.initialize(repeating: 0, count: 256)
        for b in [separator, 0x0A, 0x0D, 0x22] { table[Int(b)] = 1 }
    }
    deinit { table.deallocate() }
}

/// Storage for the field bounds of the current record: fixed-size, its pointers immutable
/// (no exclusivity checks or array uniqueness checks in the scanning loop); a record with more
/// fields moves to a bigger table.
@usableFromInline
final class FieldTable {
    @usableFromInline let starts: UnsafeMutablePointer<Int>
    @usableFromInline let ends: UnsafeMutablePointer<Int>
    @usableFromInline let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        starts = .allocate(capacity: capacity)
        ends = .allocate(capacity: capacity)
    }

    deinit {
        starts.deallocate()
        ends.deallocate()
    }

    /// A table twice as big holding the first `count` bounds.
    func grown(keeping count: Int) -> FieldTable {
        let bigger = FieldTable(capacity: capacity * 2)
        bigger.starts.update(from: starts, count: count)
        bigger.ends.update(from: ends, count: count)
        return bigger
    }
}

extension CSVWriter {
    /// Appends one field given as bytes, quoted when it holds a separator, quote or line break.
    public static func appendField(bytes value: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var needsQuotes = false
        for b in value where b == 0x2C || b == 0x22 || b == 0x0A || b == 0x0D {
            needsQuotes = true
            break
        }
        if !needsQuotes {
            out.append(contentsOf: value)
            return
        }
        out.append(0x22)
        for b in value {
            if b == 0x22 { out.append(b) }
            out.append(b)
        }
        out.append(0x22)
    }
}
