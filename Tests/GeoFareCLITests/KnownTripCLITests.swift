import Foundation
import GeoFareCore
import GeoFareTestSupport
import GeoFareText
import Testing

/// A known trip with its ends (issue 41) through the built binary: the worker's `fare` with
/// `from`, `to` and `trip` meters the given distance and duration and takes 시계외 from the ends,
/// `fare-csv` does the same for a row with both, and forms that cannot go together are refused
/// naming the field.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(5))))
struct KnownTripCLITests {
    static let seongnam = #"{"lat":37.42,"lon":127.1267}"#
    static let gwangju = #"{"lat":37.4294,"lon":127.2551}"#
    static let trip = #""trip":{"distance_m":12000,"duration_s":1200},"depart_at":"2024-03-05T14:00:00+09:00""#

    @Test("The worker meters the given trip with its ends; fare-csv agrees; conflicting forms are refused")
    func knownTrip() throws {
        let (worker, db) = try WorkerProcess.onTemporaryDatabase()
        defer { removeDatabase(db) }
        // Without the ends, with ends inside one 시, and leaving Seongnam for Gwangju.
        let plain = try #require(worker.call(#"{"id":1,"op":"fare","tariff":"kr-gyeonggi/regular",\#(Self.trip)}"#))
        let out = try #require(worker.call(#"{"id":2,"op":"fare","from":\#(Self.seongnam),"to":\#(Self.gwangju),\#(Self.trip)}"#))
        let home = try #require(worker.call(#"{"id":3,"op":"fare","from":\#(Self.gwangju),"to":\#(Self.seongnam),"tariff":"kr-gyeonggi/regular","business_zone":"kr-sgg-gyeonggi-seongnam",\#(Self.trip)}"#))
        let p = try #require(plain["result"], "\(plain)"), o = try #require(out["result"], "\(out)"), h = try #require(home["result"], "\(home)")
        #expect(o["distance_m"]?.double == 12_000 && o["duration_s"]?.double == 1_200, "\(out)")
        #expect(o["tariff"]?.string == "kr-gyeonggi/regular", "\(out)")
        #expect((o["breakdown"]?["unit_surcharges"]?.int64 ?? 0) > 0 && (o["total"]?.int64 ?? 0) > (p["total"]?.int64 ?? .max), "\(out) vs \(plain)")
        #expect(h["total"]?.int64 == p["total"]?.int64 && h["breakdown"]?["unit_surcharges"]?.int64 == 0, "\(home)")

        let refused: [(request: String, code: String, field: String)] = [
            (#"{"id":4,"op":"fare","from":\#(Self.seongnam),\#(Self.trip)}"#, "missing_field", "to"),
            (#"{"id":5,"op":"fare","to":\#(Self.seongnam),\#(Self.trip),"tariff":"kr-gyeonggi/regular"}"#, "missing_field", "from"),
            (#"{"id":6,"op":"fare","tariff":"kr-gyeonggi/regular","segments":[{"distance_m":5,"duration_s":5}],\#(Self.trip)}"#, "invalid_request", "trip"),
            (#"{"id":7,"op":"fare","from":\#(Self.seongnam),"to":\#(Self.gwangju),"via":[\#(Self.seongnam)],\#(Self.trip)}"#, "invalid_request", "via"),
            (#"{"id":8,"op":"fare","from":\#(Self.seongnam),"to":\#(Self.gwangju),"route":true,\#(Self.trip)}"#, "invalid_request", "route"),
            (#"{"id":9,"op":"fare","from":\#(Self.seongnam),"to":\#(Self.gwangju),"business_zone":"nowhere",\#(Self.trip)}"#, "invalid_value", "business_zone"),
        ]
        for r in refused {
            let a = try #require(worker.call(r.request))
            #expect(a["ok"] == .bool(false) && a["error"]?["code"]?.string == r.code && a["error"]?["field"]?.string == r.field, "\(r.request) → \(a)")
        }
        // The worker goes on after the errors.
        #expect(try worker.call(#"{"id":10,"op":"ping"}"#)?["ok"] == .bool(true))
        #expect(worker.finish() == 0)

        let csv = """
        trip_id,origin_lat,origin_lon,dest_lat,dest_lon,depart_at,party_size,tariff,distance_m,duration_s,business_zone
        plain,,,,,2024-03-05T14:00:00+09:00,1,kr-gyeonggi/regular,12000,1200,
        out,37.42,127.1267,37.4294,127.2551,2024-03-05T14:00:00+09:00,1,,12000,1200,
        home,37.4294,127.2551,37.42,127.1267,2024-03-05T14:00:00+09:00,1,kr-gyeonggi/regular,12000,1200,kr-sgg-gyeonggi-seongnam
        bad,37.4294,127.2551,37.42,127.1267,2024-03-05T14:00:00+09:00,1,kr-gyeonggi/regular,12000,1200,nowhere

        """
        let run = try GeoFareBinary.run(["fare-csv", "--quiet"], stdin: csv)
        #expect(run.status == 65, "one row fails: \(run.stderr)")
        let rows = try csvRowsByName(run.stdout)
        #expect(rows.count == 4, "\(run.stdout)")
        let total = { (i: Int) in rows[i]["total"].flatMap { Int64($0) } }
        #expect(total(0) == p["total"]?.int64 && total(1) == o["total"]?.int64 && total(2) == h["total"]?.int64, "\(rows)")
        #expect(rows.count == 4 && rows[3]["error"]?.contains("business_zone") == true, "\(rows)")
    }
}
