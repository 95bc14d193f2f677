import Foundation
import GeoFareCore
import GeoFareParties
import GRDB
import GRDBSQLite

/// The persistent store of parties: one SQLite file in WAL mode (GRDB over the system SQLite),
/// with a change feed so several processes on one file stay coherent.
///
/// - A write returns only after its transaction committed: an acknowledged write survives a
///   crash of the process (`kill -9`). With `synchronous=NORMAL` in WAL mode, a power loss may
///   lose the last transactions but never corrupts the file; use ``Durability/full`` to fsync
///   every commit.
/// - Every write appends to `party_change`; other processes read it after `PRAGMA data_version`
///   tells them the file changed (see ``changes(after:)``).
///
/// Not `Sendable` in spirit: one owner (the worker's loop thread) uses a store.
public final class SQLitePartyStore: @unchecked Sendable {
    /// How hard commits are pushed to disk.
    public enum Durability: String, Sendable {
        /// WAL with synchronous=NORMAL: survives a process crash; an OS crash may lose the last commits.
        case normal
        /// synchronous=FULL: fsync on every commit; survives an OS crash too.
        case full
    }

    /// The path (or `:memory:`).
    public let path: String
    private let db: DatabaseQueue
    private var lastDataVersion: Int64 = 0

    /// Opens (creating and migrating if needed) the store at `path`; `:memory:` for a private
    /// in-memory store.
    /// - Throws: ``GeoFareError`` naming the path.
    public init(path: String, durability: Durability = .normal) throws(GeoFareError) {
        self.path = path
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(durability == .full ? "FULL" : "NORMAL")")
        }
        do {
            if path == ":memory:" {
                db = try DatabaseQueue(configuration: config)
            } else {
                db = try DatabaseQueue(path: path, configuration: config)
            }
            // Two processes opening a new file at once both see it unmigrated; the loser's
            // CREATE fails ("table party already exists"). Retrying finds v1 applied. The switch
            // to WAL is retried with it: on a loaded machine it met another process's first
            // transaction on the new file and answered SQLITE_BUSY without waiting (CI saw a
            // worker exit 74 with "database is locked" when two started on one new file).
            var attempt = 0
            while true {
                do {
                    if path != ":memory:" {
                        try db.writeWithoutTransaction { db in
                            let mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                            if mode?.lowercased() != "wal" { throw GeoFareError.walUnavailable(path, mode: mode) }
                        }
                    }
                    try Self.migrator.migrate(db)
                    break
                } catch {
                    attempt += 1
                    if attempt >= 8 { throw error }
                    usleep(UInt32(50_000 * attempt))
                }
            }
            lastDataVersion = try dataVersion()
        } catch let error as GeoFareError {
            throw error
        } catch {
            throw GeoFareError(error, doing: "opening \(path)")
        }
    }

    /// Writes one party inside the caller's transaction; the party as stored and its change
    /// record's sequence number. Two cached prepared statements (GRDB's `cachedStatement`:
    /// compiling them per call cost more than running them): the upsert returns the new version
    /// itself (`RETURNING`, SQLite ≥ 3.35), then the change record. Their values are bound with
    /// SQLite's own calls (``Bound``): GRDB's argument arrays were a third of a write's cost in
    /// a burst of upserts.
    static func upsert(_ party: Party, now: Date, in db: Database) throws -> PartyWriteResult {
        var stored = party
        stored.updatedAt = now
        let upsert = Bound(try db.cachedStatement(sql: """
            INSERT INTO party (id, origin_lat, origin_lon, dest_lat, dest_lon, depart_at, seats_total, seats_taken, status, attributes, updated_at, version)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)
            ON CONFLICT(id) DO UPDATE SET origin_lat = excluded.origin_lat, origin_lon = excluded.origin_lon,
                dest_lat = excluded.dest_lat, dest_lon = excluded.dest_lon, depart_at = excluded.depart_at,
                seats_total = excluded.seats_total, seats_taken = excluded.seats_taken, status = excluded.status,
                attributes = excluded.attributes, updated_at = excluded.updated_at, version = party.version + 1
            RETURNING version
            """), in: db)
        upsert.text(1, stored.id)
        upsert.double(2, stored.origin.latitude); upsert.double(3, stored.origin.longitude)
        upsert.double(4, stored.destination.latitude); upsert.double(5, stored.destination.longitude)
        upsert.double(6, stored.departure.timeIntervalSince1970)
        upsert.int(7, Int64(stored.seatsTotal)); upsert.int(8, Int64(stored.seatsTaken))
        upsert.text(9, stored.status.rawValue)
        if let a = stored.attributesJSON { upsert.text(10, a) } else { upsert.null(10) }
        upsert.double(11, now.timeIntervalSince1970)
        stored.version = try upsert.runReturningInt64()
        let change = Bound(try db.cachedStatement(sql: "INSERT INTO party_change (party_id, at) VALUES (?, ?)"), in: db)
        change.text(1, stored.id)
        change.double(2, now.timeIntervalSince1970)
        try change.run()
        return .upserted(stored, seq: db.lastInsertedRowID)
    }

    /// A cached statement whose values are bound and which is run with SQLite's own calls
    /// (`sqlite3_bind_*`, `sqlite3_step`, `sqlite3_reset`), inside the caller's transaction.
    /// Every run resets the statement, whatever happens; a failure throws GRDB's
    /// `DatabaseError` with SQLite's result code and message, as GRDB's own `execute` does.
    struct Bound {
        let statement: Statement
        let db: Database
        var handle: OpaquePointer { statement.sqliteStatement }

        init(_ statement: Statement, in db: Database) {
            self.statement = statement
            self.db = db
            sqlite3_reset(statement.sqliteStatement)
        }

        /// SQLite copies the bytes (`SQLITE_TRANSIENT`).
        func text(_ i: Int32, _ s: String) {
            var s = s
            s.withUTF8 { u in
                guard let base = u.baseAddress else { _ = sqlite3_bind_text(handle, i, "", 0, nil); return }
                _ = sqlite3_bind_text(handle, i, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(u.count),
                                      unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
        }
        func double(_ i: Int32, _ v: Double) { sqlite3_bind_double(handle, i, v) }
        func int(_ i: Int32, _ v: Int64) { sqlite3_bind_int64(handle, i, v) }
        func null(_ i: Int32) { sqlite3_bind_null(handle, i) }

        private func failure(_ code: Int32) -> DatabaseError {
            DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }

        /// Runs a statement that returns no row.
        func run() throws {
            defer { sqlite3_reset(handle) }
            let code = sqlite3_step(handle)
            guard code == SQLITE_DONE else { throw failure(code) }
        }

        /// Runs a statement that returns one row of one integer, to its end.
        func runReturningInt64() throws -> Int64 {
            defer { sqlite3_reset(handle) }
            var code = sqlite3_step(handle)
            guard code == SQLITE_ROW else { throw failure(code == SQLITE_DONE ? SQLITE_ERROR : code) }
            let value = sqlite3_column_int64(handle, 0)
            code = sqlite3_step(handle)
            guard code == SQLITE_DONE else { throw failure(code) }
            return value
        }
    }

    /// Deletes one party inside the caller's transaction.
    static func remove(id: String, now: Date, in db: Database) throws -> PartyWriteResult {
        guard let rowid = try Int64.fetchOne(db.cachedStatement(sql: "SELECT rowid FROM party WHERE id = ?"), arguments: [id]) else { return .removed(id: id, seq: nil) }
        try db.cachedStatement(sql: "DELETE FROM party WHERE rowid = ?").execute(arguments: [rowid])
        try db.cachedStatement(sql: "INSERT INTO party_change (party_id, at) VALUES (?, ?)").execute(arguments: [id, now.timeIntervalSince1970])
        return .removed(id: id, seq: db.lastInsertedRowID)
    }

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1: parties, R*Tree on origins, change feed") { db in
            try db.execute(sql: """
                CREATE TABLE party (
                    rowid INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    origin_lat REAL NOT NULL, origin_lon REAL NOT NULL,
                    dest_lat REAL NOT NULL, dest_lon REAL NOT NULL,
                    depart_at REAL NOT NULL,
                    seats_total INTEGER NOT NULL, seats_taken INTEGER NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('open', 'full', 'closed')),
                    attributes TEXT,
                    updated_at REAL NOT NULL,
                    version INTEGER NOT NULL
                );
                CREATE VIRTUAL TABLE party_origin USING rtree(rowid, min_lat, max_lat, min_lon, max_lon);
                CREATE TABLE party_change (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    party_id TEXT NOT NULL,
                    at REAL NOT NULL
                );
                """)
        }
        // The in-memory index answers every spatial query; the R*Tree was written on every
        // upsert and never read, so it goes.
        m.registerMigration("v2: drop the unread origin R*Tree") { db in
            try db.execute(sql: "DROP TABLE IF EXISTS party_origin")
        }
        return m
    }

    // MARK: - Writes

    /// Commits `writes` in order as one transaction and returns what each did, once committed.
    /// - Throws: ``GeoFareError``; then nothing of the group was written.
    public func write(_ writes: [PartyWrite], now: Date = Date()) throws(GeoFareError) -> [PartyWriteResult] {
        do {
            return try db.write { db in
                var out: [PartyWriteResult] = []
                out.reserveCapacity(writes.count)
                for w in writes {
                    switch w {
                    case let .upsert(party): out.append(try Self.upsert(party, now: now, in: db))
                    case let .remove(id): out.append(try Self.remove(id: id, now: now, in: db))
                    }
                }
                return out
            }
        } catch {
            throw GeoFareError(error, doing: PartyWrite.describe(writes))
        }
    }

    // MARK: - Reads

    /// One party, or `nil`.
    public func party(id: String) throws(GeoFareError) -> Party? {
        do { return try db.read { db in try Row.fetchOne(db, sql: "SELECT \(PartyTable.selectList()) FROM party WHERE id = ?", arguments: [id]).map(Self.party) } } catch {
            throw GeoFareError(error, doing: "reading party '\(id)'")
        }
    }

    /// Every party, in id order (for loading the in-memory index at start).
    public func allParties() throws(GeoFareError) -> [Party] { try snapshot().parties }

    /// The number of stored parties.
    public func count() throws(GeoFareError) -> Int {
        do { return try db.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM party") ?? 0 } } catch {
            throw GeoFareError(error, doing: "counting parties")
        }
    }

    // MARK: - Change feed

    /// The newest change sequence number (0 when none).
    public func lastChange() throws(GeoFareError) -> Int64 {
        do { return try db.read { db in try Int64.fetchOne(db, sql: "SELECT coalesce(max(seq), 0) FROM party_change") ?? 0 } } catch {
            throw GeoFareError(error, doing: "reading the change feed")
        }
    }

    /// Whether another connection (another process) committed since the last call.
    /// Costs one `PRAGMA data_version`.
    public func externallyChanged() throws(GeoFareError) -> Bool {
        let v = try dataVersion()
        defer { lastDataVersion = v }
        return v != lastDataVersion
    }

    /// The parties changed after `seq` (see ``PartyStore/changes(after:limit:)``): one
    /// statement joining the feed to the parties, in one read transaction.
    public func changes(after seq: Int64, limit: Int) throws(GeoFareError) -> (changes: [(id: String, party: Party?)], last: Int64)? {
        do {
            return try db.read { db in
                let rows = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT c.seq AS change_seq, c.party_id AS change_id, \(PartyTable.selectList(prefix: "p.")) FROM party_change c LEFT JOIN party p ON p.id = c.party_id
                    WHERE c.seq > ? ORDER BY c.seq LIMIT ?
                    """), arguments: [seq, limit == .max ? -1 : limit + 1])
                guard rows.count <= limit else { return nil }
                var last = seq
                var seen = Set<String>()
                var out: [(String, Party?)] = []
                for row in rows.reversed() {
                    let s: Int64 = row["change_seq"]
                    last = max(last, s)
                    let id: String = row["change_id"]
                    guard seen.insert(id).inserted else { continue }
                    out.append((id, (row["id"] as String?) == nil ? nil : Self.party(row)))
                }
                return (out.reversed(), last)
            }
        } catch {
            throw GeoFareError(error, doing: "reading the change feed")
        }
    }

    /// Every party and the newest sequence number, from one read transaction (one snapshot of
    /// the WAL file).
    public func snapshot() throws(GeoFareError) -> (parties: [Party], last: Int64) {
        do {
            return try db.read { db in
                let last = try Int64.fetchOne(db, sql: "SELECT coalesce(max(seq), 0) FROM party_change") ?? 0
                return (try Row.fetchAll(db, sql: "SELECT \(PartyTable.selectList()) FROM party ORDER BY id").map(Self.party), last)
            }
        } catch {
            throw GeoFareError(error, doing: "reading parties")
        }
    }

    /// Drops change records older than `age` seconds (the feed only needs to cover the time
    /// between two requests of the slowest worker).
    public func pruneChanges(olderThan age: TimeInterval, now: Date = Date()) throws(GeoFareError) {
        do { try db.write { db in try db.execute(sql: "DELETE FROM party_change WHERE at < ?", arguments: [now.timeIntervalSince1970 - age]) } } catch {
            throw GeoFareError(error, doing: "pruning the change feed")
        }
    }

    private func dataVersion() throws(GeoFareError) -> Int64 {
        do { return try db.writeWithoutTransaction { db in try Int64.fetchOne(db.cachedStatement(sql: "PRAGMA data_version")) ?? 0 } } catch {
            throw GeoFareError(error, doing: "reading PRAGMA data_version")
        }
    }

    static func party(_ row: Row) -> Party {
        Party(
            id: row["id"],
            origin: Coordinate(uncheckedLatitude: row["origin_lat"], longitude: row["origin_lon"]),
            destination: Coordinate(uncheckedLatitude: row["dest_lat"], longitude: row["dest_lon"]),
            departure: Date(timeIntervalSince1970: row["depart_at"]),
            seatsTotal: row["seats_total"], seatsTaken: row["seats_taken"],
            status: PartyStatus(rawValue: row["status"]) ?? .closed,
            attributesJSON: row["attributes"],
            updatedAt: Date(timeIntervalSince1970: row["updated_at"]),
            version: row["version"]
        )
    }
}

extension SQLitePartyStore: PartyStore {
    public var location: String { path }
    public func onChangeNotice(_ handler: @escaping @Sendable () -> Void) {}
}
