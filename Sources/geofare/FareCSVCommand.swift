import ArgumentParser
import Foundation
import GeoFareBatch
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFareText

/// `geofare fare-csv`: prices a CSV file of trips.
struct FareCSVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fare-csv",
        abstract: "Price a CSV file of trips, streaming, on every core.",
        discussion: """
        Columns: origin_lat,origin_lon,dest_lat,dest_lon,depart_at,party_size, optional tariff,
        split, cruise_kmh, and distance_m,duration_s (a row with both is priced from them instead
        of a route estimate). Output: every input column, then
        distance_m,duration_s,meter,surcharges,tolls,total,low,high,currency,per_person,tariff,error,
        tariff_basis,assumption (money in integer minor units; per_person shares joined by ';';
        tariff_basis is sourced, or assumed where no source settles the tariff, e.g. a Gyeonggi
        city no source places in a group, and assumption says which tariff and why). A bad row
        gets its error and the job goes on; the exit status is 65 when any row failed. --strict
        makes the assumed rows errors (unknown_tariff_group, no_tariff_version,
        tariff_version_uncertain) instead.
        """
    )

    @Argument(help: "Input CSV file, or - for standard input.") var input = "-"
    @Option(name: .shortAndLong, help: "Output file, or - for standard output.") var output = "-"
    @Option(help: ArgumentHelp("Rename a column: logical=header (repeatable), e.g. origin_lat=pickup_lat.", valueName: "col=header")) var map: [String] = []
    @Option(help: "Stop after this many failed rows.") var maxErrors: Int?
    @Option(help: "Threads (default: the number of cores).") var threads: Int?
    @Flag(help: "No progress or summary on stderr.") var quiet = false
    @Flag(help: "Refuse rows where no source settles the tariff (their error instead of an assumed price).") var strict = false
    @OptionGroup var data: DataOptions

    func run() throws {
        var options = FareCSVJob.Options()
        for m in map {
            let parts = m.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw ValidationError("--map takes col=header, got '\(m)'") }
            options.columnMap[parts[0]] = parts[1]
        }
        options.maxErrors = maxErrors
        options.strict = strict
        if let threads { options.threads = max(1, threads) }
        let job = FareCSVJob(pricer: try data.pricer(), options: options)
        let source: ByteSource
        var totalBytes: Int?
        if input == "-" { source = .standardInput() } else {
            do { source = try ByteSource(path: input) } catch {
                Diagnostics.print("geofare: \(error.message)")
                throw GeoFareExit.noInput
            }
            totalBytes = (try? FileManager.default.attributesOfItem(atPath: input)[.size] as? Int) ?? nil
        }
        let sink: FileHandle
        if output == "-" { sink = .standardOutput } else {
            guard let h = openForWriting(output) else {
                Diagnostics.print("geofare: cannot write '\(output)'")
                throw ExitCode(73)
            }
            sink = h
        }
        let out = BufferedWriter(handle: sink, bufferBytes: 1 << 20)
        let reporter = ProgressReporter(totalBytes: totalBytes, enabled: !quiet)
        let summary: FareCSVJob.Summary
        do {
            summary = try job.run(source: source, write: { out.write($0) }, progress: { reporter.update(rows: $0, bytes: $1) })
        } catch {
            out.flush()
            reporter.finish()
            Diagnostics.print("geofare: \(error)")
            throw GeoFareExit.dataError
        }
        out.flush()
        reporter.finish()
        if !quiet {
            Diagnostics.print("fare-csv: \(summary.rows) rows, \(summary.rows - summary.failed) priced, \(summary.failed) failed, \(Int(summary.rowsPerSecond)) rows/s\(summary.stoppedEarly ? " (stopped early: --max-errors \(maxErrors!))" : "")")
        }
        if summary.failed > 0 { throw GeoFareExit.dataError }
    }
}

/// Progress on stderr: a bar redrawn in place on a terminal, a plain line every 5 s otherwise.
final class ProgressReporter {
    let totalBytes: Int?
    let enabled: Bool
    let terminal = isatty(2) == 1
    let start = Date()
    var lastPrint = Date()
    var drewBar = false

    init(totalBytes: Int?, enabled: Bool) {
        self.totalBytes = totalBytes
        self.enabled = enabled
    }

    func update(rows: Int, bytes: Int) {
        guard enabled else { return }
        let now = Date()
        let elapsed = now.timeIntervalSince(start)
        guard now.timeIntervalSince(lastPrint) >= (terminal ? 0.2 : 5) else { return }
        lastPrint = now
        let rate = elapsed > 0 ? Double(rows) / elapsed : 0
        var eta = ""
        if let total = totalBytes, total > 0, bytes > 0 {
            let left = elapsed * Double(total - bytes) / Double(bytes)
            eta = String(format: "  ETA %d:%02d", Int(left) / 60, Int(left) % 60)
        }
        if terminal {
            var bar = ""
            if let total = totalBytes, total > 0 {
                let filled = min(30, 30 * bytes / total)
                bar = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: 30 - filled) + "] "
            }
            FileHandle.standardError.write(Data("\r\(bar)\(rows) rows  \(Int(rate)) rows/s\(eta)   ".utf8))
            drewBar = true
        } else {
            Diagnostics.print("fare-csv: \(rows) rows, \(Int(rate)) rows/s\(eta)")
        }
    }

    func finish() {
        if drewBar { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
