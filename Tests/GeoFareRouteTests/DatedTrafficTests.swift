import Foundation
import Testing
import GeoFareCore
import GeoFareData
@testable import GeoFareRoute

/// Traffic with dates and calibrations (issue 42): a profile's `levels_by_date` move its times by
/// the date of the trip, a calibration's levels, trip-length factors and distance factors apply
/// where its rides reached, and broken files are refused naming the field.
struct DatedTrafficTests {
    static let estimator = TrafficTests.everywhere
    static let midtownA = Coordinate(uncheckedLatitude: 40.7484, longitude: -73.9857)  // Empire State Building
    static let midtownB = Coordinate(uncheckedLatitude: 40.7527, longitude: -73.9772)  // Grand Central

    static func seconds(_ iso: String, from a: Coordinate = midtownA, to b: Coordinate = midtownB) throws -> Double {
        try estimator.estimate(RouteRequest(origin: a, destination: b, departure: try #require(ISO8601.parse(iso)))).durationSeconds
    }

    @Test("A Midtown trip on a Friday at 08:30 in 2013, 2016 and 2024: times × the level in force (2013 from the shared rides' calibration), in full at daytime congestion, none at free flow")
    func nycByDate() throws {
        let nyc = try #require(Self.estimator.profiles.first { $0.id == "us-nyc" })
        // The share of a date's level at 08:00 on a weekday: its congestion against the 8 am-6 pm mean.
        let daytime = nyc.congestion[8..<18].reduce(0, +) / 10
        let share = min(1, (nyc.congestion[8] - 1) / (daytime - 1))
        let level = { (l: Double) in 1 + (l - 1) * share }
        let t2013 = try Self.seconds("2013-03-01T08:30:00-05:00"), t2016 = try Self.seconds("2016-03-04T08:30:00-05:00")
        let t2024 = try Self.seconds("2024-03-01T08:30:00-05:00")
        // The 2012-2014 level is the calibration file's own centre level, not a copy of it.
        let file = try JSONSerialization.jsonObject(with: try DataCatalog.embedded.file("route/traffic/us-nyc-2013-03-01-0800.json").bytes) as! [String: Any]
        let centre = try #require(((file["areas"] as? [String: Any])?["centre"] as? [String: Any])?["time_level"] as? Double)
        let level2013 = try #require(nyc.dated.first { $0.date == "2012-01-01" }).areaLevels[TrafficArea.centre.rawValue]
        #expect(level2013 == centre && centre < 0.8)
        #expect(share > 0.5 && share < 1)
        #expect(abs(t2013 / t2016 - level(centre)) < 1e-9, "\(t2013) / \(t2016)")
        #expect(abs(t2024 / t2016 - level(1.115)) < 1e-9, "\(t2024) / \(t2016)")
        // Before the first level's date, the first level holds.
        #expect(abs(try Self.seconds("2005-03-04T08:30:00-05:00") / t2016 - level(0.836)) < 1e-9)
        // At 4 am, near free flow, a year changes little.
        let night = try Self.seconds("2013-03-01T04:10:00-05:00") / (try Self.seconds("2016-03-04T04:10:00-05:00"))
        #expect(night > 0.95 && night <= 1, "\(night)")
    }

    @Test("A calibration applies its levels, trip-length and distance factors (only where its rides reached), and its bands")
    func applying() throws {
        let base = try #require(Self.estimator.profiles.first { $0.id == "us-nyc" })
        var c = TrafficCalibration(profile: "us-nyc", name: "test")
        c.timeLevels = c.timeLevels.indices.map { $0 / 168 == TrafficArea.centre.rawValue ? 0.5 : 1 }
        c.distanceFactors[TrafficArea.centre.rawValue] = 0.8
        c.distanceLimitsMeters[TrafficArea.centre.rawValue] = 5_000
        c.timeByDistance[TrafficCalibration.distanceBand(straightMeters: 800)] = 1.3
        c.fareBandScale = 0.5
        let p = base.applying(c)
        let slot = p.slot(clock: 0, local: 0, hour: 9)
        #expect(p.secondsPerMeter(.arterial, area: .centre, slot: slot) == 0.5 * base.secondsPerMeter(.arterial, area: .centre, slot: slot))
        #expect(p.secondsPerMeter(.arterial, area: .city, slot: slot) == base.secondsPerMeter(.arterial, area: .city, slot: slot))
        #expect(p.graphSlowdown(area: .centre, slot: slot) == 0.5 * base.graphSlowdown(area: .centre, slot: slot))
        #expect(p.distanceFactor(.centre, straightMeters: 4_000) == 0.8 && p.distanceFactor(.centre, straightMeters: 9_000) == 1)
        #expect(p.distanceFactor(.city, straightMeters: 4_000) == 1)
        #expect(p.legTimeFactor(straightMeters: 800) == 1.3 && p.legTimeFactor(straightMeters: 3_000) == 1)
        #expect(p.fareBandScale == 0.5 && p.calibrations.map(\.name) == ["test"])
        // Two calibrations multiply.
        #expect(p.applying(c).secondsPerMeter(.local, area: .centre, slot: slot) == 0.25 * base.secondsPerMeter(.local, area: .centre, slot: slot))
    }

    @Test("A broken calibration file is refused naming the file and the JSON path")
    func broken() throws {
        let cases: [(json: String, field: String)] = [
            (#"{"schema":"geofare.traffic/9","profile":"us-nyc","name":"x","areas":{}}"#, "f.json: schema"),
            (#"{"schema":"geofare.traffic/calibration-1","profile":"us-nyc","name":"x","areas":{"downtown":{"rides":1,"time_level":1}}}"#, "f.json: areas.downtown"),
            (#"{"schema":"geofare.traffic/calibration-1","profile":"us-nyc","name":"x","areas":{"city":{"rides":1,"time_level":0}}}"#, "f.json: areas.city.time_level"),
            (#"{"schema":"geofare.traffic/calibration-1","profile":"us-nyc","name":"x","areas":{"city":{"rides":1,"time_level":1,"hours":{"fri 25":{"rides":1,"time_level":1}}}}}"#, "f.json: areas.city.hours"),
            (#"{"schema":"geofare.traffic/calibration-1","profile":"us-nyc","name":"x","areas":{},"time_by_distance":[{"up_to_km":7,"rides":1,"time_factor":1}]}"#, "f.json: time_by_distance[0].up_to_km"),
            (#"{"schema":"geofare.traffic/calibration-1","profile":"us-nyc","name":"x","areas":{},"duration_band":{"circuity":{"p10":1.2,"p90":1.5}}}"#, "f.json: duration_band.circuity"),
            (#"{"schema":"geofare.traffic/calibration-1","profile":"us-nyc","name":"x","areas":{},"fare_band":{"rides":1,"scale":-1}}"#, "f.json: fare_band.scale"),
            (#"{"schema":"geofare.traffic/calibration-1","profile":"us-nyc""#, "f.json"),
        ]
        for c in cases {
            #expect(throws: GeoFareError.self) { try TrafficCalibration.read(Array(c.json.utf8), field: "f.json") }
            do { _ = try TrafficCalibration.read(Array(c.json.utf8), field: "f.json") } catch {
                #expect(error.code == .invalidRouteData && (error.field ?? "").hasPrefix(c.field), "\(c.json): \(error)")
            }
        }
        #expect(throws: GeoFareError.self) { try CircuityRouteEstimator(traffic: [TrafficCalibration(profile: "xx-nowhere", name: "x")]) }
    }
}
