import GeoFareCore
import GeoFareText
import Testing

struct CSVReaderTests {
    static func parse(_ text: String, chunk: Int = 3) throws -> [[String]] {
        var reader = CSVReader()
        var out: [[String]] = []
        let bytes = Array(text.utf8)
        // Feed in small chunks so records, quotes and CRLF split across chunk boundaries.
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            reader.feed(bytes[start..<min(start + chunk, bytes.count)]) { out.append($0.fields) }
        }
        try reader.finish { out.append($0.fields) }
        return out
    }

    @Test("Quoted fields with commas, quotes and line breaks; CRLF; BOM; no final newline", arguments: [1, 2, 3, 7, 1000])
    func rfc4180(chunk: Int) throws {
        let text = "\u{FEFF}a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\"line1\r\nline2\"\r\n1,,3\r\n,\n\"\",z,\"\""
        #expect(try Self.parse(text, chunk: chunk) == [
            ["a", "b", "c"], ["x, y", "say \"hi\"", "line1\r\nline2"], ["1", "", "3"], ["", ""], ["", "z", ""],
        ])
    }

    @Test("Blank lines are skipped; record line numbers count physical lines")
    func lineNumbers() throws {
        var reader = CSVReader()
        var lines: [Int] = []
        reader.feed(Array("h\n\n\"a\nb\"\nc\n".utf8)) { lines.append($0.line) }
        try reader.finish { lines.append($0.line) }
        #expect(lines == [1, 3, 5])
    }

    @Test("An unterminated quote is an error naming the line")
    func unterminated() {
        #expect(throws: GeoFareError.unterminatedQuote(line: 2)) { try Self.parse("a\n\"open,b\n") }
    }

    @Test("The writer quotes only what needs it and round-trips through the reader")
    func writerRoundTrip() throws {
        let rows = [["plain", "with,comma", "with \"quote\"", "multi\nline", ""], ["1", "2", "3", "4", "5"]]
        var out: [UInt8] = []
        for r in rows { CSVWriter.appendRecord(r, to: &out) }
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.hasPrefix("plain,\"with,comma\",\"with \"\"quote\"\"\",\"multi\nline\",\n"))
        #expect(try Self.parse(text) == rows)
    }
}

struct DecimalFormatTests {
    @Test("Fixed decimals", arguments: [
        (953901.1654, 3, "953901.165"), (0.0005, 3, "0.001"), (-0.0004, 3, "0.000"), (-12.5, 0, "-13"),
        (126.99346770, 8, "126.99346770"), (1e-9, 2, "0.00"), (42, 0, "42"), (-1952032.0815, 3, "-1952032.082"),
    ])
    func fixed(value: Double, decimals: Int, expected: String) {
        #expect(DecimalFormat.string(value, decimals: decimals) == expected)
    }

    @Test("Integers")
    func integers() {
        for v: Int64 in [0, 7, -7, 1_000_000, Int64.max, Int64.min + 1] {
            var out: [UInt8] = []
            DecimalFormat.append(v, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(v))
        }
    }

    @Test("Non-finite values fall back to Swift's text")
    func nonFinite() {
        #expect(DecimalFormat.string(.infinity, decimals: 3) == "inf")
    }
}
