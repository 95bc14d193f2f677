import Foundation
import GeoFareBatch
import GeoFareCore
import GeoFareFare
import GeoFareText
import Testing

/// A lane of `fare-csv` fills one request and one figures value in place, row after row
/// (so nothing a row leaves behind may leak): whatever the rows before it were, a row's output must be the
/// output it gets priced alone.
struct FareCSVRowReuseTests {
    static let header = "trip_id,origin_lat,origin_lon,dest_lat,dest_lon,distance_m,duration_s,depart_at,party_size,tariff,split,cruise_kmh"

    /// Rows alternating at random between tariffs (named, unknown, none: by origin), versions
    /// (in force, before the first, in an uncertain month), distance/duration and coordinates,
    /// assumed and sourced, cruise speeds, splits, and bad fields.
    static func rows(tariffs: [String], count: Int) -> [String] {
        var rng = SeededGenerator(seed: 2211)
        let places = [(37.5665, 126.9780), (37.7381, 127.0337), (37.4292, 126.9876), (35.1601, 126.8514), (37.2636, 127.0286),
                      (35.0, 125.0), (35.9483, 126.9577), (40.75, -73.99), (35.17, 129.07), (33.5, 126.53)]
        let years = [2012, 2015, 2018, 2019, 2019, 2020, 2022, 2023, 2024, 2024, 2025]
        var out: [String] = []
        for i in 0..<count {
            func pick<T>(_ xs: [T]) -> T { xs.randomElement(using: &rng)! }
            let month = Int.random(in: 1...12, using: &rng), day = Int.random(in: 1...28, using: &rng)
            let hour = Int.random(in: 0...23, using: &rng)
            var when = "\(pick(years))-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)T\(hour < 10 ? "0" : "")\(hour):15:00\(pick(["+09:00", "+09:00", "-04:00", "Z"]))"
            if Int.random(in: 0..<50, using: &rng) == 0 { when = "not-a-time" }
            let party = pick(["1", "2", "3", "4", "", "1", "0", "x"])
            let split = pick(["", "", "equal", "shapley", "proportional"])
            let cruise = pick(["", "", "", "", "25", "0"])
            let o = pick(places), d = pick(places)
            if Bool.random(using: &rng) || i % 3 == 0 {
                let distance = String(format: "%.1f", Double.random(in: 0...30_000, using: &rng))
                let duration = pick([String(format: "%.1f", Double.random(in: 0...5_000, using: &rng)), "600", "-5", "abc"])
                let tariff = pick(tariffs + ["", "", "no-such/tariff"])
                let origin = tariff.isEmpty || Bool.random(using: &rng) ? "\(o.0),\(o.1)" : ","
                out.append("\(i),\(origin),,,\(distance),\(duration),\(when),\(party),\(tariff),\(split),\(cruise)")
            } else {
                let tariff = pick(["", "", "", "kr-seoul/regular", "kr-gyeonggi/regular"])
                out.append("\(i),\(o.0 + 0.01),\(o.1 - 0.01),\(d.0),\(d.1 + 0.02),,,\(when),\(party),\(tariff),\(split),\(cruise)")
            }
        }
        return out
    }

    /// The job's output for `rows` (one thread: each lane prices its rows one after another).
    static func output(_ job: FareCSVJob, _ rows: [String]) throws -> [UInt8] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-reuse-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(([header] + rows).joined(separator: "\n").utf8 + [0x0A]).write(to: file)
        var out: [UInt8] = []
        _ = try job.run(source: try ByteSource(path: file.path, chunkSize: 1 << 14), write: { out.append(contentsOf: $0) })
        return out
    }

    @Test("Each row's output, after any other rows, is its output priced alone (strict and not)", arguments: [false, true])
    func rowsAfterOtherRowsAsAlone(strict: Bool) throws {
        let pricer = try TripPricer.standard()
        var options = FareCSVJob.Options()
        options.threads = 1
        options.blockBytes = 1 << 16  // small buffers: the job runs once per row
        options.strict = strict
        let job = FareCSVJob(pricer: pricer, options: options)
        let rows = Self.rows(tariffs: pricer.catalog.tariffs.map(\.id), count: 300)
        let together = try Self.output(job, rows)
        let headerBytes = try Self.output(job, []).count
        var alone: [UInt8] = Array(together.prefix(headerBytes))
        for row in rows { alone += try Self.output(job, [row]).dropFirst(headerBytes) }
        // An error names its input line, which differs when a row is alone (line 2).
        func lines(_ bytes: [UInt8]) -> [String] {
            String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .map { String($0.replacing(#/line \d+: /#, with: "line N: ")) }
        }
        let a = lines(together), b = lines(alone)
        #expect(a.count == rows.count + 2 && b.count == a.count)
        for (k, (x, y)) in zip(a, b).enumerated() where x != y {
            Issue.record("line \(k + 1): after other rows\n\(x)\nalone\n\(y)")
        }
        // The rows mix what the reuse must reset: priced and failed, sourced and assumed rows.
        let text = String(decoding: together, as: UTF8.self)
        #expect(text.contains(",sourced,") && text.contains("[invalid_number]"))
        if !strict { #expect(text.contains(",assumed,")) }
    }
}
