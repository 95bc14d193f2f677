import Foundation
import GeoFareCore
import GeoFareData

/// A speed profile's level from a date on (`levels_by_date` in `route/speed-profiles.json`):
/// every time of the profile × the area's level, for trips departing from `from` until the
/// next level's date. Before the first level's date the first level holds.
public struct DatedLevel: Sendable, Hashable {
    /// Seconds since 1970 of the level's first local midnight.
    public let from: Double
    /// The date as written (`YYYY-MM-DD`, local).
    public let date: String
    /// Time multipliers by ``TrafficArea`` (1: the profile as fitted).
    public let areaLevels: [Double]
}

/// What `geofare calibrate` fits on completed rides for one speed profile, and what `--traffic`
/// applies (schema `geofare.traffic/calibration-1`, a JSON file a person can read): time levels
/// by area and hour of the week (× the profile's times, shrunk towards 1 where rides are few),
/// time factors by a leg's straight distance, driven-distance factors by area (no graph), and
/// the bands of durations and distances the
/// calibrated estimates keep 80 % of real rides inside.
///
/// Applied to a profile (``SpeedProfile/applying(_:)``), levels and factors multiply the
/// profile's tables once, at load: a request pays nothing beyond the table look-up it already
/// makes.
public struct TrafficCalibration: Sendable, Hashable {
    public static let schema = "geofare.traffic/calibration-1"
    /// The speed profile it calibrates (`us-nyc`, `kr-cities`, ...).
    public var profile: String
    /// A name for people and `version` (the file's `name`).
    public var name: String
    /// Time multipliers `[area × 168 + weekday × 24 + hour]` (weekday 0 = Monday): an hour with
    /// rides of its own takes its level, any other its area's.
    public var timeLevels: [Double]
    /// Each area's own level (`time_level`), the one its hours without rides take.
    public var areaLevels: [Double]
    /// Driven-distance multipliers by the origin's area, for routes without a graph, on legs up
    /// to ``distanceLimitsMeters`` of straight distance (beyond: 1, the rides said nothing there).
    public var distanceFactors: [Double]
    /// By area: the longest straight leg a distance factor applies to, metres (the upper bound
    /// of the longest band of ``distanceBandsKm`` with 10 of the area's rides; ∞: no bound).
    public var distanceLimitsMeters: [Double]
    /// Time multipliers by a leg's straight distance (``distanceBandsKm``): short trips lose
    /// more of their time at the kerb and at signals than the hourly speeds say.
    public var timeByDistance: [Double]

    /// Upper bounds (km) of the straight-distance bands of ``timeByDistance``; a last band
    /// holds everything longer.
    public static let distanceBandsKm: [Double] = [0.5, 1, 2, 3, 5, 8, 12, 20, 40, 100]

    /// The distance factor of `area` on legs of straight-distance `band`: its factor where its
    /// rides reached (``distanceLimitsMeters``), else 1.
    public func distanceFactor(_ area: TrafficArea, band: Int) -> Double {
        band <= Self.distanceBand(straightMeters: distanceLimitsMeters[area.rawValue]) ? distanceFactors[area.rawValue] : 1
    }

    /// The band of ``distanceBandsKm`` holding a straight distance.
    @inline(__always)
    public static func distanceBand(straightMeters: Double) -> Int {
        var i = 0
        while i < distanceBandsKm.count && straightMeters > distanceBandsKm[i] * 1000 { i += 1 }
        return i
    }
    /// Real ÷ estimated duration given the distance (the speed's spread), without a graph and on
    /// a graph; `nil`: the profile's own.
    public var durationBandCircuity: (p10: Double, p90: Double)?
    public var durationBandGraph: (p10: Double, p90: Double)?
    /// Real ÷ estimated driven distance without a graph; `nil`: the circuity model's own bands.
    public var distanceBandCircuity: (p10: Double, p90: Double)?
    /// × the log half-widths of the route's spread the fare band is read at (1: unchanged),
    /// fitted so that the fare band holds 80 % of the rides' real fares.
    public var fareBandScale = 1.0

