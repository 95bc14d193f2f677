import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareParties
import GeoFarePlaces
import GeoFareSQLite
import GeoFareText
@testable import GeoFareWorker
#if canImport(Glibc)
import Glibc
#endif

/// `worker`: the input is what a backend writes to `geofare worker` (JSON lines), answered by the
/// real loop (``WorkerLoop/run()``) twice: once with the fast paths on and two lanes, once with
/// every line through the general parser on one lane. Each worker has its own in-memory SQLite
/// party store, the seed city's road graph and places index. The answers must be the same bytes
/// (but `stats`, whose counters and uptime differ by design), one line per input line.
enum WorkerTarget {
    final class Pair {
        let fast: WorkerDispatcher
        let general: WorkerDispatcher
        init() {
            func dispatcher(lanes: Int) -> WorkerDispatcher {
                do {
                    let pricer = SeedCity.pricer
                    let parties = try LivePartyIndex(store: try SQLitePartyStore(path: ":memory:"))
                    let places = try PlacesIndex(path: SeedCity.files.places)
                    return WorkerDispatcher(pricer: pricer, parties: parties, threadPricers: lanes > 1 ? (0..<lanes).map { _ in pricer.threadCopy() } : [],
                                            places: places)
                } catch { fatalError("geofare-fuzz worker: \(error)") }
            }
            fast = dispatcher(lanes: 2)
            general = dispatcher(lanes: 1)
        }
    }
    nonisolated(unsafe) static var pair: Pair?
    nonisolated(unsafe) static var runs = 0
    static let maxLineBytes = 4096

    static let target = FuzzTarget(name: "worker", summary: "JSON-lines worker requests: fast paths (2 lanes) = general parser (1 lane)",
                                   setUp: { pair = Pair() }, run: run)

    /// The loop's answers to `input`, read from a file and written to one.
    static func answers(_ input: UnsafeRawBufferPointer, dispatcher: WorkerDispatcher, threads: Int, fastPath: Bool) -> [UInt8] {
        let inPath = SeedCity.scratch + "/worker.in", outPath = SeedCity.scratch + "/worker.out"
        write(input, to: inPath)
        let inFD = open(inPath, O_RDONLY), outFD = open(outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(inFD >= 0 && outFD >= 0)
        let status = WorkerLoop(dispatcher: dispatcher, input: inFD, output: outFD, maxLineBytes: maxLineBytes, threads: threads, fastPath: fastPath).run()
        close(inFD); close(outFD)
        check(status == 0, "the loop exited \(status)")
        return Array((try? Data(contentsOf: URL(fileURLWithPath: outPath))) ?? Data())
    }

    static func run(_ input: UnsafeRawBufferPointer) {
        runs += 1
        // A fresh pair of workers now and then: the party stores only grow.
        if runs % 5000 == 0 { pair = Pair() }
        guard let pair else { return }
        let a = answers(input, dispatcher: pair.fast, threads: 2, fastPath: true)
        let b = answers(input, dispatcher: pair.general, threads: 1, fastPath: false)
        // Every line gets exactly one answer (a last line without \n counts; none for empty input).
        var lines = input.split(separator: 0x0A, omittingEmptySubsequences: false).count
        if input.last == 0x0A || input.isEmpty { lines -= 1 }
        let aLines = a.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        let bLines = b.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        check(aLines.count == lines && bLines.count == lines, "\(lines) lines in, \(aLines.count) answers on the fast path, \(bLines.count) on the general")
        let inputLines = input.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (k, (x, y)) in zip(aLines, bLines).enumerated() where x != y {
            let stats = Array(#""uptime_s":"#.utf8)
            if x.firstRange(of: stats) != nil && y.firstRange(of: stats) != nil { continue }
            // Without depart_at a route or fare is for now (traffic by time of day too): not comparable.
            // Asked of the parsed request, not of its text: a mutated key (`"depart_^tdepart_at"`)
            // holds the letters but is no depart_at (a false finding of the first long run).
            if k < inputLines.count && !hasDepartAt(inputLines[k]) { continue }
            // A party's updated_at is stamped by the store when it is written: also now.
            if mask(Array(x), ["updated_at"]) == mask(Array(y), ["updated_at"]) { continue }
            check(false, "line \(k + 1): fast path answered\n  \(String(decoding: x, as: UTF8.self))\ngeneral path answered\n  \(String(decoding: y, as: UTF8.self))")
        }
        for x in aLines {
            check(x.first == UInt8(ascii: "{") && x.last == UInt8(ascii: "}"), "an answer that is not one JSON object: \(String(decoding: x, as: UTF8.self))")
        }
    }

    /// Whether a request line is a JSON object with a `depart_at` member, as the worker reads it
    /// (a line the parser refuses has none: its answer is an error, the same both ways).
    static func hasDepartAt(_ line: Slice<UnsafeRawBufferPointer>) -> Bool {
        var bytes = Array(line)
        if bytes.last == 0x0D { bytes.removeLast() }
        guard case .object(let members)? = try? JSONParser.parse(bytes) else { return false }
        return members["depart_at"] != nil
    }

    /// `bytes` with every string value of the given keys emptied.
    static func mask(_ bytes: [UInt8], _ names: [String]) -> [UInt8] {
        var bytes = bytes
        for name in names {
            let key = Array("\"\(name)\":\"".utf8)
            var out: [UInt8] = [], i = 0
            while i < bytes.count {
                if bytes[i...].starts(with: key) {
                    out += key
                    i += key.count
                    while i < bytes.count && bytes[i] != UInt8(ascii: "\"") { i += 1 }
                } else {
                    out.append(bytes[i]); i += 1
                }
            }
            bytes = out
        }
        return bytes
    }
}
