import Foundation
import Testing
import GeoFareCore
import GeoFareData
import GeoFareTestSupport
@testable import GeoFareRoute

/// The traffic model (`Data/route/speed-profiles.json`): speeds by road kind, area and hour of
/// the week, long trips at expressway speed, the duration band, and the NYC fit held out.
struct TrafficTests {
    /// An estimator that knows Korea's regions and NYC (the profiles' regions).
    static let everywhere: CircuityRouteEstimator = {
        do {
            var zones = ZoneSet()
            for f in ["kr-regions", "us-nyc", "kr-tariff-groups"] {
                try zones.load(geoJSON: try DataCatalog.embedded.file("zones/\(f).geojson").bytes, origin: f)
            }
            return try CircuityRouteEstimator(regions: zones)
        } catch { fatalError("route data does not load: \(error)") }
    }()

    static let incheonT1 = c(37.4492, 126.4505)
    static let seongnam = c(37.4200, 127.1267)
    static let busan = c(35.1796, 129.0756)
    static let timesSquare = c(40.7580, -73.9855)
    static let grandCentral = c(40.7527, -73.9772)
    static let flushing = c(40.7590, -73.8300)
    static let jamaica = c(40.7020, -73.8000)

    func route(_ a: Coordinate, _ b: Coordinate, _ when: String) throws -> Route {
        try Self.everywhere.estimate(RouteRequest(origin: a, destination: b, departure: time(when)))
    }

    /// Long trips run at expressway speed: Seoul City Hall to Incheon Airport T1 on a weekday
    /// afternoon in 45-80 min, Seongnam to Busan in 3.5-6 h with its open-road hours above 80 km/h.
    @Test("Long trips run at expressway speed: City Hall to Incheon Airport in 45-80 min, Seongnam to Busan in 3.5-6 h")
    func longTrips() throws {
        let airport = try route(seoulCityHall, Self.incheonT1, "2026-11-25T15:00:00+09:00")
        #expect(airport.durationSeconds > 45 * 60 && airport.durationSeconds < 80 * 60, "\(airport.durationSeconds / 60) min")
        #expect(airport.distanceMeters / airport.durationSeconds * 3.6 > 40)
        let busan = try route(Self.seongnam, Self.busan, "2026-11-25T10:00:00+09:00")
        #expect(busan.durationSeconds > 3.5 * 3600 && busan.durationSeconds < 6 * 3600, "\(busan.durationSeconds / 3600) h")
        #expect(busan.distanceMeters / busan.durationSeconds * 3.6 > 65)
        // Segments are one per local hour: the hours on the open road run above 80 km/h.
        #expect(busan.segments.contains { $0.distanceMeters / $0.durationSeconds * 3.6 > 80 })
        // A 3 km city trip has no expressway: every segment below 40 km/h on a weekday afternoon.
        let short = try route(seoulCityHall, c(37.5547, 126.9707), "2026-11-25T14:00:00+09:00")
        #expect(short.segments.allSatisfy { $0.distanceMeters / $0.durationSeconds * 3.6 < 40 })
    }

    @Test("A trip in New York takes NYC's profile and New York's hours (it took Korea's before), and rush hour is slower than 3 am")
    func newYork() throws {
        let rush = try route(Self.timesSquare, Self.grandCentral, "2016-03-09T09:00:00-05:00")
        let night = try route(Self.timesSquare, Self.grandCentral, "2016-03-09T03:00:00-05:00")
        #expect(rush.profile == "us-nyc" && night.profile == "us-nyc")
        #expect(rush.durationSeconds > 1.6 * night.durationSeconds)
    }

    @Test("Areas and days: Midtown is slower than Queens at 9 am on a weekday, and a Sunday afternoon in Seoul is faster than a Wednesday one")
    func areasAndDays() throws {
        let midtown = try route(Self.timesSquare, c(40.7420, -73.9890), "2016-03-09T09:00:00-05:00")
        let queens = try route(Self.flushing, c(40.7450, -73.8300), "2016-03-09T09:00:00-05:00")
        #expect(midtown.distanceMeters / midtown.durationSeconds < 0.8 * queens.distanceMeters / queens.durationSeconds)
        let wednesday = try route(seoulCityHall, gangnam, "2026-11-25T15:00:00+09:00")
        let sunday = try route(seoulCityHall, gangnam, "2026-11-29T15:00:00+09:00")
        #expect(sunday.durationSeconds < 0.95 * wednesday.durationSeconds)
        #expect(SpeedProfile.dayType(localSeconds: 0) == 0)            // 1970-01-01 was a Thursday
        #expect(SpeedProfile.dayType(localSeconds: 2 * 86_400) == 1)   // Saturday
        #expect(SpeedProfile.dayType(localSeconds: 3 * 86_400 + 86_399) == 2)
        #expect(SpeedProfile.dayType(localSeconds: -86_400) == 0)      // Wednesday 1969-12-31
    }

