import Foundation
import GeoFareCore
import GeoFareData

/// Average door-to-door speeds by local hour for a region, and the cruise speed that splits
/// a duration into moving and slow time for the meter.
public struct SpeedProfile: Sendable, Hashable {
    public let id: String
    /// Tariff-region zone ids this profile serves.
    public let regions: [String]
    public let clock: LocalClock
    /// Speed while moving, km/h: slow time = max(0, duration − distance / cruise).
    public let cruiseKmh: Double
    /// Average speed including stops, km/h, for each local hour 0...23.
    public let hourlyKmh: [Double]

    /// All profiles in `route/speed-profiles.json` and the id of the default one.
    /// - Throws: ``GeoFareError`` `invalid_route_data` naming the file and field.
    public static func load(from data: DataCatalog = .embedded) throws(GeoFareError) -> (profiles: [SpeedProfile], defaultID: String) {
        struct File: Decodable {
            struct Profile: Decodable { let id: String; let regions: [String]; let time_zone: String; let cruise_kmh: Double; let hourly_kmh: [Double] }
            let profiles: [Profile]
            let default_profile: String
        }
        let path = "route/speed-profiles.json"
        do {
            let file = try JSONDecoder().decode(File.self, from: try data.file(path).bytes)
            var out: [SpeedProfile] = []
            for (i, p) in file.profiles.enumerated() {
                let at = "\(path): profiles[\(i)]"
                guard let tz = TimeZone(identifier: p.time_zone) else { throw GeoFareError(code: .invalidRouteData, message: "unknown time zone '\(p.time_zone)'", field: "\(at).time_zone") }
                guard p.hourly_kmh.count == 24, p.hourly_kmh.allSatisfy({ $0.isFinite && $0 > 1 && $0 < 200 }) else {
                    throw GeoFareError(code: .invalidRouteData, message: "hourly_kmh needs 24 speeds within (1, 200) km/h", field: "\(at).hourly_kmh")
                }
                guard p.cruise_kmh.isFinite, p.cruise_kmh > 1, p.cruise_kmh < 200 else { throw GeoFareError(code: .invalidRouteData, message: "cruise_kmh must be within (1, 200)", field: "\(at).cruise_kmh") }
                out.append(SpeedProfile(id: p.id, regions: p.regions, clock: LocalClock(timeZone: tz), cruiseKmh: p.cruise_kmh, hourlyKmh: p.hourly_kmh))
            }
            guard out.contains(where: { $0.id == file.default_profile }) else {
                throw GeoFareError(code: .invalidRouteData, message: "default_profile '\(file.default_profile)' is not defined", field: "\(path): default_profile")
            }
            return (out, file.default_profile)
        } catch let error as GeoFareError {
            throw error
        } catch {
            throw GeoFareError(code: .invalidRouteData, message: "\(error)", field: path)
        }
    }
}
