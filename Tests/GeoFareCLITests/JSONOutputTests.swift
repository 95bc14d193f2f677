import Foundation
import GeoFareCore
import GeoFareTestSupport
import GeoFareText
import Testing

/// Every `--json` of the command line writes the worker's result for the same request, byte for
/// byte: one encoder per wire shape.
@Suite(.timeLimit(.minutes(10)))
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

    /// fare: an unplaced Gyeonggi city (Uijeongbu) prices assumed in --json (as the worker) and in
    /// the table; --strict refuses with today's error; Seoul says sourced.
    @Test("fare: an unplaced Gyeonggi city (Uijeongbu) prices assumed in --json and the table; --strict refuses; Seoul is sourced")
    func assumedBasis() throws {
        let worker = try WorkerProcess(arguments: ["--db", ":memory:"])
        defer { worker.closeInput(); _ = worker.wait() }
        let args = ["fare", "--from", "37.7381,127.0337", "--to", "37.4979,127.0276", "--at", "2024-05-15T14:00:00+09:00"]
        let json = try GeoFareBinary.run(args + ["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#","tariff_basis":"assumed","assumption":"Gyeonggi standard group (kr-gyeonggi/regular): "#), "\(json.stdout)")
        let fare = try #require(worker.call(#"{"id":1,"op":"fare","from":{"lat":37.7381,"lon":127.0337},"to":{"lat":37.4979,"lon":127.0276},"depart_at":"2024-05-15T14:00:00+09:00","route":true}"#))
        #expect(try JSONParser.parse(Array(json.stdout.utf8.dropLast())) == fare.object?["result"])
        let table = try GeoFareBinary.run(args)
        #expect(table.status == 0)
        let basisLine = try #require(table.stdout.split(separator: "\n").last)
        #expect(basisLine.hasPrefix("tariff basis ") && basisLine.contains("  assumed: Gyeonggi standard group (kr-gyeonggi/regular): no source names the tariff group"), "\(table.stdout)")
        let strict = try GeoFareBinary.run(args + ["--strict"])
        #expect(strict.status == 65 && strict.stdout.isEmpty)
        #expect(strict.stderr.hasSuffix("name a tariff [unknown_tariff_group]\n"), "\(strict.stderr)")
        let seoul = try GeoFareBinary.run(["fare", "--from", "37.5665,126.9780", "--to", "37.4979,127.0276", "--at", "2024-05-15T22:30:00+09:00", "--json", "--strict"])
        #expect(seoul.stdout.hasSuffix(#","total":17000,"tariff_basis":"sourced"}"# + "\n"), "\(seoul.stdout)")
        let seoulTable = try GeoFareBinary.run(["fare", "--from", "37.5665,126.9780", "--to", "37.4979,127.0276", "--at", "2024-05-15T22:30:00+09:00"])
        #expect(seoulTable.stdout.split(separator: "\n").last?.hasPrefix("tariff basis ") == true && seoulTable.stdout.hasSuffix("  sourced\n"), "\(seoulTable.stdout)")
    }

    /// fare: Gimje to Seoul (Jeonbuk's out-of-city rate in no source) prices assumed at 0 % in
    /// --json (as the worker) and in the table; --strict refuses with unknown_out_of_zone_rate.
    @Test("fare: Gimje to Seoul prices assumed at 0 % out of city in --json and the table; --strict is unknown_out_of_zone_rate")
    func assumedOutOfZoneRate() throws {
        let worker = try WorkerProcess(arguments: ["--db", ":memory:"])
        defer { worker.closeInput(); _ = worker.wait() }
        let args = ["fare", "--from", "35.8036,126.8808", "--to", "37.5665,126.9780", "--at", "2024-05-15T14:00:00+09:00"]
        let json = try GeoFareBinary.run(args + ["--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains(#","tariff_basis":"assumed","assumption":"no source gives kr-jeonbuk/regular's out-of-zone (시계외) rate in version 2023-08-01T00:00:00+09:00: priced without it (0 %), band up to 50 %"#), "\(json.stdout)")
        let fare = try #require(worker.call(#"{"id":1,"op":"fare","from":{"lat":35.8036,"lon":126.8808},"to":{"lat":37.5665,"lon":126.9780},"depart_at":"2024-05-15T14:00:00+09:00","route":true}"#))
        #expect(try JSONParser.parse(Array(json.stdout.utf8.dropLast())) == fare.object?["result"])
        let table = try GeoFareBinary.run(args)
        #expect(table.status == 0)
        let basisLine = try #require(table.stdout.split(separator: "\n").last)
        #expect(basisLine.hasPrefix("tariff basis ") && basisLine.contains("  assumed: no source gives kr-jeonbuk/regular's out-of-zone"), "\(table.stdout)")
        let strict = try GeoFareBinary.run(args + ["--strict"])
        #expect(strict.status == 65 && strict.stdout.isEmpty)
        #expect(strict.stderr.hasSuffix("no source gives the rate [unknown_out_of_zone_rate]\n"), "\(strict.stderr)")
    }
}
