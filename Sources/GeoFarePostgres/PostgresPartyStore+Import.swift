import Foundation
import GeoFareCore
import GeoFareParties
import PostgresNIO

/// The bulk import: `COPY` into a temporary table, then set-based statements, one transaction.
extension PostgresPartyStore {
    /// The temporary table a bulk import copies into (dropped at the end of its transaction).
    static let importTable = "party_import"

    static let createImportTable: PostgresQuery = """
        CREATE TEMPORARY TABLE party_import (
            ord bigint NOT NULL, id text NOT NULL,
            origin_lat double precision NOT NULL, origin_lon double precision NOT NULL,
            dest_lat double precision NOT NULL, dest_lon double precision NOT NULL,
            depart_at double precision NOT NULL, seats_total bigint NOT NULL, seats_taken bigint NOT NULL,
            status text NOT NULL, attributes text
        ) ON COMMIT DROP
        """

    /// After the copy, under the writers' lock: the party table (each id once, its last row in
    /// the input, its version raised once per row), then one change record per row in input
    /// order (`seq` drawn in `ord` order), one NOTIFY with the newest `seq`, and the version
    /// each row would have had with one upsert after another.
    static func applyImport(now: Date) -> [PostgresQuery] {
        let at = now.timeIntervalSince1970
        return [
            "SELECT pg_advisory_xact_lock(\(writeLock))",
            """
            INSERT INTO party AS p (id, origin_lat, origin_lon, dest_lat, dest_lon, depart_at, seats_total, seats_taken, status, attributes, updated_at, version)
            SELECT DISTINCT ON (id) id, origin_lat, origin_lon, dest_lat, dest_lon, depart_at, seats_total, seats_taken, status, attributes,
                \(at), count(*) OVER (PARTITION BY id)
            FROM party_import ORDER BY id, ord DESC
            ON CONFLICT (id) DO UPDATE SET origin_lat = excluded.origin_lat, origin_lon = excluded.origin_lon,
                dest_lat = excluded.dest_lat, dest_lon = excluded.dest_lon, depart_at = excluded.depart_at,
                seats_total = excluded.seats_total, seats_taken = excluded.seats_taken, status = excluded.status,
                attributes = excluded.attributes, updated_at = excluded.updated_at, version = p.version + excluded.version
            """,
            "INSERT INTO party_change (party_id, at) SELECT id, \(at) FROM party_import ORDER BY ord",
            "SELECT pg_notify('\(unescaped: notifyChannel)', max(seq)::text) FROM party_change",
        ]
    }

    /// Each row's version, in input order: the party's version now, less one for each later
    /// row of the same id.
    static let importedVersions: PostgresQuery = """
        SELECT p.version - count(*) OVER (PARTITION BY i.id ORDER BY i.ord DESC) + 1
        FROM party_import i JOIN party p ON p.id = i.id ORDER BY i.ord
        """

    /// Upserts `parties` in one transaction through `COPY`: the rows stream into a temporary
    /// table, then a few set-based statements apply them to `party` and the change feed, with
    /// exactly the result of ``write(_:now:)`` with one `.upsert` each (versions, one change
    /// record per party in input order) and one NOTIFY. The writers' lock is held only for the
    /// set-based statements, not while the rows stream.
    /// - Throws: ``GeoFareError``: `invalid_value` (field `id` or `attributes`) for a NUL, which
    ///   PostgreSQL text cannot hold, before anything is sent; `storage_error` when the server
    ///   refuses a row or the connection fails. Then nothing was written.
    public func upsertMany(_ parties: [Party], now: Date = Date()) throws(GeoFareError) -> [Party] {
        guard !parties.isEmpty else { return [] }
        for (i, p) in parties.enumerated() {
            if let field = PostgresCopyText.nulField(p) {
                throw .nulCharacter(party: i, of: parties.count, field: field)
            }
        }
        let what = "importing \(parties.count) parties into \(location)"
        let c = try connected()
        do {
            let versions = try guarded(c, statements: parties.count) { call throws -> [Int64] in
                try runImport(parties, now: now, in: call, doing: what)
            }
            guard versions.count == parties.count else {
                throw GeoFareError.storageError(what, "\(versions.count) versions returned for \(parties.count) parties")
            }
            return zip(parties, versions).map { p, version in
                var p = p
                p.version = version
                p.updatedAt = now
                return p
            }
        } catch {
            throw fail(error, doing: what)
        }
    }

    private func runImport(_ parties: [Party], now: Date, in call: ServerCall, doing what: String) throws -> [Int64] {
        let c = call.connection
        let begin = c.query("BEGIN", logger: logger)
        let create = c.query(Self.createImportTable, logger: logger)
        do {
            _ = try call.wait(begin)
            _ = try call.wait(create)
            try copy(parties, in: call)
        } catch {
            // Leave the connection idle, outside any transaction (fails harmlessly when it broke).
            _ = try? call.wait(c.query("ROLLBACK", logger: logger))
            throw error
        }
        let applied = Self.applyImport(now: now).map { c.query($0, logger: logger) }
        let sink = VersionSink()
        sink.versions.reserveCapacity(parties.count)
        let versions = c.query(Self.importedVersions, logger: logger) { row in sink.versions.append(try row.decode(Int64.self)) }
        let commit = c.query("COMMIT", logger: logger)
        // Wait for every statement before throwing, so the connection is idle again.
        var firstError: (any Error)?
        for q in applied {
            do { _ = try call.wait(q) } catch { firstError = firstError ?? error }
        }
        do { _ = try call.wait(versions) } catch { firstError = firstError ?? error }
        let committed = try call.wait(commit)
        if let firstError { throw firstError }
        guard committed.metadata.command == "COMMIT" else {
            throw GeoFareError.rolledBack(what, command: committed.metadata.command)
        }
        return sink.versions
    }

    /// Streams `parties` into the import table (`COPY ... FROM STDIN`, text format), in
    /// chunks of about 1 MiB, waiting for the copy to finish. PostgresNIO's copy is async: it
    /// runs as a task on the connection's event loop (``EventLoopTaskExecutor``), never on the
    /// cooperative pool, so this thread's wait cannot hold a thread the copy needs.
    private func copy(_ parties: [Party], in call: ServerCall) throws {
        let logger = logger
        let c = call.connection
        try call.wait(asyncExecutor.submit {
            try await c.copyFrom(table: Self.importTable, columns: PostgresCopyText.partyColumns, logger: logger) { writer in
                var chunk = ByteBuffer()
                chunk.reserveCapacity(1 << 20 + 4096)
                for (i, p) in parties.enumerated() {
                    PostgresCopyText.appendParty(p, ordinal: i, to: &chunk)
                    if chunk.readableBytes >= 1 << 20 {
                        try await writer.write(chunk)
                        chunk.clear()
                    }
                }
                if chunk.readableBytes > 0 { try await writer.write(chunk) }
            }
        })
    }

    /// The versions of the import's last query, appended on the connection's event loop and
    /// read once the query's future has completed.
    final class VersionSink: @unchecked Sendable {
        var versions: [Int64] = []
    }
}
