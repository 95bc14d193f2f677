import GeoFareCore
/// A parsed JSON value, strict per RFC 8259, for the worker protocol.
///
/// Numbers keep their original text, so an `id` is echoed exactly as it was sent (a 20-digit
/// integer or `1.50` stays what it was); ``double`` converts on demand.
public indirect enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// The number's text as written (always valid JSON number syntax).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    /// Already-encoded JSON text (written as is): for hot results written with ``ByteWriter``.
    case raw([UInt8])

    /// The number as a Double (`nil` if not a number; may be ±infinity for huge exponents).
    public var double: Double? {
        if case let .number(text) = self { return Double(text) }
        return nil
    }

    /// The number as an exact integer, or `nil` if it is not a number with an integral value
    /// representable as `Int64`.
    public var int64: Int64? {
        guard case let .number(text) = self else { return nil }
        if let v = Int64(text) { return v }
        if let d = Double(text), d.isFinite, d == d.rounded(), abs(d) < 9.2e18 { return Int64(d) }
        return nil
    }

    public var string: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    public var object: [String: JSONValue]? {
        if case let .object(o) = self { return o }
        return nil
    }

    public var array: [JSONValue]? {
        if case let .array(a) = self { return a }
        return nil
    }

    /// Whether the value is a scalar (null, bool, number or string): what may serve as an `id`.
    public var isScalar: Bool {
        switch self {
        case .null, .bool, .number, .string: true
        case .array, .object, .raw: false
        }
    }

    /// A short name of the value's type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object, .raw: "object"
        }
    }

    /// A number value from a Double (shortest round-trip text; non-finite becomes null).
    public static func double(_ d: Double) -> JSONValue {
        guard d.isFinite else { return .null }
        if d == d.rounded(), abs(d) < 1e15 { return .number(String(Int64(d))) }
        return .number("\(d)")
    }

    /// A number value from an integer.
    public static func int(_ i: Int64) -> JSONValue { .number(String(i)) }
}

/// A strict, fast JSON parser over bytes: RFC 8259 grammar, UTF-8 validated, no NaN/Infinity,
/// nesting limited to `maxDepth`.
public struct JSONParser {
    public static let maxDepth = 64

