import Foundation
import GeoFareCore
import GeoFareTestSupport
import GeoFareText
import Testing

/// `geofare serve` (issue 44) as a real subprocess on a loopback port, driven by a plain
/// HTTP/1.1 client: its answers are the worker's, its statuses say what went wrong, it survives
/// what clients send, and it stops gracefully under load without losing an acknowledged write.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(10))))
struct HTTPServeTests {
    static let seomyeon = (35.1578, 129.0597)

    /// 200 requests of every op (valid ones and errors), as `(op, body)` with the body a JSON object
    /// without `op` and `id`, in the order both the worker and the server get them.
    static func requests(clusterIDs: [String] = []) -> [(op: String, body: String)] {
        var rng = SeededGenerator(seed: 44)
        func point(_ spread: Double = 0.02) -> String {
            let lat = seomyeon.0 + Double.random(in: -spread...spread, using: &rng), lon = seomyeon.1 + Double.random(in: -spread...spread, using: &rng)
            return #"{"lat":\#((lat * 1e5).rounded() / 1e5),"lon":\#((lon * 1e5).rounded() / 1e5)}"#
        }
        var out: [(String, String)] = []
        for i in 0..<200 {
            let when = "2030-05-\(10 + i % 9)T\(10 + i % 12):\(10 + i % 40):00+09:00"
            let bad = i % 10 == 9
            out.append(("ping", bad ? #"{"pong":1}"# : "{}"))
            out.append(("version", i % 50 == 0 ? #"{"catalog":true}"# : bad ? #"{"catalog":"yes"}"# : "{}"))
            out.append(("transform", #"{"from":"EPSG:4326","to":"\#(bad ? "EPSG:99999" : "EPSG:5179")","points":[[129.0597,35.1578],[\#(129 + Double(i) / 1000),35.2]]}"#))
            out.append(("distance", #"{"from":\#(point()),"to":\#(bad ? #"{"lat":95,"lon":129}"# : point())}"#))
            out.append(("route", #"{"from":\#(point()),"to":\#(point()),"depart_at":"\#(when)"\#(bad ? #","metric":"slowest""# : "")}"#))
            out.append(("matrix", #"{"sources":[\#(point()),\#(point())],"targets":[\#(point())],"depart_at":"\#(when)"}"#))
            out.append(("fare", #"{"from":\#(point()),"to":\#(point()),"depart_at":"\#(when)","party_size":\#(bad ? 0 : 1 + i % 4)\#(i % 7 == 0 ? #","route":true"# : "")}"#))
            out.append(("split", #"{"total":\#(1000 + i * 137),"unit":100,"method":"equal","party_size":\#(bad ? 99 : 1 + i % 5)}"#))
        }
        for i in 0..<200 {
            let when = "2030-05-15T\(10 + i % 12):\(10 + i % 40):00+09:00"
            let seats = i % 10 == 9 ? 0 : 2 + i % 3
            out.append(("party.upsert", #"{"party":{"id":"h\#(i % 60)","origin":\#(point(0.01)),"destination":\#(point(0.05)),"depart_at":"\#(when)","seats_total":\#(seats),"seats_taken":1}}"#))
        }
        for i in 0..<200 { out.append(("party.get", #"{"party_id":"h\#(i % 70)"}"#)) }
        for i in 0..<200 { out.append(("nearby", #"{"center":\#(point(0.01)),"\#(i % 2 == 0 ? "radius_m" : "limit")":\#(i % 2 == 0 ? 300 + i * 10 : 1 + i % 9)}"#)) }
        for i in 0..<200 {
            let half = 0.005 * Double(1 + i % 8)
            out.append(("clusters", #"{"bbox":{"west":\#(seomyeon.1 - half),"south":\#(seomyeon.0 - half),"east":\#(seomyeon.1 + half),"north":\#(seomyeon.0 + half)},"zoom":\#(i % 10 == 9 ? 30 : 11 + i % 7)}"#))
        }
        for i in 0..<200 {
            let id = clusterIDs.isEmpty || i % 4 == 3 ? "c14-\(i)" : clusterIDs[i % clusterIDs.count]
            out.append(("cluster.leaves", #"{"cluster_id":"\#(id)","limit":\#(1 + i % 20)}"#))
        }
        for i in 0..<200 {
            out.append(("match", #"{"from":\#(point(0.01)),"to":\#(point(0.05)),"depart_at":"2030-05-15T\#(10 + i % 12):\#(10 + i % 40):00+09:00","limit":\#(1 + i % 5)}"#))
        }
        let queries = ["서면", "부전", "롯데", "seomyeon", "전포", "ㅅㅁ", "station", "서면역 1번 출구", "zz", ""]
        for i in 0..<200 {
            out.append(("places.search", #"{"q":"\#(queries[i % queries.count])","near":\#(point()),"limit":\#(1 + i % 5)}"#))
            out.append(("places.reverse", #"{"at":\#(point(0.005)),"radius_m":\#(i % 10 == 9 ? 99999 : 50 + i)}"#))
        }
        for i in 0..<200 { out.append(("party.remove", #"{"party_id":"h\#(i % 70)"}"#)) }
        return out
    }

    /// The worker's line for the same request.
    static func line(_ id: Int, _ r: (op: String, body: String)) -> String {
        #"{"id":\#(id),"op":"\#(r.op)""# + (r.body == "{}" ? "}" : "," + r.body.dropFirst())
    }

    /// A response without what differs by the clock (`updated_at`) or is the worker's own (`id`).
    static func comparable(_ v: JSONValue) -> JSONValue {
        switch v {
        case var .object(o):
            o["updated_at"] = nil
            o["id"] = o["id"].map(comparable)
            if o["ok"] != nil { o["id"] = nil }
            return .object(o.mapValues(comparable))
        case let .array(a): return .array(a.map(comparable))
        default: return v
        }
    }

    static func expectedStatus(_ code: String?) -> Int {
        switch code {
        case nil: 200
        case "unknown_op", "not_found", "unknown_cluster": 404
        case "internal_error": 500
        case "storage_error", "storage_corrupt", "unavailable", "places_not_loaded", "request_timeout": 503
        default: 400
        }
    }

    static func places() throws -> String {
        let places = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-\(UUID().uuidString).places").path
        let build = try GeoFareBinary.run(["places", "build", SharedData.url("osm/busan_seomyeon_1km.osm.pbf").path, "-o", places])
        #expect(build.status == 0, "\(build.stderr)")
        return places
    }

    @Test("For 200 requests of every op, POST /v1/{op} answers the worker's result or error, with the status its code says",
          .enabled(if: SharedData.runs("osm"), "needs ../shared/data/osm beside the checkout (a places index)"))
    func sameAsWorker() throws {
        let places = try Self.places()
        defer { try? FileManager.default.removeItem(atPath: places) }
        let (workerDB, serveDB) = (temporaryDatabase(), temporaryDatabase())
        defer { removeDatabase(workerDB); removeDatabase(serveDB) }
        // Cluster ids to ask for: those a first pass of the worker's clusters answers holds.
        let first = Self.requests()
        let worker = try WorkerProcess(arguments: ["--db", workerDB, "--places", places])
        var clusterIDs: Set<String> = []
        for (k, r) in first.enumerated() where r.op == "party.upsert" || r.op == "clusters" {
            let answer = try #require(worker.call(Self.line(k, r)))
            for item in answer["result"]?["items"]?.array ?? [] where (item["count"]?.int64 ?? 0) > 1 {
                if let id = item["id"]?.string { clusterIDs.insert(id) }
            }
        }
        #expect(worker.finish() == 0)
        removeDatabase(workerDB)
        let requests = Self.requests(clusterIDs: clusterIDs.sorted())
        #expect(Set(requests.map(\.op)).count == 17 && requests.count == 17 * 200)

        let reference = try WorkerProcess(arguments: ["--db", workerDB, "--places", places])
        reference.send(Array((requests.enumerated().map { Self.line($0.offset, $0.element) }.joined(separator: "\n") + "\n").utf8))
        let expected = reference.receive(requests.count, timeout: 300)
        #expect(reference.finish() == 0)
        try #require(expected.count == requests.count)

        let server = try ServeProcess(arguments: ["--db", serveDB, "--places", places])
        let client = try server.client()
        var compared = [String: Int](), errors = 0
        for (k, r) in requests.enumerated() {
            let response = try client.post("/v1/\(r.op)", r.body)
            let got = try JSONParser.parse(response.body)
            let want = Self.comparable(expected[k])
            #expect(Self.comparable(got) == want, "\(r.op) \(r.body)\nhttp: \(response.text)\nworker: \(JSONWriter.string(expected[k]))")
            let code = got["error"]?["code"]?.string
            #expect(response.status == Self.expectedStatus(code), "\(r.op) \(r.body): \(response.status) \(response.text)")
            compared[r.op, default: 0] += 1
            if code != nil { errors += 1 }
        }
        #expect(compared.values.allSatisfy { $0 == 200 } && compared.count == 17, "\(compared)")
        #expect(errors > 300 && errors < requests.count / 2, "\(errors) errors: the requests should be mostly valid, with errors of every kind")
        let stop = server.stop()
        #expect(stop.status == 0, "\(server.output)")
    }

    @Test("Malformed JSON 400, a 10 MB body 413, an unknown op 404, a wrong field 400, another media type 415, an unknown path 404; the server keeps serving")
    func statuses() throws {
        let db = temporaryDatabase()
        defer { removeDatabase(db) }
        let server = try ServeProcess(arguments: ["--db", db])
        let client = try server.client()
        let fare = #"{"from":{"lat":37.5665,"lon":126.978},"to":{"lat":37.4979,"lon":127.0276},"depart_at":"2024-05-15T22:30:00+09:00"}"#
        let cases: [(String, () throws -> HTTPClient.Response, Int, String)] = [
            ("malformed JSON", { try client.post("/v1/fare", #"{"from":{"lat":37.5"#) }, 400, "invalid_json"),
            ("a 10 MB body", { try client.request("POST", "/v1/fare", body: [UInt8](repeating: 0x20, count: 10_000_000), contentType: "application/json") }, 413, "request_too_large"),
            ("an unknown op", { try client.post("/v1/farez", fare) }, 404, "unknown_op"),
            ("a wrong field", { try client.post("/v1/fare", String(fare.dropLast()) + #","departure":"2024-05-15T22:30:00+09:00"}"#) }, 400, "unknown_field"),
            ("a body of another type", { try client.post("/v1/fare", "from=here", contentType: "application/x-www-form-urlencoded") }, 415, "unsupported_media_type"),
            ("an unknown path", { try client.get("/v2/fare") }, 404, "not_found"),
            ("an op that is not a string", { try client.post("/v1/fare", String(fare.dropLast()) + #","op":"route"}"#) }, 400, "invalid_request"),
        ]
        for (what, send, status, code) in cases {
            // A new connection for each: the server may close one after a refused body.
            let response = try send()
            #expect(response.status == status, "\(what): \(response.status) \(response.text)")
            #expect(try JSONParser.parse(response.body)["error"]?["code"]?.string == code, "\(what): \(response.text)")
            let health = try server.client().get("/healthz")
            #expect(health.status == 200 && health.text == #"{"status":"ready"}"#, "after \(what): \(health.text)")
        }
        let ok = try server.client().post("/v1/fare", fare)
        #expect(ok.status == 200 && ok.text.hasPrefix(#"{"ok":true,"result":{"breakdown""#), "\(ok.text)")
        let page = try server.client().get("/")
        #expect(page.status == 200 && page.text.contains("<canvas id=\"map\"") && page.headers["content-type"]?.hasPrefix("text/html") == true)
        let script = try server.client().get("/map.js")
        #expect(script.status == 200 && script.text.contains("document.body.dataset.ready"))
        // POST /v1/pool: geofare pool's planner over the riders sent.
        let riders = (0..<6).map { i in
            #"{"id":"r\#(i)","from":{"lat":\#(37.5665 + Double(i) * 0.0004),"lon":126.978},"to":{"lat":37.4979,"lon":\#(127.0276 + Double(i % 2) * 0.0005)},"depart_at":"2030-05-15T22:\#(30 + i):00+09:00"}"#
        }
        let pooled = try server.client().post("/v1/pool", #"{"riders":[\#(riders.joined(separator: ","))],"delay_s":600}"#)
        let plan = try JSONParser.parse(pooled.body)
        #expect(pooled.status == 200 && (plan["result"]?["groups"]?.array?.count ?? 0) >= 2, "\(pooled.text)")
        let badPool = try server.client().post("/v1/pool", #"{"riderz":[]}"#)
        #expect(badPool.status == 400 && badPool.text.contains("unknown_field"), "\(badPool.text)")

        // A second server on the same port says why it cannot serve and exits, instead of hanging.
        let other = temporaryDatabase()
        defer { removeDatabase(other) }
        let taken = try GeoFareBinary.run(["serve", "--port", String(server.port), "--db", other], timeout: 60)
        #expect(taken.status == 65 && taken.stderr.contains("cannot serve on 127.0.0.1:\(server.port)") && taken.stderr.contains("[unavailable]"), "\(taken.stderr)")
        #expect(server.stop().status == 0, "\(server.output)")
    }

    @Test("POST /v1/batch answers JSON lines in order, each as the worker answers it; /metrics counts requests and errors by op and code")
    func batchAndMetrics() throws {
        let (db1, db2) = (temporaryDatabase(), temporaryDatabase())
        defer { removeDatabase(db1); removeDatabase(db2) }
        let lines = Self.requests().enumerated().filter { !$0.element.op.hasPrefix("places") }.prefix(400).map { Self.line($0.offset, $0.element) }
            + ["not json", #"{"id":"x","op":"nope"}"#]
        let worker = try WorkerProcess(arguments: ["--db", db1])
        worker.send(Array((lines.joined(separator: "\n") + "\n").utf8))
        let expected = worker.receive(lines.count, timeout: 300)
        #expect(worker.finish() == 0)
        let server = try ServeProcess(arguments: ["--db", db2])
        let response = try server.client().request("POST", "/v1/batch", body: Array((lines.joined(separator: "\n") + "\n").utf8), contentType: "application/x-ndjson")
        #expect(response.status == 200)
        let got = response.body.split(separator: UInt8(ascii: "\n")).map { (try? JSONParser.parse(Array($0))) ?? .null }
        #expect(got.count == lines.count)
        for (k, (a, b)) in zip(got, expected).enumerated() {
            var (x, y) = (Self.comparable(a), Self.comparable(b))
            if case var .object(o) = x { o["id"] = a["id"]; x = .object(o) }
            if case var .object(o) = y { o["id"] = b["id"]; y = .object(o) }
            #expect(x == y, "line \(k + 1): \(lines[k])")
        }
        let metrics = try server.client().get("/metrics")
        #expect(metrics.status == 200 && metrics.headers["content-type"]?.hasPrefix("text/plain") == true)
        for name in [#"geofare_requests_total{op="fare",code="ok"}"#, #"geofare_requests_total{op="fare",code="invalid_party_size"}"#,
                     #"geofare_requests_total{op="unknown",code="invalid_json"}"#, #"geofare_request_duration_seconds_bucket{op="fare",le="#,
                     "geofare_parties ", "geofare_store_up 1", "geofare_in_flight_requests", #"geofare_http_responses_total{status="200"}"#] {
            #expect(metrics.text.contains(name), "no \(name) in\n\(metrics.text.prefix(3000))")
        }
        #expect(server.stop().status == 0)
    }

    @Test("64 clients × 200 mixed requests: all answered, no 5xx, every acknowledged upsert readable; SIGTERM under load: exit 0 within 10 s, no acknowledged write lost")
    func loadAndGracefulStop() async throws {
        let db = temporaryDatabase()
        defer { removeDatabase(db) }
        let server = try ServeProcess(arguments: ["--db", db])
        let clients = 64, perClient = 200
        let acked = Locked<[String]>([]), failures = Locked<[String]>([])
        @Sendable func load(_ c: Int, count: Int, stopOnError: Bool) {
            guard let client = try? server.client() else { failures.mutate { $0.append("client \(c): no connection") }; return }
            var rng = SeededGenerator(seed: UInt64(c + 1))
            for i in 0..<count {
                let lat = 37.55 + Double.random(in: 0...0.05, using: &rng), lon = 126.95 + Double.random(in: 0...0.08, using: &rng)
                let (op, body): (String, String)
                switch i % 4 {
                case 0: (op, body) = ("party.upsert", #"{"party":{"id":"c\#(c)-\#(i)","origin":{"lat":\#(lat),"lon":\#(lon)},"destination":{"lat":37.5,"lon":127.03},"depart_at":"2030-05-15T22:30:00+09:00","seats_total":4}}"#)
                case 1: (op, body) = ("fare", #"{"from":{"lat":\#(lat),"lon":\#(lon)},"to":{"lat":37.5,"lon":127.03},"depart_at":"2030-05-15T22:30:00+09:00","party_size":2}"#)
                case 2: (op, body) = ("nearby", #"{"center":{"lat":\#(lat),"lon":\#(lon)},"radius_m":1000,"limit":10}"#)
                default: (op, body) = ("clusters", #"{"bbox":{"west":126.9,"south":37.5,"east":127.1,"north":37.65},"zoom":\#(10 + i % 6)}"#)
                }
                do {
                    let r = try client.post("/v1/\(op)", body)
                    if r.status >= 500 || r.status != 200 { failures.mutate { $0.append("\(op): \(r.status) \(r.text.prefix(200))") } }
                    if op == "party.upsert" && r.status == 200 { acked.mutate { $0.append("c\(c)-\(i)") } }
                } catch {
                    if stopOnError { return }
                    failures.mutate { $0.append("\(op): \(error)") }
                }
            }
        }
        // Under load, to the end: 64 client threads (not the test's pool), awaited without blocking it.
        await Self.together(clients) { c in load(c, count: perClient, stopOnError: false) }
        #expect(failures.value.isEmpty, "\(failures.value.count) failures: \(failures.value.prefix(5))")
        let written = acked.value
        #expect(written.count == clients * perClient / 4)
        let reader = try server.client()
        var missing: [String] = []
        for id in written where (try? reader.post("/v1/party.get", #"{"party_id":"\#(id)"}"#).status) != 200 { missing.append(id) }
        #expect(missing.isEmpty, "acknowledged and not readable: \(missing.prefix(5))")

        // SIGTERM while 64 clients write: every write acknowledged before the stop is in the store after it.
        acked.mutate { $0.removeAll() }
        async let during: Void = Self.together(clients) { c in load(100 + c, count: 100_000, stopOnError: true) }
        try await Task.sleep(for: .milliseconds(1500))
        let stop = server.stop(SIGTERM, timeout: 30)
        #expect(stop.status == 0, "\(server.output.suffix(2000))")
        #expect(stop.seconds < 10, "the graceful stop took \(stop.seconds) s")
        await during
        let after = acked.value
        #expect(after.count > 50, "only \(after.count) writes acknowledged under load before the stop")
        let check = try WorkerProcess(arguments: ["--db", db])
        var lost: [String] = []
        for (k, id) in after.enumerated() {
            let answer = check.call(#"{"id":\#(k),"op":"party.get","party_id":"\#(id)"}"#)
            if answer?["ok"] != .bool(true) { lost.append(id) }
        }
        #expect(check.finish() == 0)
        #expect(lost.isEmpty, "\(lost.count) of \(after.count) acknowledged writes lost: \(lost.prefix(5))")
    }
}

extension HTTPServeTests {
    /// Runs `body(0..<n)` on `n` threads of their own and resumes when all have returned.
    static func together(_ n: Int, _ body: @escaping @Sendable (Int) -> Void) async {
        let group = DispatchGroup()
        for c in 0..<n {
            group.enter()
            Thread.detachNewThread { body(c); group.leave() }
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in group.notify(queue: .global()) { done.resume() } }
    }
}

/// A value shared by test threads under a lock.
final class Locked<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T { lock.withLock { stored } }
    func mutate(_ body: (inout T) -> Void) { lock.withLock { body(&stored) } }
}
