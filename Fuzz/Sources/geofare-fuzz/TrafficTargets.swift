import Foundation
import GeoFareCalibration
import GeoFareCore
import GeoFareFare
import GeoFareRoute

/// `traffic`: the input is a `--traffic` file (`geofare calibrate`'s JSON), read by
/// ``TrafficCalibration/read(_:field:)``; a file that reads is applied to the default speed
/// profile and routes a city trip and a long one: durations finite and positive, bands ordered.
enum TrafficTarget {
    static let target = FuzzTarget(name: "traffic", summary: "traffic calibration file through validation, a profile, and two routes", run: run)

    static func run(_ input: UnsafeRawBufferPointer) {
        var calibration: TrafficCalibration
        do { calibration = try TrafficCalibration.read(Array(input), field: "fuzz.json") } catch {
            check(error.code == .invalidRouteData, "a traffic file failed with \(error.code), not invalid_route_data: \(error.message)")
            return
        }
        calibration.profile = "kr-cities"
        guard let estimator = try? CircuityRouteEstimator(traffic: [calibration]) else {
            check(false, "a calibration that reads did not apply")
            return
        }
        for (a, b) in [((37.5665, 126.9780), (37.4979, 127.0276)), ((37.42, 127.1267), (35.1796, 129.0756))] {
            let request = RouteRequest(origin: Coordinate(uncheckedLatitude: a.0, longitude: a.1), destination: Coordinate(uncheckedLatitude: b.0, longitude: b.1),
                                       departure: Date(timeIntervalSince1970: 1_715_779_800))
            guard let r = try? estimator.estimate(request) else { check(false, "a calibrated route failed"); return }
            check(r.durationSeconds.isFinite && r.durationSeconds > 0 && r.distanceMeters > 0, "route \(r.distanceMeters) m, \(r.durationSeconds) s")
            check((r.durationLowSeconds ?? 0) <= r.durationSeconds && r.durationSeconds <= (r.durationHighSeconds ?? .infinity), "duration band out of order")
        }
    }
}

/// `rides-csv`: the input is `geofare calibrate`'s rides file, read by ``CompletedRidesCSV``:
/// every data row is a ride or counted once as skipped, and every ride is usable (finite, in
/// order, apart).
enum RidesCSVTarget {
    static let target = FuzzTarget(name: "rides-csv", summary: "completed rides CSV: rows read or skipped by reason, never lost", run: run)

    static func run(_ input: UnsafeRawBufferPointer) {
        let result: CompletedRidesCSV.Result
        do { result = try CompletedRidesCSV.read(Data(input)) } catch {
            check([.emptyInput, .missingColumn, .csvUnterminatedQuote].contains(error.code), "rides CSV failed with \(error.code): \(error.message)")
            return
        }
        let skipped = result.skipped.values.reduce(0) { $0 + $1.count }
        check(result.rides.count + skipped == result.rows, "\(result.rides.count) rides + \(skipped) skipped != \(result.rows) rows")
        for r in result.rides {
            check(r.durationSeconds >= 60 && r.durationSeconds <= 6 * 3600, "a ride of \(r.durationSeconds) s was kept")
            check(r.distanceMeters.map { $0.isFinite && $0 > 0 } ?? true && (r.fare ?? 1) > 0, "a ride with a bad distance or fare was kept")
        }
    }
}
