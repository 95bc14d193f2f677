import Foundation
import GeoFareCore
import GeoFareParties
import NIOSSL
import PostgresNIO

/// The party store in PostgreSQL (through PostgresNIO), shared by workers on several hosts.
///
/// - Tables `party` and `party_change` (the change feed, `seq` a `bigserial`), created at
///   first open. A write runs `BEGIN; SELECT geofare_upsert_party(...); COMMIT` and returns only
///   after `COMMIT` answered: an acknowledged write has committed.
/// - Writers take a transaction-scoped advisory lock before they draw a `seq`, so sequence
///   numbers commit in order: a reader that has seen `seq` n has seen every change below n, and
///   ``changes(after:)`` from its last `seq` misses nothing (catch-up after a reconnect or a
///   late start reads the same feed).
/// - A lost connection fails the current call with `storage_error`; the next call reconnects,
///   at most once per backoff period (50 ms doubling up to 2 s) so a dead server costs each
///   request little.
/// - A statement (or a transaction, per 10,000 statements) that gets no answer within
///   `statementTimeoutSeconds` (a server or network that hangs without closing the connection)
///   closes the connection and fails with `storage_error`, as a lost connection does. Every
///   wait is bounded on the caller's side (``ServerCall``): no call waits forever, whatever
///   the connection or its event loop does.
/// - The password is used to connect and nowhere else: ``location`` and every error carry the
///   URL without it.
///
/// Blocking: every call waits for the server on the caller's thread (the worker's loop thread,
/// never an event loop). What it waits for runs on NIO's event loops only, never on Swift
/// concurrency's cooperative pool, so a caller on that pool (an async function, a test) cannot
/// starve the work it waits for. One owner at a time.
public final class PostgresPartyStore: PartyStore, @unchecked Sendable {
    /// The URL without its password.
    public let location: String
    private let configuration: PostgresConnection.Configuration
    private let eventLoop: any EventLoop
    /// Runs the store's async work (the bulk import's `COPY`) on ``eventLoop``, off the
    /// cooperative pool.
    let asyncExecutor: EventLoopTaskExecutor
    let logger: Logger
    private var connection: PostgresConnection?
    /// Whether ``connection`` has closed, seen from the caller's thread.
    private var connectionWatch = ConnectionWatch()
    private var retryAt = Date.distantPast
    private var backoffSeconds: TimeInterval = 0
    private var nextConnectionID = 1
    private let statementTimeoutSeconds: Double
    private let connectTimeoutSeconds: Double
    /// Called on NOTIFY `geofare_party` (see ``onChangeNotice(_:)``).
    private var changeNotice: (@Sendable () -> Void)?
    /// The channel every write notifies, with its change's sequence number as payload.
    static let notifyChannel = "geofare_party"

    /// Advisory lock keys: one serialises schema creation, one the writers (commit order = seq order).
    static let schemaLock: Int64 = 0x6765_6F66_0001
    static let writeLock: Int64 = 0x6765_6F66_0002

    /// Opens the store at `url` (see ``PostgresLocation``), connecting once and creating the
    /// schema when missing.
    /// - Parameter connectTimeoutSeconds: how long one connection attempt may take; `nil`: the
    ///   URL's `connect_timeout`, else 10 s.
    /// - Parameter statementTimeoutSeconds: how long one statement or write transaction may wait
    ///   for the server before the connection is given up; `nil`: the URL's `statement_timeout`,
    ///   else 30 s.
    /// - Throws: ``GeoFareError``: `invalid_value` (field `store`) for a bad URL, `storage_error`
    ///   when the server cannot be reached or refuses the login; never with the password.
    public init(url: String, connectTimeoutSeconds: Int64? = nil, statementTimeoutSeconds: Int64? = nil) throws(GeoFareError) {
        let where_ = try PostgresLocation(url: url)
        let connectTimeoutSeconds = connectTimeoutSeconds ?? where_.connectTimeoutSeconds ?? 10
        let statementTimeoutSeconds = statementTimeoutSeconds ?? where_.statementTimeoutSeconds ?? 30
        location = where_.redacted
        var config: PostgresConnection.Configuration
        if let socket = where_.socketPath {
            config = .init(unixSocketPath: socket, username: where_.user, password: where_.password, database: where_.database)
        } else {
            config = .init(host: where_.host, port: where_.port, username: where_.user, password: where_.password, database: where_.database,
                           tls: try Self.tls(for: where_))
        }
        config.options.connectTimeout = .seconds(connectTimeoutSeconds)
        configuration = config
        self.statementTimeoutSeconds = Double(statementTimeoutSeconds)
        self.connectTimeoutSeconds = Double(connectTimeoutSeconds)
        eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        asyncExecutor = EventLoopTaskExecutor(eventLoop)
        // PostgresNIO logs through swift-log, whose default handler writes to a standard stream:
        // the worker's stdout carries only responses, so nothing below critical is let through.
        var logger = Logger(label: "geofare.postgres")
        logger.logLevel = .critical
        self.logger = logger
        try migrate()
    }

