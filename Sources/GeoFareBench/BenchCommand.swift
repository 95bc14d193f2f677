import ArgumentParser
import Foundation
import GeoFareCore

/// `geofare bench ...`: performance measurements, each against a baseline measured in the
/// same run so that numbers compare across noisy machines.
public struct BenchCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks, each reported against a baseline measured in the same run.",
        subcommands: [TransformBench.self, FareBench.self, RouteBench.self, CSVBench.self, WorkerBench.self, HTTPBench.self, ClusterBench.self, PlacesBench.self, MatchBench.self, PoolBench.self]
    )

    public init() {}
}

/// Shared options of every benchmark.
struct BenchOptions: ParsableArguments {
    @Flag(help: "Print one machine-readable JSON object instead of a table.")
    var json = false

    @Option(help: "Timed rounds per measurement; the median and the range over rounds are reported.")
    var rounds = 5

    @Option(help: "Seed of the generated data.")
    var seed: UInt64 = 42

    /// Rounds to run: `--rounds`, at least one.
    var roundCount: Int { max(1, rounds) }
}

/// The machine a benchmark ran on, printed with every result.
struct MachineInfo: Encodable {
    let cores: Int
    let cpu: String
    let memory_bytes: UInt64
    let os: String

    static var current: MachineInfo {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) } ?? "unknown"
        return MachineInfo(
            cores: ProcessInfo.processInfo.activeProcessorCount,
            cpu: model,
            memory_bytes: ProcessInfo.processInfo.physicalMemory,
            os: ProcessInfo.processInfo.operatingSystemVersionString
        )
    }
}

/// Monotonic wall-clock timing helpers.
enum Stopwatch {
    /// Seconds taken by `body`.
    @inline(__always)
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
