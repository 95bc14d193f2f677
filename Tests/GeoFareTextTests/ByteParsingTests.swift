import Foundation
import GeoFareCore
import GeoFareText
import Testing

/// The zero-copy batch readers and writers agree byte for byte with the `String` ones.
struct ByteParsingTests {
    /// Every record and field the scanner finds in `text`, with its line.
    static func scan(_ text: [UInt8]) throws -> [([String], Int)] {
        var scanner = CSVRecordScanner()
        var out: [([String], Int)] = []
        try text.withUnsafeBufferPointer { buffer in
            var position = 0
            while try scanner.next(in: buffer, from: &position) {
                let fields = (0..<scanner.fieldCount).map { String(decoding: scanner.field($0, in: buffer), as: UTF8.self) }
                out.append((fields, scanner.line))
            }
        }
        return out
    }

    /// What CSVReader gives for the same bytes (no BOM handling: the scanner starts mid-file).
    static func read(_ text: [UInt8]) throws -> [([String], Int)] {
        var reader = CSVReader(skipBOM: false)
        var out: [([String], Int)] = []
        reader.feed(text) { out.append(($0.fields, $0.line)) }
        try reader.finish { out.append(($0.fields, $0.line)) }
        return out
    }

    @Test("The record scanner finds exactly CSVReader's fields and lines on 20,000 random texts of commas, quotes, CR and LF")
    func scannerMatchesReader() throws {
        var rng = SeededGenerator(seed: 7)
        let alphabet: [UInt8] = Array("ab ,,\"\"\r\n\n".utf8)
        var compared = 0
        for _ in 0..<20_000 {
            let length = Int.random(in: 0...24, using: &rng)
            let text = (0..<length).map { _ in alphabet.randomElement(using: &rng)! }
            let expected: [([String], Int)]
            do { expected = try Self.read(text) } catch {
                #expect(throws: CSVReader.UnterminatedQuote.self) { try Self.scan(text) }
                continue
            }
            let got = try Self.scan(text)
            #expect(got.map(\.0) == expected.map(\.0), "text: \(String(decoding: text, as: UTF8.self).debugDescription)")
            #expect(got.map(\.1) == expected.map(\.1), "lines of \(String(decoding: text, as: UTF8.self).debugDescription)")
            compared += 1
        }
        #expect(compared > 10_000)
    }

    @Test("Record ends follow the scanner's rules: a text cut at every end they report scans, piece by piece, into the same records and lines (stray quotes included)")
    func recordEndsAgreeWithScanner() throws {
        var rng = SeededGenerator(seed: 17)
        let alphabet: [UInt8] = Array("ab 5,,\"\"\r\n\n".utf8)
        var compared = 0
        for round in 0..<20_000 {
            let length = Int.random(in: 0...32, using: &rng)
            var text = (0..<length).map { _ in alphabet.randomElement(using: &rng)! }
            if round % 4 == 0 { text = Array("x,he said 5\" tall\n".utf8) + text }  // a stray quote first
            let whole: [([String], Int)]
            do { whole = try Self.scan(text) } catch { continue }
            var ends: [(Int, Int)] = []
            let (newlines, openAtEnd) = text.withUnsafeBufferPointer { b in
                CSVRecordScanner.scanRecordEnds(b) { at, seen in ends.append((at, seen)); return true }
            }
            #expect(!openAtEnd)
            #expect(newlines == text.filter { $0 == 0x0A }.count)
            var pieces: [([String], Int)] = []
            var start = 0, linesBefore = 0
            for (at, seen) in ends + [(text.count - 1, newlines)] where at + 1 > start {
                var scanner = CSVRecordScanner(firstLine: 1 + linesBefore)
                try text.withUnsafeBufferPointer { all in
                    let piece = UnsafeBufferPointer(rebasing: all[start...at])
                    var position = 0
                    while try scanner.next(in: piece, from: &position) {
                        pieces.append(((0..<scanner.fieldCount).map { String(decoding: scanner.field($0, in: piece), as: UTF8.self) }, scanner.line))
                    }
                }
                start = at + 1
                linesBefore = seen
            }
            #expect(pieces.map(\.0) == whole.map(\.0), "text: \(String(decoding: text, as: UTF8.self).debugDescription)")
            #expect(pieces.map(\.1) == whole.map(\.1), "lines of \(String(decoding: text, as: UTF8.self).debugDescription)")
            // Every record the scanner reads ends at a reported end (or at the end of the text).
            #expect(ends.count >= whole.count - 1)
            compared += 1
        }
        #expect(compared > 10_000)
    }

