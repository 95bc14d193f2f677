import Foundation
import GeoFareCore
import GeoFareData

/// The kind of road a stretch of a route without a graph runs on, for traffic: expressways
/// (motorways, urban expressways), arterials, local streets.
public enum RoadKind: Int, Sendable, Hashable, CaseIterable {
    case expressway = 0, arterial, local

    public var name: String { ["expressway", "arterial", "local"][rawValue] }
}

/// Where a trip runs, for traffic: a city centre, the rest of a city, a suburb or the country.
public enum TrafficArea: Int, Sendable, Hashable, CaseIterable {
    case centre = 0, city, suburb, rural

    public var name: String { ["centre", "city", "suburb", "rural"][rawValue] }
    init?(name: String) {
        guard let i = ["centre", "city", "suburb", "rural"].firstIndex(of: name) else { return nil }
        self.init(rawValue: i)
    }
}

/// A region's traffic model (`route/speed-profiles.json`): free-flow speeds by road kind, a
/// congestion factor by hour of the week, area factors (centre, city, suburb, rural), the road
/// mix of a trip by its length (for routes without a road graph), the factor that turns a road
/// graph's free-flow times into real ones, and the calibrated spreads of durations and
/// distances (the 80 % bands). Every number and its source: `Data/route/README.md`.
///
/// Without a graph, a stretch of road of kind *k* in area *a*, at local hour *h* of day type
/// *d*, is driven at `free_kmh[k] ÷ (time[a][k] × (1 + sensitivity[a][k] × (c[d][h] − 1)))`,
/// c being the congestion index. On a graph, every road takes its free-flow time (the graph's,
/// by class and `maxspeed`) × `graph_factor` × the arterial factor of its area and hour, never
/// less than its free-flow time.
public struct SpeedProfile: Sendable, Hashable {
    public let id: String
    /// Tariff-region zone ids this profile serves.
    public let regions: [String]
    public let clock: LocalClock
    /// The speed that splits a circuity route's segments into moving and slow time before the
    /// slow-time model replaces it (the `route` op's `slow_s`), km/h.
    public let cruiseKmh: Double
    /// Door-to-door free-flow speeds without a graph, km/h, by ``RoadKind``.
    public let freeKmh: [Double]
    /// The congestion index c (1 = free flow), `[day type][local hour]`, day types weekday
    /// (Mon–Fri), Saturday, Sunday.
    public let congestion: [[Double]]
    /// Free-flow time factor by ``TrafficArea`` and ``RoadKind``: `[area][kind]`.
    public let areaTime: [[Double]]
    /// How much of the congestion index a road kind feels in an area, `[area][kind]`: its
    /// time is × `1 + sensitivity·(c − 1)`.
    public let areaSensitivity: [[Double]]
    /// The areas' rules, first match wins: boxes (`[west, south, east, north]`) or zone ids.
    public let areaRules: [AreaRule]
    /// The area of a point no rule holds.
    public let defaultArea: TrafficArea
    /// Road mix by driven distance (no graph): knots of (km, expressway share, arterial share).
    public let roadMix: [(km: Double, expressway: Double, arterial: Double)]
    /// Expressway kilometres at each end of a trip driven in the end's area (beyond them, the
    /// open road: ``TrafficArea/rural``).
    public let urbanExpresswayKm: Double
    /// A graph's free-flow time × this at congestion 1 in the city area.
    public let graphFactor: Double
    /// Real duration ÷ estimated duration: (p10, p90) without a graph and on a graph.
    public let durationBandCircuity: (p10: Double, p90: Double)
    public let durationBandGraph: (p10: Double, p90: Double)
    /// Real (metered) distance ÷ a graph route's distance: (p10, p90).
    public let graphDistanceBand: (p10: Double, p90: Double)

    /// An area rule: a point inside any of `boxes` or of the zones `zones` is in `area`.
    public struct AreaRule: Sendable, Hashable {
        public let area: TrafficArea
        public let boxes: [[Double]]
        public let zones: [String]
    }

    public static func == (a: SpeedProfile, b: SpeedProfile) -> Bool { a.id == b.id && a.regions == b.regions }
    public func hash(into h: inout Hasher) { h.combine(id) }

