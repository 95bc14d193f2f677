import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareData
import GeoFareFare

/// `--data DIR`: a directory of extra or overriding tariffs, zones and route tables, laid out
/// like the package's Data/ folder (tariffs/*.json, zones/*.geojson, route/*.json).
struct DataOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: ArgumentHelp("A data directory that adds to or overrides the embedded tariffs, zones and route tables.", valueName: "dir"))
    var directory: String?

    @Option(name: .customLong("graph"), help: ArgumentHelp("A road graph file (geofare graph build); repeatable. A trip inside a graph is routed on its roads, any other by the circuity model.", valueName: "file"))
    var graphs: [String] = []

    @Option(name: .customLong("traffic"), help: ArgumentHelp("A traffic profile from `geofare calibrate` (repeatable): its speed profile's times, distances and bands as fitted on completed rides.", valueName: "file"))
    var traffic: [String] = []

    var catalog: DataCatalog {
        DataCatalog(overrideDirectory: directory.map { URL(fileURLWithPath: $0) })
    }

    /// The pricer over the embedded data and the directory; a broken data file exits 65 naming it.
    func pricer() throws -> TripPricer {
        do { return try TripPricer.standard(data: catalog, graphs: graphs, traffic: traffic) } catch {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw GeoFareExit.dataError
        }
    }
}

/// Parses `--from`/`--to`/`--via` LAT,LON values.
func coordinate(_ text: String, field: String) throws -> Coordinate {
    do { return try Coordinate(latLonText: Substring(text), field: field) } catch {
        throw ValidationError(error.description)
    }
}

/// Parses `--at`, or now in the machine's offset when absent.
func departure(_ text: String?) throws -> Date {
    guard let text else { return Date() }
    guard let date = ISO8601.parse(text) else {
        throw ValidationError("--at: expected an ISO 8601 time with an offset, e.g. 2024-05-15T22:30:00+09:00, got '\(text)'")
    }
    return date
}

/// Parses `--map col=header` values (`pool`, `calibrate`): logical column → the file's header.
func parseColumnMap(_ values: [String]) throws -> [String: String] {
    var out: [String: String] = [:]
    for m in values {
        let parts = m.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw ValidationError("--map takes col=header, got '\(m)'") }
        out[parts[0]] = parts[1]
    }
    return out
}
