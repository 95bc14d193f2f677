import Foundation
import GeoFareBatch
import GeoFareCore
import GeoFareText
import Testing

/// The block stream hands every record to exactly one lane, in order, whatever the block size.
struct CSVBlockStreamTests {
    /// Every record of `text` after its header, as the stream's lanes see them (each record
    /// re-encoded with its line), joined in output order.
    /// `stopAfter`: `afterBlock` returns false once this many rows are done; `reports` gets
    /// every total `afterBlock` saw.
    static func streamed(_ text: [UInt8], blockBytes: Int, lanes: Int, overlap: Bool = false, stopAfter: Int = .max, chunkBytes: Int = 1 << 20,
                         reports: UnsafeMutablePointer<[CSVBlockStream.Counts]>? = nil) throws -> (header: [String]?, records: [String], counts: CSVBlockStream.Counts) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-stream-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(text).write(to: file)
        let stream = CSVBlockStream(source: try ByteSource(path: file.path, chunkSize: chunkBytes), blockBytes: blockBytes, maxLanes: lanes)
        guard let header = try stream.header() else { return (nil, [], .init()) }
        var output: [UInt8] = []
        let counts = stream.run(lane: { piece, out in
            CSVBlockStream.records(of: piece, { scanner in
                out.append(Array("\(scanner.line):".utf8))
                for k in 0..<scanner.fieldCount {
                    if k > 0 { out.append(UInt8(ascii: "|")) }
                    out.append(Array(escaped(Array(scanner.field(k, in: piece.bytes))).utf8))
                }
                out.append(0x0A)
                return true
            }, broken: { _ in out.append(Array("broken\n".utf8)) })
        }, write: { output.append(contentsOf: $0) }, afterBlock: { total in
            reports?.pointee.append(total)
            return total.rows < stopAfter
        }, overlap: overlap)
        let records = output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        return (header, records, counts)
    }

    /// The same records read by `CSVReader` in one go.
    static func expected(_ text: [UInt8]) -> [String] {
        var reader = CSVReader()
        var out: [String] = []
        func line(_ r: CSVReader.Record) -> String { "\(r.line):" + r.fields.map { escaped(Array($0.utf8)) }.joined(separator: "|") }
        reader.feed(text) { out.append(line($0)) }
        do { try reader.finish { out.append(line($0)) } } catch { out.append("broken") }
        return Array(out.dropFirst())
    }

    @Test("Records in order, each once, with their lines, for block sizes from 64 bytes up and 1 to 8 lanes (stray quotes, quoted line breaks, CRLF)")
    func everyRecordOnceInOrder() throws {
        var rng = SeededGenerator(seed: 23)
        let pieces = ["a", "bb", "5\" tall", "\"x,\ny\"", "\"q\"\"q\"", "", "\r", "z"]
        for round in 0..<60 {
            var text = "id,note\r\n"
            for i in 0..<Int.random(in: 0...400, using: &rng) {
                text += "\(i),\(pieces.randomElement(using: &rng)!)\(Bool.random(using: &rng) ? "\n" : "\r\n")"
            }
            if round % 10 == 9 { text += "last,\"never closed\n" }
            let bytes = Array(text.utf8)
            let block = [64, 100, 333, 4096, 1 << 20][round % 5]
            for overlap in [false, true] {
                let got = try Self.streamed(bytes, blockBytes: block, lanes: 1 + round % 8, overlap: overlap)
                #expect(got.header == ["id", "note"])
                let want = Self.expected(bytes)
                #expect(got.records.count == want.count, "round \(round), block \(block), overlap \(overlap)")
                #expect(got.records == want, "round \(round), block \(block), overlap \(overlap): first difference at \(zip(got.records, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? -1)")
                #expect(got.counts.rows == got.records.count)
                #expect(got.counts.failed == (round % 10 == 9 ? 1 : 0))
            }
        }
    }

    /// With blocks overlapped, a stop after any block writes, counts and reports what the stream
    /// one block at a time does (the block already started is dropped).
    @Test("Overlapped blocks stopped after any block write, count and report what the one-block-at-a-time stream does")
    func overlappedStopsLikeOneAtATime() throws {
        var rng = SeededGenerator(seed: 29)
        var cutShort = 0
        for round in 0..<40 {
            var text = "id,note\n"
            for i in 0..<Int.random(in: 50...600, using: &rng) { text += "\(i),\(String(repeating: "x", count: Int.random(in: 0...30, using: &rng)))\n" }
            let bytes = Array(text.utf8)
            let block = [64, 200, 1000][round % 3], stop = Int.random(in: 0...400, using: &rng)
            var plain: [CSVBlockStream.Counts] = [], overlapped: [CSVBlockStream.Counts] = []
            let a = try Self.streamed(bytes, blockBytes: block, lanes: 1 + round % 4, stopAfter: stop, reports: &plain)
            let b = try Self.streamed(bytes, blockBytes: block, lanes: 1 + round % 4, overlap: true, stopAfter: stop, reports: &overlapped)
            #expect(a.records == b.records, "round \(round)")
            #expect(a.counts.rows == b.counts.rows && a.counts.failed == b.counts.failed, "round \(round)")
            #expect(plain.map(\.rows) == overlapped.map(\.rows), "round \(round)")
            if b.records.count < Self.expected(bytes).count { cutShort += 1 }
        }
        // The stop is real: many rounds end before the input does.
        #expect(cutShort > 10)
    }

    /// Records far longer than a block, read a few bytes at a time: every byte reaches its lane
    /// once, in order (the block buffers grow, keep what they hold, and take short reads for what
    /// they are).
    @Test("Records far longer than a block, read a few bytes at a time, reach their lane once and in order")
    func recordsLongerThanBlocks() throws {
        var rng = SeededGenerator(seed: 31)
        for round in 0..<30 {
            // A header longer than a block too, then records of 0 to 700 bytes (quoted line
            // breaks among them), against blocks of 64 to 256 bytes and reads of 1 to 13 bytes.
            var text = "id,\"" + String(repeating: "h", count: Int.random(in: 0...300, using: &rng)) + "\"\n"
            for i in 0..<Int.random(in: 1...120, using: &rng) {
                let long = String((0..<Int.random(in: 0...700, using: &rng)).map { _ in "abc,\"\n".randomElement(using: &rng)! })
                text += "\(i),\"\(long.replacingOccurrences(of: "\"", with: "\"\""))\"\n"
            }
            let bytes = Array(text.utf8)
            let block = [64, 100, 256][round % 3], chunk = 1 + round % 13
            for overlap in [false, true] {
                let got = try Self.streamed(bytes, blockBytes: block, lanes: 1 + round % 4, overlap: overlap, chunkBytes: chunk)
                let want = Self.expected(bytes)
                #expect(got.header?.count == 2, "round \(round)")
                #expect(got.records == want, "round \(round), block \(block), chunk \(chunk), overlap \(overlap)")
                #expect(got.counts.rows == want.count && got.counts.failed == 0)
            }
        }
    }

    /// The fare-csv fuzz target's finding: a header whose line feed was the last byte of a read
    /// left nothing pending, which the stream took for the end of the input, dropping every
    /// row. Headers ending exactly at the first, second and third read's end, with and without
    /// a byte-order mark, and the fuzzer's own input (`Fuzz/corpus/fare-csv/regression-header-ends-at-a-read.csv`).
    @Test("A header ending exactly where a read ends leaves no row behind")
    func headerEndingAtAReadEnd() throws {
        let rows = "S1,37.5,\"two\r\nlines\"\r\nA3,97,1.5,37.45,\nlast,row\n"
        for bom in [false, true] {
            for block in [64, 96, 200] {
                for reads in 1...3 {
                    // bytes read before the header's end: `block` at first, `block` more each time after
                    let headerBytes = block * reads - (bom ? 3 : 0)
                    let header = "a,b," + String(repeating: "c", count: headerBytes - 5) + "\n"
                    let text = (bom ? [0xEF, 0xBB, 0xBF] : []) + Array((header + rows).utf8)
                    #expect(header.utf8.count == headerBytes)
                    for lanes in [1, 2] {
                        for overlap in [false, true] {
                            let got = try Self.streamed(text, blockBytes: block, lanes: lanes, overlap: overlap)
                            #expect(got.header?.count == 3 && got.records == Self.expected(text) && got.counts.rows == 3,
                                    "bom \(bom) block \(block) reads \(reads) lanes \(lanes) overlap \(overlap): \(got.records)")
                        }
                    }
                }
            }
        }
        let found = [0xEF, 0xBB, 0xBF] + Array("t".utf8) + [UInt8](repeating: 0xFF, count: 103)
            + Array("rip_id,origin_latrip_id,origin_lat,origin_lon,dest_lat,dest_lon,distance_mt,origin_lon,dest_lat,dest_lon,depart_at,party_s,duration_s,depart_at,partynotee,tariff,spli5T14:00it,note\nS1,37.566:00+09:00,2,\"two\r\nlines\"\r\nA3,97,1?6.9780,37.45,".utf8)
        for block in [64, 96, 97, 1 << 20] {
            let got = try Self.streamed(found, blockBytes: block, lanes: 2, overlap: true)
            #expect(got.records == Self.expected(found) && got.counts.rows == 2, "block \(block): \(got.records)")
        }
    }

    @Test("An input of blank lines has no header")
    func blankInput() throws {
        #expect(try Self.streamed(Array("\n\r\n\n".utf8), blockBytes: 64, lanes: 2).header == nil)
        #expect(try Self.streamed([0xEF, 0xBB, 0xBF], blockBytes: 64, lanes: 2).header == nil)
    }
}

/// A field's bytes with line breaks spelled out, so a record stays on one line of the comparison.
func escaped(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
}
