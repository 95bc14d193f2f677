import Foundation
import GeoFareCore
import GeoFareData

/// GeoFare's model of the slow seconds of a trip segment (`gamma-stop-v1`): from a segment's
/// distance and duration and its trip's total duration, the seconds the taxi meter counts as
/// slow for a tariff's changeover speed v* (unit distance ÷ unit time) and mode.
///
/// A segment of average speed u = D/T stands for a share p₀ of its time and moves for the rest
/// at gamma-distributed speeds of integer shape k and mean m = max(c + b·u, u), with
/// c = c₀·(T_trip/600 s)^γ; the meter counts the standing time and the time below v* (net of the
/// distance crawled in ``TariffVersion/Mode/exclusive`` mode). Equations, parameters, test vectors
/// and the cross-validation on 25,358 NYC trips: `Data/fare/README.md`; the parameters live in
/// `Data/fare/slow-time.json`.
///
/// A plain value of a few doubles: loaded once by ``TariffCatalog/load(from:)``; computing a
/// segment's slow time allocates nothing (one `exp` and about 3k + 10 flops per segment, one
/// `pow` per trip).
public struct SlowTimeModel: Sendable, Hashable {
    /// The data file the model is read from, relative to a ``DataCatalog``.
    public static let path = "fare/slow-time.json"

    /// The data file of a named model (a tariff's `slow_time_model`): `fare/slow-time-NAME.json`.
    public static func path(named name: String) -> String { "fare/slow-time-\(name).json" }

