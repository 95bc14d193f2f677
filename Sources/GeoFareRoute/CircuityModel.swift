import Foundation
import GeoFareCore
import GeoFareData

/// Driven distance from straight-line distance: `driven = straight × factor(straight)`, with the
/// factor linear in ln(straight) between fitted knots and clamped outside them, plus an 80 %
/// band (p10–p90 of driven ÷ estimate) per distance band.
///
/// Fitted on the fastest car routes (what a taxi drives) of GeoFare's road router over real
/// OpenStreetMap networks, Korea included, as the median of driven ÷ straight
/// (`Data/route/circuity.json`, method and numbers in `Data/route/calibration/README.md`).
public struct CircuityModel: Sendable, Hashable {
    /// (ln straight metres, factor) knots, ascending.
    public let knots: [(logMeters: Double, factor: Double)]
    /// (upper straight metres, p10, p50, p90) bands, ascending; the last has +∞.
    public let bands: [(maxMeters: Double, p10: Double, p50: Double, p90: Double)]

    public static func == (a: CircuityModel, b: CircuityModel) -> Bool {
        a.knots.elementsEqual(b.knots, by: ==) && a.bands.elementsEqual(b.bands, by: ==)
    }
    public func hash(into hasher: inout Hasher) { for k in knots { hasher.combine(k.factor) } }

    /// Loads `route/circuity.json`.
    /// - Throws: ``GeoFareError`` `invalid_route_data` naming the file and field.
    public static func load(from data: DataCatalog = .embedded) throws(GeoFareError) -> CircuityModel {
        struct File: Decodable {
            struct Knot: Decodable { let straight_m: Double; let factor: Double }
            struct Band: Decodable { let max_straight_m: Double?; let p10: Double; let p50: Double; let p90: Double }
            let model: String
            let knots: [Knot]
            let band: [Band]
        }
        let path = "route/circuity.json"
        do {
            let file = try JSONDecoder().decode(File.self, from: try data.file(path).bytes)
            guard file.model == "piecewise_log_linear" else { throw GeoFareError.invalidRouteData("unknown model '\(file.model)'", field: "\(path): model") }
            guard file.knots.count >= 1, zip(file.knots, file.knots.dropFirst()).allSatisfy({ $0.straight_m < $1.straight_m }),
                  file.knots.allSatisfy({ $0.straight_m > 0 && $0.factor >= 1 && $0.factor < 5 }) else {
                throw GeoFareError.invalidRouteData("knots must be ascending with positive distances and factors in 1...5", field: "\(path): knots")
            }
            guard !file.band.isEmpty, file.band.last?.max_straight_m == nil,
                  file.band.allSatisfy({ 0 < $0.p10 && $0.p10 <= $0.p50 && $0.p50 <= $0.p90 }) else {
                throw GeoFareError.invalidRouteData("bands need 0 < p10 ≤ p50 ≤ p90 and a last band without max_straight_m", field: "\(path): band")
            }
            return CircuityModel(
                knots: file.knots.map { (log($0.straight_m), $0.factor) },
                bands: file.band.map { ($0.max_straight_m ?? .infinity, $0.p10, $0.p50, $0.p90) }
            )
        } catch let error as GeoFareError {
            throw error
        } catch {
            throw GeoFareError.invalidRouteData(describing: error, field: path)
        }
    }

    /// The circuity factor for a straight-line distance in metres.
    @inlinable
    public func factor(straightMeters: Double) -> Double {
        guard knots.count > 1 else { return knots[0].factor }
        let x = log(max(straightMeters, 1e-9))
        if x <= knots[0].logMeters { return knots[0].factor }
        for i in 1..<knots.count where x <= knots[i].logMeters {
            let a = knots[i - 1], b = knots[i]
            let t = (x - a.logMeters) / (b.logMeters - a.logMeters)
            return (1 - t) * a.factor + t * b.factor
        }
        return knots[knots.count - 1].factor
    }

    /// The position in ``bands`` of the band holding a straight distance.
    @inlinable
    public func bandIndex(straightMeters: Double) -> Int {
        for (i, b) in bands.enumerated() where straightMeters <= b.maxMeters { return i }
        return bands.count - 1
    }

    /// The band (p10, p50, p90 of driven ÷ estimate) for a straight-line distance.
    @inlinable
    public func band(straightMeters: Double) -> (p10: Double, p50: Double, p90: Double) {
        let b = bands[bandIndex(straightMeters: straightMeters)]
        return (b.p10, b.p50, b.p90)
    }
}
