import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import GeoFareText
import Testing

/// `places.search` and `places.reverse` through a real `geofare worker --places FILE` subprocess,
/// and the `geofare places` commands.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct PlacesWorkerTests {
    @Test("The worker's answers say why a place matched: address (with address_line), intersection (the junction), category; reverse gives the address")
    func matchReasons() throws {
        let index = try PlacesData.index("busan_seomyeon_1km.osm.pbf")
        let w = try WorkerProcess(arguments: ["--db", ":memory:", "--places", index.path, "--threads", "1"])
        defer { w.closeInput(); _ = w.wait() }
        let address = try #require(w.call(#"{"id":1,"op":"places.search","q":"동천로 92","limit":3}"#)?.object?["result"]?.object?["results"]?.array?.first?.object)
        #expect(address["match"]?.string == "address" && address["address_line"]?.string == "동천로 92" && address["matched_name"]?.string == "addr:street")
        let junction = try #require(w.call(#"{"id":2,"op":"places.search","q":"가야대로와 부전로 사거리","limit":1}"#)?.object?["result"]?.object?["results"]?.array?.first?.object)
        #expect(junction["match"]?.string == "intersection" && junction["kind"]?.string == "intersection" && junction["streets"]?.array?.count == 2)
        #expect(junction["name"]?.string == "가야대로 & 부전로" || junction["name"]?.string == "부전로 & 가야대로")
        let category = try #require(w.call(#"{"id":3,"op":"places.search","q":"약국","near":{"lat":35.1578,"lon":129.0597},"limit":1}"#)?.object?["result"]?.object?["results"]?.array?.first?.object)
        #expect(category["match"]?.string == "category" && category["category"]?.string == "pharmacy")
        let reverse = try #require(w.call(#"{"id":4,"op":"places.reverse","at":{"lat":35.15653,"lon":129.05565}}"#)?.object?["result"]?.object)
        #expect(reverse["address"]?.object?["address_line"]?.string == "가야대로 772" && reverse["address"]?.object?["distance_m"]?.double == 0)
    }

    @Test("A worker with --places answers search and reverse; bad queries get their codes and the worker goes on")
    func worker() throws {
        let index = try PlacesData.index("seoul_mapo.osm.pbf")
        let w = try WorkerProcess(arguments: ["--db", ":memory:", "--places", index.path, "--threads", "1"])
        defer { w.closeInput(); _ = w.wait() }
        let search = try #require(w.call(#"{"id":1,"op":"places.search","q":"공덕","near":{"lat":37.5445,"lon":126.9515},"limit":5}"#)?.object)
        #expect(search["ok"] == .bool(true), "\(search)")
        let results = try #require(search["result"]?.object?["results"]?.array)
        #expect(results.count == 5)
        let first = try #require(results.first?.object)
        #expect(first["name"]?.string?.hasPrefix("공덕") == true)
        #expect(first["distance_m"]?.double != nil && first["lat"]?.double != nil && first["kind"]?.string != nil)
        let chosung = try #require(w.call(#"{"id":2,"op":"places.search","q":"ㄱㄷㅇ"}"#)?.object?["result"]?.object?["results"]?.array)
        #expect(chosung.contains { $0.object?["name"]?.string == "공덕역" && $0.object?["match"]?.string == "exact" && $0.object?["matched_form"]?.string == "initials" })
        let roman = try #require(w.call(#"{"id":12,"op":"places.search","q":"gongdeokyeok","limit":3}"#)?.object?["result"]?.object?["results"]?.array)
        #expect(roman.contains { $0.object?["name"]?.string == "공덕역" && ["romanized", "name"].contains($0.object?["matched_form"]?.string ?? "") })
        let reverse = try #require(w.call(#"{"id":3,"op":"places.reverse","at":{"lat":37.5445,"lon":126.9515},"radius_m":300}"#)?.object)
        #expect(reverse["ok"] == .bool(true), "\(reverse)")
        let r = try #require(reverse["result"]?.object)
        #expect(r["place"]?.object?["distance_m"]?.double.map { $0 <= 300 } == true)
        #expect(r["street"]?.object?["kind"]?.string == "street")
        #expect(r["area"]?.object?["region"]?.object?["id"]?.string == "kr-seoul")
        func code(_ line: String) -> String? { w.call(line)?.object?["error"]?.object?["code"]?.string }
        #expect(code(#"{"id":4,"op":"places.search","q":""}"#) == "query_empty")
        #expect(code(#"{"id":5,"op":"places.search","q":"\#(String(repeating: "a", count: 300))"}"#) == "query_too_long")
        #expect(code(#"{"id":6,"op":"places.search","q":"공덕","limit":0}"#) == "out_of_range")
        #expect(code(#"{"id":7,"op":"places.reverse","at":{"lat":37.5,"lon":126.9},"radius_m":9000}"#) == "out_of_range")
        #expect(code(#"{"id":8,"op":"places.search"}"#) == "missing_field")
        // invalid UTF-8: invalid_utf8 naming the first bad byte and the string, the id echoed
        let head = #"{"id":9,"op":"places.search","q":"공"#
        w.send(Array(head.utf8) + [0xEA, 0xB3] + Array("\"}\n".utf8))
        let bad = try #require(w.receive(1).first?.object)
        #expect(bad["id"] == .number("9"))
        #expect(bad["error"]?.object?["code"]?.string == "invalid_utf8")
        #expect(bad["error"]?.object?["field"]?.string == "q")
        #expect(bad["error"]?.object?["message"]?.string?.contains("at byte \(head.utf8.count)") == true, "\(bad)")
        // other ops alike (the fare's fast path declines non-ASCII bytes); outside a string, no id
        w.send(Array(#"{"id":"f","op":"fare","from":{"lat":37.5,"lon":127.0},"to":{"lat":37.6,"lon":127.1},"tariff":"kr-"#.utf8) + [0xFF] + Array("\"}\n".utf8))
        let fare = try #require(w.receive(1).first?.object)
        #expect(fare["id"] == .string("f") && fare["error"]?.object?["field"]?.string == "tariff" && fare["error"]?.object?["code"]?.string == "invalid_utf8")
        w.send(Array(#"{"id":13,"#.utf8) + [0xC3, 0x28] + Array("}\n".utf8))
        let outside = try #require(w.receive(1).first?.object)
        #expect(outside["id"] == .null && outside["error"]?.object?["code"]?.string == "invalid_utf8")
        #expect(outside["error"]?.object?["message"]?.string?.contains("at byte 9") == true, "\(outside)")
        #expect(w.call(#"{"id":10,"op":"ping"}"#)?.object?["ok"] == .bool(true))
        let version = try #require(w.call(#"{"id":11,"op":"version"}"#)?.object?["result"]?.object?["places"]?.object)
        #expect(version["places"]?.int64 == Int64(index.count) && version["attribution"]?.string?.contains("ODbL") == true)
    }

    @Test("A worker without --places answers places_not_loaded; a broken --places file stops the start with its code")
    func notLoaded() throws {
        let w = try WorkerProcess(arguments: ["--db", ":memory:", "--threads", "1"])
        let answer = w.call(#"{"id":1,"op":"places.reverse","at":{"lat":37.5,"lon":126.9}}"#)
        #expect(answer?.object?["error"]?.object?["code"]?.string == "places_not_loaded")
        #expect(w.finish() == 0)
        let broken = PlacesData.directory.appendingPathComponent("broken.places")
        try Data("GEOFAREP then nothing".utf8).write(to: broken)
        let run = try GeoFareBinary.run(["worker", "--db", ":memory:", "--places", broken.path])
        #expect(run.status == 65)
        #expect(run.stderr.contains("[places_corrupt]") || run.stderr.contains("[places_truncated]"), "\(run.stderr)")
    }

    @Test("geofare places build, info, search and reverse from the command line")
    func commandLine() throws {
        let out = PlacesData.directory.appendingPathComponent("cli-seomyeon.places").path
        let build = try GeoFareBinary.run(["places", "build", PlacesData.pbf("busan_seomyeon_1km.osm.pbf").path, "-o", out])
        #expect(build.status == 0, "\(build.stderr)")
        #expect(build.stderr.contains("places") && build.stderr.contains("per place"))
        let info = try GeoFareBinary.run(["places", "info", out])
        #expect(info.status == 0 && info.stdout.contains("ODbL") && info.stdout.contains("busan_seomyeon_1km.osm.pbf"))
        let search = try GeoFareBinary.run(["places", "search", out, "서면 역", "--json"])
        #expect(search.status == 0, "\(search.stderr)")
        let parsed = try JSONParser.parse(Array(search.stdout.utf8))
        #expect(parsed.object?["results"]?.array?.first?.object?["name"]?.string?.contains("서면") == true)
        let reverse = try GeoFareBinary.run(["places", "reverse", out, "--at", "35.1578,129.0597", "--json"])
        #expect(reverse.status == 0, "\(reverse.stderr)")
        #expect(try JSONParser.parse(Array(reverse.stdout.utf8)).object?["area"]?.object?["region"]?.object?["id"]?.string == "kr-busan")
        #expect(parsed.object?["results"]?.array?.first?.object?["kind"]?.string == "station", "서면 역: the station 서면 first")
        // A byte that is not UTF-8 in the argument is an error, as in the worker, not dropped
        // (Swift's arguments would have made it U+FFFD, which a key drops: "gongdeok").
        let bad = try GeoFareBinary.runTool("/bin/sh", ["-c", "exec \"$0\" places search \"$1\" \"$(printf 'seo\\377myeon')\"", GeoFareBinary.url.path, out])
        #expect(bad.status == 65 && bad.stderr.contains("[invalid_utf8]"), "\(bad.status) \(bad.stderr)")
        let empty = try GeoFareBinary.run(["places", "search", out, "  "])
        #expect(empty.status == 65 && empty.stderr.contains("[query_empty]"))
        let missing = try GeoFareBinary.run(["places", "build", "/nonexistent/x.osm.pbf", "-o", out + ".x"])
        #expect(missing.status == 65 && missing.stderr.contains("[pbf_unreadable]"))
    }
}
