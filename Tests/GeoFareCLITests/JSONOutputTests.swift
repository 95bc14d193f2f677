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
}
