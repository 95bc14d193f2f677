import Foundation
import GeoFareCore
import GeoFareParties
import PostgresNIO

/// The PostgreSQL store's schema as named migrations, applied in order, each once and in its
/// own transaction, and recorded in the table `geofare_migrations` (as GRDB's
/// `DatabaseMigrator` does for the SQLite store in `grdb_migrations`).
///
/// - Every store runs ``migrate(_:logger:)`` when it opens, under a session advisory lock
///   (``PostgresPartyStore/schemaLock``): workers starting at once apply each migration once.
/// - A database made before migrations existed (its tables, no `geofare_migrations`) is
///   adopted: v1 creates only what is missing (`IF NOT EXISTS`), v2 replaces the functions, and
///   both are recorded; its parties and change feed stay as they are.
/// - A database that records a migration this build does not know (made by a newer geofare)
///   is refused with `storage_error` before anything changes: an older worker must not write
///   into a schema it does not understand.
/// - A change to the schema is a new migration at the end of ``migrations``; one that has
///   shipped is never edited.
enum PostgresMigrator {
    struct Migration: Sendable {
        let identifier: String
        let statements: [String]
    }

    static let table = "geofare_migrations"

    static let migrations: [Migration] = [
        Migration(identifier: "v1: parties and the change feed", statements: [
            """
            CREATE TABLE IF NOT EXISTS party (
                id text PRIMARY KEY,
                origin_lat double precision NOT NULL, origin_lon double precision NOT NULL,
                dest_lat double precision NOT NULL, dest_lon double precision NOT NULL,
                depart_at double precision NOT NULL,
                seats_total bigint NOT NULL, seats_taken bigint NOT NULL,
                status text NOT NULL CHECK (status IN ('open', 'full', 'closed')),
                attributes text,
                updated_at double precision NOT NULL,
                version bigint NOT NULL
            )
            """,
            "CREATE TABLE IF NOT EXISTS party_change (seq bigserial PRIMARY KEY, party_id text NOT NULL, at double precision NOT NULL)",
            "CREATE INDEX IF NOT EXISTS party_change_at ON party_change (at)",
        ]),
        Migration(identifier: "v2: write functions that draw feed numbers under the writers' lock and NOTIFY", statements: [
            """
            CREATE OR REPLACE FUNCTION geofare_upsert_party(
                p_id text, p_olat double precision, p_olon double precision, p_dlat double precision, p_dlon double precision,
                p_depart double precision, p_total bigint, p_taken bigint, p_status text, p_attributes text, p_now double precision,
                OUT new_version bigint, OUT change_seq bigint)
            LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(\(PostgresPartyStore.writeLock));
                INSERT INTO party AS p (id, origin_lat, origin_lon, dest_lat, dest_lon, depart_at, seats_total, seats_taken, status, attributes, updated_at, version)
                VALUES (p_id, p_olat, p_olon, p_dlat, p_dlon, p_depart, p_total, p_taken, p_status, p_attributes, p_now, 1)
                ON CONFLICT (id) DO UPDATE SET origin_lat = excluded.origin_lat, origin_lon = excluded.origin_lon,
                    dest_lat = excluded.dest_lat, dest_lon = excluded.dest_lon, depart_at = excluded.depart_at,
                    seats_total = excluded.seats_total, seats_taken = excluded.seats_taken, status = excluded.status,
                    attributes = excluded.attributes, updated_at = excluded.updated_at, version = p.version + 1
                RETURNING p.version INTO new_version;
                INSERT INTO party_change (party_id, at) VALUES (p_id, p_now) RETURNING seq INTO change_seq;
                PERFORM pg_notify('\(PostgresPartyStore.notifyChannel)', change_seq::text);
            END $$
            """,
            """
            CREATE OR REPLACE FUNCTION geofare_remove_party(p_id text, p_now double precision, OUT removed boolean, OUT change_seq bigint)
            LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_advisory_xact_lock(\(PostgresPartyStore.writeLock));
                DELETE FROM party WHERE id = p_id;
                removed := FOUND;
                IF removed THEN
                    INSERT INTO party_change (party_id, at) VALUES (p_id, p_now) RETURNING seq INTO change_seq;
                    PERFORM pg_notify('\(PostgresPartyStore.notifyChannel)', change_seq::text);
                END IF;
            END $$
            """,
        ]),
    ]

    /// The migrations recorded in the database (in the order they were applied).
    static func applied(_ call: ServerCall, logger: Logger) throws -> [String] {
        let rows = try call.wait(call.connection.query("SELECT identifier FROM \(unescaped: table) ORDER BY applied_at, identifier", logger: logger)).rows
        return try rows.map { try $0.decode(String.self) }
    }

    /// Applies the migrations `c`'s database lacks, under the schema lock; returns their
    /// identifiers.
    /// - Throws: ``GeoFareError`` `storage_error` when the database records a migration this
    ///   build does not know; PostgresNIO's error when a statement fails (that migration's
    ///   transaction is rolled back; the ones before it stay applied).
    static func migrate(_ call: ServerCall, logger: Logger) throws -> [String] {
        let c = call.connection
        _ = try call.wait(c.query("SELECT pg_advisory_lock(\(PostgresPartyStore.schemaLock))", logger: logger))
        defer { _ = try? call.wait(c.query("SELECT pg_advisory_unlock(\(PostgresPartyStore.schemaLock))", logger: logger)) }
        _ = try call.wait(c.query("CREATE TABLE IF NOT EXISTS \(unescaped: table) (identifier text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())",
                                  logger: logger))
        let done = Set(try applied(call, logger: logger))
        let unknown = done.subtracting(migrations.map(\.identifier)).sorted()
        guard unknown.isEmpty else {
            throw GeoFareError.migratedByNewerVersion(unknown)
        }
        var newlyApplied: [String] = []
        for m in migrations where !done.contains(m.identifier) {
            _ = try call.wait(c.query("BEGIN", logger: logger))
            do {
                for statement in m.statements {
                    _ = try call.wait(c.query(PostgresQuery(unsafeSQL: statement), logger: logger))
                }
                _ = try call.wait(c.query("INSERT INTO \(unescaped: table) (identifier) VALUES (\(m.identifier))", logger: logger))
                _ = try call.wait(c.query("COMMIT", logger: logger))
            } catch {
                _ = try? call.wait(c.query("ROLLBACK", logger: logger))
                throw error
            }
            newlyApplied.append(m.identifier)
        }
        return newlyApplied
    }
}