    @Test("The duration band holds the duration and combines the distance band with the speed band in quadrature; stops add their legs' bands")
    func durationBand() throws {
        let r = try route(seoulCityHall, gangnam, "2026-11-25T15:00:00+09:00")
        let low = try #require(r.durationLowSeconds), high = try #require(r.durationHighSeconds)
        #expect(low < r.durationSeconds && r.durationSeconds < high)
        let profile = Self.everywhere.defaultProfile
        let leg = try #require(r.legs.first)
        let expected = r.durationSeconds * Route.combinedRatio(leg.distanceLowMeters / leg.distanceMeters, profile.durationBandCircuity.p10)
        #expect(abs(low - expected) < 1e-6 * expected)
        #expect(Route.combinedRatio(0.8, 1) == 0.8 && abs(Route.combinedRatio(1.25, 1.25) - exp(log(1.25) * 2.0.squareRoot())) < 1e-12)
        let via = try Self.everywhere.estimate(RouteRequest(origin: seoulCityHall, via: [gangnam], destination: suwon, departure: time("2026-11-25T15:00:00+09:00")))
        #expect(try #require(via.durationHighSeconds) > via.durationSeconds)
    }

    @Test("A broken traffic file is invalid_route_data naming the file and the field")
    func brokenFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-traffic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("route"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let original = try JSONSerialization.jsonObject(with: try DataCatalog.embedded.file("route/speed-profiles.json").bytes) as! [String: Any]
        func broken(_ edit: (inout [String: Any]) -> Void) throws -> GeoFareError? {
            var file = original
            var profiles = file["profiles"] as! [[String: Any]]
            edit(&profiles[0])
            file["profiles"] = profiles
            try JSONSerialization.data(withJSONObject: file).write(to: dir.appendingPathComponent("route/speed-profiles.json"))
            do { _ = try SpeedProfile.load(from: DataCatalog(overrideDirectory: dir)); return nil } catch { return error }
        }
        let short = try broken { p in
            var c = p["congestion"] as! [String: Any]; c["weekday"] = Array(repeating: 1.0, count: 23); p["congestion"] = c
        }
        #expect(short?.code == .invalidRouteData && short?.field?.hasSuffix("profiles[0].congestion.weekday") == true, "\(String(describing: short))")
        let area = try broken { p in p["default_area"] = "downtown" }
        #expect(area?.code == .invalidRouteData && area?.field?.hasSuffix("profiles[0].default_area") == true)
        let mix = try broken { p in p["road_mix"] = [["km": 5, "expressway": 0.7, "arterial": 0.5]] }
        #expect(mix?.code == .invalidRouteData && mix?.field?.hasSuffix("profiles[0].road_mix") == true)
        let band = try broken { p in p["graph_distance_band"] = ["p10": 1.2, "p90": 1.1] }
        #expect(band?.code == .invalidRouteData && band?.field?.hasSuffix("profiles[0].graph_distance_band") == true)
        let speed = try broken { p in
            var f = p["free_kmh"] as! [String: Any]; f["local"] = -5; p["free_kmh"] = f
        }
        #expect(speed?.code == .invalidRouteData && speed?.field?.hasSuffix("profiles[0].free_kmh") == true)
    }

    /// The NYC TLC trips of March 2019 (the fit used January 2016 only), each driven over its
    /// metered distance by the Swift model in its area (yellow: Manhattan, green: the outer
    /// boroughs) from its pickup time, exactly as a route without a graph drives a leg.
    ///
    /// Held out (NYC, March 2019): durations from the metered distance within 30 % at the median,
    /// signed median within ±10 %, the duration band holding 70-90 % of trips.
    @Test("Held out (NYC, March 2019): durations within 30 % at the median, signed median within ±10 %, band holds 70-90 %",
          .enabled(if: SharedData.runs("nyc/nyc_trips_validation.csv"), "needs ../shared/data/nyc beside the checkout"))
    func heldOutNewYork() throws {
        let text = try String(contentsOf: SharedData.url("nyc/nyc_trips_validation.csv"), encoding: .utf8)
        let nyc = try #require(Self.everywhere.profiles.first { $0.id == "us-nyc" })
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        formatter.timeZone = TimeZone(identifier: "America/New_York")
        formatter.locale = Locale(identifier: "en_US_POSIX")
        var errors: [Double] = [], inside = 0
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f[0].hasPrefix("2019"), let pickup = formatter.date(from: f[1]), let real = Double(f[3]), let miles = Double(f[4]) else { continue }
            let meters = miles * 1609.344
            let area: TrafficArea = f[0].contains("yellow") ? .city : .suburb
            let plan = CircuityRouteEstimator.Plan(drivenMeters: meters, from: area, to: area, profile: nyc)
            var clock = pickup.timeIntervalSince1970
            var segments: [TripSegment] = []
            Self.everywhere.drive(plan, from: 0, to: meters, outside: false, profile: nyc, clock: &clock, into: &segments)
            let duration = segments.reduce(0) { $0 + $1.durationSeconds }
            errors.append(duration / real - 1)
            if duration * nyc.durationBandCircuity.p10 <= real && real <= duration * nyc.durationBandCircuity.p90 { inside += 1 }
        }
        #expect(errors.count > 6_000)
        let absolute = HoldoutTests.quantile(errors.map(abs), 0.5), signed = HoldoutTests.quantile(errors, 0.5)
        let coverage = Double(inside) / Double(errors.count)
        print("NYC 2019 held out: \(errors.count) trips, median |error| \(absolute), signed \(signed), band \(coverage)")
        #expect(absolute <= 0.30 && abs(signed) <= 0.10 && coverage >= 0.70 && coverage <= 0.90)
    }
}
