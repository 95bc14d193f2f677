import Foundation
import GeoFareCore
import GeoFareTestSupport
import GeoFareText
import Testing

/// A 시·군 placed in a tariff group for one tariff version only through the built
/// binary: the worker, `geofare fare --json` and `fare-csv` give the same tariff, basis, fare and
/// band for each trip, sourced only while the placed version is in force; `--strict` and
/// `"strict": true` refuse only the assumed ones.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(5))))
struct PlacedByVersionCLITests {
    /// (origin, departure, tariff, basis): Anyang on 표준형 for 2019-05-04 only, Yeoncheon on 나형 for 2023-07-01 only.
    static let trips: [(lat: Double, lon: Double, when: String, tariff: String, basis: String)] = [
        (37.3943, 126.9568, "2020-05-13T10:00:00+09:00", "kr-gyeonggi/regular", "sourced"),
        (37.3943, 126.9568, "2024-05-15T10:00:00+09:00", "kr-gyeonggi/regular", "assumed"),
        (38.0966, 127.0748, "2020-05-13T10:00:00+09:00", "kr-gyeonggi/regular", "assumed"),
        (38.0966, 127.0748, "2024-05-15T10:00:00+09:00", "kr-gyeonggi/regular-2000", "sourced"),
        (36.9921, 127.1129, "2020-05-13T10:00:00+09:00", "kr-gyeonggi/regular-1800", "sourced"),
    ]

    struct Answer: Equatable, CustomStringConvertible {
        var tariff: String, basis: String, total: Int64, low: Int64, high: Int64, assumption: String
        var description: String { "\(tariff) \(basis) \(total) [\(low), \(high)] \(assumption)" }
    }

    static func answer(_ json: JSONValue) -> Answer? {
        guard let tariff = json["tariff"]?.string, let basis = json["tariff_basis"]?.string, let total = json["total"]?.int64,
              let low = json["low"]?.int64, let high = json["high"]?.int64 else { return nil }
        return Answer(tariff: tariff, basis: basis, total: total, low: low, high: high, assumption: json["assumption"]?.string ?? "")
    }

    @Test("The worker, geofare fare and fare-csv agree on tariff, basis, fare, band and assumption, by date; strict refuses only the assumed")
    func threeWaysAgree() throws {
        let (worker, db) = try WorkerProcess.onTemporaryDatabase()
        defer { removeDatabase(db) }
        var csv = "trip_id,origin_lat,origin_lon,dest_lat,dest_lon,depart_at,party_size\n"
        var byWorker: [Answer] = []
        for (i, t) in Self.trips.enumerated() {
            let to = t.lat + 0.008
            let fields = #""from":{"lat":\#(t.lat),"lon":\#(t.lon)},"to":{"lat":\#(to),"lon":\#(t.lon)},"depart_at":"\#(t.when)""#
            let w = try #require(worker.call(#"{"id":\#(i),"op":"fare",\#(fields)}"#))
            let a = try #require(w["result"].flatMap(Self.answer), "\(w)")
            #expect(a.tariff == t.tariff && a.basis == t.basis, "worker \(t): \(a)")
            #expect((a.basis == "assumed") == !a.assumption.isEmpty, "\(a)")
            byWorker.append(a)
            let strict = try #require(worker.call(#"{"id":"s\#(i)","op":"fare","strict":true,\#(fields)}"#))
            if t.basis == "sourced" {
                #expect(strict["result"].flatMap(Self.answer) == a, "strict worker \(t): \(strict)")
            } else {
                #expect(strict["error"]?["code"] == .string("unknown_tariff_group"), "strict worker \(t): \(strict)")
            }

            let f = try GeoFareBinary.run(["fare", "--from", "\(t.lat),\(t.lon)", "--to", "\(to),\(t.lon)", "--at", t.when, "--json"])
            #expect(f.status == 0, "\(f.stderr)")
            #expect(Self.answer(try JSONParser.parse(Array(f.stdout.utf8))) == a, "fare \(t): \(f.stdout)")
            let fs = try GeoFareBinary.run(["fare", "--from", "\(t.lat),\(t.lon)", "--to", "\(to),\(t.lon)", "--at", t.when, "--json", "--strict"])
            #expect((fs.status == 0) == (t.basis == "sourced"), "fare --strict \(t): \(fs.stdout) \(fs.stderr)")

            csv += "\(i),\(t.lat),\(t.lon),\(to),\(t.lon),\(t.when),1\n"
        }
        #expect(worker.finish() == 0)

        let out = try GeoFareBinary.run(["fare-csv", "--quiet"], stdin: csv)
        #expect(out.status == 0, "\(out.stderr)")
        let rows = try csvRowsByName(out.stdout)
        #expect(rows.count == Self.trips.count)
        for (row, a) in zip(rows, byWorker) {
            let money = { (name: String) in row[name].flatMap { Int64($0) } ?? -1 }
            let c = Answer(tariff: row["tariff"] ?? "", basis: row["tariff_basis"] ?? "", total: money("total"), low: money("low"),
                           high: money("high"), assumption: try #require(row["assumption"], "\(row)"))
            #expect(c == a, "fare-csv row \(row["trip_id"] ?? "?"): \(c) vs worker \(a)")
        }
        let strict = try GeoFareBinary.run(["fare-csv", "--quiet", "--strict"], stdin: csv)
        let strictRows = try csvRowsByName(strict.stdout)
        #expect(strictRows.count == Self.trips.count)
        for (row, t) in zip(strictRows, Self.trips) {
            let error = try #require(row["error"], "\(row)")
            #expect(error.hasSuffix("[unknown_tariff_group]") == (t.basis == "assumed"), "fare-csv --strict row \(row["trip_id"] ?? "?"): \(error)")
            if t.basis == "assumed" { #expect(error.contains("; name a tariff. At this departure: a source places "), "\(error)") }
        }
    }
}
