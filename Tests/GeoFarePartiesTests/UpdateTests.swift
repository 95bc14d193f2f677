import Foundation
import GeoFareCore
import Testing
@testable import GeoFareParties

/// Upserts, moves and removes, checked against a model after every step.
@Suite struct UpdateTests {
    @Test func upsertAndRemoveAreReflectedInTheNextQuery() throws {
        let index = try PartyIndex()
        let seoul = try BoundingBox(west: 126.9, south: 37.5, east: 127.1, north: 37.6)
        var p = Party(id: "one", origin: Coordinate(uncheckedLatitude: 37.55, longitude: 127.0), destination: Coordinate(uncheckedLatitude: 37, longitude: 127),
                      departure: TestData.epoch, seatsTotal: 4, seatsTaken: 1, status: .open)
        index.upsert(p)
        #expect(try index.clusters(bbox: seoul, zoom: 12).map(\.id) == ["one"])
        #expect(index.party(id: "one") == p)
        // Moving out of the box.
        p.origin = Coordinate(uncheckedLatitude: 35.1, longitude: 129.0)
        index.upsert(p)
        #expect(try index.clusters(bbox: seoul, zoom: 12).isEmpty)
        #expect(index.count == 1)
        // Changing only fields a filter reads.
        p.origin = Coordinate(uncheckedLatitude: 37.55, longitude: 127.0)
        index.upsert(p)
        let openOnly = PartyFilter(statuses: [.open])
        #expect(try index.clusters(bbox: seoul, zoom: 12, filter: openOnly).count == 1)
        p.status = .closed
        index.upsert(p)
        #expect(try index.clusters(bbox: seoul, zoom: 12, filter: openOnly).isEmpty)
        #expect(try index.clusters(bbox: seoul, zoom: 12).count == 1)
        #expect(index.remove(id: "one") == p)
        #expect(index.remove(id: "one") == nil)
        #expect(try index.clusters(bbox: seoul, zoom: 12).isEmpty)
        #expect(index.count == 0)
        #expect(index.party(id: "one") == nil)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func randomOperationsMatchAModel(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        let index = try PartyIndex(cellSizePixels: [16, 64, 128][Int(seed % 3)])
        var model = Model()
        var ids: [String] = []
        var nextID = 0
        for step in 0..<6_000 {
            let r = Int.random(in: 0..<100, using: &rng)
            if r < 45 || ids.isEmpty {
                let id = TestData.id(nextID, rng: &rng)
                nextID += 1
                let p = TestData.party(id: id, rng: &rng)
                if model.byID[id] == nil { ids.append(id) }
                model.byID[id] = p
                index.upsert(p)
            } else if r < 75 {
                // Move or edit an existing party (sometimes to the same place).
                let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
                var p = TestData.party(id: id, rng: &rng)
                if Bool.random(using: &rng) { p.origin = model.byID[id]!.origin }
                model.byID[id] = p
                index.upsert(p)
            } else {
                let k = Int.random(in: 0..<ids.count, using: &rng)
                let id = ids[k]
                #expect(index.remove(id: id) == model.byID[id])
                model.byID[id] = nil
                ids.swapAt(k, ids.count - 1)
                ids.removeLast()
            }
            if step % 500 == 0 {
                #expect(index.invariantViolation() == nil, "step \(step)")
            }
            if step % 50 == 0 {
                #expect(index.count == model.byID.count)
                let bbox = TestData.bbox(rng: &rng), zoom = Int.random(in: 0...20, using: &rng)
                let filter = step % 100 == 0 ? TestData.filter(rng: &rng) : .none
                let diff = try ClusterPropertyTests.compare(index, model.parties, bbox: bbox, zoom: zoom, filter: filter, idsLimit: 5)
                #expect(diff == nil, "step \(step)")
                if diff != nil { return }
            }
        }
        #expect(index.invariantViolation() == nil)
        #expect(index.allParties() == model.parties.sorted { BruteForce.utf8Less($0.id, $1.id) })
        // Empty it completely: the tree collapses back to an empty root.
        for id in ids { index.remove(id: id) }
        #expect(index.count == 0)
        #expect(index.invariantViolation() == nil)
        #expect(try index.clusters(bbox: BoundingBox(west: -180, south: -90, east: 180, north: 90), zoom: 0).isEmpty)
    }

