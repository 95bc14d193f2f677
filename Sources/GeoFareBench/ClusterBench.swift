import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareParties
import GeoFareCore
import GeoFareText

/// `geofare bench cluster`: the in-memory party index and its clustering at scale.
struct ClusterBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Build the party index for N points and time viewport clusters, filters, updates and nearby.",
        discussion: """
        Generated parties (--points, --dist uniform|city, --seed) or points from a CSV (id,lon,lat).
        Reports index build time, resident memory, unfiltered viewport latency p50/p99 for (a) a
        phone viewport over central Seoul at zooms 10-18 and (b) the whole world at zooms 0-16,
        the same with a filter (departure window, a free seat, open), updates per second and
        nearby latency. Anchors measured on this machine (same data; they rebuild on every change
        and cannot filter): supercluster-js 1M city 1.0-1.2 s / world 16-20 s build,
        75 / 669 MiB, viewport p99 <= 185 us; its C++ port 0.74 s / 8.9 s, 103 / 414 MiB.
        """
    )

    @OptionGroup var options: BenchOptions
    @Option(help: "Parties to generate.") var points = 1_000_000
    @Option(help: "uniform (whole world) or city (Seoul-like).") var dist = "city"
    @Option(help: "Read id,lon,lat points from this CSV instead of generating them.") var csv: String?

    func run() throws {
        guard let distribution = ClusterBenchmark.Distribution(rawValue: dist) else { throw ValidationError("--dist is uniform or city") }
        var csvPoints: [(id: String, lon: Double, lat: Double)]?
        if let csv {
            guard let source = try? ByteSource(path: csv) else { throw ValidationError("cannot open \(csv)") }
            var reader = CSVReader()
            var rows: [(id: String, lon: Double, lat: Double)] = []
            var header = true
            var bad = 0
            func accept(_ r: CSVReader.Record) {
                if header { header = false; return }
                guard r.fields.count >= 3, let lon = Double(r.fields[1]), let lat = Double(r.fields[2]),
                      (try? Coordinate(latitude: lat, longitude: lon)) != nil else { bad += 1; return }
                rows.append((r.fields[0], lon, lat))
            }
            while let chunk = source.next() { reader.feed(chunk, emit: accept) }
            try reader.finish(emit: accept)
            if bad > 0 { Diagnostics.print("geofare: skipped \(bad) bad rows of \(csv)") }
            csvPoints = rows
        }
        // --rounds full runs (a fresh index each); the first round's memory (later rounds reuse
        // the allocator's pages), and per figure the median and the range over rounds.
        var reports: [ClusterBenchmark.Report] = []
        for _ in 0..<options.roundCount {
            reports.append(ClusterBenchmark.run(points: points, distribution: distribution, seed: options.seed, csvPoints: csvPoints))
        }
        func stat(_ key: KeyPath<ClusterBenchmark.Report, Double>) -> Statistics.Rounds {
            Statistics.Rounds(reports.map { $0[keyPath: key] })
        }
        var report = reports[0]
        let figures: [(String, WritableKeyPath<ClusterBenchmark.Report, Double>)] = [
            ("build_seconds", \.buildSeconds), ("viewport_p50_us", \.viewportP50Us), ("viewport_p99_us", \.viewportP99Us),
            ("seoul_viewport_p50_us", \.seoulViewportP50Us), ("seoul_viewport_p99_us", \.seoulViewportP99Us),
            ("world_p50_us", \.worldP50Us), ("world_p99_us", \.worldP99Us), ("filtered_p50_us", \.filteredP50Us),
            ("filtered_p99_us", \.filteredP99Us), ("updates_per_second", \.updatesPerSecond), ("nearby_p50_us", \.nearbyP50Us),
            ("nearby_p99_us", \.nearbyP99Us),
        ]
        for (_, key) in figures { report[keyPath: key] = stat(key).median }
        func range(_ key: KeyPath<ClusterBenchmark.Report, Double>, _ f: (Double) -> String) -> String {
            stat(key).rangeText(f)
        }
        if options.json {
            // Flatten: the report's keys at the top level, plus the machine.
            var text = try jsonLine(report)
            text.removeLast()
            // Per figure, its lowest and highest round.
            let ranges = Dictionary(uniqueKeysWithValues: figures.map { name, key in (name, stat(key).range) })
            print(text + #","benchmark":"cluster","rounds":\#(reports.count),"machine":"# + (try jsonLine(MachineInfo.current))
                  + #","ranges":"# + (try jsonLine(ranges)) + "}")
            return
        }
        let m = MachineInfo.current
        print("geofare bench cluster: \(report.points) \(csv == nil ? dist : "CSV") points, median of \(reports.count) rounds, \(m.cores) cores (\(m.cpu))")
        print("build                  \(String(format: "%.3f", report.buildSeconds)) s\(range(\.buildSeconds) { String(format: "%.3f", $0) })")
        print("resident memory        \(report.rssBytes / 1_048_576) MiB (index estimate \(report.indexBytesEstimate / 1_048_576) MiB)")
        print("Seoul phone viewport   p50 \(Int(report.seoulViewportP50Us)) µs  p99 \(Int(report.seoulViewportP99Us)) µs\(range(\.seoulViewportP99Us) { String(Int($0)) })  (zooms 10-18)")
        print("whole world            p50 \(Int(report.worldP50Us)) µs  p99 \(Int(report.worldP99Us)) µs  (zooms 0-16)")
        print("filtered viewports     p50 \(Int(report.filteredP50Us)) µs  p99 \(Int(report.filteredP99Us)) µs\(range(\.filteredP99Us) { String(Int($0)) })")
        print("updates                \(Int(report.updatesPerSecond)) /s\(range(\.updatesPerSecond) { String(Int($0)) })")
        print("nearby (2 km, 50)      p50 \(Int(report.nearbyP50Us)) µs  p99 \(Int(report.nearbyP99Us)) µs")
    }
}
