import Foundation
import GeoFareCore
import GeoFareTestSupport
import GeoFareText
import Testing

/// `geofare calibrate` and `--traffic` through the built binary (issue 42), on the real metered
/// Seongnam rides of the shared data: fitted on January and February, scored on March.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(10))))
struct CalibrateCLITests {
    static let rides = "korea/seongnam_taxi_trips_2024q1.csv"

    /// The shared Seongnam rides as calibrate's columns, pickup and drop-off headers renamed
    /// (`start`, `end`) for `--map`; `months` keeps those pickup months.
    static func seongnamRides(months: Set<Int>) throws -> String {
        let data = try Data(contentsOf: SharedData.url(rides))
        var records: [CSVReader.Record] = []
        var reader = CSVReader()
        reader.feed(data) { records.append($0) }
        try reader.finish { records.append($0) }
        let header = records[0].fields
        func at(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "\(name) in \(header)") }
        let (start, end, ox, oy, dx, dy, meters, fare) = (try at("승차시간"), try at("하차시간"), try at("승차X좌표"), try at("승차Y좌표"),
                                                         try at("하차X좌표"), try at("하차Y좌표"), try at("승차거리(m)"), try at("승차요금"))
        var out = "start,end,origin_lat,origin_lon,dest_lat,dest_lon,distance_m,fare\n"
        for r in records.dropFirst() where r.fields.count == header.count {
            let f = r.fields
            guard let month = Int(f[start].dropFirst(5).prefix(2)), months.contains(month) else { continue }
            let t = { (s: String) in s.replacingOccurrences(of: " ", with: "T") + "+09:00" }
            out += [t(f[start]), t(f[end]), f[oy], f[ox], f[dy], f[dx], f[meters], f[fare]].joined(separator: ",") + "\n"
        }
        return out
    }

    /// A data directory whose speed profiles have no calibration of their own: what the
    /// defaults were before the Seongnam rides, so that a calibration on them shows its effect.
    static func uncalibratedData(in dir: URL) throws -> URL {
        let data = dir.appendingPathComponent("data/route")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let original = try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Data/route/speed-profiles.json"))
        var file = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        file["profiles"] = (file["profiles"] as! [[String: Any]]).map { p in
            var p = p
            p.removeValue(forKey: "calibration")
            return p
        }
        try JSONSerialization.data(withJSONObject: file).write(to: data.appendingPathComponent("speed-profiles.json"))
        return dir.appendingPathComponent("data")
    }

    /// Durations of `csv`'s rides by the worker's `route` op: median |error| and signed median.
    static func durationErrors(_ csv: String, arguments: [String]) throws -> (absolute: Double, signed: Double) {
        let db = temporaryDatabase()
        defer { removeDatabase(db) }
        let worker = try WorkerProcess(arguments: ["--db", db] + arguments)
        var errors: [Double] = []
        for (i, line) in csv.split(separator: "\n").dropFirst().enumerated() {
            let f = line.split(separator: ",").map(String.init)
            guard let a = ISO8601.parse(f[0]), let b = ISO8601.parse(f[1]), b.timeIntervalSince(a) >= 60 else { continue }
            let r = try #require(worker.call(#"{"id":\#(i),"op":"route","from":{"lat":\#(f[2]),"lon":\#(f[3])},"to":{"lat":\#(f[4]),"lon":\#(f[5])},"depart_at":"\#(f[0])"}"#))
            guard let d = r["result"]?["duration_s"]?.double else { continue }
            errors.append(d / b.timeIntervalSince(a) - 1)
        }
        #expect(worker.finish() == 0)
        let median = { (v: [Double]) in v.sorted()[v.count / 2] }
        return (median(errors.map(abs)), median(errors))
    }

    @Test("calibrate on January-February Seongnam rides: the file says what it fitted; --traffic brings March's durations to the real level; version names it",
          .enabled(if: SharedData.runs(rides), "needs ../shared/data/korea beside the checkout"))
    func seongnam() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-calibrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = try Self.uncalibratedData(in: dir)
        let fit = dir.appendingPathComponent("fit.csv"), march = try Self.seongnamRides(months: [3])
        try Self.seongnamRides(months: [1, 2]).write(to: fit, atomically: true, encoding: .utf8)
        let profile = dir.appendingPathComponent("seongnam.json").path
        let r = try GeoFareBinary.run(["calibrate", fit.path, "-o", profile, "--map", "pickup_at=start", "--map", "dropoff_at=end",
                                       "--data", data.path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("for kr-cities") && r.stdout.contains("held out") && r.stdout.contains("wrote \(profile)"), "\(r.stdout)")

        let file = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: profile))) as? [String: Any])
        #expect(file["schema"] as? String == "geofare.traffic/calibration-1" && file["profile"] as? String == "kr-cities")
        let suburb = try #require((file["areas"] as? [String: Any])?["suburb"] as? [String: Any])
        // Seongnam's rides run slower than the published averages say, on shorter roads.
        #expect((suburb["rides"] as? Int ?? 0) > 250 && (suburb["time_level"] as? Double ?? 0) > 1.15, "\(suburb)")
        #expect((suburb["distance_factor"] as? Double ?? 2) < 0.97, "\(suburb)")
        #expect((file["time_by_distance"] as? [Any])?.isEmpty == false && file["fare_band"] != nil && file["held_out"] != nil)

        // March, held out by time: the default without Seongnam's rides, then with the file.
        let before = try Self.durationErrors(march, arguments: ["--data", data.path])
        let after = try Self.durationErrors(march, arguments: ["--data", data.path, "--traffic", profile])
        #expect(before.signed < -0.12, "before: \(before)")
        #expect(abs(after.signed) <= 0.06 && after.absolute <= 0.20 && after.absolute < before.absolute, "after: \(after), before: \(before)")

        let db = temporaryDatabase()
        defer { removeDatabase(db) }
        let version = try GeoFareBinary.run(["worker", "--db", db, "--traffic", profile], stdin: #"{"id":1,"op":"version"}"# + "\n")
        #expect(version.stdout.contains(#""calibrations":["kr-cities-seongnam-2024q1","fit"]"#), "\(version.stdout)")
    }

    @Test("calibrate counts bad rows by reason, refuses a file with too few rides (65) or without a column, and a broken --traffic file names its field")
    func badInput() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-calibrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var csv = "pickup_at,dropoff_at,origin_lat,origin_lon,dest_lat,dest_lon,distance_m\n"
        csv += "yesterday,2024-03-05T14:10:00+09:00,37.42,127.12,37.45,127.14,4000\n"            // bad_time
        csv += "2024-03-05T14:00:00+09:00,2024-03-05T14:10:00+09:00,95,127.12,37.45,127.14,4000\n" // bad_coordinate
        csv += "2024-03-05T14:00:00+09:00,2024-03-05T14:10:00+09:00,37.42,127.12,37.45,127.14,-3\n" // bad_distance
        csv += "2024-03-05T14:00:00+09:00,2024-03-05T13:50:00+09:00,37.42,127.12,37.45,127.14,4000\n" // implausible_duration
        csv += "2024-03-05T14:00:00+09:00,2024-03-05T14:10:00+09:00,37.42,127.12,37.42,127.12,4000\n" // same_ends
        for i in 0..<5 { csv += "2024-03-0\(i + 1)T14:00:00+09:00,2024-03-0\(i + 1)T14:15:00+09:00,37.42,127.12,37.45,127.14,4800\n" }
        let input = dir.appendingPathComponent("rides.csv")
        try csv.write(to: input, atomically: true, encoding: .utf8)
        let r = try GeoFareBinary.run(["calibrate", input.path, "-o", dir.appendingPathComponent("out.json").path])
        #expect(r.status == 65, "\(r.stdout) \(r.stderr)")
        for reason in ["1 bad_time (first at line 2)", "1 bad_coordinate (first at line 3)", "1 bad_distance (first at line 4)",
                       "1 implausible_duration (first at line 5)", "1 same_ends (first at line 6)", "5 usable rides; a calibration needs at least 30"] {
            #expect(r.stderr.contains(reason), "\(reason) in \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out.json").path))

        try "when,dropoff_at,origin_lat,origin_lon,dest_lat,dest_lon\n".write(to: input, atomically: true, encoding: .utf8)
        let missing = try GeoFareBinary.run(["calibrate", input.path, "-o", dir.appendingPathComponent("out.json").path])
        #expect(missing.status == 65 && missing.stderr.contains("no column 'pickup_at'") && missing.stderr.contains("[missing_column]"), "\(missing.stderr)")

        // A broken calibration file, and one for a profile the data has not.
        let bad = dir.appendingPathComponent("bad.json")
        try #"{"schema":"geofare.traffic/calibration-1","profile":"kr-cities","name":"x","areas":{"suburb":{"rides":3,"time_level":9}}}"#
            .write(to: bad, atomically: true, encoding: .utf8)
        let refused = try GeoFareBinary.run(["route", "--from", "37.42,127.12", "--to", "37.45,127.14", "--traffic", bad.path])
        #expect(refused.status == 65 && refused.stderr.contains("\(bad.path): areas.suburb.time_level") && refused.stderr.contains("[invalid_route_data]"), "\(refused.stderr)")
        try #"{"schema":"geofare.traffic/calibration-1","profile":"xx-nowhere","name":"x","areas":{}}"#.write(to: bad, atomically: true, encoding: .utf8)
        let unknown = try GeoFareBinary.run(["fare", "--from", "37.42,127.12", "--to", "37.45,127.14", "--traffic", bad.path])
        #expect(unknown.status == 65 && unknown.stderr.contains("[unknown_profile]"), "\(unknown.stderr)")
    }
}
