// The PostgreSQL store exists only in a build with the trait: `swift build --traits PostgreSQL`.
#if PostgreSQL
import Foundation
import Testing
import GeoFareParties
import GeoFareCore
import GeoFarePostgres
import GeoFareSQLite
import GeoFareTestSupport

/// The PostgreSQL store against a real server (started per test): it keeps what the SQLite store
/// keeps, and its change feed misses nothing when several writers commit at once.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(10))))
struct PostgresStoreTests {
    struct Rand: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func party(_ id: String, _ rng: inout Rand) throws -> Party {
        let statuses: [PartyStatus] = [.open, .full, .closed]
        let total = Int.random(in: 1...8, using: &rng)
        return Party(
            id: id,
            origin: try Coordinate(latitude: Double.random(in: 37.4...37.7, using: &rng), longitude: Double.random(in: 126.8...127.2, using: &rng)),
            destination: try Coordinate(latitude: Double.random(in: -89...89, using: &rng), longitude: Double.random(in: -179...179, using: &rng)),
            departure: Date(timeIntervalSince1970: Double(Int.random(in: 1_800_000_000...1_900_000_000, using: &rng)) + 0.25),
            seatsTotal: total, seatsTaken: Int.random(in: 0...total, using: &rng),
            status: statuses[Int.random(in: 0..<3, using: &rng)],
            attributesJSON: Bool.random(using: &rng) ? nil : #"{"note":"ünïcode ✓ \#(id)","n":\#(Int.random(in: 0...99, using: &rng))}"#
        )
    }