    deinit {
        // PostgresNIO wants a connection closed before it goes (a few seconds at most).
        if let connection {
            _ = connectionWatch.wait(for: connection.close(), until: Date().addingTimeInterval(5))
            withExtendedLifetime(connection) {}
        }
    }

    /// PostgresNIO's TLS setting for `location`'s `sslmode` and `sslrootcert`.
    /// - Throws: ``GeoFareError`` `invalid_value` (field `store`) when the root certificates
    ///   cannot be read.
    static func tls(for location: PostgresLocation) throws(GeoFareError) -> PostgresConnection.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch location.tlsMode {
        case .disable: return .disable
        case .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let path = location.tlsRootCertificates {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path))
            } catch {
                throw .unreadableRootCertificate(path, of: location.redacted, error)
            }
        }
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: tls) } catch {
            throw .tlsSetupFailed(location.redacted, error)
        }
        return location.tlsMode == .prefer ? .prefer(context) : .require(context)
    }

    // MARK: - Schema

    /// Brings the database's schema up to date (``PostgresMigrator``), under the schema lock:
    /// several workers starting at once apply each migration once.
    private func migrate() throws(GeoFareError) {
        let c = try connected()
        do {
            _ = try guarded(c) { call in try PostgresMigrator.migrate(call, logger: logger) }
        } catch {
            throw fail(error, doing: "bringing the party tables in \(location) up to date")
        }
    }

    // MARK: - Connection

    /// The open connection, or a new one (at most one attempt per backoff period).
    func connected() throws(GeoFareError) -> PostgresConnection {
        if let c = connection, !c.isClosed { return c }
        connection = nil
        let now = Date()
        guard now >= retryAt else {
            throw .unreachable(location, retryInMilliseconds: Int((retryAt.timeIntervalSince(now) * 1000).rounded(.up)))
        }
        do {
            let attempt = PostgresConnection.connect(on: eventLoop, configuration: configuration, id: nextConnectionID, logger: logger)
            // PostgresNIO bounds the attempt by `connectTimeout`; the caller's wait is bounded too.
            let c: PostgresConnection
            switch ConnectionWatch().wait(for: attempt, until: Date().addingTimeInterval(connectTimeoutSeconds + 5)) {
            case let .answered(result): c = try result.get()
            case .closed, .timedOut:
                attempt.whenSuccess { Self.close($0) }
                throw ServerCallError.noConnection(seconds: connectTimeoutSeconds + 5)
            }
            nextConnectionID += 1
            connection = c
            connectionWatch = ConnectionWatch(c)
            listen(on: c)
            backoffSeconds = 0
            retryAt = .distantPast
            return c
        } catch {
            backoffSeconds = min(max(backoffSeconds * 2, 0.05), 2)
            retryAt = Date().addingTimeInterval(backoffSeconds)
            throw Self.storeError(error, doing: "connecting to \(location)")
        }
    }

    /// Listens to the change channel on `c` when someone asked for notices: PostgresNIO sends
    /// `LISTEN` and calls the handler on its event loop for each notification.
    private func listen(on c: PostgresConnection) {
        guard let notice = changeNotice else { return }
        c.addListener(channel: Self.notifyChannel) { _, _ in notice() }
    }

    /// Calls `handler` on every NOTIFY of a committed change (ours included), from now on and
    /// on every later connection. Notices arrive while the connection is open; after the
    /// connection was lost, the next call that reconnects listens again.
    public func onChangeNotice(_ handler: @escaping @Sendable () -> Void) {
        changeNotice = handler
        if let c = connection, !c.isClosed { listen(on: c) }
    }

    /// A ``GeoFareError`` for `error`; drops the connection when it broke.
    func fail(_ error: any Error, doing what: String) -> GeoFareError {
        if let c = connection, c.isClosed || Self.breaksConnection(error) {
            Self.close(c)
            connection = nil
        }
        return Self.storeError(error, doing: what)
    }

    /// Closes `c` in the background, keeping it alive until it is closed (PostgresNIO asserts
    /// that a connection is closed before it is freed).
    static func close(_ c: PostgresConnection) {
        let closing: EventLoopFuture<Void> = c.close()
        closing.whenComplete { _ in withExtendedLifetime(c) {} }
    }

    static func breaksConnection(_ error: any Error) -> Bool {
        if error is ServerCallError { return true }
        guard let p = error as? PSQLError else { return false }
        return p.code != .server
    }

    /// `error` worded without anything from the URL but ``location``.
    static func storeError(_ error: any Error, doing what: String) -> GeoFareError {
        if let e = error as? GeoFareError { return e }
        if let p = error as? PSQLError {
            if p.code == .server, let info = p.serverInfo {
                return .serverError(what, sqlState: info[.sqlState] ?? "?", message: info[.message] ?? "?")
            }
            if p.code == .sslUnsupported {
                return .tlsUnsupported(what)
            }
            var text = "\(p.code)"
            if let u = p.underlying { text = tlsExplanation(u) ?? text + " (\(u))" }
            return .storageError(what, text)
        }
        return .storageError(what, "\(error)")
    }

    /// What a TLS failure means for the user (which setting to look at), with the library's
    /// own words after it; `nil` for other errors.
    static func tlsExplanation(_ error: any Error) -> String? {
        if let e = error as? NIOSSLExtraError, e == .failedToValidateHostname {
            return "TLS: the server's certificate does not name the host of the URL (sslmode=verify-full checks it; verify-ca does not) (\(e))"
        }
        if let e = error as? NIOSSLError, case .handshakeFailed = e {
            if "\(e)".contains("CERTIFICATE_VERIFY_FAILED") {
                return "TLS: the server's certificate is not signed by an authority in sslrootcert (or, without it, the system's) (\(e))"
            }
            return "TLS handshake failed (\(e))"
        }
        return nil
    }

    /// Runs `body` with a ``ServerCall`` on `c` whose waits end at the statement timeout (the
    /// connection is then closed and the call fails).
    /// - Parameter statements: how many statements `body` waits for: a transaction of `n`
    ///   statements gets the timeout once per 10,000 (an import of 1M parties is one transaction).
    func guarded<T>(_ c: PostgresConnection, statements: Int = 1, _ body: (ServerCall) throws -> T) throws -> T {
        let seconds = statementTimeoutSeconds * Double(1 + statements / 10_000)
        return try body(ServerCall(connection: c, watch: connectionWatch, deadline: Date().addingTimeInterval(seconds), seconds: seconds))
    }

    /// Runs one statement and returns its rows.
    private func rows(_ query: PostgresQuery, doing what: String) throws(GeoFareError) -> [PostgresRow] {
        let c = try connected()
        do { return try guarded(c) { call in try call.wait(c.query(query, logger: logger)).rows } } catch {
            throw fail(error, doing: what)
        }
    }

    /// Runs `statements` in one transaction and returns the rows of each; succeeds only when
    /// `COMMIT` answered `COMMIT`. The statements are queued together: the connection sends each
    /// as the previous one completes, without a trip back to this thread.
    private func transaction(_ statements: [PostgresQuery], begin: PostgresQuery = "BEGIN", doing what: String) throws(GeoFareError) -> [[PostgresRow]] {
        let c = try connected()
        do {
            return try guarded(c, statements: statements.count) { call throws -> [[PostgresRow]] in try run(statements, begin: begin, in: call, doing: what) }
        } catch {
            throw fail(error, doing: what)
        }
    }

    private func run(_ statements: [PostgresQuery], begin: PostgresQuery, in call: ServerCall, doing what: String) throws -> [[PostgresRow]] {
        let c = call.connection
        let begin = c.query(begin, logger: logger)
        let results = statements.map { c.query($0, logger: logger) }
        let commit = c.query("COMMIT", logger: logger)
        do {
            _ = try call.wait(begin)
            var out: [[PostgresRow]] = []
            var firstError: (any Error)?
            for r in results {
                do { out.append(try call.wait(r).rows) } catch { if firstError == nil { firstError = error } }
            }
            let committed = try call.wait(commit)
            if let firstError { throw firstError }
            guard committed.metadata.command == "COMMIT" else {
                throw GeoFareError.rolledBack(what, command: committed.metadata.command)
            }
            return out
        }
    }

    // MARK: - Writes

    static func upsertQuery(_ p: Party, now: Date) -> PostgresQuery {
        let (olat, olon, dlat, dlon) = (p.origin.latitude, p.origin.longitude, p.destination.latitude, p.destination.longitude)
        let (depart, total, taken, status, attributes, at) = (p.departure.timeIntervalSince1970, Int64(p.seatsTotal), Int64(p.seatsTaken),
                                                              p.status.rawValue, p.attributesJSON, now.timeIntervalSince1970)
        return "SELECT new_version, change_seq FROM geofare_upsert_party(\(p.id), \(olat), \(olon), \(dlat), \(dlon), \(depart), \(total), \(taken), \(status), \(attributes), \(at))"
    }

    static func removeQuery(_ id: String, now: Date) -> PostgresQuery {
        let at = now.timeIntervalSince1970
        return "SELECT removed, change_seq FROM geofare_remove_party(\(id), \(at))"
    }

    /// Commits `writes` as one transaction: the statements are queued together on the
    /// connection (one round trip and one commit for the group).
    public func write(_ writes: [PartyWrite], now: Date = Date()) throws(GeoFareError) -> [PartyWriteResult] {
        let what = PartyWrite.describe(writes)
        let out = try transaction(writes.map { w in
            switch w {
            case let .upsert(p): Self.upsertQuery(p, now: now)
            case let .remove(id): Self.removeQuery(id, now: now)
            }
        }, doing: what)
        var results: [PartyWriteResult] = []
        results.reserveCapacity(writes.count)
        for (w, rows) in zip(writes, out) {
            guard let row = rows.first else { throw GeoFareError.storageError(what, "no row returned") }
            do {
                switch w {
                case var .upsert(p):
                    let (version, seq) = try row.decode((Int64, Int64).self)
                    p.version = version
                    p.updatedAt = now
                    results.append(.upserted(p, seq: seq))
                case let .remove(id):
                    let (removed, seq) = try row.decode((Bool, Int64?).self)
                    results.append(.removed(id: id, seq: removed ? seq : nil))
                }
            } catch { throw Self.storeError(error, doing: what) }
        }
        return results
    }

    // MARK: - Reads

    /// The party columns in ``PartyTable``'s order (``party(_:from:doing:)`` decodes them so).
    static let columns = PartyTable.selectList()

    public func party(id: String) throws(GeoFareError) -> Party? {
        let what = "reading party '\(id)'"
        let rows = try rows("SELECT \(unescaped: Self.columns) FROM party WHERE id = \(id)", doing: what)
        guard let row = rows.first else { return nil }
        return try Self.party(row.makeRandomAccess(), from: 0, doing: what)
    }

    /// Every party, in id order, through the bulk path (``snapshot()``).
    public func allParties() throws(GeoFareError) -> [Party] { try snapshot().parties }

    public func count() throws(GeoFareError) -> Int {
        let what = "counting parties"
        guard let row = try rows("SELECT count(*) FROM party", doing: what).first else { return 0 }
        do { return Int(try row.decode(Int64.self)) } catch { throw Self.storeError(error, doing: what) }
    }

    // MARK: - Change feed

    public func lastChange() throws(GeoFareError) -> Int64 {
        let what = "reading the change feed"
        guard let row = try rows("SELECT coalesce(max(seq), 0)::bigint FROM party_change", doing: what).first else { return 0 }
        do { return try row.decode(Int64.self) } catch { throw Self.storeError(error, doing: what) }
    }

    /// Always `true`: PostgreSQL cannot say cheaply that nobody wrote, so the caller reads the
    /// feed (one round trip that returns no row when nothing changed).
    public func externallyChanged() throws(GeoFareError) -> Bool { true }

    public func changes(after seq: Int64, limit: Int) throws(GeoFareError) -> (changes: [(id: String, party: Party?)], last: Int64)? {
        let what = "reading the change feed"
        let cap = limit == .max ? Int64.max : Int64(limit) + 1
        // One statement, one snapshot: a party row seen here has its change row seen too.
        let rows = try rows("""
            SELECT c.seq, c.party_id, \(unescaped: PartyTable.selectList(prefix: "p."))
            FROM party_change c LEFT JOIN party p ON p.id = c.party_id WHERE c.seq > \(seq) ORDER BY c.seq LIMIT \(cap)
            """, doing: what)
        guard rows.count <= limit else { return nil }
        var last = seq
        var seen = Set<String>()
        var out: [(id: String, party: Party?)] = []
        do {
            for row in rows.reversed() {
                let r = row.makeRandomAccess()
                let s = try r[0].decode(Int64.self)
                last = max(last, s)
                let id = try r[1].decode(String.self)
                guard seen.insert(id).inserted else { continue }
                let present = try r[2].decode(String?.self) != nil
                out.append((id, present ? try Self.party(r, from: 2, doing: what) : nil))
            }
        } catch { throw Self.storeError(error, doing: what) }
        return (out.reversed(), last)
    }

    /// Every party and the newest sequence number in one REPEATABLE READ transaction (one
    /// snapshot; writers commit in `seq` order, so no change at or below `last` is missing
    /// from it). The bulk path: one query whose rows are decoded as they stream in (no buffer
    /// of rows), the four statements queued together.
    public func snapshot() throws(GeoFareError) -> (parties: [Party], last: Int64) {
        let what = "reading parties"
        let c = try connected()
        let sink = PartySink()
        do {
            return try guarded(c) { call throws -> (parties: [Party], last: Int64) in
                let begin = c.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
                let newest = c.query("SELECT coalesce(max(seq), 0)::bigint FROM party_change", logger: logger)
                let streamed = c.query("SELECT \(unescaped: Self.columns) FROM party ORDER BY id", logger: logger) { row in
                    sink.parties.append(try Self.party(row.makeRandomAccess(), from: 0, doing: what))
                }
                let commit = c.query("COMMIT", logger: logger)
                // Wait for every statement before throwing, so the connection is idle again.
                var firstError: (any Error)?
                var last: Int64 = 0
                do { _ = try call.wait(begin) } catch { firstError = firstError ?? error }
                do { last = try call.wait(newest).rows.first?.decode(Int64.self) ?? 0 } catch { firstError = firstError ?? error }
                do { _ = try call.wait(streamed) } catch { firstError = firstError ?? error }
                let committed = try call.wait(commit)
                if let firstError { throw firstError }
                guard committed.metadata.command == "COMMIT" else {
                    throw GeoFareError.rolledBack(what, command: committed.metadata.command)
                }
                return (sink.parties, last)
            }
        } catch {
            throw fail(error, doing: what)
        }
    }

    /// The parties of a streamed query, appended on the connection's event loop and read on the
    /// caller's thread once the query's future has completed (which orders the two).
    final class PartySink: @unchecked Sendable {
        var parties: [Party] = []
    }

    public func pruneChanges(olderThan age: TimeInterval, now: Date = Date()) throws(GeoFareError) {
        let cutoff = now.timeIntervalSince1970 - age
        // Never the newest record: a new worker's `lastChange()` must not fall back to 0 while
        // parties exist.
        _ = try rows("DELETE FROM party_change WHERE at < \(cutoff) AND seq < (SELECT max(seq) FROM party_change)", doing: "pruning the change feed")
    }

    static func party(_ r: PostgresRandomAccessRow, from k: Int, doing what: String) throws(GeoFareError) -> Party {
        do {
            return Party(
                id: try r[k].decode(String.self),
                origin: Coordinate(uncheckedLatitude: try r[k + 1].decode(Double.self), longitude: try r[k + 2].decode(Double.self)),
                destination: Coordinate(uncheckedLatitude: try r[k + 3].decode(Double.self), longitude: try r[k + 4].decode(Double.self)),
                departure: Date(timeIntervalSince1970: try r[k + 5].decode(Double.self)),
                seatsTotal: Int(try r[k + 6].decode(Int64.self)), seatsTaken: Int(try r[k + 7].decode(Int64.self)),
                status: PartyStatus(rawValue: try r[k + 8].decode(String.self)) ?? .closed,
                attributesJSON: try r[k + 9].decode(String?.self),
                updatedAt: Date(timeIntervalSince1970: try r[k + 10].decode(Double.self)),
                version: try r[k + 11].decode(Int64.self)
            )
        } catch {
            throw storeError(error, doing: what)
        }
    }
}
