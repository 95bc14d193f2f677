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

    /// `count` texts of up to `maxLength` bytes drawn from `alphabet` with the generator seeded
    /// `seed` (each text's length drawn first, then its bytes).
    static func randomTexts(_ count: Int, of alphabet: String, upTo maxLength: Int, seed: UInt64) -> [[UInt8]] {
        var rng = SeededGenerator(seed: seed)
        let bytes = Array(alphabet.utf8)
        return (0..<count).map { _ in (0..<Int.random(in: 0...maxLength, using: &rng)).map { _ in bytes.randomElement(using: &rng)! } }
    }

    /// Expects the same fields and the same lines, record by record, naming `text` when not.
    static func expectSameRecords(_ got: [([String], Int)], _ expected: [([String], Int)], of text: [UInt8],
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        let shown = String(decoding: text, as: UTF8.self).debugDescription
        #expect(got.map(\.0) == expected.map(\.0), "text: \(shown)", sourceLocation: sourceLocation)
        #expect(got.map(\.1) == expected.map(\.1), "lines of \(shown)", sourceLocation: sourceLocation)
    }

    @Test("The record scanner finds exactly CSVReader's fields and lines on 20,000 random texts of commas, quotes, CR and LF")
    func scannerMatchesReader() throws {
        var compared = 0
        for text in Self.randomTexts(20_000, of: "ab ,,\"\"\r\n\n", upTo: 24, seed: 7) {
            let expected: [([String], Int)]
            do { expected = try Self.read(text) } catch {
                #expect(throws: GeoFareError.self) { try Self.scan(text) }
                continue
            }
            Self.expectSameRecords(try Self.scan(text), expected, of: text)
            compared += 1
        }
        #expect(compared > 10_000)
    }

    /// Record ends follow the scanner's rules: a text cut at every end they report scans, piece
    /// by piece, into the same records and lines (stray quotes included).
    @Test("A text cut at every record end it reports scans, piece by piece, into the same records and lines")
    func recordEndsAgreeWithScanner() throws {
        var compared = 0
        for (round, random) in Self.randomTexts(20_000, of: "ab 5,,\"\"\r\n\n", upTo: 32, seed: 17).enumerated() {
            var text = random
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
            Self.expectSameRecords(pieces, whole, of: text)
            // Every record the scanner reads ends at a reported end (or at the end of the text).
            #expect(ends.count >= whole.count - 1)
            compared += 1
        }
        #expect(compared > 10_000)
    }

    @Test("Block cuts without quotes (memchr and counted line feeds) are the cuts and line counts of the record-end scan, for 1 to 9 parts")
    func quotelessCutsEqualTheScan() {
        var rng = SeededGenerator(seed: 41)
        // The scan's definition of a cut, as `cuts` had it for every buffer before its
        // quote-free path: each record end in order moves to the next target at most once.
        func scanned(_ b: UnsafeBufferPointer<UInt8>, _ parts: Int) -> ([Int], [Int], Int) {
            var cuts = [0], before = [0], target = 1
            let n = b.count
            let (newlines, _) = CSVRecordScanner.scanRecordEnds(b) { at, seen in
                if target < parts, at >= n * target / parts, at + 1 < n {
                    cuts.append(at + 1); before.append(seen); target += 1
                }
                return true
            }
            return (cuts + [n], before, newlines)
        }
        var quoteless = 0
        for round in 0..<6_000 {
            // Short texts and long ones (line feeds far apart and close together, runs of
            // blank lines, CRLF, a last line with or without its line feed); every fourth with a
            // quote, which takes the general path.
            let alphabet: [UInt8] = round % 3 == 0 ? Array("\n\n\n\r,a".utf8) : Array("abcdefgh,,12.5 \r\n".utf8)
            var text = (0..<Int.random(in: 0...(round % 2 == 0 ? 40 : 3_000), using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            if round % 4 == 0, !text.isEmpty { text[Int.random(in: 0..<text.count, using: &rng)] = 0x22 }
            if !text.contains(0x22) { quoteless += 1 }
            for parts in 1...9 {
                text.withUnsafeBufferPointer { b in
                    let got = CSVRecordScanner.cuts(b, parts: parts), want = scanned(b, parts)
                    #expect(got.cuts == want.0 && got.newlinesBefore == want.1 && got.newlines == want.2,
                            "parts \(parts), text \(String(decoding: text, as: UTF8.self).debugDescription)")
                }
            }
        }
        #expect(quoteless > 3_000)
        // Line feeds counted at every length and alignment around the 16-byte steps and the
        // 255-step flush of the per-lane counts.
        let lf: [UInt8] = (0..<9_000).map { _ in UInt8.random(in: 0...3, using: &rng) == 0 ? 0x0A : 0x61 }
        lf.withUnsafeBufferPointer { b in
            for (start, end) in [(0, 0), (0, 15), (0, 16), (1, 17), (3, 40), (0, 4_080), (0, 4_081), (5, 8_999), (0, 9_000)] + (0..<200).map({ _ in
                let a = Int.random(in: 0..<9_000, using: &rng); return (a, Int.random(in: a...9_000, using: &rng))
            }) {
                let piece = UnsafeBufferPointer(rebasing: b[start..<end])
                #expect(CSVRecordScanner.lineFeeds(in: piece) == piece.filter { $0 == 0x0A }.count, "\(start)..<\(end)")
            }
        }
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
        var ints: [Int64] = [0, 9, 10, 99, 100, -1, -10, Int64.max, Int64.min, Int64.min + 1, 1_000_000_000_000_000_000]
        // Every power of ten and its neighbours (where the digit count changes), both signs.
        var power: Int64 = 1
        for _ in 0..<19 {
            ints += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
            if power <= Int64.max / 10 { power *= 10 }
        }
        for _ in 0..<5_000 { ints.append(Int64.random(in: -10_000_000_000...10_000_000_000, using: &rng)) }
        for _ in 0..<5_000 { ints.append(Int64.random(in: Int64.min...Int64.max, using: &rng)) }
        for v in ints {
            writer.removeAll()
            writer.appendDecimal(v)
            var expected: [UInt8] = []
            DecimalFormat.append(v, to: &expected)
            #expect(Array(writer.bytes) == expected, "\(v)")
        }
        var doubles: [Double] = [0, -0.0, -0.04, 0.05, -0.05, 0.95, 9.95, 99.95, 22376.25, 1e17, 9.2e17, -1e300, .infinity, -.infinity, .nan,
                                 .leastNonzeroMagnitude, .greatestFiniteMagnitude, 922_337_203_685_477.5]
        for _ in 0..<5_000 { doubles.append(Double.random(in: -1e7...1e7, using: &rng)) }
        // Rounding edges: halves at the written digit (k + 0.5)/10^d and their neighbours.
        for _ in 0..<5_000 {
            let d = Int.random(in: 0...3, using: &rng)
            var unit = 1.0
            for _ in 0..<d { unit *= 10 }
            let half = (Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) + 0.5) / unit
            doubles += [half, half.nextUp, half.nextDown]
        }
        for v in doubles {
            for d in [0, 1, 2, 3, 8, 12] {
                writer.removeAll()
                writer.append(v, decimals: d)
                var expected: [UInt8] = []
                DecimalFormat.append(v, decimals: d, to: &expected)
                #expect(Array(writer.bytes) == expected, "\(v) \(d)")
            }
        }
    }

    @Test("ByteWriter copies byte runs of every length intact, around its inline cut-offs and across growth")
    func writerRuns() {
        var writer = ByteWriter(capacity: 8)
        defer { writer.deallocate() }
        var expected: [UInt8] = []
        for n in 0...80 {
            let run = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ n) }
            run.withUnsafeBufferPointer { writer.append($0) }
            writer.append(run)
            expected += run + run
        }
        #expect(Array(writer.bytes) == expected)
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

    /// `ISO8601.parse(bytes:)` and ``ISO8601Oracle``, written apart (a regular expression and a
    /// month table instead of a byte reader and days-from-civil), agree to the bit on 40,000
    /// mutations of accepted times: each edit replaces, removes or inserts a digit, a separator,
    /// a zone letter or a stray byte, so that most results are refusals and thousands are times.
    @Test("ISO 8601 from bytes agrees with an independent oracle (a regex and a month table) on 40,000 mutated times")
    func isoBytesMatchOracle() {
        var rng = SeededGenerator(seed: 23)
        let seeds = ["2024-05-13T06:20:00+09:00", "2024-05-13 06:20:00.25-0400", "2024-02-29t23:59:59z", "2024-05-13T06:20Z",
                     "1999-12-31T23:59:60.999+14:00", "2024-05-13T06:20:00+09"]
        let alphabet = Array("0123456789-+:TtZz .,/a\u{00}\u{FF}".utf8)
        let oracle = ISO8601Oracle()
        var accepted = 0
        for round in 0..<40_000 {
            var b = Array(seeds[round % seeds.count].utf8)
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0 where !b.isEmpty: b[Int.random(in: 0..<b.count, using: &rng)] = alphabet.randomElement(using: &rng)!
                case 1 where !b.isEmpty: b.remove(at: Int.random(in: 0..<b.count, using: &rng))
                default: b.insert(alphabet.randomElement(using: &rng)!, at: Int.random(in: 0...b.count, using: &rng))
                }
            }
            b.withUnsafeBufferPointer { u in
                let parsed = ISO8601.parse(bytes: u)?.timeIntervalSince1970
                let expected = oracle.epochSeconds(u)
                #expect(parsed?.bitPattern == expected?.bitPattern, "\(String(decoding: b, as: UTF8.self).debugDescription)")
                if parsed != nil { accepted += 1 }
            }
        }
        #expect(accepted > 5_000)
    }
}

