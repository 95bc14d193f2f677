import ArgumentParser
import Foundation
import GeoFareBatch
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFareText

/// `geofare bench csv`: end-to-end rows per second of `fare-csv` on a generated file.
struct CSVBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "csv",
        abstract: "Generate a trip CSV of N rows and price it end to end (parse, price on every core, format, write).",
        discussion: """
        --form totals writes distance_m,duration_s rows (the fast path); --form coordinates
        writes origin/destination rows in Seoul (route estimate per row). The output goes to
        /dev/null. The baseline is scanning and copying the same file on one core (the
        zero-copy record scanner into a byte buffer, no pricing), measured in the same run;
        rows_per_second is the median of --rounds runs; peak_rss_bytes is VmHWM of this process.
        """
    )

    @OptionGroup var options: BenchOptions
    @Option(help: "Rows in the generated file.") var rows = 1_000_000
    @Option(help: "totals or coordinates.") var form = "totals"
    @Option(help: "Keep the generated file at this path (default: a temporary file, removed).") var keep: String?

    struct Report: Encodable {
        let benchmark = "csv"
        let rows: Int, form: String, machine: MachineInfo, rounds: Int
        /// fare-csv's median and best round, and the scan-and-copy baseline's median.
        let rows_per_second, best_rows_per_second, copy_rows_per_second: Double
        let peak_rss_bytes: Int, failed_rows: Int, file_bytes: Int
        /// Per figure, its lowest and highest round.
        let ranges: [String: [Double]]
    }

    func run() throws {
        guard ["totals", "coordinates"].contains(form) else { throw ValidationError("--form is totals or coordinates") }
        let path = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("geofare-bench-\(getpid()).csv").path
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: path) } }
        try Self.generate(rows: rows, form: form, seed: options.seed, path: path)
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let devNull = FileHandle(forWritingAtPath: "/dev/null")!

        // fare-csv itself, --rounds times; the median and the range are reported.
        let job = FareCSVJob(pricer: try TripPricer.standard())
        var samples: [Double] = []
        var summary: FareCSVJob.Summary?
        for _ in 0..<options.roundCount {
            let out = BufferedWriter(handle: devNull, bufferBytes: 1 << 20)
            summary = try job.run(source: try ByteSource(path: path), write: { out.write($0) })
            out.flush()
            samples.append(summary!.rowsPerSecond)
        }
        let peak = Self.peakRSS()  // the job's own high-water mark, before the baseline loads the file

        // Baseline: the same bytes scanned and copied on one core (CSVRecordScanner into a
        // ByteWriter, no pricing): the floor of reading and writing the file, measured here.
        var copySamples: [Double] = []
        var copied = 0
        for _ in 0..<options.roundCount {
            let copyStart = DispatchTime.now().uptimeNanoseconds
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
            var writer = ByteWriter(capacity: 1 << 20)
            var scanner = CSVRecordScanner()
            copied = 0
            try bytes.withUnsafeBufferPointer { buffer in
                var position = 0
                while try scanner.next(in: buffer, from: &position) {
                    writer.append(UnsafeBufferPointer(rebasing: buffer[scanner.rawRange]))
                    writer.append(0x0A)
                    copied += 1
                    if writer.count > 1 << 20 { devNull.write(Data(writer.bytes)); writer.removeAll() }
                }
            }
            devNull.write(Data(writer.bytes))
            writer.deallocate()
            copySamples.append(Double(copied) / (Double(DispatchTime.now().uptimeNanoseconds - copyStart) / 1e9))
        }

        let rates = Statistics.Rounds(samples).rounded(), copyRates = Statistics.Rounds(copySamples).rounded()
        let report = Report(rows: rows, form: form, machine: .current, rounds: options.roundCount, rows_per_second: rates.median.rounded(),
                            best_rows_per_second: rates.high.rounded(),
                            copy_rows_per_second: copyRates.median.rounded(), peak_rss_bytes: peak,
                            failed_rows: summary?.failed ?? 0, file_bytes: size,
                            ranges: ["rows_per_second": rates.range, "copy_rows_per_second": copyRates.range])
        if options.json { print(try jsonLine(report)); return }
        print("geofare bench csv: \(rows) rows (\(form), \(size / 1_000_000) MB), \(report.machine.cores) cores (\(report.machine.cpu))")
        print("fare-csv end to end       \(Int(report.rows_per_second)) rows/s median of \(options.roundCount)\(rates.rangeText { String(Int($0)) }), best \(Int(report.best_rows_per_second))  (\(report.failed_rows) failed rows)")
        print("scan + copy, 1 core (baseline)  \(Int(report.copy_rows_per_second)) rows/s\(copyRates.rangeText { String(Int($0)) })  (ratio \(String(format: "%.2f", report.rows_per_second / report.copy_rows_per_second)))")
        print("peak RSS                  \(report.peak_rss_bytes / 1_048_576) MiB")
    }

    /// Writes a trip file: Seoul trips over a week of departures. In the coordinates form every
    /// origin lies where the origin picks `kr-seoul/regular` (points of the box in Gyeonggi
    /// cities whose tariff group no source gives are drawn again), so no row is an error.
    static func generate(rows: Int, form: String, seed: UInt64, path: String) throws {
        let catalog = form == "totals" ? nil : try TripPricer.standard().catalog
        guard let h = openForWriting(path) else {
            throw ValidationError("cannot write \(path)")
        }
        defer { try? h.close() }
        var rng = SeededGenerator(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(1 << 21)
        out += (form == "totals" ? "trip_id,distance_m,duration_s,depart_at,party_size,tariff\n" : "trip_id,origin_lat,origin_lon,dest_lat,dest_lon,depart_at,party_size\n").utf8
        let days = ["2024-05-13", "2024-05-14", "2024-05-15", "2024-05-16", "2024-05-17", "2024-05-18", "2024-05-19"]
        for i in 0..<rows {
            DecimalFormat.append(Int64(i), to: &out)
            out.append(UInt8(ascii: ","))
            if form == "totals" {
                let d = Double.random(in: 500...30_000, using: &rng)
                DecimalFormat.append(d, decimals: 1, to: &out)
                out.append(UInt8(ascii: ","))
                DecimalFormat.append(d / Double.random(in: 3...12, using: &rng), decimals: 1, to: &out)
            } else {
                var point: [Double]
                repeat {
                    point = [(37.45, 37.65), (126.85, 127.15), (37.45, 37.65), (126.85, 127.15)].map { (Double.random(in: $0.0...$0.1, using: &rng) * 1e6).rounded() / 1e6 }
                } while (try? catalog?.tariff(forOrigin: Coordinate(uncheckedLatitude: point[0], longitude: point[1])).id) != "kr-seoul/regular"
                for x in point {
                    DecimalFormat.append(x, decimals: 6, to: &out)
                    out.append(UInt8(ascii: ","))
                }
                out.removeLast()
            }
            let hour = Int.random(in: 0...23, using: &rng), minute = Int.random(in: 0...59, using: &rng)
            out += ",\(days[i % 7])T\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute):00+09:00,\(Int.random(in: 1...4, using: &rng))".utf8
            if form == "totals" { out += ",kr-seoul/regular".utf8 }
            out.append(UInt8(ascii: "\n"))
            if out.count > 1 << 20 {
                h.write(Data(out))
                out.removeAll(keepingCapacity: true)
            }
        }
        h.write(Data(out))
    }

    /// The process's peak resident set (VmHWM), in bytes.
    static func peakRSS() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kb = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kb * 1024
        }
        return 0
    }
}
