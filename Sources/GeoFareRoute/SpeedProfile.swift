import Foundation
import GeoFareCore
import GeoFareData
import Synchronization

/// The kind of road a stretch of a route without a graph runs on, for traffic: expressways
/// (motorways, urban expressways), arterials, local streets.
public enum RoadKind: Int, Sendable, Hashable, CaseIterable {
    case expressway = 0, arterial, local
}

/// Where a trip runs, for traffic: a city centre, the rest of a city, a suburb or the country.
public enum TrafficArea: Int, Sendable, Hashable, CaseIterable {
    case centre = 0, city, suburb, rural

    public var name: String { ["centre", "city", "suburb", "rural"][rawValue] }
    /// The area of a name (`centre`, `city`, `suburb`, `rural`).
    public init?(name: String) {
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
///
/// A final class: a route passes one reference through its legs and segments instead of
/// retaining a dozen arrays at each call.
public final class SpeedProfile: Sendable, Hashable {
    public let id: String
    /// Tariff-region zone ids this profile serves.
    public let regions: [String]
    public let clock: LocalClock
    /// The speed that splits a circuity route's segments into moving and slow time before the
    /// slow-time model replaces it (the `route` op's `slow_s`), km/h.
    public let cruiseKmh: Double
    /// Door-to-door free-flow speeds without a graph, km/h, by ``RoadKind``.
    public let freeKmh: [Double]
    /// The congestion index c (1 = free flow), `[day type × 24 + local hour]`, day types
    /// weekday (Mon–Fri), Saturday, Sunday.
    public let congestion: [Double]
    /// Free-flow time factor by ``TrafficArea`` and ``RoadKind``: `[area × 3 + kind]`.
    public let areaTime: [Double]
    /// How much of the congestion index a road kind feels in an area, `[area × 3 + kind]`: its
    /// time is × `1 + sensitivity·(c − 1)`.
    public let areaSensitivity: [Double]
    /// The areas' rules, first match wins: boxes (`[west, south, east, north]`) or zone ids.
    public let areaRules: [AreaRule]
    /// The area of a point no rule holds.
    public let defaultArea: TrafficArea
    /// Road mix by driven distance (no graph): knots of (km, expressway share, arterial share).
    public let roadMix: [(km: Double, expressway: Double, arterial: Double)]
    /// ln of each road-mix knot's km.
    let mixLogKm: [Double]
    /// Seconds per metre without a graph by road kind, and a graph's slowdown, `[slot + area × 4
    /// + kind]` (kind 3: the graph slowdown), slot = ((date level × 7 + weekday) × 24 + hour) × 16
    /// (``slot(clock:local:hour:)``): the model's time factors × the level in force at that date
    /// (``dated``: in full at the weekday 8 am-6 pm mean congestion and above, none at free flow,
    /// in proportion between) × the calibrations' levels (``calibrations``), computed once. Held outside
    /// Swift arrays so that the hot path reads it without retaining anything.
    nonisolated(unsafe) private let table: UnsafeMutableBufferPointer<Double>  // written once, in init
    /// The profile's levels by date (`levels_by_date`), oldest first; empty: one level, 1.
    public let dated: [DatedLevel]
    /// Start of each dated level, seconds since 1970 (its local midnight), for ``slot(clock:local:hour:)``.
    private let datedStarts: [Double]
    /// The calibrations applied, in order (`--traffic`, and the data's own `calibration`).
    public let calibrations: [TrafficCalibration]
    /// The driven-distance factor without a graph by the origin's ``TrafficArea`` and the leg's
    /// straight-distance band, `[area × bands + band]` (the calibrations' product, each where
    /// its rides reached; 1 without one), outside Swift arrays.
    nonisolated(unsafe) private let distanceFactorTable: UnsafeMutableBufferPointer<Double>  // written once, in init
    /// Time factors by a leg's straight-distance band (``TrafficCalibration/distanceBandsKm``),
    /// the calibrations' product, outside Swift arrays (read once per leg).
    nonisolated(unsafe) private let distanceTimeFactors: UnsafeMutableBufferPointer<Double>  // written once, in init
    /// A calibration's distance band (real ÷ estimated driven distance without a graph), which
    /// replaces the circuity model's bands for this profile's trips.
    public let circuityDistanceBand: (p10: Double, p90: Double)?
    /// The calibrations' fare band scale (their product; 1 without one): every route spread of
    /// this profile is ``RouteSpread/scaled(_:)`` by it.
    public let fareBandScale: Double
    /// The zones the area rules were bound to (``bound(to:)``), and the data's duration bands
    /// before any calibration replaced them, kept for ``applying(_:)``.
    private let zones: ZoneSet
    private let baseBandCircuity: (p10: Double, p90: Double), baseBandGraph: (p10: Double, p90: Double)
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
    /// A graph route's duration band as ratios (its distance and speed bands combined) and its
    /// fare band's corners: the same for every graph route of this profile, computed once.
    let graphDurationRatios: (low: Double, high: Double)
    let graphSpread: RouteSpread

    /// An area rule: a point inside any of `boxes` or of the zones `zones` is in `area`.
    public struct AreaRule: Sendable, Hashable {
        public let area: TrafficArea
        public let boxes: [[Double]]
        public let zones: [String]
    }

    /// An area's time factor for a road kind at congestion index `c`: `time × (1 + sensitivity × (c − 1))`.
    @inline(__always)
    static func timeFactor(time: Double, sensitivity: Double, congestion c: Double) -> Double {
        time * (1 + sensitivity * (c - 1))
    }

    /// The area rules with their zones' polygons, for ``area(of:)``: set by ``bound(to:)``.
    let boundRules: [(area: TrafficArea, boxes: [(w: Double, s: Double, e: Double, n: Double)], polygons: [GeoPolygon])]

    init(id: String, regions: [String], clock: LocalClock, cruiseKmh: Double, freeKmh: [Double], congestion: [Double], areaTime: [Double],
         areaSensitivity: [Double], areaRules: [AreaRule], defaultArea: TrafficArea, roadMix: [(km: Double, expressway: Double, arterial: Double)],
         urbanExpresswayKm: Double, graphFactor: Double, durationBandCircuity: (p10: Double, p90: Double), durationBandGraph: (p10: Double, p90: Double),
         graphDistanceBand: (p10: Double, p90: Double), dated: [DatedLevel] = [], calibrations: [TrafficCalibration] = [], zones: ZoneSet = ZoneSet()) {
        self.id = id; self.regions = regions; self.clock = clock; self.cruiseKmh = cruiseKmh; self.freeKmh = freeKmh
        self.congestion = congestion; self.areaTime = areaTime; self.areaSensitivity = areaSensitivity; self.areaRules = areaRules
        self.defaultArea = defaultArea; self.roadMix = roadMix; mixLogKm = roadMix.map { log($0.km) }
        self.dated = dated; self.calibrations = calibrations; self.zones = zones
        (baseBandCircuity, baseBandGraph) = (durationBandCircuity, durationBandGraph)
        datedStarts = dated.map(\.from)
        // The calibrations' product: time levels by area and hour of the week, distance factors by area.
        let bandCount = TrafficCalibration.distanceBandsKm.count + 1
        var levels = [Double](repeating: 1, count: 4 * 168), distance = [Double](repeating: 1, count: 4 * bandCount)
        var byDistance = [Double](repeating: 1, count: bandCount)
        var bandC = durationBandCircuity, bandG = durationBandGraph, bandD: (p10: Double, p90: Double)?, fareScale = 1.0
        for c in calibrations {
            for i in levels.indices { levels[i] *= c.timeLevels[i] }
            for area in TrafficArea.allCases {
                for b in 0..<bandCount { distance[area.rawValue * bandCount + b] *= c.distanceFactor(area, band: b) }
            }
            for b in byDistance.indices { byDistance[b] *= c.timeByDistance[b] }
            if let b = c.durationBandCircuity { bandC = b }
            if let b = c.durationBandGraph { bandG = b }
            if let b = c.distanceBandCircuity { bandD = b }
            fareScale *= c.fareBandScale
        }
        distanceFactorTable = .allocate(capacity: distance.count)
        _ = distanceFactorTable.initialize(from: distance)
        distanceTimeFactors = .allocate(capacity: byDistance.count)
        _ = distanceTimeFactors.initialize(from: byDistance)
        circuityDistanceBand = bandD
        fareBandScale = fareScale
        let versions = max(1, dated.count)
        table = .allocate(capacity: versions * 168 * 16)
        // A date's level is a level of congestion: in full at the weekday daytime congestion the
        // published yearly speeds average (8 am-6 pm), none at free flow, in proportion between.
        let daytime = congestion[8..<18].reduce(0, +) / 10
        for v in 0..<versions {
            for weekday in 0..<7 {
                let day = weekday < 5 ? 0 : weekday - 4
                for hour in 0..<24 {
                    let c = congestion[day * 24 + hour]
                    let share = daytime > 1 ? min(1, max(0, (c - 1) / (daytime - 1))) : 1
                    for a in 0..<4 {
                        let dateLevel = 1 + ((dated.isEmpty ? 1 : dated[v].areaLevels[a]) - 1) * share
                        let level = dateLevel * levels[a * 168 + weekday * 24 + hour]
                        let slot = ((v * 7 + weekday) * 24 + hour) * 16 + a * 4
                        for k in 0..<3 {
                            table[slot + k] = Self.timeFactor(time: areaTime[a * 3 + k], sensitivity: areaSensitivity[a * 3 + k], congestion: c) * 3.6 / freeKmh[k] * level
                        }
                        table[slot + 3] = level * max(1, graphFactor * Self.timeFactor(time: areaTime[a * 3 + 1], sensitivity: areaSensitivity[a * 3 + 1], congestion: c))
                    }
                }
            }
        }
        self.urbanExpresswayKm = urbanExpresswayKm; self.graphFactor = graphFactor
        self.durationBandCircuity = bandC; self.durationBandGraph = bandG; self.graphDistanceBand = graphDistanceBand
        graphDurationRatios = (Route.combinedRatio(graphDistanceBand.p10, bandG.p10), Route.combinedRatio(graphDistanceBand.p90, bandG.p90))
        graphSpread = Route.spread(distance: graphDistanceBand, speed: bandG).scaled(fareScale)
        boundRules = areaRules.map { r in
            (r.area, r.boxes.map { (w: $0[0], s: $0[1], e: $0[2], n: $0[3]) }, r.zones.compactMap { zones.zone($0)?.polygon })
        }
    }

    /// This profile with its area rules' zones looked up in `zones` (a zone not there matches nothing).
    public func bound(to zones: ZoneSet) -> SpeedProfile {
        SpeedProfile(id: id, regions: regions, clock: clock, cruiseKmh: cruiseKmh, freeKmh: freeKmh, congestion: congestion, areaTime: areaTime,
                     areaSensitivity: areaSensitivity, areaRules: areaRules, defaultArea: defaultArea, roadMix: roadMix,
                     urbanExpresswayKm: urbanExpresswayKm, graphFactor: graphFactor, durationBandCircuity: baseBandCircuity,
                     durationBandGraph: baseBandGraph, graphDistanceBand: graphDistanceBand, dated: dated, calibrations: calibrations, zones: zones)
    }

    /// This profile with `calibration` applied after its own (``calibrations``): its time levels
    /// and distance factors multiply, its bands replace.
    public func applying(_ calibration: TrafficCalibration) -> SpeedProfile {
        SpeedProfile(id: id, regions: regions, clock: clock, cruiseKmh: cruiseKmh, freeKmh: freeKmh, congestion: congestion, areaTime: areaTime,
                     areaSensitivity: areaSensitivity, areaRules: areaRules, defaultArea: defaultArea, roadMix: roadMix,
                     urbanExpresswayKm: urbanExpresswayKm, graphFactor: graphFactor, durationBandCircuity: baseBandCircuity,
                     durationBandGraph: baseBandGraph, graphDistanceBand: graphDistanceBand, dated: dated, calibrations: calibrations + [calibration], zones: zones)
    }

    deinit {
        table.deallocate()
        distanceTimeFactors.deallocate()
        distanceFactorTable.deallocate()
    }

    public static func == (a: SpeedProfile, b: SpeedProfile) -> Bool {
        a === b || (a.id == b.id && a.regions == b.regions && a.calibrations.map(\.name) == b.calibrations.map(\.name))
    }
    public func hash(into h: inout Hasher) { h.combine(id) }

    /// 0 weekday, 1 Saturday, 2 Sunday, for local seconds since 1970 (a Thursday).
    @inline(__always)
    public static func dayType(localSeconds: Double) -> Int {
        let weekday = weekday(localSeconds: localSeconds)
        return weekday < 5 ? 0 : weekday - 4
    }

    /// 0 Monday ... 6 Sunday, for local seconds since 1970 (a Thursday).
    @inline(__always)
    public static func weekday(localSeconds: Double) -> Int {
        let day = Int((localSeconds / 86_400).rounded(.down))
        return ((day + 3) % 7 + 7) % 7
    }

    /// The time factor of a road kind in an area at a day type and hour (≥ 0; 1 = free flow
    /// of the city area), before any date level or calibration.
    @inline(__always)
    public func timeFactor(_ kind: RoadKind, area: TrafficArea, day: Int, hour: Int) -> Double {
        let i = area.rawValue * 3 + kind.rawValue
        return Self.timeFactor(time: areaTime[i], sensitivity: areaSensitivity[i], congestion: congestion[day * 24 + hour])
    }

    /// Where an hour of driving reads ``secondsPerMeter(_:area:slot:)`` and
    /// ``graphSlowdown(area:slot:)``: the date level in force at `clock` (seconds since 1970),
    /// the weekday of `local` (the same instant in local seconds) and the local `hour`.
    @inline(__always)
    public func slot(clock: Double, local: Double, hour: Int) -> Int {
        var v = datedStarts.count - 1
        while v > 0 && datedStarts[v] > clock { v -= 1 }
        return ((max(0, v) * 7 + Self.weekday(localSeconds: local)) * 24 + hour) * 16
    }

    /// Seconds per metre of a road kind in an area at a ``slot(clock:local:hour:)``, without a
    /// graph: the model's, × the date's level and the calibrations'.
    @inline(__always)
    public func secondsPerMeter(_ kind: RoadKind, area: TrafficArea, slot: Int) -> Double {
        table[slot + area.rawValue * 4 + kind.rawValue]
    }

    /// The time factor on a road graph's free-flow times in an area at a
    /// ``slot(clock:local:hour:)``: `max(1, graph_factor × arterial time factor)` (never faster
    /// than free flow by the model) × the date's level and the calibrations'.
    @inline(__always)
    public func graphSlowdown(area: TrafficArea, slot: Int) -> Double {
        table[slot + area.rawValue * 4 + 3]
    }

    /// The time factor of a leg of `straightMeters` (its straight-distance band's, from the
    /// calibrations; 1 without one): × every pace of the leg, with and without a graph.
    @inline(__always)
    public func legTimeFactor(straightMeters: Double) -> Double {
        distanceTimeFactors[TrafficCalibration.distanceBand(straightMeters: straightMeters)]
    }

    /// The driven-distance factor (no graph) of a leg of `straightMeters` from `area`: the
    /// calibrations' where their rides reached (1 without one).
    @inline(__always)
    public func distanceFactor(_ area: TrafficArea, straightMeters: Double) -> Double {
        distanceFactorTable[area.rawValue * (TrafficCalibration.distanceBandsKm.count + 1) + TrafficCalibration.distanceBand(straightMeters: straightMeters)]
    }

    /// The areas found so far, by grid cell of ``areaCellDegrees``: a direct-mapped table of
    /// 2¹⁶ atomic words (valid bit, cell key, area), read without a lock; two threads that
    /// resolve one cell store the same word, and a cell pushed out is resolved again.
    private let areaCache = AreaCache()
    /// The grid an area is resolved on: the area of a point is the area of its cell's centre
    /// (about 1 km; the areas' own edges are coarser), computed once per cell and remembered,
    /// so a trip's two area look-ups cost an atomic read, not a point-in-polygon search of a
    /// region's coastline. The same point always gets the same area.
    public static let areaCellDegrees = 0.01

    /// The area of a point by the profile's rules (their zones as ``bound(to:)`` found them),
    /// resolved at the centre of its ``areaCellDegrees`` cell.
    public func area(of c: Coordinate) -> TrafficArea {
        guard c.latitude.isFinite, c.longitude.isFinite else { return defaultArea }
        let row = (c.latitude / Self.areaCellDegrees).rounded(.down), column = (c.longitude / Self.areaCellDegrees).rounded(.down)
        // Rows within ±9,000 and columns within ±18,000 (a latitude is finite here; a longitude
        // beyond ±180° is folded into 24 bits, which changes nothing but the key).
        let rowBits = UInt64(truncatingIfNeeded: Int64(row) + (1 << 23)) & 0xFF_FFFF
        let columnBits = UInt64(truncatingIfNeeded: Int64(column) + (1 << 23)) & 0xFF_FFFF
        let key = (rowBits << 24) | columnBits
        if let known = areaCache.area(key) { return known }
        let centre = Coordinate(uncheckedLatitude: (row + 0.5) * Self.areaCellDegrees, longitude: (column + 0.5) * Self.areaCellDegrees)
        let area = ruleArea(of: centre)
        areaCache.store(area, key)
        return area
    }

    /// The area of a point by the rules themselves (no grid).
    func ruleArea(of c: Coordinate) -> TrafficArea {
        // By index: `for x in array` would copy (retain) every rule and polygon it looks at.
        for r in boundRules.indices {
            for j in boundRules[r].boxes.indices {
                let b = boundRules[r].boxes[j]
                if c.longitude >= b.w && c.latitude >= b.s && c.longitude <= b.e && c.latitude <= b.n { return boundRules[r].area }
            }
            for j in boundRules[r].polygons.indices where boundRules[r].polygons[j].contains(c) { return boundRules[r].area }
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
        let t = (log(km) - mixLogKm[i]) / (mixLogKm[i + 1] - mixLogKm[i])
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
                let levels_by_date: [Level]?
                let calibration: String?
            }
            struct Level: Decodable { let from: String; let time: [String: Double]?; let time_from: String? }
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
                    GeoFareError.invalidRouteData(message, field: "\(at).\(field)")
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
                var areaTime: [Double] = [], areaSensitivity: [Double] = []
                for a in TrafficArea.allCases {
                    guard let k = p.area_factors[a.name] else { throw fail("area_factors", "no factors for the area '\(a.name)'") }
                    areaTime += try kinds(k.time, "area_factors.\(a.name).time", 0.1...10)
                    areaSensitivity += try kinds(k.sensitivity, "area_factors.\(a.name).sensitivity", 0...5)
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
                var dated: [DatedLevel] = []
                for (j, level) in (p.levels_by_date ?? []).enumerated() {
                    let at = "levels_by_date[\(j)]"
                    guard let start = ISO8601.parse(level.from + "T00:00:00Z")?.timeIntervalSince1970 else {
                        throw fail("\(at).from", "a date YYYY-MM-DD, got '\(level.from)'")
                    }
                    let from = start - Double(tz.secondsFromGMT(for: Date(timeIntervalSince1970: start)))
                    guard dated.last.map({ $0.from < from }) ?? true else { throw fail("\(at).from", "dates must increase") }
                    var levels = [1.0, 1, 1, 1]
                    if let file = level.time_from {
                        // A calibration on rides of the period: its areas' levels.
                        let c = try TrafficCalibration.read([UInt8](try data.file(file).bytes), field: file)
                        guard c.profile == p.id else { throw fail("\(at).time_from", "'\(file)' calibrates '\(c.profile)', not '\(p.id)'") }
                        levels = c.areaLevels
                    }
                    for (name, v) in level.time ?? [:] {
                        guard let a = TrafficArea(name: name) else { throw fail("\(at).time", "unknown area '\(name)' (centre, city, suburb, rural)") }
                        guard v.isFinite, (0.2...5).contains(v) else { throw fail("\(at).time.\(name)", "a time level must be within 0.2...5") }
                        levels[a.rawValue] = v
                    }
                    dated.append(DatedLevel(from: from, date: level.from, areaLevels: levels))
                }
                var calibrations: [TrafficCalibration] = []
                if let file = p.calibration {
                    let c = try TrafficCalibration.read([UInt8](try data.file(file).bytes), field: file)
                    guard c.profile == p.id else { throw fail("calibration", "'\(file)' calibrates '\(c.profile)', not '\(p.id)'") }
                    calibrations.append(c)
                }
                out.append(SpeedProfile(
                    id: p.id, regions: p.regions, clock: LocalClock(timeZone: tz), cruiseKmh: p.cruise_kmh, freeKmh: free,
                    congestion: table.flatMap { $0 }, areaTime: areaTime, areaSensitivity: areaSensitivity, areaRules: rules,
                    defaultArea: defaultArea, roadMix: mix, urbanExpresswayKm: p.urban_expressway_km,
                    graphFactor: p.graph_factor,
                    durationBandCircuity: try band(p.duration_band.circuity, "duration_band.circuity"),
                    durationBandGraph: try band(p.duration_band.graph, "duration_band.graph"),
                    graphDistanceBand: try band(p.graph_distance_band, "graph_distance_band"), dated: dated, calibrations: calibrations))
            }
            guard out.contains(where: { $0.id == file.default_profile }) else {
                throw GeoFareError.invalidRouteData("default_profile '\(file.default_profile)' is not defined", field: "\(path): default_profile")
            }
            return (out, file.default_profile)
        } catch let error as GeoFareError {
            throw error
        } catch {
            throw GeoFareError.invalidRouteData(describing: error, field: path)
        }
    }
}

/// A direct-mapped cache of cell areas: 2¹⁶ atomic words `1 << 63 | key << 8 | area`.
final class AreaCache: Sendable {
    private static let slotCount = 1 << 16
    nonisolated(unsafe) private let slots: UnsafeMutablePointer<Atomic<UInt64>>  // each word atomic; the buffer fixed

    init() {
        slots = .allocate(capacity: Self.slotCount)
        for i in 0..<Self.slotCount { (slots + i).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: Self.slotCount)
        slots.deallocate()
    }

    @inline(__always)
    private static func slot(_ key: UInt64) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 48) }

    /// The area stored for a 48-bit cell key, if its slot holds that key.
    @inline(__always)
    func area(_ key: UInt64) -> TrafficArea? {
        let word = (slots + Self.slot(key)).pointee.load(ordering: .relaxed)
        guard word >> 63 == 1, (word >> 8) & 0xFFFF_FFFF_FFFF == key else { return nil }
        return TrafficArea(rawValue: Int(word & 0xFF))
    }

    @inline(__always)
    func store(_ area: TrafficArea, _ key: UInt64) {
        (slots + Self.slot(key)).pointee.store(1 << 63 | key << 8 | UInt64(area.rawValue), ordering: .relaxed)
    }
}

