import ArgumentParser
import Foundation
import GeoFareCalibration
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFareRoute

/// `geofare calibrate`: fits a traffic profile on completed rides (docs/calibrate.md).
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Fit a traffic profile (speeds by area and hour of the week, distances, bands) on completed rides.",
        discussion: """
        Columns: pickup_at,dropoff_at,origin_lat,origin_lon,dest_lat,dest_lon, optional distance_m
        (metres) and fare (minor units); times ISO 8601 with their offset; rename with --map. Each
        ride is routed as GeoFare routes it (with --graph, --traffic and --data as given), and the
        profile of most rides is fitted: time levels by area and hour of the week, distance factors
        by area (no graph), duration and distance bands, each shrunk towards the default where rides
        are few. The earliest 80 % of the rides (by pickup) are fitted and the latest 20 % scored,
        before and after; the file written is then fitted on every ride. Bad rows are skipped and
        counted by reason. Use the file with --traffic on worker, fare, route, matrix, fare-csv and
        pool (docs/calibrate.md). Exit 65 when fewer than 30 rides are usable.
        """
    )

    @Argument(help: "Completed rides, CSV.") var input: String
    @Option(name: .shortAndLong, help: ArgumentHelp("The traffic profile to write (JSON, schema geofare.traffic/calibration-1).", valueName: "file")) var output: String
    @Option(help: ArgumentHelp("Rename a column: logical=header (repeatable), e.g. pickup_at=tpep_pickup_datetime.", valueName: "col=header")) var map: [String] = []
    @Option(help: "A name for the profile (default: the input file's name).") var name: String?
    @Flag(help: "No progress on stderr.") var quiet = false
    @OptionGroup var data: DataOptions

    static let minimumRides = 30

    func run() throws {
        let columnMap = try parseColumnMap(map)
        guard let bytes = FileManager.default.contents(atPath: input) else {
            Diagnostics.print("geofare: cannot read '\(input)'")
            throw GeoFareExit.noInput
        }
        var read: CompletedRidesCSV.Result
        do { read = try CompletedRidesCSV.read(bytes, map: columnMap) } catch {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw GeoFareExit.dataError
        }
        let pricer = try data.pricer()
        var base: [TrafficCalibration] = []
        for path in data.traffic { base.append(try TrafficCalibration.load(path: path)) }
        let log = { (text: String) in if !quiet { Diagnostics.print(text) } }
        log("calibrate: \(read.rows) rows, \(read.rides.count) usable rides; routing them")
        let observed = TrafficCalibrator.observe(read.rides, pricer: pricer) { log("calibrate: routed \($0) of \(read.rides.count) rides") }
        // The profile of most rides is the one fitted; rides of another are counted as skipped.
        var byProfile: [String: Int] = [:]
        for case let o? in observed { byProfile[o.profile, default: 0] += 1 }
        guard let profileID = byProfile.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) })?.key,
              let profile = try? estimatorProfile(pricer, id: profileID) else {
            return try tooFew(0, read)
        }
        var rides: [CompletedRide] = [], observations: [TrafficCalibrator.Observation] = []
        for (ride, o) in zip(read.rides, observed) {
            guard var o else { read.skip(.noRoute, line: ride.line); continue }
            guard o.profile == profileID else { read.skip(.otherProfile, line: ride.line); continue }
            o.ride = rides.count
            rides.append(ride)
            observations.append(o)
        }
        guard rides.count >= Self.minimumRides else { return try tooFew(rides.count, read) }
        // Held out by time: the latest 20 % of pickups.
        let order = rides.indices.sorted { rides[$0].pickup < rides[$1].pickup }
        let cut = order.count - max(1, order.count / 5)
        let fitPart = Set(order[..<cut])
        let heldRides = order[cut...].map { rides[$0] }
        var first = TrafficCalibrator.fit(observations.filter { fitPart.contains($0.ride) }, profile: profile, name: "held-out fit")
        first.fare_band = try fareBand(first, order[..<cut].map { rides[$0] }, pricer: pricer, base: base)
        let calibrated = try pricer.with(calibrations: base + [try decoded(first)], data: data.catalog, graphs: data.graphs)
        let before = TrafficCalibrator.accuracy(heldRides, pricer: pricer), after = TrafficCalibrator.accuracy(heldRides, pricer: calibrated)

        let name = self.name ?? URL(fileURLWithPath: input).deletingPathExtension().lastPathComponent
        var file = TrafficCalibrator.fit(observations, profile: profile, name: name)
        file.fare_band = try fareBand(file, rides, pricer: pricer, base: base)
        let when = { (d: Date) in ISO8601.string(epochSeconds: d.timeIntervalSince1970, offsetSeconds: 0) }
        let period = "\(when(rides[order.first!].pickup)) to \(when(rides[order.last!].pickup))"
        file.about = "Fitted by `geofare calibrate` on \(rides.count) completed rides (\(period)) for the speed profile \(profile.id)"
            + (data.graphs.isEmpty ? ", routed without a graph" : ", routed on \(data.graphs.joined(separator: ", ")) where a graph holds the ride")
            + (base.isEmpty ? "" : ", on top of \(base.map(\.name).joined(separator: ", "))")
            + ". Levels multiply the profile's times (1 = unchanged); hours not listed take their area's level."
        file.fitted = ["input": URL(fileURLWithPath: input).lastPathComponent, "rows": String(read.rows), "rides": String(rides.count),
                       "period": period, "skipped": skippedText(read)]
        file.held_out = ["rides": String(heldRides.count), "split": "fitted on the earliest \(cut) pickups, scored on the latest \(heldRides.count)",
                         "before": text(before), "after": text(after)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do { try encoder.encode(file).write(to: URL(fileURLWithPath: output)) } catch {
            Diagnostics.print("geofare: cannot write '\(output)': \(error.localizedDescription)")
            throw ExitCode(73)  // EX_CANTCREAT
        }
        print("geofare calibrate: \(rides.count) rides of \(read.rows) rows for \(profile.id) (\(period)); skipped: \(skippedText(read))")
        for (areaName, a) in file.areas.sorted(by: { $0.key < $1.key }) {
            var line = "  \(areaName): \(a.rides) rides, time level \(a.time_level)"
            if let f = a.distance_factor { line += ", distance factor \(f) (\(a.distance_rides ?? 0) rides)" }
            if let h = a.hours { line += ", \(h.count) hours of the week with their own level" }
            print(line)
        }
        if let b = file.duration_band?.circuity { print("  speed band without a graph: p10 \(b.p10), p90 \(b.p90)") }
        if let b = file.duration_band?.graph { print("  speed band on a graph: p10 \(b.p10), p90 \(b.p90)") }
        if let b = file.distance_band?.circuity { print("  distance band without a graph: p10 \(b.p10), p90 \(b.p90)") }
        if let t = file.time_by_distance {
            print("  time by straight distance: " + t.map { "\($0.up_to_km.map { "≤ \($0) km" } ?? "longer") \($0.time_factor) (\($0.rides))" }.joined(separator: ", "))
        }
        if let f = file.fare_band { print("  fare band scale \(f.scale) (80 % of \(f.rides) rides' fares inside)") }
        print("held out (\(file.held_out!["split"]!)):")
        print("  before: \(text(before))")
        print("  after:  \(text(after))")
        print("wrote \(output): use it with --traffic \(output)")
    }

    /// The speed profile `id` as the pricer's estimator holds it.
    func estimatorProfile(_ pricer: TripPricer, id: String) throws -> SpeedProfile {
        guard let p = pricer.circuityEstimator?.profiles.first(where: { $0.id == id }) else { throw GeoFareExit.dataError }
        return p
    }

    /// The fare band's scale for a fitted file, on `rides` with fares (``TrafficCalibrator/fareBand(_:options:pricer:)``).
    func fareBand(_ file: TrafficCalibration.File, _ rides: [CompletedRide], pricer: TripPricer, base: [TrafficCalibration]) throws -> TrafficCalibration.File.FareBand? {
        var calibration = try decoded(file)
        return try TrafficCalibrator.fareBand(rides) { scale in
            calibration.fareBandScale = scale
            return try pricer.with(calibrations: base + [calibration], data: data.catalog, graphs: data.graphs)
        }
    }

    /// The calibration a file would load as (what `--traffic` applies).
    func decoded(_ file: TrafficCalibration.File) throws -> TrafficCalibration {
        try TrafficCalibration.read([UInt8](try JSONEncoder().encode(file)), field: "calibration")
    }

    func tooFew(_ n: Int, _ read: CompletedRidesCSV.Result) throws {
        Diagnostics.print("geofare: skipped: \(skippedText(read))")
        let error = GeoFareError.tooFewRides(n, need: Self.minimumRides)
        Diagnostics.print("geofare: \(error.description) [\(error.code)]")
        throw GeoFareExit.dataError
    }

    func skippedText(_ read: CompletedRidesCSV.Result) -> String {
        read.skipped.isEmpty ? "none"
            : read.skipped.sorted { $0.key < $1.key }.map { "\($0.value.count) \($0.key.rawValue) (first at line \($0.value.firstLine))" }.joined(separator: ", ")
    }

    func text(_ a: TrafficCalibrator.Accuracy) -> String {
        func pct(_ x: Double) -> String { String(format: "%.1f %%", x * 100) }
        func signed(_ x: Double) -> String { String(format: "%+.1f %%", x * 100) }
        var t = "\(a.rides) rides: duration median |error| \(pct(a.durationAbs)), signed \(signed(a.durationSigned)), band holds \(pct(a.durationBand))"
        if let d = a.distanceSigned { t += "; distance signed \(signed(d))" }
        if let f = a.fareAbs, let s = a.fareSigned, let b = a.fareBand {
            t += "; fare (\(a.fareRides) rides) median |error| \(pct(f)), signed \(signed(s)), band holds \(pct(b))"
        }
        return t
    }
}
