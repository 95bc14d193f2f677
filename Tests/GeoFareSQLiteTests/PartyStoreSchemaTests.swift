import Foundation
import GRDB
import Testing
import GeoFareParties
import GeoFareCore
import GeoFareSQLite

/// The SQLite file holds what is read, and nothing written for nobody.
struct PartyStoreSchemaTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("geofare-store-\(UUID().uuidString).db").path
    }

    static func party(_ i: Int) throws -> Party {
        Party(id: "p\(i)", origin: try Coordinate(latitude: 37.5 + Double(i) * 1e-4, longitude: 127.0),
              destination: try Coordinate(latitude: 37.4, longitude: 127.1), departure: Date(timeIntervalSince1970: 1_900_000_000),
              seatsTotal: 4, seatsTaken: 1, status: .open)
    }

    @Test("No origin R*Tree is written: upserts and removals touch the party table and the change feed only, and an old file drops it")
    func noUnreadRTree() throws {
        let path = Self.temporaryPath()
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        // A file as version 1 left it: the R*Tree exists and holds an origin.
        do {
            let q = try DatabaseQueue(path: path)
            try q.write { db in
                try db.execute(sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1: parties, R*Tree on origins, change feed');
                    CREATE TABLE party (
                        rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
                        origin_lat REAL NOT NULL, origin_lon REAL NOT NULL, dest_lat REAL NOT NULL, dest_lon REAL NOT NULL,
                        depart_at REAL NOT NULL, seats_total INTEGER NOT NULL, seats_taken INTEGER NOT NULL,
                        status TEXT NOT NULL CHECK (status IN ('open', 'full', 'closed')), attributes TEXT,
                        updated_at REAL NOT NULL, version INTEGER NOT NULL);
                    CREATE VIRTUAL TABLE party_origin USING rtree(rowid, min_lat, max_lat, min_lon, max_lon);
                    CREATE TABLE party_change (seq INTEGER PRIMARY KEY AUTOINCREMENT, party_id TEXT NOT NULL, at REAL NOT NULL);
                    INSERT INTO party VALUES (1, 'old', 37, 127, 37.1, 127.1, 1900000000, 4, 1, 'open', NULL, 1800000000, 1);
                    INSERT INTO party_origin VALUES (1, 37, 37, 127, 127);
                    """)
            }
        }
        let store = try SQLitePartyStore(path: path)
        try store.upsert(try Self.party(1))
        try store.upsert(try Self.party(2))
        #expect(try store.remove(id: "p1"))
        #expect(try store.count() == 2)
        #expect(try store.party(id: "old")?.seatsTaken == 1)
        let q = try DatabaseQueue(path: path)
        let tables = try q.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") }
        #expect(!tables.contains { $0.hasPrefix("party_origin") }, "\(tables)")
        #expect(tables.contains("party") && tables.contains("party_change"))
    }
}