    @Test("The same 600 random upserts and removals give the same parties, versions and feed in PostgreSQL as in SQLite")
    func sameAsSQLite() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let pg = try PostgresPartyStore(url: server.url)
        let lite = try SQLitePartyStore(path: ":memory:")
        var rng = Rand(state: 42)
        let now = Date(timeIntervalSince1970: 1_850_000_000.5)
        for step in 0..<600 {
            let id = "p\(Int.random(in: 0..<80, using: &rng))"
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let (a, b) = (try pg.remove(id: id, now: now), try lite.remove(id: id, now: now))
                #expect(a == b, "step \(step): remove \(id)")
            } else {
                let p = try Self.party(id, &rng)
                let (a, b) = (try pg.upsert(p, now: now), try lite.upsert(p, now: now))
                #expect(a == b, "step \(step): upsert \(id)")
            }
        }
        let all = try pg.allParties()
        #expect(all == (try lite.allParties()))
        #expect(all.map(\.id) == all.map(\.id).sorted())
        #expect(try pg.count() == all.count && all.count > 20)
        #expect(all.contains { $0.version > 3 })
        for p in all.prefix(10) { #expect(try pg.party(id: p.id) == p) }
        #expect(try pg.party(id: "nobody") == nil)
        // The feed from 0 names every id once with its state now (nil for removed ones), as SQLite's does.
        let (feed, last) = try pg.changes(after: 0)
        let (liteFeed, _) = try lite.changes(after: 0)
        #expect(feed.map(\.id) == liteFeed.map(\.id))
        #expect(feed.map(\.party) == liteFeed.map(\.party))
        #expect(last == (try pg.lastChange()) && last > 0)
        #expect(try pg.changes(after: last).changes.isEmpty)
        // A new store on the same database (another worker) reads the same.
        let other = try PostgresPartyStore(url: server.url)
        #expect(try other.allParties() == all)
    }

    @Test("An import is one transaction: a NUL (refused before sending) or a row the server refuses mid-import leaves nothing of the batch, feed included")
    func importAllOrNothing() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let pg = try PostgresPartyStore(url: server.url)
        var rng = Rand(state: 7)
        let good = try (0..<50).map { try Self.party("i\($0)", &rng) }
        #expect(try pg.upsertMany(good, now: Date()).map(\.version) == Array(repeating: 1, count: 50))
        let seq = try pg.lastChange()
        #expect(seq == 50)
        for (bad, field) in [(try Self.party("bad\u{0}id", &rng), "id"), (try Self.party("nul-attr", &rng), "attributes")] {
            var bad = bad
            if field == "attributes" { bad.attributesJSON = "{\"a\":\"x\u{0}y\"}" }
            let batch = try (50..<60).map { try Self.party("i\($0)", &rng) } + [bad]
            do { _ = try pg.upsertMany(batch, now: Date()); Issue.record("a NUL in \(field) was accepted") } catch {
                #expect(error.code == .invalidValue && error.field == field && error.message.contains("party 11 of 11"), "\(error)")
            }
        }
        // An id too long for the primary key's index (random, so incompressible): the COPY takes
        // it, the upsert into `party` fails; nothing of the batch, nor of its feed, remains.
        var huge = ""
        while huge.utf8.count < 12_000 { huge += String(rng.next(), radix: 16) }
        let batch = try (50..<60).map { try Self.party("i\($0)", &rng) } + [try Self.party("i3", &rng), try Self.party(huge, &rng)]
        do { _ = try pg.upsertMany(batch, now: Date()); Issue.record("the oversized id was accepted") } catch {
            #expect(error.code == .storageError && error.message.contains("importing 12 parties"), "\(error)")
        }
        #expect(try pg.count() == 50)
        #expect(try pg.party(id: "i55") == nil)
        #expect(try pg.party(id: "i3")?.version == 1)
        #expect(try pg.lastChange() == seq)
        #expect(try pg.changes(after: seq).changes.isEmpty)
        // The connection is usable after the rolled-back transaction, and so is the import.
        #expect(try pg.upsert(good[0], now: Date()).version == 2)
        #expect(try pg.upsertMany(Array(batch.prefix(11)), now: Date()).map(\.version) == Array(repeating: 1, count: 10) + [2])
        #expect(try pg.count() == 60)
    }

    /// Every store call, the COPY import included, completes while every other thread of the
    /// cooperative pool is blocked: the store never needs a pool thread it waits for.
    @Test("Every store call, COPY import included, completes while every other cooperative pool thread is blocked")
    func noPoolThreadNeeded() async throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let pg = try PostgresPartyStore(url: server.url)
        var rng = Rand(state: 11)
        let parties = try (0..<2_000).map { try Self.party("c\($0)", &rng) }
        // Hold every pool thread but this one (the pool has one per core; under
        // LIBDISPATCH_COOPERATIVE_POOL_STRICT=1, as on CI, it never grows). A watchdog thread
        // outside the pool lets them go after 20 s, so a store that needs a pool thread makes
        // this test slow and failed, not hung.
        let holders = max(0, ProcessInfo.processInfo.activeProcessorCount - 1)
        let gate = DispatchSemaphore(value: 0)
        let holding = Failures(), releasedBy = Failures()
        let release: @Sendable (String) -> Void = { who in
            if releasedBy.add(who) == 1 { for _ in 0..<holders { gate.signal() } }
        }
        for _ in 0..<holders {
            Task.detached { holding.add("holding"); gate.wait() }
        }
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 20)
            release("watchdog")
        }
        let waitUntil = Date().addingTimeInterval(10)
        while holding.all.count < holders && Date() < waitUntil { usleep(1_000) }
        let stored = try pg.upsertMany(parties, now: Date())
        let snapshot = try pg.snapshot()
        let written = try pg.write([.remove(id: "c0")], now: Date())
        release("test")
        #expect(releasedBy.all.first == "test", "the store's calls finished only after the pool threads were let go: they waited for a pool thread")
        #expect(stored.count == 2_000 && snapshot.parties.count == 2_000 && written.count == 1)
        #expect(try pg.count() == 1_999)
    }

    /// A COPY import of hostile ids and attributes (tabs, newlines, backslashes, \N, \.) gives what
    /// SQLite's one-by-one upserts give: parties, versions, one feed entry per party in input
    /// order.
    @Test("A COPY import of hostile ids and attributes gives what SQLite's one-by-one upserts give, feed in input order")
    func importEscapesAndKeepsOrder() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let pg = try PostgresPartyStore(url: server.url)
        let lite = try SQLitePartyStore(path: ":memory:")
        var rng = Rand(state: 11)
        let earlier = Date(timeIntervalSince1970: 1_850_000_000.5)
        let now = Date(timeIntervalSince1970: 1_850_000_100.25)
        // Parties already stored (some upserted twice): the import raises their versions.
        for i in 0..<40 {
            let p = try Self.party("h\(i % 30)", &rng)
            #expect(try pg.upsert(p, now: earlier) == (try lite.upsert(p, now: earlier)))
        }
        let hostile = ["tab\there", "new\nline", "cr\rlf\r\n", "back\\slash", "\\N", "\\.", "\\", "end\\", "\t", "\n", "\\\\N",
                       "x\\\ny", "\\t not a tab", "quote\"'`", "ünïcode ✓ 🚕", "comma,semi;colon", " lead and trail ", "\u{1}\u{7F}ctl"]
        var input: [Party] = []
        for i in 0..<400 {
            let pick = Int.random(in: 0..<10, using: &rng)
            let id = pick < 3 ? hostile[Int.random(in: 0..<hostile.count, using: &rng)]
                : pick < 5 ? "h\(Int.random(in: 0..<60, using: &rng))" : "n\(i)"
            var p = try Self.party(id, &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: p.attributesJSON = "\\N"
            case 1: p.attributesJSON = hostile[Int.random(in: 0..<hostile.count, using: &rng)] + "\t\\.\n\\N"
            case 2: p.attributesJSON = ""
            default: break
            }
            input.append(p)
        }
        #expect(Set(input.map(\.id)).count < input.count - 50, "the input repeats ids")
        let before = try pg.lastChange()
        let imported = try pg.upsertMany(input, now: now)
        #expect(imported == (try lite.upsertMany(input, now: now)))
        #expect(imported.contains { $0.version > 2 })
        let all = try pg.allParties()
        #expect(all == (try lite.allParties()))
        #expect(all.contains { $0.id == "\\N" } && all.contains { $0.attributesJSON == "\\N" } && all.contains { $0.attributesJSON == nil })
        // The feed: one entry per input row, in input order, read byte for byte.
        #expect(try pg.lastChange() == before + Int64(input.count))
        let feed = try server.psql("SELECT string_agg(encode(convert_to(party_id, 'UTF8'), 'hex'), ',' ORDER BY seq) FROM party_change WHERE seq > \(before)")
        let hex = input.map { $0.id.utf8.map { String(format: "%02x", $0) }.joined() }.joined(separator: ",")
        #expect(feed == hex)
        // And as a worker reads it, from anywhere in the import: the same as SQLite's feed.
        for after in stride(from: before - 5, through: before + Int64(input.count), by: 37) {
            let (a, b) = (try pg.changes(after: after), try lite.changes(after: after))
            #expect(a.last == b.last && a.changes.map(\.id) == b.changes.map(\.id) && a.changes.map(\.party) == b.changes.map(\.party), "after \(after)")
        }
    }

    @Test("Three writers on three connections commit at once; a reader following the feed ends with exactly the table")
    func feedMissesNothingUnderConcurrentWriters() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let reader = try PostgresPartyStore(url: server.url)
        let writers = try (0..<3).map { _ in try PostgresPartyStore(url: server.url) }
        let done = DispatchGroup()
        let failures = Failures()
        for (w, store) in writers.enumerated() {
            done.enter()
            Thread.detachNewThread {
                var rng = Rand(state: UInt64(100 + w))
                do {
                    for i in 0..<300 {
                        let id = "w\(Int.random(in: 0..<60, using: &rng))"
                        if i % 5 == 4 { _ = try store.remove(id: id, now: Date()) } else { _ = try store.upsert(try Self.party(id, &rng), now: Date()) }
                    }
                } catch { failures.add("\(error)") }
                done.leave()
            }
        }
        // Follow the feed while they write, as a worker does between requests.
        var mirror: [String: Party] = [:]
        var seq: Int64 = 0
        var reads = 0
        while done.wait(timeout: .now() + 0.005) == .timedOut {
            let (changes, last) = try reader.changes(after: seq)
            for c in changes { mirror[c.id] = c.party }
            seq = last
            reads += 1
        }
        let (changes, last) = try reader.changes(after: seq)
        for c in changes { mirror[c.id] = c.party }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(reads > 3)
        #expect(last == (try reader.lastChange()))
        let table = try reader.allParties()
        #expect(mirror.values.sorted { $0.id < $1.id } == table)
    }

    @Test("A bad URL and a wrong password are typed errors that never show the password")
    func startupErrors() throws {
        #expect(throws: GeoFareError.self) { try PostgresPartyStore(url: "postgres://127.0.0.1:5432/db") }
        do { _ = try PostgresPartyStore(url: "postgres://u:s3cret@host/") } catch {
            #expect(error.code == .invalidValue && error.field == "store" && !error.message.contains("s3cret"), "\(error)")
        }
        let server = try PostgresServer()
        defer { server.destroy() }
        do {
            _ = try PostgresPartyStore(url: server.urlWithWrongPassword)
            Issue.record("a wrong password was accepted")
        } catch {
            #expect(error.code == .storageError)
            #expect(error.message.contains("28P01") && error.message.contains("password authentication failed"), "\(error.message)")
            #expect(!error.message.contains(server.password))
        }
        // Nobody listening: a storage_error naming the place, soon.
        let start = Date()
        do {
            _ = try PostgresPartyStore(url: "postgres://geofare:\(server.password)@127.0.0.1:\(PostgresServer.freePort())/postgres")
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.code == .storageError && error.message.contains("127.0.0.1") && !error.message.contains(server.password), "\(error.message)")
        }
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("URL forms: port default, Unix socket directory, PGPASSWORD, sslmode and sslrootcert, and the redacted form")
    func urls() throws {
        let a = try PostgresLocation(url: "postgres://me:pw@db.example:6543/parties", environment: [:])
        #expect(a.user == "me" && a.password == "pw" && a.host == "db.example" && a.port == 6543 && a.database == "parties")
        #expect(a.redacted == "postgres://me:***@db.example:6543/parties")
        let b = try PostgresLocation(url: "postgresql://me@/parties?host=/run/pg", environment: ["PGPASSWORD": "envpw"])
        #expect(b.socketPath == "/run/pg/.s.PGSQL.5432" && b.password == "envpw" && b.redacted == "postgres://me:***@:5432/parties?host=/run/pg")
        #expect(a.tlsMode == .prefer && a.tlsRootCertificates == nil && b.tlsMode == .disable)
        let c = try PostgresLocation(url: "postgres://me:pw@db.example/parties?sslmode=verify-full&sslrootcert=/etc/ca.pem", environment: [:])
        #expect(c.tlsMode == .verifyFull && c.tlsRootCertificates == "/etc/ca.pem")
        #expect(c.redacted == "postgres://me:***@db.example:5432/parties?sslmode=verify-full&sslrootcert=/etc/ca.pem")
        // As libpq: require with a root certificate file verifies the authority.
        #expect(try PostgresLocation(url: "postgres://me@h/db?sslmode=require&sslrootcert=/ca.pem", environment: [:]).tlsMode == .verifyCA)
        #expect(try PostgresLocation(url: "postgres://me@h/db?sslmode=disable", environment: [:]).redacted == "postgres://me@h:5432/db?sslmode=disable")
        // The store's waits: libpq's connect_timeout, and our statement_timeout (whole seconds).
        let d = try PostgresLocation(url: "postgres://me:pw@h/db?connect_timeout=5&statement_timeout=240", environment: [:])
        #expect(d.connectTimeoutSeconds == 5 && d.statementTimeoutSeconds == 240 && a.connectTimeoutSeconds == nil && a.statementTimeoutSeconds == nil)
        #expect(d.redacted == "postgres://me:***@h:5432/db?connect_timeout=5&statement_timeout=240")
        for bad in ["postgres://me:pw@h/db?statement_timeout=0", "postgres://me:pw@h/db?statement_timeout=1.5",
                    "postgres://me:pw@h/db?statement_timeout=86401", "postgres://me:pw@h/db?connect_timeout=",
                    "postgres://me:pw@h/db?connect_timeout=-3", "postgres://me:pw@h/db?statement_timeout"] {
            do {
                _ = try PostgresLocation(url: bad, environment: [:])
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.code == .invalidValue && error.message.contains("whole number of seconds") && !error.message.contains(":pw@"), "\(error.message)")
            }
        }
        for bad in ["postgres://me:pw@h:99999/db", "postgres://me:pw@h/db?mode=x", "postgres://:pw@h/db", "mysql://me:pw@h/db",
                    "postgres://me:pw@h/db?sslmode=allow-ish", "postgres://me:pw@h/db?sslrootcert=/ca.pem", "postgres://me:pw@h/db?sslmode=verify-full&sslrootcert=",
                    "postgres://me:pw@/db?host=/run/pg&sslmode=require"] {
            #expect(throws: GeoFareError.self, "\(bad)") { try PostgresLocation(url: bad, environment: [:]) }
            do { _ = try PostgresLocation(url: bad, environment: [:]) } catch { #expect(!error.message.contains(":pw@"), "\(error.message)") }
        }
    }
}

/// Failures (or other notes) collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    /// Adds `s`; how many there are with it.
    @discardableResult
    func add(_ s: String) -> Int { lock.lock(); defer { lock.unlock() }; items.append(s); return items.count }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
#endif
