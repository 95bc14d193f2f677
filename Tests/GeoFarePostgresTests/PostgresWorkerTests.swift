// The PostgreSQL store exists only in a build with the trait: `swift build --traits PostgreSQL`.
#if PostgreSQL
import Foundation
import GeoFareCore
import GeoFareTestSupport
import GeoFareText
import Testing

/// `geofare worker --store postgres://...` as a backend runs it: real binaries, a real server.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(10))))
struct PostgresWorkerTests {
    @Test("Two workers on one PostgreSQL database see each other's writes by their next request; a late third one and parties export see all")
    func twoWorkers() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let a = try WorkerProcess(arguments: ["--store", server.url])
        let b = try WorkerProcess(arguments: ["--store", server.url])
        #expect(a.call(#"{"id":1,"op":"party.upsert","party":\#(partyJSON("shared"))}"#)?.isOK == true)
        let seen = b.call(#"{"id":2,"op":"nearby","center":{"lat":37.5665,"lon":126.978},"radius_m":100}"#)
        #expect(seen?["result"]?["parties"]?.array?.first?["id"] == .string("shared"))
        #expect(b.call(#"{"id":3,"op":"party.upsert","party":\#(partyJSON("shared", taken: 3))}"#)?["result"]?["party"]?["version"]?.int64 == 2)
        #expect(a.call(#"{"id":4,"op":"party.get","party_id":"shared"}"#)?["result"]?["party"]?["seats_taken"]?.int64 == 3)
        #expect(b.call(#"{"id":5,"op":"party.remove","party_id":"shared"}"#)?["result"]?["removed"] == .bool(true))
        #expect(a.call(#"{"id":6,"op":"party.get","party_id":"shared"}"#)?["error"]?["code"] == .string("not_found"))
        // Interleaved streams from both: each sees the other's last write, counts agree.
        for i in 0..<50 {
            let (w, other) = i % 2 == 0 ? (a, b) : (b, a)
            #expect(w.call(#"{"id":\#(i),"op":"party.upsert","party":\#(partyJSON("s\(i)", lat: 37.5 + Double(i) * 1e-3))}"#)?.isOK == true)
            let got = other.call(#"{"id":\#(i),"op":"party.get","party_id":"s\#(i)"}"#)
            #expect(got?["result"]?["party"]?["id"] == .string("s\(i)"), "\(got.map { JSONWriter.string($0) } ?? "no answer")")
        }
        #expect(a.call(#"{"id":7,"op":"stats"}"#)?["result"]?["parties"]?.int64 == 50)
        #expect(b.call(#"{"id":8,"op":"stats"}"#)?["result"]?["parties"]?.int64 == 50)
        let c = try WorkerProcess(arguments: ["--store", server.url])
        #expect(c.call(#"{"id":9,"op":"stats"}"#)?["result"]?["parties"]?.int64 == 50)
        let version = c.call(#"{"id":10,"op":"version"}"#).map { JSONWriter.string($0) } ?? ""
        #expect(!version.isEmpty && !version.contains(server.password))
        for w in [a, b, c] { w.closeInput(); #expect(w.wait() == 0) }
        for w in [a, b, c] { #expect(!String(decoding: w.errorOutput, as: UTF8.self).contains(server.password)) }
        #expect(a.stderrContains("postgres://geofare:***@127.0.0.1:\(server.port)/postgres"))
        let export = try GeoFareBinary.run(["parties", "export", "--store", server.url])
        #expect(export.status == 0)
        #expect(export.stdout.split(separator: "\n").count == 50)
        // The store's waits come from the URL; a bad one is a usage error (64) naming it.
        let bad = try GeoFareBinary.run(["parties", "export", "--store", server.url("statement_timeout=0")])
        #expect(bad.status == 64 && bad.stderr.contains("statement_timeout='0'") && !bad.stderr.contains(server.password), "\(bad.stderr)")
    }

    @Test("Pipelined writes commit as one PostgreSQL transaction: a party the server refuses fails its whole group, the next group commits")
    func writeGroups() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let w = try WorkerProcess(arguments: ["--store", server.url])
        let upsert = { (id: Int, pid: String) in #"{"id":\#(id),"op":"party.upsert","party":\#(partyJSON(pid))}"# }
        // Under PIPE_BUF: read at once, one group. PostgreSQL refuses a NUL in text.
        let group = [upsert(1, "a"), #"{"id":2,"op":"party.remove","party_id":"zz"}"#, upsert(3, "nul\\u0000id"), upsert(4, "b")].joined(separator: "\n") + "\n"
        w.send(Array(group.utf8))
        let failed = w.receive(4)
        #expect(failed.count == 4 && failed.allSatisfy { $0["error"]?["code"] == .string("storage_error") }, "\(failed.map { JSONWriter.string($0) })")
        #expect(w.call(#"{"id":5,"op":"stats"}"#)?["result"]?["parties"]?.int64 == 0)
        let next = [upsert(6, "a"), upsert(7, "b"), #"{"id":8,"op":"party.remove","party_id":"a"}"#, upsert(9, "b")].joined(separator: "\n") + "\n"
        w.send(Array(next.utf8))
        let ok = w.receive(4)
        #expect(ok.map { $0["id"]?.int64 ?? -1 } == [6, 7, 8, 9] && ok.allSatisfy(\.isOK))
        #expect(ok.last?["result"]?["party"]?["version"]?.int64 == 2)
        #expect(try server.psql("SELECT string_agg(id || ':' || version, ',') FROM party").trimmingCharacters(in: .whitespacesAndNewlines) == "b:2")
        #expect(w.finish() == 0)
    }

    @Test("Party reads pipelined together share one feed query, and each still sees every write acknowledged before it was sent")
    func batchSharesOneFeedQuery() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let a = try WorkerProcess(arguments: ["--store", server.url])
        let b = try WorkerProcess(arguments: ["--store", server.url])
        func feed(_ w: WorkerProcess, _ id: Int) -> (checks: Int64, shared: Int64) {
            let f = w.call(#"{"id":\#(id),"op":"stats"}"#)?["result"]?["party_feed"]
            return (f?["checks"]?.int64 ?? -1, f?["checks_shared"]?.int64 ?? -1)
        }
        for round in 0..<3 {
            // A write through the other worker, acknowledged before the batch is sent.
            #expect(a.call(#"{"id":1,"op":"party.upsert","party":\#(partyJSON("p\(round)", lat: 37.5665 + Double(round) * 1e-4))}"#)?.isOK == true)
            let before = feed(b, 2)
            // 30 reads in one write under PIPE_BUF: the worker reads them at once, one batch.
            let reads = (0..<30).map { i in
                i % 2 == 0 ? #"{"id":\#(i),"op":"party.get","party_id":"p\#(round)"}"#
                    : #"{"id":\#(i),"op":"nearby","center":{"lat":37.5665,"lon":126.978},"radius_m":500}"#
            }.joined(separator: "\n") + "\n"
            #expect(reads.utf8.count < 4096)
            b.send(Array(reads.utf8))
            let answers = b.receive(30)
            #expect(answers.count == 30)
            for (i, r) in answers.enumerated() {
                if i % 2 == 0 {
                    #expect(r["result"]?["party"]?["id"] == .string("p\(round)"), "\(JSONWriter.string(r))")
                } else {
                    #expect(r["result"]?["parties"]?.array?.count == round + 1, "\(JSONWriter.string(r))")
                }
            }
            let after = feed(b, 3)
            // Every party op counted once; the batch and the second stats each looked once
            // (a third look only if the pipe split the batch).
            #expect((after.checks - before.checks) + (after.shared - before.shared) == 31)
            #expect(after.checks - before.checks <= 3 && after.shared - before.shared >= 28, "\(before) → \(after)")
        }
        for w in [a, b] { w.closeInput(); #expect(w.wait() == 0) }
    }

    /// The same random writes through a worker on PostgreSQL and one on SQLite: clusters, nearby
    /// and leaves answer the same, and so does a worker started later from the PostgreSQL snapshot.
    @Test("The same random writes through workers on PostgreSQL and SQLite answer the same, and so does a later worker from the snapshot")
    func sameAnswersAsSQLite() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let db = temporaryDatabase()
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + s) } }
        let pg = try WorkerProcess(arguments: ["--store", server.url])
        let lite = try WorkerProcess(arguments: ["--db", db])
        var rng = SeededGenerator(seed: 14)
        var live: [String] = []
        var lines: [String] = []
        for i in 0..<2_000 {
            if !live.isEmpty && Int.random(in: 0..<100, using: &rng) < 15 {
                let id = live.remove(at: Int.random(in: 0..<live.count, using: &rng))
                lines.append(#"{"id":\#(i),"op":"party.remove","party_id":"\#(id)"}"#)
            } else {
                // Mostly new parties, some raised again (a new version); a few co-located ones.
                let id = !live.isEmpty && Bool.random(using: &rng) && Int.random(in: 0..<4, using: &rng) == 0
                    ? live[Int.random(in: 0..<live.count, using: &rng)] : "r\(i)"
                if !live.contains(id) { live.append(id) }
                let (lat, lon) = i % 50 == 0 ? (37.55, 126.95)
                    : (37.45 + Double.random(in: 0..<0.2, using: &rng), 126.85 + Double.random(in: 0..<0.3, using: &rng))
                let taken = Int.random(in: 0...4, using: &rng)
                lines.append(#"{"id":\#(i),"op":"party.upsert","party":{"id":"\#(id)","origin":{"lat":\#(lat),"lon":\#(lon)},"destination":{"lat":37.4979,"lon":127.0276},"depart_at":"2030-05-15T2\#(i % 4):30:00+09:00","seats_total":4,"seats_taken":\#(taken)}}"#)
            }
        }
        // Pipelined in chunks, so writes commit in groups on both stores.
        for chunk in stride(from: 0, to: lines.count, by: 100) {
            let text = lines[chunk..<min(chunk + 100, lines.count)].joined(separator: "\n") + "\n"
            for w in [pg, lite] {
                w.send(Array(text.utf8))
                let answers = w.receive(min(100, lines.count - chunk))
                #expect(answers.count == min(100, lines.count - chunk) && answers.allSatisfy(\.isOK))
            }
        }
        let late = try WorkerProcess(arguments: ["--store", server.url])
        /// A nearby answer without `updated_at` (each store stamps its own write time).
        func comparable(_ v: JSONValue?) -> JSONValue? {
            guard let parties = v?["result"]?["parties"]?.array else { return v }
            return .array(parties.map { p in
                guard case var .object(o) = p else { return p }
                o["updated_at"] = nil
                return .object(o)
            })
        }
        var compared = 0, nonEmpty = 0
        for q in 0..<150 {
            let west = 126.8 + Double.random(in: 0..<0.3, using: &rng), south = 37.4 + Double.random(in: 0..<0.2, using: &rng)
            let size = Double.random(in: 0.01..<0.4, using: &rng)
            let filter = q % 3 == 0 ? #","min_free_seats":2"# : (q % 3 == 1 ? #","depart_from":"2030-05-15T21:00:00+09:00","depart_until":"2030-05-15T22:59:00+09:00""# : "")
            let request = q % 2 == 0
                ? #"{"id":\#(q),"op":"clusters","bbox":{"west":\#(west),"south":\#(south),"east":\#(west + size),"north":\#(south + size * 0.7)},"zoom":\#(8 + q % 10)\#(filter)}"#
                : #"{"id":\#(q),"op":"nearby","center":{"lat":\#(south + 0.05),"lon":\#(west + 0.05)},"radius_m":\#(200 + q * 20),"limit":20\#(filter)}"#
            let want = lite.call(request)
            #expect(want?.isOK == true)
            for w in [pg, late] {
                let got = w.call(request)
                #expect(comparable(got) == comparable(want), "\(request)\n\(got.map { JSONWriter.string($0) } ?? "none")\n\(want.map { JSONWriter.string($0) } ?? "none")")
            }
            compared += 1
            if (want?["result"]?["items"]?.array?.count ?? want?["result"]?["parties"]?.array?.count ?? 0) > 0 { nonEmpty += 1 }
            // Leaves of the first multi-party cluster: the same members on every store.
            if let cluster = want?["result"]?["items"]?.array?.first(where: { ($0["count"]?.int64 ?? 0) > 1 }), let id = cluster["id"]?.string {
                let leaves = #"{"id":\#(q),"op":"cluster.leaves","cluster_id":"\#(id)","limit":50\#(filter)}"#
                let wantLeaves = lite.call(leaves)
                #expect(wantLeaves?.isOK == true)
                for w in [pg, late] { #expect(comparable(w.call(leaves)) == comparable(wantLeaves), "\(leaves)") }
            }
        }
        #expect(compared == 150 && nonEmpty > 100)
        let counts = [pg, lite, late].map { $0.call(#"{"id":0,"op":"stats"}"#)?["result"]?["parties"]?.int64 }
        #expect(counts[0] == Int64(live.count) && counts[1] == Int64(live.count) && counts[2] == Int64(live.count), "\(counts) vs \(live.count)")
        for w in [pg, lite, late] { w.closeInput(); #expect(w.wait() == 0) }
    }

    @Test("A quiet worker applies another worker's write on NOTIFY, before its next request")
    func quietWorkerListens() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let quiet = try WorkerProcess(arguments: ["--store", server.url])
        let busy = try WorkerProcess(arguments: ["--store", server.url])
        #expect(quiet.call(#"{"id":1,"op":"stats"}"#)?["result"]?["party_feed"]?["idle_catch_ups"]?.int64 == 0)
        #expect(busy.call(#"{"id":2,"op":"party.upsert","party":\#(partyJSON("n1"))}"#)?.isOK == true)
        // The quiet worker gets no request meanwhile; its loop wakes every 200 ms.
        usleep(1_500_000)
        let stats = quiet.call(#"{"id":3,"op":"stats"}"#)?["result"]
        // Caught up while idle (without the listener, the stats request itself would have
        // applied the change and idle_catch_ups would be 0).
        #expect(stats?["party_feed"]?["idle_catch_ups"]?.int64 == 1, "\(stats.map { JSONWriter.string($0) } ?? "no answer")")
        #expect(stats?["parties"]?.int64 == 1)
        #expect(busy.call(#"{"id":4,"op":"stats"}"#)?["result"]?["party_feed"]?["idle_catch_ups"]?.int64 == 0)
        for w in [quiet, busy] { w.closeInput(); #expect(w.wait() == 0) }
    }

    /// parties import --store writes into PostgreSQL (COPY); a quiet worker catches up on its
    /// NOTIFY, one feed entry per party; a worker started later serves them.
    @Test("parties import --store writes into PostgreSQL (COPY); a quiet worker catches up on NOTIFY; a later worker serves them")
    func importThenServe() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let quiet = try WorkerProcess(arguments: ["--store", server.url])
        #expect(quiet.call(#"{"id":0,"op":"stats"}"#)?["result"]?["parties"]?.int64 == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-pg-import-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        try (0..<200).map { partyJSON("m\($0)", lat: 37.5 + Double($0) * 1e-4) }.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let r = try GeoFareBinary.run(["parties", "import", file.path, "--store", server.url])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains(server.password))
        // The quiet worker's loop wakes every 200 ms; the import's NOTIFY made it catch up.
        usleep(1_500_000)
        let stats = quiet.call(#"{"id":1,"op":"stats"}"#)?["result"]
        #expect(stats?["parties"]?.int64 == 200 && stats?["party_feed"]?["seq"]?.int64 == 200, "\(stats.map { JSONWriter.string($0) } ?? "no answer")")
        #expect((stats?["party_feed"]?["idle_catch_ups"]?.int64 ?? 0) >= 1)
        let w = try WorkerProcess(arguments: ["--store", server.url])
        #expect(w.call(#"{"id":1,"op":"stats"}"#)?["result"]?["parties"]?.int64 == 200)
        for worker in [w, quiet] {
            #expect(worker.call(#"{"id":2,"op":"party.get","party_id":"m199"}"#)?["result"]?["party"]?["attributes"]?["k"] == .string("v"))
            #expect(worker.finish() == 0)
        }
    }

    @Test("A wrong password or a bad URL: the worker exits 74 or 64 with a typed message and no password")
    func startupFailures() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let wrong = try GeoFareBinary.run(["worker", "--store", server.urlWithWrongPassword])
        #expect(wrong.status == 74)
        #expect(wrong.stderr.contains("password authentication failed") && wrong.stderr.contains("[storage_error]"), "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("not-\(server.password)") && !wrong.stdout.contains(server.password))
        let bad = try GeoFareBinary.run(["worker", "--store", "postgres://geofare:hunter2@127.0.0.1:\(server.port)"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("[invalid_value]") && !bad.stderr.contains("hunter2"), "\(bad.stderr)")
    }

    @Test("The server crashes and restarts under a stream of upserts: every acknowledged write is there, stateless ops keep answering, the worker reconnects")
    func restartUnderLoad() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let w = try WorkerProcess(arguments: ["--store", server.url])
        var acked = Set<String>()
        var failedCodes = Set<String>()
        var next = 0
        func burst(_ n: Int) -> [JSONValue] {
            let ids = (next..<next + n).map { "r\($0)" }
            next += n
            w.send(Array(ids.enumerated().map { #"{"id":\#($0.offset),"op":"party.upsert","party":\#(partyJSON($0.element, lat: 37.5 + Double($0.offset % 100) * 1e-3))}"# }.joined(separator: "\n").utf8) + [0x0A])
            let answers = w.receive(n, timeout: 120)
            for (id, a) in zip(ids, answers) {
                if a.isOK, a["result"]?["party"]?["id"] == .string(id) { acked.insert(id) } else if let c = a["error"]?["code"]?.string { failedCodes.insert(c) }
            }
            #expect(answers.count == n)
            return answers
        }
        _ = burst(300)
        #expect(acked.count == 300)
        // Crash the server (immediate: no shutdown checkpoint, WAL recovery at start) while
        // bursts of upserts are in flight: they go on until the crash has happened.
        let crashed = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            usleep(200_000)
            _ = try? server.stop(mode: "immediate")
            crashed.signal()
        }
        var during: [JSONValue] = []
        repeat { during += burst(500) } while crashed.wait(timeout: .now()) == .timedOut
        // The server is down: party ops fail with storage_error, stateless ones answer.
        #expect(w.call(#"{"id":1,"op":"party.get","party_id":"r0"}"#)?["error"]?["code"] == .string("storage_error"))
        #expect(w.call(#"{"id":2,"op":"ping"}"#)?["result"]?["pong"] == .bool(true))
        #expect(w.call(#"{"id":3,"op":"distance","from":{"lat":37.5,"lon":127},"to":{"lat":37.6,"lon":127}}"#)?.isOK == true)
        #expect(during.contains { !$0.isOK }, "the crash failed no request of the burst")
        #expect(failedCodes == ["storage_error"])
        try server.start()
        // Reconnect with backoff on the next party requests.
        var back = false
        for attempt in 0..<60 where !back {
            if w.call(#"{"id":\#(attempt),"op":"stats"}"#)?.isOK == true,
               w.call(#"{"id":\#(attempt),"op":"party.get","party_id":"r0"}"#)?.isOK == true { back = true } else { usleep(100_000) }
        }
        #expect(back, "the worker did not reconnect")
        let before = acked.count
        _ = burst(300)
        #expect(acked.count == before + 300)
        #expect(w.finish() == 0)
        // Every acknowledged write is in the database (a fresh process reads it).
        let export = try GeoFareBinary.run(["parties", "export", "--store", server.url])
        #expect(export.status == 0)
        let stored = Set(export.stdout.split(separator: "\n").compactMap { line in (try? JSONParser.parse(Array(line.utf8)))?["id"]?.string })
        let lost = acked.subtracting(stored)
        #expect(lost.isEmpty, "\(lost.count) acknowledged writes lost, e.g. \(lost.sorted().prefix(5))")
        #expect(acked.count >= 600)
    }
}
#endif