    @Test("Unquoted records are not copied: their fields and raw range point into the input")
    func zeroCopy() throws {
        let text = Array("a,bb,\r\nx\n".utf8)
        var scanner = CSVRecordScanner()
        try text.withUnsafeBufferPointer { buffer in
            var position = 0
            let found = try scanner.next(in: buffer, from: &position)
            #expect(found)
            #expect(!scanner.isUnescaped)
            #expect(scanner.fieldCount == 3)
            #expect(scanner.rawRange == 0..<5)
            #expect(scanner.field(1, in: buffer).baseAddress == buffer.baseAddress! + 2)
            #expect(position == 7)
        }
    }

    @Test("Numbers from bytes equal Double(String) and Int(String), fast path or not")
    func numbers() {
        var rng = SeededGenerator(seed: 11)
        var cases = ["0", "-0", "+5", "5.", ".5", "1e5", "1E-3", "inf", "nan", "0x1p3", "", "-", "1.2.3", "12a",
                     "9007199254740993", "9007199254740992.5", "0.1", "37.566500", "126.978000", "-0.000001",
                     "123456789012345678901234", "00012.5000", " 1", "1 "]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...19, using: &rng)
            var s = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
            if Bool.random(using: &rng) { s.insert(".", at: s.index(s.startIndex, offsetBy: Int.random(in: 0...digits, using: &rng))) }
            if Int.random(in: 0..<4, using: &rng) == 0 { s = "-" + s }
            cases.append(s)
        }
        for c in cases {
            let bytes = Array(c.utf8)
            bytes.withUnsafeBufferPointer { b in
                let expected = Double(c)
                let got = ByteNumber.double(b)
                #expect(got?.bitPattern == expected?.bitPattern || (got?.isNaN == true && expected?.isNaN == true), "\(c)")
                #expect(ByteNumber.int(b) == Int(c), "\(c)")
            }
        }
    }

    @Test("ByteWriter writes the same digits as DecimalFormat")
    func writerDigits() {
        var rng = SeededGenerator(seed: 5)
        var writer = ByteWriter(capacity: 8)
        defer { writer.deallocate() }
        var ints: [Int64] = [0, 9, 10, 99, 100, -1, -10, Int64.max, Int64.min + 1, 1_000_000_000_000_000_000]
        for _ in 0..<5_000 { ints.append(Int64.random(in: -10_000_000_000...10_000_000_000, using: &rng)) }
        for v in ints {
            writer.removeAll()
            writer.appendDecimal(v)
            var expected: [UInt8] = []
            DecimalFormat.append(v, to: &expected)
            #expect(Array(writer.bytes) == expected, "\(v)")
        }
        var doubles: [Double] = [0, -0.04, 0.05, 22376.25, 1e17, -1e300, .infinity, .nan]
        for _ in 0..<5_000 { doubles.append(Double.random(in: -1e7...1e7, using: &rng)) }
        for v in doubles {
            for d in [0, 1, 3, 8] {
                writer.removeAll()
                writer.append(v, decimals: d)
                var expected: [UInt8] = []
                DecimalFormat.append(v, decimals: d, to: &expected)
                #expect(Array(writer.bytes) == expected, "\(v) \(d)")
            }
        }
    }

    @Test("ISO 8601 from bytes equals the String parser")
    func isoBytes() throws {
        // Known instants, worked out by hand (and with `date -u -d`), in every form the parser takes.
        let known: [(String, Double?)] = [
            ("2024-05-13T06:20:00+09:00", 1_715_548_800),   // 2024-05-12T21:20:00Z
            ("2024-05-13T06:20Z", 1_715_581_200),
            ("2024-05-13 06:20:00.25-0400", 1_715_595_600.25),
            ("2024-02-29t23:59:59z", 1_709_251_199),
            ("1970-01-01T00:00:00+00:00", 0),
            ("2024-05-13T06:20:00", nil), ("junk", nil), ("2024-13-01T00:00Z", nil), ("2024-05-13T24:00Z", nil),
        ]
        for (text, epoch) in known {
            var copy = text
            let fromBytes = copy.withUTF8 { ISO8601.parse(bytes: $0) }
            #expect(fromBytes?.timeIntervalSince1970 == epoch, "\(text)")
        }
        // Random instants and offsets, written by Foundation's own formatter, read back exactly.
        var rng = SeededGenerator(seed: 5)
        let formatter = ISO8601DateFormatter()
        for _ in 0..<2_000 {
            let epoch = Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &rng))
            formatter.timeZone = TimeZone(secondsFromGMT: 60 * 15 * Int.random(in: -48...56, using: &rng))!
            var text = formatter.string(from: Date(timeIntervalSince1970: epoch))
            let parsed = text.withUTF8 { ISO8601.parse(bytes: $0) }
            #expect(parsed?.timeIntervalSince1970 == epoch, "\(text)")
        }
    }
}
