import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareTestSupport
import GeoFareText
import Testing
@testable import GeoFareWorker

/// The byte-level fast path for plain fare requests answers exactly as the general parser.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct FastPathTests {
    @Test("The same fares in the fast form and in forms only the general parser takes get identical answers, and the fast form does take the fast path")
    func sameAnswers() throws {
        var rng = SeededGenerator(seed: 17)
        var fastLines: [String] = [], generalLines: [String] = []
        var expectFast = 0
        for i in 0..<600 {
            let a = (Double.random(in: 37.45...37.65, using: &rng), Double.random(in: 126.85...127.15, using: &rng))
            let b = (Double.random(in: 37.2...37.7, using: &rng), Double.random(in: 126.7...127.3, using: &rng))
            let when = "2024-05-1\(i % 7 + 3)T\(i % 24 < 10 ? "0" : "")\(i % 24):\(i % 6)5:00+09:00"
            let party = i % 25  // 0 and 21...24 are errors: both paths answer them through the one FareCall.workOrder
            let tariff = i % 3 == 0 ? "" : #","tariff":"\#(i % 3 == 1 ? "kr-seoul/regular" : "jumbo")""#
            let split = ["equal", "proportional", "shapley"][i % 3]
            let id = i % 2 == 0 ? "\(i)" : "\"r\(i)\""
            let core = #""op":"fare","from":{"lat":\#(a.0),"lon":\#(a.1)},"to":{"lon":\#(b.1),"lat":\#(b.0)},"depart_at":"\#(when)","party_size":\#(party)\#(tariff),"split":"\#(split)","route":\#(i % 4 == 0)"#
            fastLines.append(#"{"id":\#(id),\#(core)}"#)
            // A zero call fee is priced the same but is not in the fast form (a zero toll is not: given tolls
            // replace the toll data's).
            generalLines.append(#"{"id":\#(id),\#(core),"call_fee":0}"#)
            if FareCall.partySizeRange.contains(Int64(party)) { expectFast += 1 }
        }
        // The fast decoder itself accepts every valid line of the fast form and declines every
        // line of the general form: so the comparison below really compares the two paths.
        let names = try WorkerDispatcher(pricer: TripPricer.standard(), parties: nil).lane(0).tariffNames
        var decodedFast = 0
        for (fast, general) in zip(fastLines, generalLines) {
            if Array(fast.utf8).withUnsafeBytes({ FastFareRequest.decode($0, names: names) }) != nil { decodedFast += 1 }
            #expect(Array(general.utf8).withUnsafeBytes({ FastFareRequest.decode($0, names: names) }) == nil, "\(general)")
        }
        #expect(decodedFast == expectFast)
        #expect(expectFast == 600)

        let worker = try WorkerProcess(arguments: ["--db", ":memory:"])
        worker.send(Array((fastLines.joined(separator: "\n") + "\n" + generalLines.joined(separator: "\n") + "\n").utf8))
        let answers = worker.receive(fastLines.count * 2)
        // The worker itself took the fast path for exactly the fast-form lines.
        let stats = worker.call(#"{"id":"s","op":"stats"}"#)
        #expect(stats?["result"]?["fast_path"]?.int64 == Int64(expectFast), "\(stats.map { JSONWriter.string($0) } ?? "none")")
        #expect(worker.finish() == 0)
        try #require(answers.count == fastLines.count * 2)
        var priced = 0
        for i in fastLines.indices {
            #expect(answers[i] == answers[fastLines.count + i], "\(fastLines[i])")
            if answers[i]["ok"] == .bool(true) { priced += 1 }
        }
        #expect(priced > 250)  // the rest are errors on purpose (party sizes, points outside every tariff region)
    }

    @Test("Assumed and sourced fares, strict or not: the fast path and the general path write the same bytes, ending in tariff_basis (and assumption)")
    func basisOnBothPaths() throws {
        let dispatcher = try WorkerDispatcher(pricer: TripPricer.standard(), parties: nil)
        let names = dispatcher.lane(0).tariffNames
        // Uijeongbu and Gwacheon (no source places them in a Gyeonggi group), Gwangju in 2020 (before
        // its first modelled version), Seoul (sourced), Iksan to Gangnam (Jeonbuk's 시계외 rate in no source).
        let trips = [("37.7381", "127.0337", "2024-05-15T14:00:00+09:00", "assumed"), ("37.4292", "126.9876", "2023-08-01T23:30:00+09:00", "assumed"),
                     ("35.1601", "126.8514", "2020-06-01T14:00:00+09:00", "assumed"), ("37.5665", "126.9780", "2024-05-15T22:30:00+09:00", "sourced"),
                     ("35.9483", "126.9577", "2024-05-15T14:00:00+09:00", "assumed")]  // Iksan: Jeonbuk's out-of-city rate in no source
        for (lat, lon, when, basis) in trips {
            for strict in ["", #","strict":false"#, #","strict":true"#] {
                let core = #""op":"fare","from":{"lat":\#(lat),"lon":\#(lon)},"to":{"lat":37.4979,"lon":127.0276},"depart_at":"\#(when)","party_size":2\#(strict)"#
                let fast = Array(#"{"id":7,\#(core)}"#.utf8), general = Array(#"{"id":7,\#(core),"call_fee":0}"#.utf8)
                let decoded = try #require(fast.withUnsafeBytes { FastFareRequest.decode($0, names: names) }, "\(core)")
                #expect(general.withUnsafeBytes { FastFareRequest.decode($0, names: names) } == nil)
                let a = String(decoding: dispatcher.respond(to: decoded), as: UTF8.self)
                let b = String(decoding: general.withUnsafeBytes { dispatcher.respond(toLine: $0) }, as: UTF8.self)
                #expect(a == b)
                if strict == #","strict":true"# && basis == "assumed" {
                    let code = lat == "35.1601" ? "no_tariff_version" : lat == "35.9483" ? "unknown_out_of_zone_rate" : "unknown_tariff_group"
                    #expect(a.contains(#""ok":false"#) && a.contains(#""code":"\#(code)""#), "\(a)")
                } else if basis == "assumed" {
                    #expect(a.contains(#","tariff_basis":"assumed","assumption":""#) && a.hasSuffix("\"}}\n"), "\(a)")
                } else {
                    #expect(a.hasSuffix(#","tariff_basis":"sourced"}}"# + "\n"), "\(a)")
                }
            }
        }
    }
}
