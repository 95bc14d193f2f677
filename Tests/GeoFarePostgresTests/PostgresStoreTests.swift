import Foundation
import Testing
import GeoFareCluster
import GeoFareCore
import GeoFareStore
import GeoFareTestSupport

/// The PostgreSQL store against a real server (started per test): it keeps what the SQLite store
/// keeps, and its change feed misses nothing when several writers commit at once.
@Suite(.serialized)
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
        let lite = try PartyStore(path: ":memory:")
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

    @Test("An import is one transaction: a party PostgreSQL refuses (a NUL in its id) leaves nothing of the batch")
    func importAllOrNothing() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let pg = try PostgresPartyStore(url: server.url)
        var rng = Rand(state: 7)
        let good = try (0..<50).map { try Self.party("i\($0)", &rng) }
        #expect(try pg.upsertMany(good, now: Date()).map(\.version) == Array(repeating: 1, count: 50))
        let bad = try Self.party("bad\u{0}id", &rng)
        let batch = try (50..<60).map { try Self.party("i\($0)", &rng) } + [bad]
        #expect(throws: StoreError.self) { try pg.upsertMany(batch, now: Date()) }
        #expect(try pg.count() == 50)
        #expect(try pg.party(id: "i55") == nil)
        // The connection is usable after the rolled-back transaction.
        #expect(try pg.upsert(good[0], now: Date()).version == 2)
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
        #expect(throws: StoreError.self) { try PostgresPartyStore(url: "postgres://127.0.0.1:5432/db") }
        do { _ = try PostgresPartyStore(url: "postgres://u:s3cret@host/") } catch {
            #expect(error.code == "invalid_value" && error.field == "store" && !error.message.contains("s3cret"), "\(error)")
        }
        let server = try PostgresServer()
        defer { server.destroy() }
        do {
            _ = try PostgresPartyStore(url: server.urlWithWrongPassword)
            Issue.record("a wrong password was accepted")
        } catch {
            #expect(error.code == "storage_error")
            #expect(error.message.contains("28P01") && error.message.contains("password authentication failed"), "\(error.message)")
            #expect(!error.message.contains(server.password))
        }
        // Nobody listening: a storage_error naming the place, soon.
        let start = Date()
        do {
            _ = try PostgresPartyStore(url: "postgres://geofare:\(server.password)@127.0.0.1:\(PostgresServer.freePort())/postgres")
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.code == "storage_error" && error.message.contains("127.0.0.1") && !error.message.contains(server.password), "\(error.message)")
        }
        #expect(Date().timeIntervalSince(start) < 5)
    }

    @Test("URL forms: port default, Unix socket directory, PGPASSWORD, and the redacted form")
    func urls() throws {
        let a = try PostgresLocation(url: "postgres://me:pw@db.example:6543/parties", environment: [:])
        #expect(a.user == "me" && a.password == "pw" && a.host == "db.example" && a.port == 6543 && a.database == "parties")
        #expect(a.redacted == "postgres://me:***@db.example:6543/parties")
        let b = try PostgresLocation(url: "postgresql://me@/parties?host=/run/pg", environment: ["PGPASSWORD": "envpw"])
        #expect(b.socketPath == "/run/pg/.s.PGSQL.5432" && b.password == "envpw" && b.redacted == "postgres://me:***@:5432/parties?host=/run/pg")
        for bad in ["postgres://me:pw@h:99999/db", "postgres://me:pw@h/db?mode=x", "postgres://:pw@h/db", "mysql://me:pw@h/db"] {
            #expect(throws: StoreError.self, "\(bad)") { try PostgresLocation(url: bad, environment: [:]) }
            do { _ = try PostgresLocation(url: bad, environment: [:]) } catch { #expect(!error.message.contains(":pw@"), "\(error.message)") }
        }
    }
}

/// Failures collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.lock(); items.append(s); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return items }
}