    /// A calibration that changes nothing.
    public init(profile: String, name: String) {
        self.profile = profile
        self.name = name
        timeLevels = [Double](repeating: 1, count: 4 * 168)
        areaLevels = [1, 1, 1, 1]
        distanceFactors = [1, 1, 1, 1]
        distanceLimitsMeters = [.infinity, .infinity, .infinity, .infinity]
        timeByDistance = [Double](repeating: 1, count: Self.distanceBandsKm.count + 1)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.profile == b.profile && a.name == b.name && a.timeLevels == b.timeLevels && a.distanceFactors == b.distanceFactors && a.distanceLimitsMeters == b.distanceLimitsMeters && a.timeByDistance == b.timeByDistance && a.fareBandScale == b.fareBandScale
            && a.durationBandCircuity.map { [$0.p10, $0.p90] } == b.durationBandCircuity.map { [$0.p10, $0.p90] }
            && a.durationBandGraph.map { [$0.p10, $0.p90] } == b.durationBandGraph.map { [$0.p10, $0.p90] }
            && a.distanceBandCircuity.map { [$0.p10, $0.p90] } == b.distanceBandCircuity.map { [$0.p10, $0.p90] }
    }
    public func hash(into h: inout Hasher) { h.combine(profile); h.combine(name) }

    /// The three-letter names of the weekdays in an hour key (`"fri 08"`), Monday first.
    public static let weekdayNames = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// The hour key of an hour of the week (`"fri 08"`).
    public static func hourKey(_ hourOfWeek: Int) -> String {
        weekdayNames[hourOfWeek / 24] + " " + (hourOfWeek % 24 < 10 ? "0" : "") + String(hourOfWeek % 24)
    }

    /// The file's JSON form: what `calibrate` writes and ``read(_:field:)`` reads.
    public struct File: Codable, Sendable {
        public struct Band: Codable, Sendable {
            public var p10: Double, p90: Double
            public init(p10: Double, p90: Double) { (self.p10, self.p90) = (p10, p90) }
        }
        public struct Bands: Codable, Sendable {
            public var circuity: Band?, graph: Band?
            public init(circuity: Band?, graph: Band?) { (self.circuity, self.graph) = (circuity, graph) }
        }
        public struct DistanceCell: Codable, Sendable {
            /// The band's upper bound, km (`nil`: the last band, everything longer).
            public var up_to_km: Double?
            public var rides: Int, time_factor: Double
            public init(up_to_km: Double?, rides: Int, time_factor: Double) { (self.up_to_km, self.rides, self.time_factor) = (up_to_km, rides, time_factor) }
        }
        public struct Cell: Codable, Sendable {
            public var rides: Int, time_level: Double
            public init(rides: Int, time_level: Double) { (self.rides, self.time_level) = (rides, time_level) }
        }
        public struct Area: Codable, Sendable {
            public var rides: Int
            public var time_level: Double
            public var distance_rides: Int?
            public var distance_factor: Double?
            /// The longest straight leg the distance factor applies to, km (`nil`: any).
            public var distance_up_to_km: Double?
            /// By hour of the week (`"fri 08"`): the hours with rides of their own.
            public var hours: [String: Cell]?
            public init(rides: Int, time_level: Double, distance_rides: Int?, distance_factor: Double?, distance_up_to_km: Double? = nil, hours: [String: Cell]?) {
                (self.rides, self.time_level, self.distance_rides, self.distance_factor, self.hours) = (rides, time_level, distance_rides, distance_factor, hours)
                self.distance_up_to_km = distance_up_to_km
            }
        }
        public var schema: String
        public var profile: String
        public var name: String
        public var about: String?
        public var areas: [String: Area]
        /// Time factors by straight distance, one per band of ``distanceBandsKm`` with rides.
        public var time_by_distance: [DistanceCell]?
        public var duration_band: Bands?
        public var distance_band: Bands?
        /// The fare band's scale on the route's spread, and the rides with a fare it was fitted on.
        public var fare_band: FareBand?
        public struct FareBand: Codable, Sendable {
            public var rides: Int, scale: Double
            public init(rides: Int, scale: Double) { (self.rides, self.scale) = (rides, scale) }
        }
        /// What the fit read and how it did on held-out rides: for people, not read back.
        public var fitted: [String: String]?
        public var held_out: [String: String]?
        public init(schema: String, profile: String, name: String, about: String?, areas: [String: Area], time_by_distance: [DistanceCell]?,
                    duration_band: Bands?, distance_band: Bands?, fitted: [String: String]?, held_out: [String: String]?) {
            (self.schema, self.profile, self.name, self.about, self.areas, self.time_by_distance) = (schema, profile, name, about, areas, time_by_distance)
            (self.duration_band, self.distance_band, self.fitted, self.held_out) = (duration_band, distance_band, fitted, held_out)
        }
    }

