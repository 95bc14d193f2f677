import Foundation
import Testing
import GeoFareTestSupport

/// `fare-csv` on input that tries to lose rows: stray quotes in unquoted fields beside quoted
/// multi-line fields across several blocks, a quoted field that never closes, no input at all.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct HostileCSVTests {
    /// 300,000 rows (about 24 MB, so at least three 4 MiB blocks) whose unquoted `note` column
    /// sometimes holds a stray quote and sometimes a quoted field with line breaks, commas and
    /// doubled quotes.
    static func hostileFile() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-hostile-\(UUID().uuidString).csv")
        var text = "id,distance_m,duration_s,depart_at,tariff,note\n"
        text.reserveCapacity(26_000_000)
        for i in 0..<300_000 {
            let note: String
            switch i % 13 {
            case 3: note = "he said 5\" tall"
            case 7: note = "\"line one\nline \"\"two\"\", with a comma\""
            case 9: note = "a \"quoted\" word"
            default: note = "plain \(i)"
            }
            text += "\(i),\(1000 + i % 20_000),\(120 + i % 1500),2024-05-13T\(10 + i % 12):15:00+09:00,kr-seoul/regular,\(note)\n"
        }
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test("Stray quotes and multi-line quoted fields across blocks: every row priced, --threads 1 and 2 byte-identical, rows as Python's csv reads them")
    func strayQuotesAcrossBlocks() throws {
        let input = try Self.hostileFile()
        let one = input.appendingPathExtension("1.out"), two = input.appendingPathExtension("2.out")
        defer { for u in [input, one, two] { try? FileManager.default.removeItem(at: u) } }
        #expect(try input.resourceValues(forKeys: [.fileSizeKey]).fileSize! > 3 * (4 << 20))
        let r1 = try GeoFareBinary.run(["fare-csv", input.path, "-o", one.path, "--threads", "1", "--quiet"])
        let r2 = try GeoFareBinary.run(["fare-csv", input.path, "-o", two.path, "--threads", "2", "--quiet"])
        #expect(r1.status == 0, "\(r1.stderr)")
        #expect(r2.status == 0, "\(r2.stderr)")
        let a = try Data(contentsOf: one), b = try Data(contentsOf: two)
        #expect(a == b)
        // Python's csv module, an independent reader, on both files: the same records, in order,
        // every input field passed through, and a price on every row.
        let script = """
        import csv, sys
        with open(sys.argv[1], newline='') as f: src = list(csv.reader(f))
        with open(sys.argv[2], newline='') as f: out = list(csv.reader(f))
        assert len(src) == 300001, len(src)
        assert len(out) == len(src), (len(out), len(src))
        w = len(src[0])
        for k, (s, o) in enumerate(zip(src, out)):
            assert o[:w] == s, (k, s, o[:w])
            if k: assert o[-1] == '' and o[w + 5] != '', (k, o)
        print('ok', len(out) - 1)
        """
        let py = try GeoFareBinary.runTool("/usr/bin/env", ["python3", "-c", script, input.path, one.path])
        #expect(py.status == 0, "\(py.stderr)")
        #expect(py.stdout == "ok 300000\n")
    }

    @Test("A quoted field that never closes: the rows before it are priced and written, it gets an error row, the exit says a row failed")
    func unterminatedQuoteKeepsEarlierRows() throws {
        let csv = """
        id,distance_m,duration_s,depart_at,tariff
        1,5000,600,2024-05-13T10:00:00+09:00,kr-seoul/regular
        2,6000,700,2024-05-13T10:00:00+09:00,kr-seoul/regular
        3,"7000,800,2024-05-13T10:00:00+09:00,kr-seoul/regular
        4,8000,900,2024-05-13T10:00:00+09:00,kr-seoul/regular

        """
        for threads in ["1", "2"] {
            let r = try GeoFareBinary.run(["fare-csv", "--threads", threads], stdin: csv)
            #expect(r.status == 65)
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            try #require(lines.count == 5, "\(r.stdout)")  // header, two priced rows, the error row, final empty
            #expect(lines[1].hasPrefix("1,5000,600,") && lines[1].contains(",KRW,") && lines[1].hasSuffix(",kr-seoul/regular,,sourced,"))
            #expect(lines[2].hasPrefix("2,6000,700,"))
            #expect(lines[3].contains("line 4") && lines[3].hasSuffix("[csv_unterminated_quote],,"), "\(lines[3])")
            #expect(r.stderr.contains("1 failed"), "\(r.stderr)")
        }
    }

    @Test("No input at all is an error that says so, not an empty success")
    func emptyInput() throws {
        for input in ["", "\u{FEFF}", "\n\n"] {
            let r = try GeoFareBinary.run(["fare-csv"], stdin: input)
            #expect(r.status == 65)
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.contains("empty"), "\(r.stderr)")
        }
    }
}
