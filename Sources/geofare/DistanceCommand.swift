import ArgumentParser
import GeoFareCLI
import GeoFareCore
import GeoFareProj
import GeoFareText

/// `geofare distance`: the geodesic between two points.
struct DistanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "distance",
        abstract: "The geodesic distance (WGS84, Karney) and azimuths between two points.",
        discussion: "Points are LAT,LON in degrees, e.g. `geofare distance 37.5665,126.9780 35.1796,129.0756`."
    )

    @Argument(parsing: .allUnrecognized, help: "Two points as LAT,LON.")
    var points: [String] = []

    @Flag(help: "Print one JSON object: distance_m, initial_azimuth_deg, final_azimuth_deg.")
    var json = false

    struct Output: Encodable {
        let distance_m: Double
        let initial_azimuth_deg: Double
        let final_azimuth_deg: Double
    }

    func validate() throws {
        guard points.count == 2 else { throw ValidationError("expected exactly two points LAT,LON LAT,LON, got \(points.count)") }
    }

    func run() throws {
        try reportingErrors {
            let a = try Coordinate(latLonText: Substring(points[0]), field: "from")
            let b = try Coordinate(latLonText: Substring(points[1]), field: "to")
            let r = Geodesic.wgs84.inverse(a, b)
            if json {
                print(try jsonLine(Output(distance_m: r.distanceMeters, initial_azimuth_deg: r.initialAzimuthDegrees, final_azimuth_deg: r.finalAzimuthDegrees)))
            } else {
                print("\(DecimalFormat.string(r.distanceMeters, decimals: 3)) m  (initial azimuth \(DecimalFormat.string(r.initialAzimuthDegrees, decimals: 6))°, final \(DecimalFormat.string(r.finalAzimuthDegrees, decimals: 6))°)")
            }
        }
    }
}
