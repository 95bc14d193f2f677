import Foundation
import GeoFareCore
import GeoFareParties
import GeoFareSQLite
import Synchronization
import Testing

/// The index kept coherent with a store, on a real SQLite file that a second store (another
/// process's view of the same file) writes behind its back.
struct LivePartyIndexTests {
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("geofare-live-\(UUID().uuidString).db").path
    }

    static func party(_ i: Int, lat: Double = 37.5) throws -> Party {
        Party(id: "p\(i)", origin: try Coordinate(latitude: lat + Double(i) * 1e-4, longitude: 127.0),
              destination: try Coordinate(latitude: 37.4, longitude: 127.1), departure: Date(timeIntervalSince1970: 1_900_000_000),
              seatsTotal: 4, seatsTaken: 1, status: .open)
    }

    static func ids(_ live: LivePartyIndex) -> [String] { live.index.allParties().map(\.id).sorted() }

    @Test("Opening loads the store; a committed group is in the store and the index at once, with the store's versions")
    func loadAndCommit() throws {
        let path = Self.temporaryPath()
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let store = try SQLitePartyStore(path: path)
        try store.upsertMany([Self.party(1), Self.party(2)], now: Date())
        let live = try LivePartyIndex(store: store)
        #expect(Self.ids(live) == ["p1", "p2"])
        #expect(live.feedSeq == 2)
        let results = try live.commit([.upsert(Self.party(3)), .remove(id: "p1"), .upsert(Self.party(2, lat: 37.6))])
        #expect(results.map(\.seq) == [3, 4, 5])
        #expect(Self.ids(live) == ["p2", "p3"])
        #expect(live.index.party(id: "p2")?.version == 2)
        #expect(try store.party(id: "p2")?.version == 2)
        #expect(live.feedSeq == 5)
        // Its own writes are not read back as foreign changes.
        #expect(try live.sync() == 0)
    }

    @Test("Another writer's changes reach the index at the next sync, one by one under the limit and by a reload above it")
    func catchUp() throws {
        let path = Self.temporaryPath()
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let store = try SQLitePartyStore(path: path)
        let lines = Mutex<[String]>([])
        let live = try LivePartyIndex(store: store, reloadAfterChanges: 5, log: { line in lines.withLock { $0.append(line) } })
        let other = try SQLitePartyStore(path: path)
        try other.upsertMany([Self.party(1), Self.party(2)], now: Date())
        #expect(Self.ids(live).isEmpty)
        #expect(try live.sync() == 2)
        #expect(Self.ids(live) == ["p1", "p2"])
        #expect(lines.withLock { $0.isEmpty })
        // More waiting than the limit: a reload from a snapshot, logged.
        try other.upsertMany((3...10).map { try Self.party($0) }, now: Date())
        try other.remove(id: "p1")
        #expect(try live.sync() == 9)
        #expect(Self.ids(live) == (2...10).map { "p\($0)" }.sorted())
        #expect(lines.withLock { $0.count == 1 && $0[0].contains("caught up 9 changes by reloading 9 parties") })
        #expect(live.feedSeq == (try store.lastChange()))
    }

    @Test("Inside a batch only the first sync reads the store")
    func batchSharesOneCheck() throws {
        let path = Self.temporaryPath()
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        let store = try SQLitePartyStore(path: path)
        let live = try LivePartyIndex(store: store)
        let other = try SQLitePartyStore(path: path)
        try other.upsert(Self.party(1))
        try live.batch {
            #expect(try live.sync() == 1)
            try other.upsert(Self.party(2))
            #expect(try live.sync() == 0)
        }
        #expect(live.feedChecks == 1 && live.feedChecksShared == 1)
        #expect(try live.sync() == 1)
        #expect(Self.ids(live) == ["p1", "p2"])
    }
}