    /// Many parties in one spot and around it: splits down to the deepest level, then
    /// removals that merge the tree again.
    @Test func splitsAndMergesKeepAggregatesExact() throws {
        let index = try PartyIndex()
        var model = Model()
        var rng = SeededGenerator(seed: 77)
        for i in 0..<2_000 {
            let jitter = i % 3 == 0 ? 0 : Double.random(in: -1e-6...1e-6, using: &rng)
            let p = Party(id: "s\(i)", origin: Coordinate(uncheckedLatitude: 37.5 + jitter, longitude: 127 - jitter), destination: Coordinate(uncheckedLatitude: 0, longitude: 0),
                          departure: TestData.epoch, seatsTotal: 3, seatsTaken: 0, status: .open)
            index.upsert(p)
            model.byID[p.id] = p
        }
        #expect(index.invariantViolation() == nil)
        for i in stride(from: 0, to: 2_000, by: 2) {
            index.remove(id: "s\(i)")
            model.byID["s\(i)"] = nil
            if i % 200 == 0 { #expect(index.invariantViolation() == nil) }
        }
        let box = try BoundingBox(west: 126.9, south: 37.4, east: 127.1, north: 37.6)
        for zoom in 0...20 {
            #expect(try ClusterPropertyTests.compare(index, model.parties, bbox: box, zoom: zoom, filter: .none) == nil)
        }
    }

    /// A bulk load leaves compact range leaves; moves, inserts and removes then turn them
    /// into ordinary ones.
    @Test func updatesAfterABulkLoadMatchAModel() throws {
        let parties = TestData.parties(20_000, seed: 8)
        let index = try PartyIndex()
        index.upsert(contentsOf: parties)
        var model = Model()
        for p in parties { model.byID[p.id] = p }
        var ids = parties.map(\.id)
        var rng = SeededGenerator(seed: 9)
        for step in 0..<4_000 {
            let r = Int.random(in: 0..<10, using: &rng)
            if r < 4 {
                let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
                let p = TestData.party(id: id, rng: &rng)
                model.byID[id] = p
                index.upsert(p)
            } else if r < 7 {
                let k = Int.random(in: 0..<ids.count, using: &rng)
                #expect(index.remove(id: ids[k]) == model.byID[ids[k]])
                model.byID[ids[k]] = nil
                ids.swapAt(k, ids.count - 1)
                ids.removeLast()
            } else {
                let p = TestData.party(id: "new-\(step)", rng: &rng)
                model.byID[p.id] = p
                ids.append(p.id)
                index.upsert(p)
            }
            if step % 1_000 == 0 { #expect(index.invariantViolation() == nil, "step \(step)") }
        }
        #expect(index.invariantViolation() == nil)
        for _ in 0..<40 {
            let bbox = TestData.bbox(rng: &rng), zoom = Int.random(in: 0...20, using: &rng)
            #expect(try ClusterPropertyTests.compare(index, model.parties, bbox: bbox, zoom: zoom, filter: .none, idsLimit: 5) == nil)
        }
        let center = Coordinate(uncheckedLatitude: 37.5665, longitude: 126.978)
        #expect(try index.nearby(center: center, radiusMeters: 50_000, limit: 100, filter: .none).map(\.party.id)
                == BruteForce.nearby(model.parties, center: center, radius: 50_000, limit: 100, filter: .none).map(\.0))
    }

    @Test func duplicateIdsInABulkLoadKeepTheLast() throws {
        var parties = TestData.parties(1_000, seed: 3)
        var rng = SeededGenerator(seed: 4)
        for i in 0..<200 {
            var p = TestData.party(id: parties[i].id, rng: &rng)
            p.version = 99
            parties.append(p)
        }
        let index = try PartyIndex()
        index.upsert(contentsOf: parties)
        #expect(index.count == 1_000)
        #expect(index.invariantViolation() == nil)
        for p in parties.suffix(200) { #expect(index.party(id: p.id) == p) }
    }

    /// Versions past the 16-bit column and attributes live in side tables, in both load paths.
    @Test func largeVersionsAndAttributesRoundTrip() throws {
        var parties = TestData.parties(2_000, seed: 17)
        let versions: [Int64] = [0, 65_534, 65_535, 70_000, Int64.max]
        for i in parties.indices { parties[i].version = versions[i % versions.count] }
        let bulk = try PartyIndex()
        bulk.upsert(contentsOf: parties)
        let one = try PartyIndex.incremental(parties)
        for p in parties {
            #expect(bulk.party(id: p.id) == p)
            #expect(one.party(id: p.id) == p)
        }
        // Lowering a large version clears its side entry.
        var p = parties[4]
        p.version = 3
        bulk.upsert(p)
        #expect(bulk.party(id: p.id)?.version == 3)
        #expect(bulk.invariantViolation() == nil)
    }

    @Test func idsAreBytesAndPartiesRoundTrip() throws {
        let index = try PartyIndex()
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        for (i, id) in [composed, decomposed, String(repeating: "가", count: 42)].enumerated() {
            index.upsert(Party(id: id, origin: Coordinate(uncheckedLatitude: Double(i), longitude: 0), destination: Coordinate(uncheckedLatitude: 0, longitude: 0),
                               departure: TestData.epoch, seatsTotal: 2, seatsTaken: 0, status: .full, attributesJSON: "{\"i\":\(i)}",
                               updatedAt: TestData.epoch, version: Int64(i)))
        }
        #expect(index.count == 3)
        #expect(index.party(id: composed)?.origin.latitude == 0)
        #expect(index.party(id: decomposed)?.origin.latitude == 1)
        #expect(index.party(id: decomposed)?.attributesJSON == "{\"i\":1}")
        let data = try JSONEncoder().encode(index.allParties())
        #expect(try JSONDecoder().decode([Party].self, from: data) == index.allParties())
    }

    @Test func theIdArenaIsCompactedUnderChurn() throws {
        let index = try PartyIndex()
        for round in 0..<30 {
            for i in 0..<1_000 {
                index.upsert(Party(id: "round-\(round)-party-\(i)", origin: Coordinate(uncheckedLatitude: Double(i % 80), longitude: Double(round)),
                                   destination: Coordinate(uncheckedLatitude: 0, longitude: 0), departure: TestData.epoch, seatsTotal: 2, seatsTaken: 0, status: .open))
            }
            if round > 0 { for i in 0..<1_000 { index.remove(id: "round-\(round - 1)-party-\(i)") } }
        }
        #expect(index.count == 1_000)
        #expect(index.columns.idBytes.count < 200_000)
        #expect(index.party(id: "round-29-party-999") != nil)
        #expect(index.invariantViolation() == nil)
    }
}