    /// Whether `name` can name a model: 1-32 of `a-z`, `0-9`, `-`.
    public static func isValidName(_ name: String) -> Bool {
        (1...32).contains(name.utf8.count) && name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 }
    }
    /// The model name the file must carry.
    public static let modelName = "gamma-stop-v1"

    /// c₀, m/s: the mean moving speed above the average speed, for a trip of ``durationRefSeconds``.
    public let cruiseBaseMps: Double
    /// b (dimensionless): how the moving speed grows with the average speed.
    public let cruiseSlope: Double
    /// γ (dimensionless): c = c₀·(T_trip / ``durationRefSeconds``)^γ.
    public let durationExponent: Double
    /// The reference trip duration of both power laws, seconds.
    public let durationRefSeconds: Double
    /// k: the integer gamma shape of moving speeds (1...64).
    public let speedShape: Int
    /// σ_ref, seconds: the standard deviation of a trip's slow seconds at T_trip = ``durationRefSeconds``.
    public let spreadRefSeconds: Double
    /// β (dimensionless): σ = σ_ref·(T_trip / ``durationRefSeconds``)^β.
    public let spreadExponent: Double
    /// The half-width of the low–high band in σ (fitted so that the fare band holds 80 % of trips).
    public let bandZ: Double

    /// A model from its parameters (validated as the file's are).
    /// - Throws: ``GeoFareError`` `invalid_tariff` naming the parameter.
    public init(cruiseBaseMps: Double, cruiseSlope: Double, durationExponent: Double, durationRefSeconds: Double,
                speedShape: Int, spreadRefSeconds: Double, spreadExponent: Double, bandZ: Double,
                origin: String = SlowTimeModel.path) throws(GeoFareError) {
        func check(_ name: String, _ value: Double, _ range: ClosedRange<Double>) throws(GeoFareError) {
            guard value.isFinite, range.contains(value) else {
                throw GeoFareError.invalidTariff(origin, "parameters.\(name)", "must be a finite number within \(range.lowerBound)...\(range.upperBound), got \(value)")
            }
        }
        try check("cruise_base_mps", cruiseBaseMps, 0...50)
        try check("cruise_slope", cruiseSlope, 0...10)
        try check("duration_exponent", durationExponent, -2...2)
        try check("duration_ref_s", durationRefSeconds, 1...86_400)
        try check("speed_shape", Double(speedShape), 1...64)
        try check("spread_ref_s", spreadRefSeconds, 0...3_600)
        try check("spread_exponent", spreadExponent, -2...2)
        try check("band_z", bandZ, 0...10)
        self.cruiseBaseMps = cruiseBaseMps
        self.cruiseSlope = cruiseSlope
        self.durationExponent = durationExponent
        self.durationRefSeconds = durationRefSeconds
        self.speedShape = speedShape
        self.spreadRefSeconds = spreadRefSeconds
        self.spreadExponent = spreadExponent
        self.bandZ = bandZ
    }

    private struct File: Decodable {
        /// The file's parameters, named as in the file (see ``SlowTimeModel``'s properties).
        struct Parameters: Decodable {
            let cruise_base_mps, cruise_slope, duration_exponent, duration_ref_s: Double
            let speed_shape: Int
            let spread_ref_s, spread_exponent, band_z: Double
        }
        let model: String
        let parameters: Parameters
    }

    /// Decodes and validates `slow-time.json`.
    /// - Parameter origin: the file's name, for errors.
    /// - Throws: ``GeoFareError`` `invalid_tariff` whose field names the file and the JSON path
    ///   (a missing or non-numeric parameter, an unknown model, a value out of range).
    public init(json data: Data, origin: String = SlowTimeModel.path) throws(GeoFareError) {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch let error as DecodingError {
            throw GeoFareError.invalidTariff(origin, TariffFile.path(of: error), TariffFile.describe(error))
        } catch {
            throw GeoFareError.invalidTariff(origin, "$", "\(error)")
        }
        guard file.model == Self.modelName else {
            throw GeoFareError.invalidTariff(origin, "model", "must be '\(Self.modelName)', got '\(file.model)'")
        }
        let p = file.parameters
        try self.init(cruiseBaseMps: p.cruise_base_mps, cruiseSlope: p.cruise_slope, durationExponent: p.duration_exponent,
                      durationRefSeconds: p.duration_ref_s, speedShape: p.speed_shape, spreadRefSeconds: p.spread_ref_s,
                      spreadExponent: p.spread_exponent, bandZ: p.band_z, origin: origin)
    }

    /// The model of a data catalog (``path``; a user data directory's file wins over the
    /// embedded one).
    /// - Throws: ``GeoFareError`` `invalid_tariff` for a broken file, `data_file_missing` or
    ///   `data_file_unreadable` (field: the path) when there is none to read.
    public static func load(from data: DataCatalog, named name: String? = nil) throws(GeoFareError) -> SlowTimeModel {
        let path = name.map { Self.path(named: $0) } ?? Self.path
        do {
            let (bytes, origin) = try data.file(path)
            return try SlowTimeModel(json: bytes, origin: origin)
        } catch let error as GeoFareError {
            throw error
        } catch {
            throw .invalidTariff(error, field: path)
        }
    }

    /// c = c₀·(T_trip / ``durationRefSeconds``)^γ, m/s: computed once per trip.
    /// - Parameter tripSeconds: the trip's total duration, seconds (≤ 0 gives c₀).
    @inline(__always)
    public func cruise(tripSeconds: Double) -> Double {
        tripSeconds > 0 ? cruiseBaseMps * pow(tripSeconds / durationRefSeconds, durationExponent) : cruiseBaseMps
    }

    /// The half-width of the low–high band for a whole trip, seconds: ``bandZ``·σ with
    /// σ = σ_ref·(T_trip / ``durationRefSeconds``)^β. A segment's share is this × T_i / T_trip.
    @inline(__always)
    public func bandHalfWidth(tripSeconds: Double) -> Double {
        tripSeconds > 0 ? bandZ * spreadRefSeconds * pow(tripSeconds / durationRefSeconds, spreadExponent) : 0
    }

    /// The least slow time a segment can have, seconds: max(0, T − D/v*) in exclusive mode (the
    /// meter shows at least D), 0 in concurrent mode.
    @inline(__always)
    public static func lowerBound(distanceMeters d: Double, durationSeconds t: Double, changeoverSpeed vStar: Double,
                                  mode: TariffVersion.Mode) -> Double {
        mode == .exclusive ? max(0, t - d / vStar) : 0
    }

    /// A segment's slow seconds, within [``lowerBound(distanceMeters:durationSeconds:changeoverSpeed:mode:)``, T].
    /// - Parameters:
    ///   - distanceMeters: D ≥ 0, metres.
    ///   - durationSeconds: T, seconds (≤ 0 gives 0).
    ///   - cruise: c from ``cruise(tripSeconds:)`` for the segment's trip, m/s.
    ///   - changeoverSpeed: v* = unit distance ÷ unit time of the tariff version, m/s (> 0).
    ///   - mode: the tariff version's mode.
    @inline(__always)
    public func slowSeconds(distanceMeters d: Double, durationSeconds t: Double, cruise c: Double,
                            changeoverSpeed vStar: Double, mode: TariffVersion.Mode) -> Double {
        guard t > 0 else { return 0 }
        let u = d / t
        let m = max(c + cruiseSlope * u, u)
        guard m > 0 else { return 0 }
        let p0 = 1 - u / m
        let z = Double(speedShape) * vStar / m
        let e = exp(-z)
        var term = 1.0, sum = 0.0
        for j in 0..<speedShape {
            sum += term
            term *= z / Double(j + 1)
        }
        let pk = 1 - e * sum
        switch mode {
        case .exclusive:
            let pk1 = pk - e * term
            let slow = t * (p0 + (1 - p0) * (pk - (m / vStar) * pk1))
            return min(max(slow, max(0, t - d / vStar)), t)
        case .concurrent:
            return min(max(t * (p0 + (1 - p0) * pk), 0), t)
        }
    }
}