    /// Reads a calibration file's bytes; `field` names the file in errors.
    /// - Throws: ``GeoFareError`` `invalid_route_data` naming the file and the JSON path of the
    ///   broken value (schema, an unknown area or hour, a level outside 0.2...5, a distance
    ///   factor outside 0.5...2, a band without 0 < p10 ≤ 1 ≤ p90 < 10).
    public static func read(_ bytes: [UInt8], field: String) throws(GeoFareError) -> TrafficCalibration {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: Data(bytes)) } catch {
            throw GeoFareError.invalidRouteData(describing: error, field: field)
        }
        func fail(_ at: String, _ message: String) -> GeoFareError { .invalidRouteData(message, field: "\(field): \(at)") }
        guard file.schema == schema else { throw fail("schema", "expected '\(schema)', got '\(file.schema)'") }
        var c = TrafficCalibration(profile: file.profile, name: file.name)
        func level(_ v: Double, _ at: String) throws(GeoFareError) -> Double {
            guard v.isFinite, (0.2...5).contains(v) else { throw fail(at, "a time level must be within 0.2...5, got \(v)") }
            return v
        }
        for (key, area) in file.areas.sorted(by: { $0.key < $1.key }) {
            guard let a = TrafficArea(name: key) else { throw fail("areas.\(key)", "unknown area '\(key)' (centre, city, suburb, rural)") }
            let base = try level(area.time_level, "areas.\(key).time_level")
            for h in 0..<168 { c.timeLevels[a.rawValue * 168 + h] = base }
            c.areaLevels[a.rawValue] = base
            if let f = area.distance_factor {
                guard f.isFinite, (0.5...2).contains(f) else { throw fail("areas.\(key).distance_factor", "must be within 0.5...2, got \(f)") }
                c.distanceFactors[a.rawValue] = f
            }
            if let km = area.distance_up_to_km {
                guard km.isFinite, km > 0 else { throw fail("areas.\(key).distance_up_to_km", "must be a positive number of km, got \(km)") }
                c.distanceLimitsMeters[a.rawValue] = km * 1000
            }
            for (hour, cell) in area.hours ?? [:] {
                guard let h = (0..<168).first(where: { hourKey($0) == hour }) else {
                    throw fail("areas.\(key).hours", "unknown hour '\(hour)' (a weekday and an hour: 'fri 08')")
                }
                c.timeLevels[a.rawValue * 168 + h] = try level(cell.time_level, "areas.\(key).hours.\(hour).time_level")
            }
        }
        for (j, cell) in (file.time_by_distance ?? []).enumerated() {
            let at = "time_by_distance[\(j)]"
            guard let i = cell.up_to_km.map({ km in distanceBandsKm.firstIndex(of: km) }) ?? distanceBandsKm.count else {
                throw fail("\(at).up_to_km", "a band's bound must be one of \(distanceBandsKm.map { String($0) }.joined(separator: ", ")) km, or null for the last")
            }
            c.timeByDistance[i] = try level(cell.time_factor, "\(at).time_factor")
        }
        func band(_ b: File.Band?, _ at: String) throws(GeoFareError) -> (p10: Double, p90: Double)? {
            guard let b else { return nil }
            guard b.p10.isFinite, b.p90.isFinite, b.p10 > 0, b.p10 <= 1, b.p90 >= 1, b.p90 < 10 else {
                throw fail(at, "a band needs 0 < p10 <= 1 <= p90 < 10")
            }
            return (b.p10, b.p90)
        }
        c.durationBandCircuity = try band(file.duration_band?.circuity, "duration_band.circuity")
        c.durationBandGraph = try band(file.duration_band?.graph, "duration_band.graph")
        c.distanceBandCircuity = try band(file.distance_band?.circuity, "distance_band.circuity")
        if let f = file.fare_band {
            guard f.scale.isFinite, (0.1...5).contains(f.scale) else { throw fail("fare_band.scale", "must be within 0.1...5, got \(f.scale)") }
            c.fareBandScale = f.scale
        }
        return c
    }

    /// Reads a calibration file (`--traffic FILE`).
    /// - Throws: ``GeoFareError`` `invalid_route_data` (as ``read(_:field:)``, or when the file
    ///   cannot be read); the path is the field.
    public static func load(path: String) throws(GeoFareError) -> TrafficCalibration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw GeoFareError.invalidRouteData("cannot read the traffic profile", field: path)
        }
        return try read([UInt8](data), field: path)
    }
}
