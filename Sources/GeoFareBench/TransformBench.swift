import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareProj

/// `geofare bench transform`: the Swift batch API against a direct PROJ call on the same array.
struct TransformBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transform",
        abstract: "Convert N points 4326→5179 and 4326→3857 through GeoFare's batch API and through a bare proj_trans_generic call.",
        discussion: """
        Points are spread uniformly over South Korea (lon 124.5–131.0, lat 33.0–38.6) from a
        seeded generator. Each round converts a fresh copy of the same array once through each
        path (alternating which goes first); the median round time of each is reported, and
        `ratio` = swift / proj points per second (1.0 means no overhead). The outputs of both
        paths are compared bit for bit.
        """
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Points per conversion.")
    var points = 1_000_000

    struct PairResult: Encodable {
        let from: String, to: String, points: Int
        /// Each path's median rate, and swift's over proj's.
        let swift_points_per_second, proj_points_per_second, ratio: Double
        let identical_output: Bool
        /// Per figure, its lowest and highest round.
        let ranges: [String: [Double]]
    }

    struct Report: Encodable {
        let benchmark = "transform"
        let proj_version: String
        let rounds: Int
        let machine: MachineInfo
        let pairs: [PairResult]
    }

    func run() throws {
        var rng = SeededGenerator(seed: options.seed)
        let input = (0..<points).map { _ in
            XYPoint(x: Double.random(in: 124.5...131.0, using: &rng), y: Double.random(in: 33.0...38.6, using: &rng))
        }
        var results: [PairResult] = []
        for (from, to) in [("EPSG:4326", "EPSG:5179"), ("EPSG:4326", "EPSG:3857")] {
            let transformer = try CoordinateTransformer(from: from, to: to)
            let baseline = try ProjBaseline(from: transformer.source, to: transformer.target)
            var swiftWork = input, projWork = input
            var swiftTimes: [Double] = [], projTimes: [Double] = []
            var failures = 0
            for round in 0..<options.roundCount {
                swiftWork.withUnsafeMutableBufferPointer { dst in input.withUnsafeBufferPointer { src in _ = dst.update(fromContentsOf: src) } }
                projWork.withUnsafeMutableBufferPointer { dst in input.withUnsafeBufferPointer { src in _ = dst.update(fromContentsOf: src) } }
                let runSwift = {
                    swiftTimes.append(Stopwatch.seconds {
                        failures = swiftWork.withUnsafeMutableBufferPointer { transformer.transformInPlace($0) }.count
                    })
                }
                let runProj = { projTimes.append(Stopwatch.seconds { projWork.withUnsafeMutableBufferPointer { baseline.run($0) } }) }
                if round % 2 == 0 { runSwift(); runProj() } else { runProj(); runSwift() }
            }
            let swiftRates = Statistics.Rounds(swiftTimes).map { Double(points) / $0 }.rounded()
            let projRates = Statistics.Rounds(projTimes).map { Double(points) / $0 }.rounded()
            let swiftRate = swiftRates.median, projRate = projRates.median
            results.append(PairResult(
                from: from, to: to, points: points,
                swift_points_per_second: swiftRate.rounded(), proj_points_per_second: projRate.rounded(),
                ratio: (swiftRate / projRate * 1000).rounded() / 1000,
                identical_output: failures == 0 && swiftWork == projWork,
                ranges: ["swift_points_per_second": swiftRates.range, "proj_points_per_second": projRates.range]
            ))
        }
        let report = Report(proj_version: ProjLibrary.version, rounds: options.roundCount, machine: .current, pairs: results)
        if options.json {
            print(try jsonLine(report))
        } else {
            print("geofare bench transform: \(points) points, median of \(options.roundCount) rounds, PROJ \(report.proj_version), \(report.machine.cores) cores (\(report.machine.cpu))")
            print("pair                      swift pts/s     proj pts/s   ratio  identical")
            for r in results {
                let pair = "\(r.from)→\(r.to)".padding(toLength: 24, withPad: " ", startingAt: 0)
                print("\(pair) \(String(format: "%12.0f", r.swift_points_per_second))   \(String(format: "%12.0f", r.proj_points_per_second))   \(String(format: "%.3f", r.ratio))  \(r.identical_output)")
                if options.roundCount > 1, let s = r.ranges["swift_points_per_second"], let p = r.ranges["proj_points_per_second"] {
                    print("  range over rounds       \(String(format: "%.0f–%.0f", s[0], s[1]))   \(String(format: "%.0f–%.0f", p[0], p[1]))")
                }
            }
        }
    }
}