    /// 0 weekday, 1 Saturday, 2 Sunday, for local seconds since 1970 (a Thursday).
    @inline(__always)
    public static func dayType(localSeconds: Double) -> Int {
        let day = Int((localSeconds / 86_400).rounded(.down))
        let weekday = ((day + 3) % 7 + 7) % 7  // 0 = Monday
        return weekday < 5 ? 0 : weekday - 4
    }

    /// The time factor of a road kind in an area at a day type and hour (≥ 0; 1 = free flow
    /// of the city area).
    @inline(__always)
    public func timeFactor(_ kind: RoadKind, area: TrafficArea, day: Int, hour: Int) -> Double {
        let a = area.rawValue, k = kind.rawValue
        return areaTime[a][k] * (1 + areaSensitivity[a][k] * (congestion[day][hour] - 1))
    }

    /// The time factor on a road graph's free-flow times in an area at a day type and hour (≥ 1).
    @inline(__always)
    public func graphSlowdown(area: TrafficArea, day: Int, hour: Int) -> Double {
        max(1, graphFactor * timeFactor(.arterial, area: area, day: day, hour: hour))
    }

    /// The area of a point by the profile's rules (`zones` looked up in `regions`).
    public func area(of c: Coordinate, zones: ZoneSet) -> TrafficArea {
        for rule in areaRules {
            for b in rule.boxes where c.longitude >= b[0] && c.latitude >= b[1] && c.longitude <= b[2] && c.latitude <= b[3] {
                return rule.area
            }
            for id in rule.zones {
                if let z = zones.zone(id), z.polygon.contains(c) { return rule.area }
            }
        }
        return defaultArea
    }

    /// The expressway and arterial shares of a trip's driven distance (no graph), linear in
    /// ln(km) between knots, clamped at the ends.
    public func mix(drivenMeters: Double) -> (expressway: Double, arterial: Double) {
        let km = max(drivenMeters / 1000, 1e-3)
        guard let first = roadMix.first, let last = roadMix.last else { return (0, 0.5) }
        if km <= first.km { return (first.expressway, first.arterial) }
        if km >= last.km { return (last.expressway, last.arterial) }
        var i = 0
        while roadMix[i + 1].km < km { i += 1 }
        let a = roadMix[i], b = roadMix[i + 1]
        let t = log(km / a.km) / log(b.km / a.km)
        return (a.expressway + t * (b.expressway - a.expressway), a.arterial + t * (b.arterial - a.arterial))
    }