/// The ISO 8601 times GeoFare reads, read another way, as the oracle of the differential test:
/// the grammar is one regular expression over ASCII digit classes, and the calendar counts
/// whole years from 0001-01-01 with their leap days and then the days before the month in a
/// table (not the March-based era arithmetic of `ISO8601.epoch`).
///
/// Accepted: `YYYY-MM-DD`, `T`, `t` or a space, `HH:MM`, optionally `:SS` with a fraction after
/// `.` or `,` (any number of digits, none included), then `Z`, `z` or `±HH`, `±HHMM` or
/// `±HH:MM`. Month 1–12, day 1–31 (not checked against the month: 02-31 is 03-02 or 03-03),
/// hour ≤ 23, minute ≤ 59, seconds with their fraction < 61; the offset is not range-checked.
struct ISO8601Oracle {
    let grammar = try! Regex(
        #"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:[.,]([0-9]*))?)?(?:[Zz]|([+-])([0-9]{2})(?::?([0-9]{2}))?)"#
    ).matchingSemantics(.unicodeScalar)

    /// Days before each month in a common year.
    static let daysBeforeMonth = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]

    /// Seconds since 1970 of `bytes`, through `Date` as the parser's answer goes; nil when
    /// the text is not one of the accepted shapes or a field is out of range.
    func epochSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let match = try? grammar.wholeMatch(in: text) else { return nil }
        func field(_ k: Int) -> Substring? { match.output[k].substring }
        func number(_ k: Int) -> Int { field(k).map { Int($0)! } ?? 0 }
        let year = number(1), month = number(2), day = number(3), hour = number(4), minute = number(5)
        // "SS.fff" read as one decimal number (an absent fraction is ".0").
        let seconds = field(6).map { Double("\($0).\(field(7) ?? "")0")! } ?? 0
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, seconds < 61 else { return nil }
        let east = (field(8) == "-" ? -1 : 1) * (number(9) * 60 + number(10)) * 60
        let days = Self.daysFromYearOne(year) + Self.daysBeforeMonth[month - 1] + (month > 2 && Self.isLeap(year) ? 1 : 0) + day - 1 - 719_162
        let whole = ((days * 24 + hour) * 60 + minute) * 60 - east
        return Date(timeIntervalSince1970: Double(whole) + seconds).timeIntervalSince1970
    }

    /// Gregorian leap years, proleptic (year 0 is one).
    static func isLeap(_ y: Int) -> Bool { y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) }

    /// Days from 0001-01-01 to January 1 of `year` (negative for year 0): 365 a year and one
    /// more per leap year passed, counted with floor division. 1970-01-01 is day 719,162.
    static func daysFromYearOne(_ year: Int) -> Int {
        func floorDiv(_ a: Int, _ b: Int) -> Int { Int((Double(a) / Double(b)).rounded(.down)) }
        let before = year - 1
        return 365 * before + floorDiv(before, 4) - floorDiv(before, 100) + floorDiv(before, 400)
    }
}
