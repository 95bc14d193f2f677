import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore

/// `geofare bench http`: `geofare serve` under `wrk`, a fare against the health check.
struct HTTPBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Load a real geofare serve with wrk: POST /v1/fare against GET /healthz (the baseline), same run.",
        discussion: """
        Starts `geofare serve --port 0 --db :memory:` (this binary), then in each round runs wrk
        (Debian's `wrk`, which must be installed) for --seconds on GET /healthz (the server's own
        cost: routing, HTTP, no work) and on POST /v1/fare with a two-point Seoul trip, over
        --connections keep-alive connections on --threads wrk threads. Reports requests/s (the
        median over rounds, with the range) and fare/healthz, the issue's goal being at least 0.5.
        The client shares the machine's cores with the server it measures.
        """
    )

    @OptionGroup var options: BenchOptions
    @Option(help: "Seconds per wrk run.") var seconds = 5
    @Option(help: "Keep-alive connections.") var connections = 16
    @Option(help: "wrk threads.") var threads = 2

    struct Report: Encodable {
        let benchmark = "http"
        let machine: MachineInfo
        let rounds: Int
        let connections: Int
        let seconds: Int
        let healthz_per_second: Double
        let fare_per_second: Double
        let fare_vs_healthz: Double
        let fare_errors: Int
        let ranges: [String: [Double]]
    }

    func run() throws {
        guard let wrk = ["/usr/bin/wrk", "/usr/local/bin/wrk"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            Diagnostics.print("geofare bench http: wrk is not installed (apt-get install wrk)")
            throw GeoFareExit.noInput
        }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let server = Process()
        server.executableURL = exe
        server.arguments = ["serve", "--port", "0", "--db", ":memory:", "--log-level", "warning"]
        let err = Pipe()
        server.standardError = err
        server.standardOutput = FileHandle.nullDevice
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        var port = 0
        var seen = ""
        while port == 0 {
            let data = err.fileHandleForReading.availableData
            if data.isEmpty { break }
            seen += String(decoding: data, as: UTF8.self)
            if let m = seen.firstMatch(of: /listening on http:\/\/[0-9.]+:([0-9]+)/) { port = Int(m.output.1) ?? 0 }
        }
        guard port > 0 else {
            Diagnostics.print("geofare bench http: the server did not start: \(seen)")
            throw ExitCode(70)
        }
        // Keep draining the server's stderr so that it never blocks on a full pipe.
        let handle = err.fileHandleForReading
        Thread.detachNewThread { while !handle.availableData.isEmpty {} }

        let script = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-wrk-\(UUID().uuidString).lua")
        defer { try? FileManager.default.removeItem(at: script) }
        let body = #"{"from":{"lat":37.5665,"lon":126.978},"to":{"lat":37.4979,"lon":127.0276},"depart_at":"2024-05-15T22:30:00+09:00","party_size":2}"#
        try """
        wrk.method = "POST"
        wrk.body = '\(body)'
        wrk.headers["Content-Type"] = "application/json"
        """.write(to: script, atomically: true, encoding: .utf8)

        var healthz: [Double] = [], fares: [Double] = [], fareErrors = 0
        for _ in 0..<options.roundCount {
            let h = try Self.wrk(wrk, ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "http://127.0.0.1:\(port)/healthz"])
            let f = try Self.wrk(wrk, ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "-s", script.path, "http://127.0.0.1:\(port)/v1/fare"])
            healthz.append(h.rate)
            fares.append(f.rate)
            fareErrors += f.errors
        }
        let h = Statistics.Rounds(healthz).rounded(), f = Statistics.Rounds(fares).rounded()
        let ratio = Statistics.Rounds(zip(fares, healthz).map { $0 / $1 })
        let report = Report(machine: .current, rounds: options.roundCount, connections: connections, seconds: seconds,
                            healthz_per_second: h.median, fare_per_second: f.median, fare_vs_healthz: (ratio.median * 1000).rounded() / 1000,
                            fare_errors: fareErrors, ranges: ["healthz_per_second": h.range, "fare_per_second": f.range, "fare_vs_healthz": ratio.range])
        if options.json { print(try jsonLine(report)); return }
        print("geofare bench http: wrk -t\(threads) -c\(connections) -d\(seconds)s, median of \(options.roundCount) rounds, \(report.machine.cores) cores (\(report.machine.cpu)); client and server share them")
        print("GET /healthz   \(Int(h.median)) requests/s\(h.rangeText { String(Int($0)) })")
        print("POST /v1/fare  \(Int(f.median)) requests/s\(f.rangeText { String(Int($0)) }), \(fareErrors) non-2xx")
        print("fare / healthz \(String(format: "%.3f", ratio.median))\(ratio.rangeText { String(format: "%.3f", $0) })  (goal ≥ 0.5)")
    }

    /// One wrk run: requests per second and the non-2xx responses it counted.
    static func wrk(_ path: String, _ arguments: [String]) throws -> (rate: Double, errors: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let m = text.firstMatch(of: /Requests\/sec:\s+([0-9.]+)/), let rate = Double(m.output.1) else {
            throw ValidationError("wrk printed no rate: \(text)")
        }
        let errors = text.firstMatch(of: /Non-2xx or 3xx responses:\s+([0-9]+)/).flatMap { Int($0.output.1) } ?? 0
        return (rate, errors)
    }
}