    /// All profiles in `route/speed-profiles.json` and the id of the default one.
    /// - Throws: ``GeoFareError`` `invalid_route_data` naming the file and field.
    public static func load(from data: DataCatalog = .embedded) throws(GeoFareError) -> (profiles: [SpeedProfile], defaultID: String) {
        struct File: Decodable {
            struct Band: Decodable { let p10: Double; let p90: Double }
            struct Bands: Decodable { let circuity: Band; let graph: Band }
            struct Rule: Decodable { let area: String; let boxes: [[Double]]?; let zones: [String]? }
            struct Mix: Decodable { let km: Double; let expressway: Double; let arterial: Double }
            struct Kinds: Decodable { let expressway: Double; let arterial: Double; let local: Double }
            struct AreaFactors: Decodable { let time: Kinds; let sensitivity: Kinds }
            struct Congestion: Decodable { let weekday: [Double]; let saturday: [Double]; let sunday: [Double] }
            struct Profile: Decodable {
                let id: String; let regions: [String]; let time_zone: String; let cruise_kmh: Double
                let free_kmh: Kinds; let congestion: Congestion
                let area_factors: [String: AreaFactors]; let areas: [Rule]; let default_area: String
                let road_mix: [Mix]; let urban_expressway_km: Double; let graph_factor: Double
                let duration_band: Bands; let graph_distance_band: Band
            }
            let profiles: [Profile]
            let default_profile: String
        }
        let path = "route/speed-profiles.json"
        do {
            let file = try JSONDecoder().decode(File.self, from: try data.file(path).bytes)
            var out: [SpeedProfile] = []
            for (i, p) in file.profiles.enumerated() {
                let at = "\(path): profiles[\(i)]"
                func fail(_ field: String, _ message: String) -> GeoFareError {
                    GeoFareError(code: .invalidRouteData, message: message, field: "\(at).\(field)")
                }
                func kinds(_ k: File.Kinds, _ field: String, _ range: ClosedRange<Double>) throws(GeoFareError) -> [Double] {
                    let v = [k.expressway, k.arterial, k.local]
                    guard v.allSatisfy({ $0.isFinite && range.contains($0) }) else {
                        throw fail(field, "each road kind's value must be within \(range.lowerBound)...\(range.upperBound)")
                    }
                    return v
                }
                func band(_ b: File.Band, _ field: String) throws(GeoFareError) -> (p10: Double, p90: Double) {
                    guard b.p10.isFinite, b.p90.isFinite, b.p10 > 0, b.p10 <= 1, b.p90 >= 1, b.p90 < 10 else {
                        throw fail(field, "a band needs 0 < p10 <= 1 <= p90 < 10")
                    }
                    return (b.p10, b.p90)
                }
                guard let tz = TimeZone(identifier: p.time_zone) else { throw fail("time_zone", "unknown time zone '\(p.time_zone)'") }
                guard p.cruise_kmh.isFinite, p.cruise_kmh > 1, p.cruise_kmh < 200 else { throw fail("cruise_kmh", "cruise_kmh must be within (1, 200)") }
                let free = try kinds(p.free_kmh, "free_kmh", 2...200)
                let table = [p.congestion.weekday, p.congestion.saturday, p.congestion.sunday]
                for (d, name) in ["weekday", "saturday", "sunday"].enumerated() {
                    guard table[d].count == 24, table[d].allSatisfy({ $0.isFinite && $0 >= 0.2 && $0 <= 10 }) else {
                        throw fail("congestion.\(name)", "24 factors within 0.2...10, one per local hour")
                    }
                }
                var areaTime: [[Double]] = [], areaSensitivity: [[Double]] = []
                for a in TrafficArea.allCases {
                    guard let k = p.area_factors[a.name] else { throw fail("area_factors", "no factors for the area '\(a.name)'") }
                    areaTime.append(try kinds(k.time, "area_factors.\(a.name).time", 0.1...10))
                    areaSensitivity.append(try kinds(k.sensitivity, "area_factors.\(a.name).sensitivity", 0...5))
                }
                var rules: [AreaRule] = []
                for (j, r) in p.areas.enumerated() {
                    guard let area = TrafficArea(name: r.area) else { throw fail("areas[\(j)].area", "unknown area '\(r.area)' (centre, city, suburb, rural)") }
                    let boxes = r.boxes ?? []
                    guard boxes.allSatisfy({ $0.count == 4 && $0.allSatisfy(\.isFinite) && $0[0] < $0[2] && $0[1] < $0[3] }) else {
                        throw fail("areas[\(j)].boxes", "a box is [west, south, east, north] with west < east and south < north")
                    }
                    rules.append(AreaRule(area: area, boxes: boxes, zones: r.zones ?? []))
                }
                guard let defaultArea = TrafficArea(name: p.default_area) else { throw fail("default_area", "unknown area '\(p.default_area)'") }
                let mix = p.road_mix.map { (km: $0.km, expressway: $0.expressway, arterial: $0.arterial) }
                guard !mix.isEmpty, mix.allSatisfy({ $0.km > 0 && $0.km.isFinite && $0.expressway >= 0 && $0.arterial >= 0 && $0.expressway + $0.arterial <= 1 }),
                      zip(mix, mix.dropFirst()).allSatisfy({ $0.km < $1.km }) else {
                    throw fail("road_mix", "knots need increasing km > 0 and shares >= 0 summing to at most 1")
                }
                guard p.urban_expressway_km.isFinite, p.urban_expressway_km >= 0 else { throw fail("urban_expressway_km", "must be >= 0") }
                guard p.graph_factor.isFinite, (0.2...10).contains(p.graph_factor) else { throw fail("graph_factor", "must be within 0.2...10") }
                out.append(SpeedProfile(
                    id: p.id, regions: p.regions, clock: LocalClock(timeZone: tz), cruiseKmh: p.cruise_kmh, freeKmh: free,
                    congestion: table, areaTime: areaTime, areaSensitivity: areaSensitivity, areaRules: rules,
                    defaultArea: defaultArea, roadMix: mix, urbanExpresswayKm: p.urban_expressway_km,
                    graphFactor: p.graph_factor,
                    durationBandCircuity: try band(p.duration_band.circuity, "duration_band.circuity"),
                    durationBandGraph: try band(p.duration_band.graph, "duration_band.graph"),
                    graphDistanceBand: try band(p.graph_distance_band, "graph_distance_band")))
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
