// The PostgreSQL store exists only in a build with the trait: `swift build --traits PostgreSQL`.
#if PostgreSQL
import Foundation
import Testing
import GeoFareParties
import GeoFareCore
import GeoFarePostgres
import GeoFareTestSupport

/// The PostgreSQL schema's migrations against a real server: a new database, one made by the
/// release before migrations existed, and one migrated by a newer geofare.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(10))))
struct PostgresMigrationTests {
    /// The schema exactly as the release before migrations created it at every start (no
    /// `geofare_migrations` table), with the writers' lock key and NOTIFY channel it used.
    static let schemaBeforeMigrations = """
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
        );
        CREATE TABLE IF NOT EXISTS party_change (seq bigserial PRIMARY KEY, party_id text NOT NULL, at double precision NOT NULL);
        CREATE INDEX IF NOT EXISTS party_change_at ON party_change (at);
        CREATE OR REPLACE FUNCTION geofare_upsert_party(
            p_id text, p_olat double precision, p_olon double precision, p_dlat double precision, p_dlon double precision,
            p_depart double precision, p_total bigint, p_taken bigint, p_status text, p_attributes text, p_now double precision,
            OUT new_version bigint, OUT change_seq bigint)
        LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock(113685358313474);
            INSERT INTO party AS p (id, origin_lat, origin_lon, dest_lat, dest_lon, depart_at, seats_total, seats_taken, status, attributes, updated_at, version)
            VALUES (p_id, p_olat, p_olon, p_dlat, p_dlon, p_depart, p_total, p_taken, p_status, p_attributes, p_now, 1)
            ON CONFLICT (id) DO UPDATE SET origin_lat = excluded.origin_lat, origin_lon = excluded.origin_lon,
                dest_lat = excluded.dest_lat, dest_lon = excluded.dest_lon, depart_at = excluded.depart_at,
                seats_total = excluded.seats_total, seats_taken = excluded.seats_taken, status = excluded.status,
                attributes = excluded.attributes, updated_at = excluded.updated_at, version = p.version + 1
            RETURNING p.version INTO new_version;
            INSERT INTO party_change (party_id, at) VALUES (p_id, p_now) RETURNING seq INTO change_seq;
            PERFORM pg_notify('geofare_party', change_seq::text);
        END $$;
        CREATE OR REPLACE FUNCTION geofare_remove_party(p_id text, p_now double precision, OUT removed boolean, OUT change_seq bigint)
        LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_advisory_xact_lock(113685358313474);
            DELETE FROM party WHERE id = p_id;
            removed := FOUND;
            IF removed THEN
                INSERT INTO party_change (party_id, at) VALUES (p_id, p_now) RETURNING seq INTO change_seq;
                PERFORM pg_notify('geofare_party', change_seq::text);
            END IF;
        END $$;
        """

    static func migrations(_ server: PostgresServer) throws -> [String] {
        try server.psql("SELECT identifier FROM geofare_migrations ORDER BY applied_at").split(separator: "\n").map(String.init)
    }

    static func party(_ id: String) throws -> Party {
        Party(id: id, origin: try Coordinate(latitude: 37.55, longitude: 126.92), destination: try Coordinate(latitude: 37.5, longitude: 127.03),
              departure: Date(timeIntervalSince1970: 1_900_000_000), seatsTotal: 4, seatsTaken: 2, status: .open, attributesJSON: #"{"k":"v"}"#)
    }

    @Test("A new database gets every migration once, in order; opening it again (and from a second store at once) applies nothing more")
    func newDatabase() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let stores = Failures()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do { _ = try PostgresPartyStore(url: server.url) } catch { stores.add("\(error)") }
        }
        #expect(stores.all.isEmpty, "\(stores.all)")
        let applied = try Self.migrations(server)
        #expect(applied.count == 2 && applied[0].hasPrefix("v1:") && applied[1].hasPrefix("v2:"), "\(applied)")
        let store = try PostgresPartyStore(url: server.url)
        #expect(try Self.migrations(server) == applied)
        #expect(try store.upsert(Self.party("n1")).version == 1)
    }

    /// A database made by the schema before migrations is adopted: its parties, versions and change
    /// feed stay, the migrations are recorded, writes go on from its feed.
    @Test("A database from the schema before migrations is adopted: parties, versions and feed stay, migrations recorded")
    func upgradeFromBeforeMigrations() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        _ = try server.psql(Self.schemaBeforeMigrations)
        // Writes through the old functions, as the previous release's workers made them.
        _ = try server.psql("""
            SELECT geofare_upsert_party('old1', 37.55, 126.92, 37.5, 127.03, 1900000000, 4, 1, 'open', NULL, 1800000000);
            SELECT geofare_upsert_party('old1', 37.56, 126.93, 37.5, 127.03, 1900000000, 4, 2, 'full', '{"a":1}', 1800000001);
            SELECT geofare_upsert_party('old2', 37.57, 126.94, 37.5, 127.03, 1900000000, 3, 0, 'open', NULL, 1800000002);
            SELECT geofare_remove_party('old2', 1800000003);
            """)
        #expect((try? Self.migrations(server)) == nil, "the old schema has no migrations table")
        let store = try PostgresPartyStore(url: server.url)
        #expect(try Self.migrations(server).count == 2)
        let old = try #require(try store.party(id: "old1"))
        #expect(old.version == 2 && old.seatsTaken == 2 && old.status == .full && old.attributesJSON == #"{"a":1}"# && old.origin.latitude == 37.56)
        #expect(try store.count() == 1)
        #expect(try store.lastChange() == 4)
        #expect(try store.changes(after: 0).changes.map(\.id) == ["old1", "old2"])
        // The adopted database works as a new one: versions go on, the feed continues at 5.
        #expect(try store.upsert(old).version == 3)
        #expect(try store.lastChange() == 5)
        #expect(try store.upsertMany([Self.party("new1"), Self.party("old1")], now: Date()).map(\.version) == [1, 4])
        #expect(try store.lastChange() == 7)
    }

    @Test("A database migrated by a newer geofare (a migration this one does not know) is refused before anything changes, with a clear error")
    func newerDatabaseRefused() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        _ = try PostgresPartyStore(url: server.url)
        _ = try server.psql("INSERT INTO geofare_migrations (identifier) VALUES ('v9: from a newer geofare')")
        _ = try server.psql("DROP FUNCTION geofare_remove_party")
        do {
            _ = try PostgresPartyStore(url: server.url)
            Issue.record("opened a database migrated by a newer geofare")
        } catch {
            #expect(error.code == .storageError && error.message.contains("newer geofare") && error.message.contains("v9: from a newer geofare"), "\(error.message)")
            #expect(!error.message.contains(server.password))
        }
        // Nothing was re-applied: the dropped function is still gone.
        #expect(try server.psql("SELECT count(*) FROM pg_proc WHERE proname = 'geofare_remove_party'") == "0")
        let worker = try GeoFareBinary.run(["parties", "export", "--store", server.url])
        #expect(worker.status == 74 && worker.stderr.contains("newer geofare"), "\(worker.stderr)")
    }
}
#endif
