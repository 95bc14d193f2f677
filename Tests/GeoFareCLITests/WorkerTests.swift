import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareTestSupport
import GeoFareText
import Testing

/// The worker as a backend uses it: the real binary over pipes.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(10))))
struct WorkerTests {
    @Test("10,000 pipelined requests of every op, each answered once, in order, and right")
    func mixedRequests() throws {
        let (worker, db) = try WorkerProcess.onTemporaryDatabase()
        defer { removeDatabase(db) }
        var rng = SeededGenerator(seed: 1)
        var lines: [String] = []
        var checks: [(JSONValue) -> Bool] = []
        var stored = Set<String>()
        var n = 0
        while lines.count < 10_000 {
            let id = lines.count
            let lat = Double.random(in: 37.50...37.60, using: &rng), lon = Double.random(in: 126.93...127.03, using: &rng)
            switch n % 14 {
            case 0:
                lines.append(#"{"id":\#(id),"op":"ping"}"#); checks.append { $0["result"]?["pong"] == .bool(true) }
            case 1:
                lines.append(#"{"id":\#(id),"op":"transform","from":"wgs84","to":"utmk","points":[[126.978,37.5665],[127,37.5]]}"#)
                checks.append { abs(($0["result"]?["points"]?.array?[0].array?[0].double ?? 0) - 953901.165) < 0.001 }
            case 2:
                lines.append(#"{"id":\#(id),"op":"distance","from":{"lat":40.6,"lon":-73.8},"to":{"lat":49.01666667,"lon":2.55}}"#)
                checks.append { abs(($0["result"]?["distance_m"]?.double ?? 0) - 5853226) < 0.5 }
            case 3:
                lines.append(#"{"id":\#(id),"op":"fare","trip":{"distance_m":5000,"duration_s":900},"cruise_kmh":25,"tariff":"kr-seoul/regular","depart_at":"2024-05-15T14:00:00+09:00"}"#)
                checks.append { $0["result"]?["total"]?.int64 == 8_000 && $0["result"]?["currency"] == .string("KRW") }
            case 4:
                // Every other one asks for the route in the result (protocol 2: opt-in).
                let withRoute = id % 2 == 0
                lines.append(#"{"id":\#(id),"op":"fare","from":{"lat":\#(lat),"lon":\#(lon)},"to":{"lat":37.4979,"lon":127.0276},"depart_at":"2024-05-15T22:30:00+09:00","party_size":3\#(withRoute ? #","route":true"# : "")}"#)
                checks.append { r in
                    guard let q = r["result"], let total = q["total"]?.int64, let shares = q["per_person"]?.array?.compactMap(\.int64) else { return false }
                    let route = q["route"]?["distance_m"]?.double
                    return shares.count == 3 && shares.reduce(0, +) == total && (withRoute ? route ?? 0 > 0 : route == nil)
                }
            case 5:
                lines.append(#"{"id":\#(id),"op":"route","from":{"lat":\#(lat),"lon":\#(lon)},"to":{"lat":37.2636,"lon":127.0286},"depart_at":"2024-05-15T22:50:00+09:00"}"#)
                checks.append { r in
                    guard let route = r["result"], let d = route["distance_m"]?.double, let segs = route["segments"]?.array else { return false }
                    let sum = segs.compactMap { $0["distance_m"]?.double }.reduce(0, +)
                    return abs(sum - d) < 1e-6 * d && segs.count >= 2
                }
            case 6:
                lines.append(#"{"id":\#(id),"op":"split","total":20900,"method":"shapley","weights":[7900,14000,20900],"unit":10}"#)
                checks.append { $0["result"]?["shares"] == .array([.int(2640), .int(5680), .int(12580)]) }
            case 7, 8:
                let pid = "p\(n)"
                stored.insert(pid)
                lines.append(#"{"id":\#(id),"op":"party.upsert","party":\#(partyJSON(pid, lat: lat, lon: lon))}"#)
                checks.append { $0["result"]?["party"]?["version"]?.int64 == 1 && $0["result"]?["party"]?["attributes"]?["k"] == .string("v") }
            case 9:
                let pid = "p\(n - 2)"
                lines.append(#"{"id":\#(id),"op":"party.get","party_id":"\#(pid)"}"#)
                checks.append { $0["result"]?["party"]?["id"] == .string(pid) }
            case 10:
                lines.append(#"{"id":\#(id),"op":"nearby","center":{"lat":\#(lat),"lon":\#(lon)},"radius_m":3000,"limit":20}"#)
                checks.append { r in
                    guard let ps = r["result"]?["parties"]?.array else { return false }
                    let d = ps.compactMap { $0["distance_m"]?.double }
                    return d == d.sorted() && d.allSatisfy { $0 <= 3000 }
                }
            case 11:
                lines.append(#"{"id":\#(id),"op":"clusters","bbox":{"west":126.9,"south":37.45,"east":127.1,"north":37.65},"zoom":11}"#)
                let expected = stored.count
                checks.append { r in
                    let counts = r["result"]?["items"]?.array?.compactMap { $0["count"]?.int64 } ?? []
                    return counts.reduce(0, +) == Int64(expected)
                }
            case 12:
                lines.append(#"{"id":\#(id),"op":"version"}"#)
                checks.append { $0["result"]?["protocol"]?.int64 == 4 && ($0["result"]?["tariff_count"]?.int64 ?? 0) >= 9 && $0["result"]?["tariffs"] == nil }
            default:
                lines.append(#"{"id":\#(id),"op":"stats"}"#)
                let expected = stored.count
                checks.append { $0["result"]?["parties"]?.int64 == Int64(expected) }
            }
            n += 1
        }
        worker.send(Array((lines.joined(separator: "\n") + "\n").utf8))
        let responses = worker.receive(lines.count, timeout: 240)
        #expect(responses.count == lines.count)
        for (i, (response, check)) in zip(responses, checks).enumerated() {
            let request = try JSONParser.parse(Array(lines[i].utf8))
            #expect(response["id"] == request["id"], "response \(i) has the wrong id")
            #expect(response.isOK, "request \(i) failed: \(JSONWriter.string(response))")
            #expect(check(response), "request \(i): \(lines[i]) → \(JSONWriter.string(response).prefix(400))")
        }
        #expect(worker.finish() == 0)
    }

    @Test("Fuzz: 100,000 lines of garbage and valid requests, each answered once with the right id or null; memory flat")
    func fuzz() throws {
        let worker = try WorkerProcess(arguments: ["--db", ":memory:", "--max-line-bytes", "4096"])
        var rng = SeededGenerator(seed: 99)
        let garbage: [[UInt8]] = [
            Array("".utf8), Array("{".utf8), Array("not json".utf8), Array(#"{"id":1,"op":"#.utf8), Array("[1,2,3]".utf8),
            Array(#"{"id":NaN,"op":"ping"}"#.utf8), Array(#"{"id":1,"op":"ping","x":Infinity}"#.utf8), Array(#"{"id":1e999,"op":"ping"}"#.utf8),
            Array(String(repeating: "[", count: 5000).utf8), Array(#"{"id":[1],"op":"ping"}"#.utf8), Array(#"{"id":"\u0000","op":"nope"}"#.utf8),
            [0xFF, 0xFE, 0x7B, 0x7D], Array(#"{"id":"x","op":"fare","trip":{"distance_m":"far","duration_s":1}}"#.utf8),
            Array(#"{"id":7,"op":"fare","trip":{"distance_m":1e308,"duration_s":1e308},"tariff":"kr-seoul/regular"}"#.utf8),
            Array(#"{"id":8,"op":"transform","from":"wgs84","to":"utmk","points":[[1e308,-1e308],[null,1],"x"]}"#.utf8),
            Array(#"{"id":9,"op":"party.upsert","party":{"id":"","seats_total":-4}}"#.utf8),
            Array(#"{"id":10,"op":"clusters","bbox":{"west":"a"},"zoom":99}"#.utf8),
            Array(String(repeating: "x", count: 9000).utf8), Array("\r".utf8), Array(#"{"op":"ping"}"#.utf8),
            Array(#"{"id":12345678901234567890123,"op":"ping"}"#.utf8), Array(#"{"id":true,"op":"split","total":-1}"#.utf8),
        ]
        var expectedIDs: [JSONValue] = []
        var all: [UInt8] = []
        let total = 100_000
        for i in 0..<total {
            if Int.random(in: 0..<4, using: &rng) == 0 {
                all += Array(#"{"id":"ok\#(i)","op":"ping"}"#.utf8)
                expectedIDs.append(.string("ok\(i)"))
            } else {
                let g = garbage[Int.random(in: 0..<garbage.count, using: &rng)]
                all += g
                // The id a correct worker echoes: that of a parseable object with a scalar id.
                if let v = try? JSONParser.parse(g), let id = v["id"], id.isScalar, g.count <= 4096 { expectedIDs.append(id) } else { expectedIDs.append(.null) }
            }
            all.append(0x0A)
        }
        let half = all.count / 2
        let cut = all[half...].firstIndex(of: 0x0A)! + 1
        worker.send(Array(all[..<cut]))
        let firstCount = all[..<cut].filter { $0 == 0x0A }.count
        var responses = worker.receive(firstCount, timeout: 120)
        let rssMid = worker.residentKiB()
        worker.send(Array(all[cut...]))
        responses += worker.receive(total - firstCount, timeout: 120)
        let rssEnd = worker.residentKiB()
        #expect(responses.count == total)
        var mismatches = 0
        for (r, id) in zip(responses, expectedIDs) where r["id"] != id {
            mismatches += 1
            if mismatches < 5 { Issue.record("expected id \(JSONWriter.string(id)), got \(JSONWriter.string(r))") }
        }
        #expect(mismatches == 0)
        // Every error names a code; validation errors name the field.
        #expect(responses.allSatisfy { $0.isOK || $0["error"]?["code"]?.string != nil })
        let fieldErrors = responses.filter { $0["error"]?["code"] == .string("wrong_type") }
        #expect(fieldErrors.allSatisfy { $0["error"]?["field"]?.string != nil })
        #expect(rssEnd - rssMid < TestMemory.growthKiB(20_000), "memory grew from \(rssMid) KiB to \(rssEnd) KiB")
        #expect(worker.finish() == 0)
    }

    @Test("kill -9 after N acknowledged upserts: a new worker on the same file has all N")
    func durability() throws {
        let (worker, db) = try WorkerProcess.onTemporaryDatabase()
        defer { removeDatabase(db) }
        let n = 500
        worker.send(Array((0..<n).map { #"{"id":\#($0),"op":"party.upsert","party":\#(partyJSON("k\($0)", lat: 37.5, lon: 127))}"# }.joined(separator: "\n").utf8) + [0x0A])
        let acks = worker.receive(n)
        #expect(acks.count == n && acks.allSatisfy(\.isOK))
        kill(worker.pid, SIGKILL)
        _ = worker.wait()
        let second = try WorkerProcess(arguments: ["--db", db])
        #expect(second.call(#"{"id":1,"op":"stats"}"#)?["result"]?["parties"]?.int64 == Int64(n))
        #expect(second.call(#"{"id":2,"op":"party.get","party_id":"k499"}"#)?["result"]?["party"]?["id"] == .string("k499"))
        #expect(second.finish() == 0)
    }

    /// Writes that arrive together commit as one group: an invalid one answers its own error, a
    /// refused one fails its whole group, order holds, and kill -9 keeps every acknowledged write.
    @Test("Writes that arrive together commit as one group: own errors, refused groups, order, and kill -9 durability")
    func writeGroups() throws {
        let (worker, db) = try WorkerProcess.onTemporaryDatabase()
        defer { removeDatabase(db) }
        #expect(worker.call(#"{"id":0,"op":"ping"}"#)?.isOK == true)
        // SQLite itself refuses the party 'boom' (a trigger made by another process).
        let trigger = try GeoFareBinary.runTool("/usr/bin/env", ["sqlite3", db, "CREATE TRIGGER refuse BEFORE INSERT ON party WHEN NEW.id = 'boom' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;"])
        #expect(trigger.status == 0, "\(trigger.stderr)")
        let upsert = { (id: Int, pid: String) in #"{"id":\#(id),"op":"party.upsert","party":\#(partyJSON(pid, lat: 37.5, lon: 127))}"# }
        // One write (under PIPE_BUF, so the worker reads it at once): two runs of writes split by a party.get.
        let lines = [
            upsert(1, "g1"), upsert(2, "g2"),
            #"{"id":3,"op":"party.upsert","party":{"id":"bad","origin":{"lat":37.5,"lon":127}}}"#,
            #"{"id":4,"op":"party.remove","party_id":"g1"}"#, upsert(5, "g2"),
            #"{"id":6,"op":"party.get","party_id":"g2"}"#,
            upsert(7, "h1"), upsert(8, "boom"), upsert(9, "h2"),
            #"{"id":10,"op":"stats"}"#,
        ].joined(separator: "\n") + "\n"
        #expect(lines.utf8.count < 4096)
        worker.send(Array(lines.utf8))
        let answers = worker.receive(10)
        #expect(answers.map { $0["id"]?.int64 ?? -1 } == Array(1...10))
        guard answers.count == 10 else { return }
        #expect(answers[0]["result"]?["party"]?["version"]?.int64 == 1 && answers[1].isOK)
        #expect(answers[2]["error"]?["code"] == .string("missing_field") && (answers[2]["error"]?["field"]?.string ?? "").hasPrefix("party."))
        #expect(answers[3]["result"]?["removed"] == .bool(true))
        #expect(answers[4]["result"]?["party"]?["version"]?.int64 == 2)
        #expect(answers[5]["result"]?["party"]?["version"]?.int64 == 2)
        // Had h1 and h2 been their own transactions, they would be acknowledged.
        for a in answers[6...8] {
            #expect(a["error"]?["code"] == .string("storage_error"), "\(JSONWriter.string(a))")
        }
        #expect((answers[7]["error"]?["message"]?.string ?? "").contains("refused by the test"))
        #expect(answers[9]["result"]?["parties"]?.int64 == 1)
        // Many writes at once, then kill -9: every acknowledged one is in the file.
        let n = 3_000
        worker.send(Array((0..<n).map { upsert(100 + $0, "k\($0)") }.joined(separator: "\n").utf8) + [0x0A])
        let acks = worker.receive(n)
        #expect(acks.count == n && acks.allSatisfy(\.isOK))
        #expect(acks.map { $0["id"]?.int64 ?? -1 } == (0..<n).map { Int64(100 + $0) })
        kill(worker.pid, SIGKILL)
        _ = worker.wait()
        let export = try GeoFareBinary.run(["parties", "export", "--db", db])
        let ids = Set(export.stdout.split(separator: "\n").compactMap { (try? JSONParser.parse(Array($0.utf8)))?["id"]?.string })
        #expect(ids == Set(["g2"] + (0..<n).map { "k\($0)" }))
    }

    /// Another process imports more parties than the feed is worth applying: the worker reloads,
    /// and stats, party.get and nearby agree at once (SQLite file, PostgreSQL).
    @Test("An import by another process too large for the feed: the worker reloads and its reads agree at once (SQLite, PostgreSQL)",
          arguments: PostgresServer.storesBuilt)
    func catchUpInBulk(store: String) throws {
        let server = store == "postgres" ? try PostgresServer() : nil
        defer { server?.destroy() }
        let db = temporaryDatabase()
        defer { removeDatabase(db) }
        let storeArguments = server.map { ["--store", $0.url] } ?? ["--db", db]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-import-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let worker = try WorkerProcess(arguments: storeArguments)
        #expect(worker.call(#"{"id":1,"op":"party.upsert","party":\#(partyJSON("own", lat: 37.5, lon: 127))}"#)?.isOK == true)
        // A few changes from another process: applied from the feed, seen by stats (no party op first).
        try (0..<3).map { partyJSON("few\($0)", lat: 37.51, lon: 127) }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try GeoFareBinary.run(["parties", "import", file.path] + storeArguments).status == 0)
        #expect(worker.call(#"{"id":2,"op":"stats"}"#)?["result"]?["parties"]?.int64 == 4)
        // 25,000 (more than the 10,000 worth applying one by one) while the worker answers.
        let n = 25_000
        try (0..<n).map { partyJSON("bulk\($0)", lat: 37.4 + Double($0 % 1000) * 2e-4, lon: 126.9 + Double($0 / 1000) * 4e-3) }
            .joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let imported = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? GeoFareBinary.run(["parties", "import", file.path] + storeArguments)
            imported.signal()
        }
        var answered = 0
        while imported.wait(timeout: .now() + 0.05) == .timedOut {
            if worker.call(#"{"id":3,"op":"ping"}"#)?.isOK == true { answered += 1 }
        }
        #expect(answered > 0)
        #expect(worker.call(#"{"id":4,"op":"stats"}"#)?["result"]?["parties"]?.int64 == Int64(4 + n))
        #expect(worker.call(#"{"id":5,"op":"party.get","party_id":"bulk24999"}"#)?["result"]?["party"]?["id"] == .string("bulk24999"))
        let near = worker.call(#"{"id":6,"op":"nearby","center":{"lat":37.4,"lon":126.9},"radius_m":30,"limit":5}"#)
        #expect(near?["result"]?["parties"]?.array?.first?["id"] == .string("bulk0"))
        #expect(worker.stderrContains("by reloading \(4 + n) parties"), "\(String(decoding: worker.errorOutput, as: UTF8.self))")
        // After the reload the feed goes on from the snapshot: a later removal elsewhere is seen.
        let other = try WorkerProcess(arguments: storeArguments)
        #expect(other.call(#"{"id":7,"op":"party.remove","party_id":"bulk0"}"#)?["result"]?["removed"] == .bool(true))
        #expect(other.finish() == 0)
        #expect(worker.call(#"{"id":8,"op":"party.get","party_id":"bulk0"}"#)?["error"]?["code"] == .string("not_found"))
        #expect(worker.call(#"{"id":9,"op":"stats"}"#)?["result"]?["parties"]?.int64 == Int64(3 + n))
        #expect(worker.finish() == 0)
    }

    @Test("Two workers on one database file see each other's writes by their next request")
    func twoProcesses() throws {
        let (a, db) = try WorkerProcess.onTemporaryDatabase()
        defer { removeDatabase(db) }
        let b = try WorkerProcess(arguments: ["--db", db])
        #expect(a.call(#"{"id":1,"op":"party.upsert","party":\#(partyJSON("shared", lat: 37.5665, lon: 126.978))}"#)?.isOK == true)
        let seen = b.call(#"{"id":2,"op":"nearby","center":{"lat":37.5665,"lon":126.978},"radius_m":100}"#)
        #expect(seen?["result"]?["parties"]?.array?.first?["id"] == .string("shared"))
        #expect(b.call(#"{"id":3,"op":"party.upsert","party":\#(partyJSON("shared", lat: 37.5665, lon: 126.978, taken: 3))}"#)?["result"]?["party"]?["version"]?.int64 == 2)
        #expect(a.call(#"{"id":4,"op":"party.get","party_id":"shared"}"#)?["result"]?["party"]?["seats_taken"]?.int64 == 3)
        #expect(b.call(#"{"id":5,"op":"party.remove","party_id":"shared"}"#)?["result"]?["removed"] == .bool(true))
        #expect(a.call(#"{"id":6,"op":"party.get","party_id":"shared"}"#)?["error"]?["code"] == .string("not_found"))
        for w in [a, b] { w.closeInput(); #expect(w.wait() == 0) }
    }

    @Test("Four workers opening one new database file at the same moment all start (the migration race CI found)")
    func simultaneousFirstOpen() throws {
        for _ in 0..<3 {
            let db = temporaryDatabase()
            defer { removeDatabase(db) }
            let workers = try (0..<4).map { _ in try WorkerProcess(arguments: ["--db", db]) }
            for (i, w) in workers.enumerated() {
                #expect(w.call(#"{"id":\#(i),"op":"stats"}"#)?["result"]?["parties"]?.int64 == 0)
                #expect(w.finish() == 0)
            }
        }
    }

    @Test("SIGTERM: the worker answers what it read and exits 0; a too-long line is answered, not fatal")
    func sigtermAndLongLines() throws {
        let worker = try WorkerProcess(arguments: ["--db", ":memory:", "--max-line-bytes", "100"])
        worker.send(#"{"id":1,"op":"ping"}"# + "\n" + String(repeating: "y", count: 500) + "\n" + #"{"id":3,"op":"ping"}"#)
        let r = worker.receive(3)
        #expect(r.count == 3)
        #expect(r[1]["error"]?["code"] == .string("request_too_large") && r[1]["id"] == .null)
        #expect(r[2]["id"]?.int64 == 3)
        kill(worker.pid, SIGTERM)
        #expect(worker.wait() == 0)
    }
}

/// A negative party with a proportional or Shapley split is an error answer, not a crash
/// (building the drop-offs once trapped on `0..<party_size`).
/// The default build has no PostgreSQL store (no SwiftNIO to build): a postgres:// URL is a
/// clear error that says how to build with it, never a crash or a silent SQLite file.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct StoreBuildTests {
    /// A build without the PostgreSQL trait refuses --store postgres://... with exit 64, the way to
    /// build it, and no password; a build with it connects (tested in GeoFarePostgresTests).
    @Test("A build without the PostgreSQL trait refuses --store postgres://... with exit 64, how to build it, and no password")
    func postgresNeedsTheTrait() throws {
        #if PostgreSQL
        // This build has the store: the trait's own suites test it against a real server.
        #expect(PostgresServer.storesBuilt == ["sqlite", "postgres"])
        #else
        let r = try GeoFareBinary.run(["parties", "export", "--store", "postgres://u:secret-pw@127.0.0.1:1/db"])
        #expect(r.status == 64 && r.stderr.contains("--traits PostgreSQL") && r.stderr.contains("[invalid_value]"), "\(r.stderr)")
        #expect(!r.stderr.contains("secret-pw") && r.stdout.isEmpty)
        let worker = try GeoFareBinary.run(["worker", "--store", "postgresql://u@127.0.0.1/db"], stdin: #"{"id":1,"op":"ping"}"# + "\n")
        #expect(worker.status == 64 && worker.stderr.contains("without PostgreSQL support"), "\(worker.stderr)")
        #endif
    }
}

@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct NegativePartyTests {
    @Test("party_size -1 with a Shapley or proportional split: invalid_party_size, and the worker goes on")
    func negativeParty() throws {
        let worker = try WorkerProcess(arguments: ["--db", ":memory:"])
        for (id, split) in [(1, "shapley"), (2, "proportional")] {
            worker.send(#"{"id":\#(id),"op":"fare","from":{"lat":37.55,"lon":126.98},"to":{"lat":37.5,"lon":127.03},"depart_at":"2024-05-15T10:30:00+09:00","party_size":-1,"split":"\#(split)"}"#)
        }
        worker.send(#"{"id":3,"op":"ping"}"#)
        let answers = worker.receive(3)
        #expect(worker.finish() == 0)
        try #require(answers.count == 3)
        for a in answers.prefix(2) {
            #expect(a["error"]?["code"] == .string("invalid_party_size"))
            #expect(a["error"]?["field"] == .string("party_size"))
        }
        #expect(answers[2]["ok"] == .bool(true))
    }
}

/// The same trips through the worker, `fare-csv` and the library give the same numbers.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct ThreeWayAgreementTests {
    @Test("worker fare op == fare-csv == library, for coordinate trips and distance/duration trips")
    func agree() throws {
        let pricer = try TripPricer.standard()
        var rng = SeededGenerator(seed: 5)
        var csv = "id,origin_lat,origin_lon,dest_lat,dest_lon,distance_m,duration_s,depart_at,party_size,tariff\n"
        var requests: [String] = []
        var expected: [FareQuote] = []
        for i in 0..<300 {
            let when = "2024-05-15T\(10 + i % 14):07:00+09:00", party = i % 3 + 1
            if i % 3 == 2 {
                // A trip given by its distance and duration (no coordinates).
                let d = (Double.random(in: 500...40_000, using: &rng) * 10).rounded() / 10
                let t = (Double.random(in: 120...4_000, using: &rng) * 10).rounded() / 10
                csv += "\(i),,,,,\(d),\(t),\(when),\(party),kr-seoul/regular\n"
                requests.append(#"{"id":\#(i),"op":"fare","trip":{"distance_m":\#(d),"duration_s":\#(t)},"depart_at":"\#(when)","party_size":\#(party),"tariff":"kr-seoul/regular"}"#)
                var r = FareRequest(trip: .totals(distanceMeters: d, durationSeconds: t), departure: ISO8601.parse(when)!, tariff: "kr-seoul/regular")
                r.partySize = party
                expected.append(try pricer.quote(r).quote)
                continue
            }
            let a = try Coordinate(latitude: (Double.random(in: 37.50...37.62, using: &rng) * 1e5).rounded() / 1e5, longitude: (Double.random(in: 126.9...127.1, using: &rng) * 1e5).rounded() / 1e5)
            let b = try Coordinate(latitude: (Double.random(in: 37.30...37.70, using: &rng) * 1e5).rounded() / 1e5, longitude: (Double.random(in: 126.8...127.2, using: &rng) * 1e5).rounded() / 1e5)
            csv += "\(i),\(a.latitude),\(a.longitude),\(b.latitude),\(b.longitude),,,\(when),\(party),kr-seoul/regular\n"
            requests.append(#"{"id":\#(i),"op":"fare","from":{"lat":\#(a.latitude),"lon":\#(a.longitude)},"to":{"lat":\#(b.latitude),"lon":\#(b.longitude)},"depart_at":"\#(when)","party_size":\#(party),"tariff":"kr-seoul/regular"}"#)
            var r = FareRequest(from: a, to: b, departure: ISO8601.parse(when)!)
            r.partySize = party
            r.tariff = "kr-seoul/regular"
            expected.append(try pricer.quote(r).quote)
        }
        #expect(expected.count == 300)
        let worker = try WorkerProcess(arguments: ["--db", ":memory:"])
        worker.send(Array((requests.joined(separator: "\n") + "\n").utf8))
        let answers = worker.receive(requests.count)
        worker.closeInput()
        _ = worker.wait()
        let out = try GeoFareBinary.run(["fare-csv", "--quiet"], stdin: csv)
        #expect(out.status == 0, "\(out.stdout.split(separator: "\n").filter { !$0.hasSuffix(",sourced,") }.prefix(3))")
        let rows = out.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(answers.count == expected.count && rows.count == expected.count)
        for ((answer, row), q) in zip(zip(answers, rows), expected) {
            let w = try #require(answer["result"])
            #expect(w["total"]?.int64 == q.total && w["meter"]?.int64 == q.meter && w["low"]?.int64 == q.low && w["high"]?.int64 == q.high)
            #expect(w["per_person"]?.array?.compactMap(\.int64) == q.perPerson)
            #expect(w["distance_m"]?.double == q.distanceMeters && w["duration_s"]?.double == q.durationSeconds)
            let n = row.count
            #expect(row[n - 9] == String(q.total) && row[n - 12] == String(q.meter))
            #expect(row[n - 5] == q.perPerson.map(String.init).joined(separator: ";"))
        }
    }
}
