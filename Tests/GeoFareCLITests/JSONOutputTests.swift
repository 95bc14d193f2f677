import Foundation
import GeoFareCore
import GeoFareTestSupport
import GeoFareText
import Testing

/// Every `--json` of the command line writes the worker's result for the same request, byte for
/// byte: one encoder per wire shape.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct JSONOutputTests {
    @Test("route --json is the worker's route result (ISO start, slow_s present), fare --json the worker's fare result with its route")
    func sameAsWorker() throws {
        let worker = try WorkerProcess(arguments: ["--db", ":memory:"])
        defer { worker.closeInput(); _ = worker.wait() }
        let trips: [(from: String, to: String, via: [String], at: String)] = [
            ("37.5665,126.9780", "37.2636,127.0286", [], "2024-05-15T22:50:00+09:00"),
            ("37.5665,126.9780", "37.4979,127.0276", ["37.5400,127.0000"], "2024-05-15T08:10:00+09:00"),
        ]
        for t in trips {
            func point(_ s: String) -> String {
                let p = s.split(separator: ","); return #"{"lat":\#(p[0]),"lon":\#(p[1])}"#
            }
            let via = t.via.isEmpty ? "" : #","via":[\#(t.via.map(point).joined(separator: ","))]"#
            let common = #""from":\#(point(t.from)),"to":\#(point(t.to))\#(via),"depart_at":"\#(t.at)""#
            let viaArgs = t.via.flatMap { ["--via", $0] }
            let routeLine = try GeoFareBinary.run(["route", "--from", t.from, "--to", t.to, "--at", t.at, "--json"] + viaArgs)
            #expect(routeLine.status == 0, "\(routeLine.stderr)")
            let fromWorker = try #require(worker.call(#"{"id":1,"op":"route",\#(common)}"#))
            let routeResult = try #require(fromWorker.object?["result"])
            #expect(try JSONParser.parse(Array(routeLine.stdout.utf8.dropLast())) == routeResult)
            #expect(routeLine.stdout.contains(#""start":"2024-05-1"#))
            #expect(routeLine.stdout.contains(#""slow_s":"#))

            let fareLine = try GeoFareBinary.run(["fare", "--from", t.from, "--to", t.to, "--at", t.at, "--json"] + viaArgs)
            #expect(fareLine.status == 0, "\(fareLine.stderr)")
            let fare = try #require(worker.call(#"{"id":2,"op":"fare",\#(common),"route":true}"#))
            #expect(try JSONParser.parse(Array(fareLine.stdout.utf8.dropLast())) == fare.object?["result"])
        }
    }

    /// `geofare fare` from `from` to `to` (as "lat,lon") at 2024-05-15 14:00 prices assumed: its
    /// `--json` carries `jsonAssumption` and equals the worker's answer for the same trip, the
    /// table's last line is the basis line with `tableAssumption`, and `--strict` exits 65 with
    /// nothing on stdout and stderr ending in `strictError`.
    static func expectAssumed(from: String, to: String, jsonAssumption: String, tableAssumption: String, strictError: String,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let worker = try WorkerProcess(arguments: ["--db", ":memory:"])
        defer { worker.closeInput(); _ = worker.wait() }
        let at = "2024-05-15T14:00:00+09:00"
        let args = ["fare", "--from", from, "--to", to, "--at", at]
        let json = try GeoFareBinary.run(args + ["--json"])
        #expect(json.status == 0, "\(json.stderr)", sourceLocation: sourceLocation)
        #expect(json.stdout.contains(#","tariff_basis":"assumed","assumption":""# + jsonAssumption), "\(json.stdout)", sourceLocation: sourceLocation)
        func point(_ text: String) -> String {
            let (lat, lon) = (text.split(separator: ",")[0], text.split(separator: ",")[1])
            return #"{"lat":\#(lat),"lon":\#(lon)}"#
        }
        let request = #"{"id":1,"op":"fare","from":\#(point(from)),"to":\#(point(to)),"depart_at":"\#(at)","route":true}"#
        let fare = try #require(worker.call(request), sourceLocation: sourceLocation)
        #expect(try JSONParser.parse(Array(json.stdout.utf8.dropLast())) == fare.object?["result"], sourceLocation: sourceLocation)
        let table = try GeoFareBinary.run(args)
        #expect(table.status == 0, sourceLocation: sourceLocation)
        let basisLine = try #require(table.stdout.split(separator: "\n").last, sourceLocation: sourceLocation)
        #expect(basisLine.hasPrefix("tariff basis ") && basisLine.contains("  assumed: " + tableAssumption), "\(table.stdout)", sourceLocation: sourceLocation)
        let strict = try GeoFareBinary.run(args + ["--strict"])
        #expect(strict.status == 65 && strict.stdout.isEmpty, sourceLocation: sourceLocation)
        #expect(strict.stderr.hasSuffix(strictError + "\n"), "\(strict.stderr)", sourceLocation: sourceLocation)
    }

    /// fare: an unplaced Gyeonggi city (Uijeongbu) prices assumed in --json (as the worker) and in
    /// the table; --strict refuses with today's error; Seoul says sourced.
    @Test("fare: an unplaced Gyeonggi city (Uijeongbu) prices assumed in --json and the table; --strict refuses; Seoul is sourced")
    func assumedBasis() throws {
        try Self.expectAssumed(from: "37.7381,127.0337", to: "37.4979,127.0276",
                               jsonAssumption: "Gyeonggi standard group (kr-gyeonggi/regular): ",
                               tableAssumption: "Gyeonggi standard group (kr-gyeonggi/regular): no source names the tariff group",
                               strictError: "name a tariff [unknown_tariff_group]")
        let seoul = try GeoFareBinary.run(["fare", "--from", "37.5665,126.9780", "--to", "37.4979,127.0276", "--at", "2024-05-15T22:30:00+09:00", "--json", "--strict"])
        #expect(seoul.stdout.hasSuffix(#","total":17500,"tariff_basis":"sourced"}"# + "\n"), "\(seoul.stdout)")
        let seoulTable = try GeoFareBinary.run(["fare", "--from", "37.5665,126.9780", "--to", "37.4979,127.0276", "--at", "2024-05-15T22:30:00+09:00"])
        #expect(seoulTable.stdout.split(separator: "\n").last?.hasPrefix("tariff basis ") == true && seoulTable.stdout.hasSuffix("  sourced\n"), "\(seoulTable.stdout)")
    }

    /// fare: Gimje to Seoul (Jeonbuk's out-of-city rate in no source) prices assumed at 0 % in
    /// --json (as the worker) and in the table; --strict refuses with unknown_out_of_zone_rate.
    @Test("fare: Gimje to Seoul prices assumed at 0 % out of city in --json and the table; --strict is unknown_out_of_zone_rate")
    func assumedOutOfZoneRate() throws {
        try Self.expectAssumed(from: "35.8036,126.8808", to: "37.5665,126.9780",
                               jsonAssumption: "no source gives kr-jeonbuk/regular's out-of-zone (시계외) rate in version 2023-08-01T00:00:00+09:00: priced without it (0 %), band up to 50 %",
                               tableAssumption: "no source gives kr-jeonbuk/regular's out-of-zone",
                               strictError: "no source gives the rate [unknown_out_of_zone_rate]")
    }
}
