import Foundation
import GeoFareCore
import GeoFareTestSupport
import GeoFareText
import Testing

/// Gwangju's 시계외 by destination (40 % to Naju, Damyang, Jangseong, Hampyeong from
/// 2025-10-22, 35 % elsewhere) through the built binary: the worker, `geofare fare --json` and
/// `fare-csv` give the same tariff, fare and band for each trip, and the base fare of a trip that
/// boards outside Gwangju on its tariff carries 40 % (1,920 KRW on 4,800) only when it goes to one
/// of the four.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(5))))
struct DestinationRateCLITests {
    /// (from, to, departure, tariff named or nil, base surcharge by hand: 4,800 × 40 % = 1,920, × 35 % = 1,680;
    /// 2023 version 4,300 × 35 % = 1,505 → 1,510 at the 10-won step; boarding inside Gwangju: 0).
    static let trips: [(from: (Double, Double), to: (Double, Double), when: String, tariff: String?, baseSurcharge: Int64)] = [
        ((35.1601, 126.8514), (35.0159, 126.7108), "2025-11-12T14:00:00+09:00", nil, 0),                      // Gwangju City Hall → Naju
        ((35.0159, 126.7108), (35.3213, 126.9882), "2025-11-12T14:00:00+09:00", "kr-gwangju/regular", 1_920),  // Naju → Damyang
        ((35.0159, 126.7108), (35.3019, 126.7848), "2025-11-12T14:00:00+09:00", "kr-gwangju/regular", 1_920),  // Naju → Jangseong
        ((35.0159, 126.7108), (34.8118, 126.3922), "2025-11-12T14:00:00+09:00", "kr-gwangju/regular", 1_680),  // Naju → Mokpo
        ((35.0159, 126.7108), (35.3213, 126.9882), "2024-05-15T14:00:00+09:00", "kr-gwangju/regular", 1_510),  // 2023 version
    ]

    struct Answer: Equatable, CustomStringConvertible {
        var tariff: String, version: String, basis: String, total: Int64, low: Int64, high: Int64
        var description: String { "\(tariff) \(version) \(basis) \(total) [\(low), \(high)]" }
    }

    static func answer(_ json: JSONValue) -> Answer? {
        guard let tariff = json["tariff"]?.string, let version = json["tariff_version"]?.string, let basis = json["tariff_basis"]?.string,
              let total = json["total"]?.int64, let low = json["low"]?.int64, let high = json["high"]?.int64 else { return nil }
        return Answer(tariff: tariff, version: version, basis: basis, total: total, low: low, high: high)
    }

    @Test("The worker, geofare fare and fare-csv agree; the base surcharge shows the 40 % only to the four 시·군")
    func threeWaysAgree() throws {
        let (worker, db) = try WorkerProcess.onTemporaryDatabase()
        defer { removeDatabase(db) }
        var csv = "trip_id,origin_lat,origin_lon,dest_lat,dest_lon,depart_at,party_size,tariff\n"
        var byWorker: [Answer] = []
        for (i, t) in Self.trips.enumerated() {
            let named = t.tariff.map { #","tariff":"\#($0)""# } ?? ""
            let w = try #require(worker.call(#"{"id":\#(i),"op":"fare","from":{"lat":\#(t.from.0),"lon":\#(t.from.1)},"to":{"lat":\#(t.to.0),"lon":\#(t.to.1)},"depart_at":"\#(t.when)"\#(named)}"#))
            let result = try #require(w["result"], "\(w)")
            let a = try #require(Self.answer(result), "\(w)")
            #expect(a.tariff == "kr-gwangju/regular" && a.basis == "sourced", "worker \(i): \(a)")
            #expect(result["breakdown"]?["base_surcharge"]?.int64 == t.baseSurcharge, "worker \(i): \(w)")
            byWorker.append(a)

            var args = ["fare", "--from", "\(t.from.0),\(t.from.1)", "--to", "\(t.to.0),\(t.to.1)", "--at", t.when, "--json"]
            if let name = t.tariff { args += ["--tariff", name] }
            let f = try GeoFareBinary.run(args)
            #expect(f.status == 0, "\(f.stderr)")
            let fj = try JSONParser.parse(Array(f.stdout.utf8))
            #expect(Self.answer(fj) == a, "fare \(i): \(f.stdout)")
            #expect(fj["breakdown"]?["base_surcharge"]?.int64 == t.baseSurcharge, "fare \(i): \(f.stdout)")
            csv += "\(i),\(t.from.0),\(t.from.1),\(t.to.0),\(t.to.1),\(t.when),1,\(t.tariff ?? "")\n"
        }
        #expect(worker.finish() == 0)

        let out = try GeoFareBinary.run(["fare-csv", "--quiet"], stdin: csv)
        #expect(out.status == 0, "\(out.stderr)")
        let rows = try csvRowsByName(out.stdout)
        #expect(rows.count == Self.trips.count)
        for (row, a) in zip(rows, byWorker) {
            let money = { (name: String) in row[name].flatMap { Int64($0) } }
            #expect(row["tariff"] == a.tariff && row["tariff_basis"] == a.basis && money("total") == a.total && money("low") == a.low
                    && money("high") == a.high, "fare-csv row \(row["trip_id"] ?? "?"): \(row) vs worker \(a)")
        }
    }
}