    /// Parses one complete JSON text (surrounding whitespace allowed).
    /// - Throws: ``GeoFareError`` with the byte ``GeoFareError/offset``: `invalid_utf8` when the
    ///   text has a byte sequence that is not UTF-8 (before any grammar error; with the path of
    ///   the string that holds it as its field), else `invalid_json`.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(GeoFareError) -> JSONValue {
        var p = JSONParser(bytes: bytes)
        let result = p.parseAll()
        switch result {
        case let .success(value) where p.firstBadUTF8 == nil:
            return value
        case let .failure(error) where p.firstBadUTF8 == nil:
            // A grammar error at a byte that starts no UTF-8 sequence is the text's encoding.
            let offset = error.offset ?? 0
            if offset < bytes.count, bytes[offset] >= 0x80,
               firstInvalidUTF8(bytes, in: offset..<min(bytes.count, offset + 4)) == offset {
                throw GeoFareError.invalidJSON(at: offset, "invalid UTF-8 (JSON text must be UTF-8)", code: .invalidUtf8)
            }
            throw error
        default:
            // Read again noting paths, to name the string that holds the first bad sequence.
            var located = JSONParser(bytes: bytes)
            located.tracksPath = true
            _ = located.parseAll()
            throw GeoFareError.invalidJSON(at: p.firstBadUTF8!, "invalid UTF-8 in a string (JSON text must be UTF-8)", code: .invalidUtf8,
                                           field: located.badUTF8Path)
        }
    }

    /// The text read with each invalid UTF-8 sequence in its strings replaced by U+FFFD, when
    /// that was all that was wrong with it (`nil` for a grammar error): what an answer to a line
    /// that is not UTF-8 can still echo (its `id`).
    public static func parseReplacingInvalidUTF8(_ bytes: UnsafeRawBufferPointer) -> JSONValue? {
        var p = JSONParser(bytes: bytes)
        return try? p.parseAll().get()
    }

    /// The offset of the first byte of the first sequence in `range` that is not UTF-8 (RFC 3629:
    /// no overlong forms, surrogates or values above U+10FFFF; a sequence cut by the range's end
    /// counts as bad), or `nil`.
    public static func firstInvalidUTF8(_ b: UnsafeRawBufferPointer, in range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let end = range.upperBound
        func continuation(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool { k < end && b[k] >= lo && b[k] <= hi }
        while i < end {
            let c = b[i]
            if c < 0x80 { i += 1; continue }
            let n: Int
            switch c {
            case 0xC2...0xDF: n = continuation(i + 1) ? 2 : 0
            case 0xE0: n = continuation(i + 1, 0xA0) && continuation(i + 2) ? 3 : 0
            case 0xE1...0xEC, 0xEE, 0xEF: n = continuation(i + 1) && continuation(i + 2) ? 3 : 0
            case 0xED: n = continuation(i + 1, 0x80, 0x9F) && continuation(i + 2) ? 3 : 0
            case 0xF0: n = continuation(i + 1, 0x90) && continuation(i + 2) && continuation(i + 3) ? 4 : 0
            case 0xF1...0xF3: n = continuation(i + 1) && continuation(i + 2) && continuation(i + 3) ? 4 : 0
            case 0xF4: n = continuation(i + 1, 0x80, 0x8F) && continuation(i + 2) && continuation(i + 3) ? 4 : 0
            default: n = 0
            }
            if n == 0 { return i }
            i += n
        }
        return nil
    }

    /// One JSON text with surrounding whitespace.
    private mutating func parseAll() -> Result<JSONValue, GeoFareError> {
        Result { () throws(GeoFareError) -> JSONValue in
            skipWhitespace()
            let value = try value(depth: 0)
            skipWhitespace()
            guard i == b.count else { throw fail("unexpected text after the JSON value") }
            return value
        }
    }

    /// Parses one complete JSON text from an array of bytes.
    public static func parse(_ bytes: [UInt8]) throws(GeoFareError) -> JSONValue {
        let result: Result<JSONValue, GeoFareError> = bytes.withUnsafeBytes { raw in
            Result { () throws(GeoFareError) -> JSONValue in try parse(raw) }
        }
        return try result.get()
    }

    private let b: UnsafeRawBufferPointer
    private var i = 0
    /// The offset of the first byte sequence that is not UTF-8 in a string read so far.
    private var firstBadUTF8: Int?
    /// With `tracksPath`, the path to the value being read (keys and indexes), and the path of
    /// the first string with invalid UTF-8.
    private var tracksPath = false
    private var path: [JSONValue] = []
    private var badUTF8Path: String?

    private init(bytes: UnsafeRawBufferPointer) { b = bytes }

    private func fail(_ reason: String) -> GeoFareError { .invalidJSON(at: i, reason) }

    /// Notes the first bad UTF-8 sequence of the string whose raw bytes (escapes are ASCII) are
    /// `range`, if it is the first of the text, and where it sits.
    private mutating func noteBadUTF8(in range: Range<Int>) {
        guard firstBadUTF8 == nil else { return }
        firstBadUTF8 = Self.firstInvalidUTF8(b, in: range) ?? range.lowerBound
        if tracksPath { badUTF8Path = Self.pathText(path) }
    }

    /// `a.b[2].c` from keys (strings) and indexes (numbers); `nil` for the top.
    private static func pathText(_ path: [JSONValue]) -> String? {
        guard !path.isEmpty else { return nil }
        var text = ""
        for step in path {
            switch step {
            case let .number(n): text += "[\(n)]"
            case let .string(key): text += text.isEmpty ? key : "." + key
            default: break
            }
        }
        return text
    }

    private mutating func skipWhitespace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    private mutating func value(depth: Int) throws(GeoFareError) -> JSONValue {
        guard depth < Self.maxDepth else { throw fail("nesting deeper than \(Self.maxDepth)") }
        guard i < b.count else { throw fail("unexpected end of input") }
        switch b[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(GeoFareError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= b.count else { throw fail("unexpected end of input") }
        for k in 0..<n where b[i + k] != word.utf8Start[k] { throw fail("invalid literal") }
        i += n
    }

    private mutating func object(depth: Int) throws(GeoFareError) -> JSONValue {
        i += 1
        var result: [String: JSONValue] = [:]
        skipWhitespace()
        if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return .object(result) }
        while true {
            skipWhitespace()
            guard i < b.count, b[i] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let key = try string()
            skipWhitespace()
            guard i < b.count, b[i] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            i += 1
            skipWhitespace()
            result[key] = try member(.string(key), depth: depth)
            if try closes(UInt8(ascii: "}")) { return .object(result) }
        }
    }

    private mutating func array(depth: Int) throws(GeoFareError) -> JSONValue {
        i += 1
        var result: [JSONValue] = []
        skipWhitespace()
        if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return .array(result) }
        while true {
            skipWhitespace()
            result.append(try member(.int(Int64(result.count)), depth: depth))
            if try closes(UInt8(ascii: "]")) { return .array(result) }
        }
    }

    /// The value of an object's member or an array's element, noting its key or index on the
    /// path while it is read (with ``tracksPath``).
    private mutating func member(_ key: @autoclosure () -> JSONValue, depth: Int) throws(GeoFareError) -> JSONValue {
        if tracksPath { path.append(key()) }
        let v = try value(depth: depth + 1)
        if tracksPath { path.removeLast() }
        return v
    }

    /// After a member: `true` past the `closing` bracket, `false` past a comma (another member follows).
    private mutating func closes(_ closing: UInt8) throws(GeoFareError) -> Bool {
        skipWhitespace()
        guard i < b.count else { throw fail("unexpected end of input") }
        if b[i] == UInt8(ascii: ",") { i += 1; return false }
        if b[i] == closing { i += 1; return true }
        throw fail("expected ',' or '\(Character(Unicode.Scalar(closing)))'")
    }

    private mutating func number() throws(GeoFareError) -> JSONValue {
        let start = i
        if b[i] == UInt8(ascii: "-") { i += 1 }
        guard i < b.count else { throw fail("invalid number") }
        if b[i] == UInt8(ascii: "0") {
            i += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(b[i]) {
            while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
        } else {
            throw fail("invalid number")
        }
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let digits = i
            while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
            guard i > digits else { throw fail("invalid number") }
        }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            let digits = i
            while i < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[i]) { i += 1 }
            guard i > digits else { throw fail("invalid number") }
        }
        guard i - start <= 400 else { throw fail("number longer than 400 characters") }
        return .number(String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<i]), as: UTF8.self))
    }

    private mutating func string() throws(GeoFareError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes.
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                guard let s = String(validating: UnsafeRawBufferPointer(rebasing: b[start..<i]), as: UTF8.self) else {
                    noteBadUTF8(in: start..<i)
                    i += 1
                    return String(decoding: UnsafeRawBufferPointer(rebasing: b[start..<(i - 1)]), as: UTF8.self)
                }
                i += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            if c < 0x20 { throw fail("control character in a string") }
            i += 1
        }
        var bytes = Array(UnsafeRawBufferPointer(rebasing: b[start..<i]))
        while i < b.count {
            let c = b[i]
            if c == UInt8(ascii: "\"") {
                guard let s = String(validating: bytes, as: UTF8.self) else {
                    noteBadUTF8(in: start..<i)
                    i += 1
                    return String(decoding: bytes, as: UTF8.self)
                }
                i += 1
                return s
            }
            if c < 0x20 { throw fail("control character in a string") }
            if c != UInt8(ascii: "\\") {
                bytes.append(c)
                i += 1
                continue
            }
            i += 1
            guard i < b.count else { break }
            switch b[i] {
            case UInt8(ascii: "\""): bytes.append(0x22)
            case UInt8(ascii: "\\"): bytes.append(0x5C)
            case UInt8(ascii: "/"): bytes.append(0x2F)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard i + 2 < b.count, b[i + 1] == UInt8(ascii: "\\"), b[i + 2] == UInt8(ascii: "u") else { throw fail("unpaired surrogate") }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("unpaired surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw fail("unpaired surrogate")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                bytes.append(contentsOf: String(Character(u)).utf8)
            default: throw fail("invalid escape")
            }
            i += 1
        }
        throw fail("unterminated string")
    }

    private mutating func hex4() throws(GeoFareError) -> UInt32 {
        guard i + 4 < b.count else { throw fail("invalid \\u escape") }
        var v: UInt32 = 0
        for k in 1...4 {
            let c = b[i + k]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - 55)
            default: throw fail("invalid \\u escape")
            }
            v = v * 16 + d
        }
        i += 4
        return v
    }
}

/// Writes JSON text into a byte buffer.
public enum JSONWriter {
    /// Appends a value; object keys are written sorted, for stable output.
    public static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(v): out.append(contentsOf: (v ? "true" : "false").utf8)
        case let .number(text): out.append(contentsOf: text.utf8)
        case let .raw(bytes): out.append(contentsOf: bytes)
        case let .string(s): appendString(s, to: &out)
        case let .array(items):
            out.append(UInt8(ascii: "["))
            for (k, item) in items.enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                append(item, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(fields):
            out.append(UInt8(ascii: "{"))
            for (k, key) in fields.keys.sorted().enumerated() {
                if k > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                append(fields[key]!, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a string with JSON escapes.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Fast path: nothing to escape (the common case), one bulk copy.
        var clean = true
        for c in s.utf8 where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
            clean = false
            break
        }
        if clean {
            out.append(contentsOf: s.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
        for c in s.utf8 {
            switch c {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 15)]])
            default: out.append(c)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The value as a String.
    public static func string(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        append(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
