import Foundation
import GeoFareCore
import GeoFareTestSupport
import GeoFareText
import Testing

/// One grammar for requests (issue 43): every op, sent a valid request and the same request with
/// one misspelt field, answers the first and refuses the second with `unknown_field`, naming the
/// field by its path and the nearest known name; the worker goes on.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(5))))
struct UnknownFieldTests {
    static let seoul = #"{"lat":37.5665,"lon":126.978}"#, gangnam = #"{"lat":37.4979,"lon":127.0276}"#
    static let seomyeon = #"{"lat":35.1578,"lon":129.0597}"#

    /// (valid request without its id, the misspelt field as sent, the field's path, the suggestion)
    static let cases: [(request: String, typo: String, path: String, suggestion: String?)] = [
        (#""op":"fare","from":\#(seoul),"to":\#(gangnam),"depart_at":"2024-05-15T22:30:00+09:00""#, #""departure":"2024-05-15T22:30:00+09:00""#, "departure", "depart_at"),
        (#""op":"fare","tariff":"kr-seoul/regular","trip":{"distance_m":5000,"duration_s":900}"#, #""party_sise":3"#, "party_sise", "party_size"),
        (#""op":"route","from":\#(seoul),"to":\#(gangnam)"#, #""metrik":"shortest""#, "metrik", "metric"),
        (#""op":"matrix","sources":[\#(seoul)],"targets":[\#(gangnam)]"#, #""depart":"2024-05-15T22:30:00+09:00""#, "depart", "depart_at"),
        (#""op":"distance","from":\#(seoul),"to":\#(gangnam)"#, #""metric":"fastest""#, "metric", nil),
        (#""op":"split","total":10000,"method":"equal","party_size":3"#, #""unti":100"#, "unti", "unit"),
        (#""op":"transform","from":"EPSG:4326","to":"EPSG:5179","points":[[126.978,37.5665]]"#, #""point":[[1,2]]"#, "point", "points"),
        (#""op":"party.upsert","party":{"id":"p1","origin":\#(seoul),"destination":\#(gangnam),"depart_at":"2024-05-15T22:30:00+09:00","seats_total":4}"#,
         #""partie":{}"#, "partie", "party"),
        (#""op":"nearby","center":\#(seoul),"radius_m":3000"#, #""limt":5"#, "limt", "limit"),
        (#""op":"clusters","bbox":{"west":126.9,"south":37.4,"east":127.1,"north":37.6},"zoom":12"#, #""zooom":3"#, "zooom", "zoom"),
        (#""op":"places.search","q":"서면","near":\#(seomyeon)"#, #""limits":3"#, "limits", "limit"),
        (#""op":"places.reverse","at":\#(seomyeon)"#, #""radius":100"#, "radius", "radius_m"),
        (#""op":"match","from":\#(seoul),"to":\#(gangnam),"depart_at":"2024-05-15T22:30:00+09:00""#, #""max_delay":300"#, "max_delay", "max_delay_s"),
    ]

    @Test("Every op answers a valid request and refuses it with one misspelt field (unknown_field, its path, the nearest name); nested names too",
          .enabled(if: SharedData.runs("osm"), "needs ../shared/data/osm beside the checkout (a places index)"))
    func misspelt() throws {
        let places = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-\(UUID().uuidString).places").path
        defer { try? FileManager.default.removeItem(atPath: places) }
        let build = try GeoFareBinary.run(["places", "build", SharedData.url("osm/busan_seomyeon_1km.osm.pbf").path, "-o", places])
        #expect(build.status == 0, "\(build.stderr)")
        let db = temporaryDatabase()
        defer { removeDatabase(db) }
        let worker = try WorkerProcess(arguments: ["--db", db, "--places", places])
        for (i, c) in Self.cases.enumerated() {
            let valid = try #require(worker.call(#"{"id":\#(2 * i),\#(c.request)}"#))
            #expect(valid["ok"] == .bool(true), "\(c.request): \(valid)")
            // The misspelt name beside the valid ones.
            let request = c.request + "," + c.typo
            let refused = try #require(worker.call(#"{"id":\#(2 * i + 1),\#(request)}"#))
            let error = refused["error"]
            #expect(refused["ok"] == .bool(false) && error?["code"]?.string == "unknown_field" && error?["field"]?.string == c.path, "\(request): \(refused)")
            if let s = c.suggestion {
                #expect(error?["message"]?.string?.contains("did you mean '\(s)'?") == true, "\(refused)")
            } else {
                #expect(error?["message"]?.string?.contains("did you mean") == false, "\(refused)")
            }
        }
        // A misspelling inside a nested object is named by its path.
        let nested: [(String, String)] = [
            (#"{"id":100,"op":"fare","tariff":"kr-seoul/regular","trip":{"distance_m":5000,"duraton_s":900}}"#, "trip.duraton_s"),
            (#"{"id":101,"op":"route","from":{"lat":37.5665,"lon":126.978,"aproach":"curb"},"to":\#(Self.gangnam)}"#, "from.aproach"),
            (#"{"id":102,"op":"party.upsert","party":{"id":"p2","origin":\#(Self.seoul),"destination":\#(Self.gangnam),"depart_at":"2024-05-15T22:30:00+09:00","seats_totl":4}}"#, "party.seats_totl"),
            (#"{"id":103,"op":"fare","tariff":"kr-seoul/regular","segments":[{"distance_m":5,"duration_s":5},{"distance_m":5,"duraton_s":5}]}"#, "segments[1].duraton_s"),
        ]
        for (request, path) in nested {
            let refused = try #require(worker.call(request))
            #expect(refused["error"]?["code"]?.string == "unknown_field" && refused["error"]?["field"]?.string == path, "\(request): \(refused)")
        }
        // trip with segments: the two forms cannot go together.
        let both = try #require(worker.call(#"{"id":104,"op":"fare","tariff":"kr-seoul/regular","trip":{"distance_m":5000,"duration_s":900},"segments":[{"distance_m":5,"duration_s":5}]}"#))
        #expect(both["error"]?["code"]?.string == "invalid_request", "\(both)")
        // The party never written by the misspelt upsert, the worker still answering.
        let get = try #require(worker.call(#"{"id":105,"op":"party.get","party_id":"p2"}"#))
        #expect(get["error"]?["code"]?.string == "not_found", "\(get)")
        #expect(worker.finish() == 0)
    }
}
