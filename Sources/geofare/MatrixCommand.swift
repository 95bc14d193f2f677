import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import GeoFareText

/// `geofare matrix`: driven distances and durations from every source to every target.
struct MatrixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matrix",
        abstract: "Driven distances and durations from every source to every target (one many-to-many search on a road graph).",
        discussion: """
        At most \(MatrixRequest.maxCells) cells (sources × targets). On a road graph (--graph) that holds every point the
        cells equal `geofare route` for each pair; elsewhere they are circuity estimates (estimator circuity-v2).
        Example: geofare matrix --graph seoul.graph --source 37.5665,126.9780 --source 37.5547,126.9707 --target 37.5796,126.9770
        """
    )

    @Option(parsing: .unconditionalSingleValue, help: "A source as LAT,LON (repeatable).") var source: [String] = []
    @Option(parsing: .unconditionalSingleValue, help: "A target as LAT,LON (repeatable; default: the sources).") var target: [String] = []
    @Option(help: "Departure as ISO 8601 with offset (default: now).") var at: String?
    @Option(help: "On a road graph: fastest (default) or shortest.") var metric: String = "fastest"
    @Flag(help: "Print the matrix as JSON (the worker's matrix result).") var json = false
    @OptionGroup var data: DataOptions

    func run() throws {
        let pricer = try data.pricer()
        let when = try departure(at)
        try reportingErrors {
            let sources = try source.enumerated().map { try coordinate($1, field: "sources[\($0)]") }
            let targets = target.isEmpty ? sources : try target.enumerated().map { try coordinate($1, field: "targets[\($0)]") }
            guard let m = RouteMetric(rawValue: metric) else { throw ValidationError("--metric is fastest or shortest, got '\(metric)'") }
            let matrix = try pricer.estimator.matrix(MatrixRequest(sources: sources, targets: targets, departure: when, metric: m))
            if json {
                print(RouteJSON.string(matrix))
                return
            }
            print("\(sources.count) × \(targets.count) (\(matrix.estimator)); km / min, rows sources, columns targets, - where no road joins them")
            for (i, row) in matrix.distanceMeters.enumerated() {
                let cells = row.enumerated().map { j, d in
                    guard let d, let t = matrix.durationSeconds[i][j] else { return "-" }
                    return "\(DecimalFormat.string(d / 1000, decimals: 2)) / \(DecimalFormat.string(t / 60, decimals: 1))"
                }
                print("\(i): " + cells.joined(separator: "  "))
            }
        }
    }
}
