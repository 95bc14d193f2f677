import Foundation
import GeoFareCore
import Testing
@testable import GeoFareParties

/// Clusters compared with a brute force written from the definition.
@Suite struct ClusterPropertyTests {
    /// Compares an index's answer with the brute force; returns a description of the first
    /// difference.
    static func compare(_ index: PartyIndex, _ parties: [Party], bbox: BoundingBox, zoom: Int, filter: PartyFilter,
                        idsLimit: Int = 1000) throws -> String? {
        let items = try index.clusters(bbox: bbox, zoom: zoom, filter: filter, idsLimit: idsLimit)
        let expected = BruteForce.clusters(parties, bbox: bbox, zoom: zoom, filter: filter, cellSizePixels: index.cellSizePixels)
        let context = "bbox \(bbox) zoom \(zoom) filter \(filter)"
        if items.count != expected.count { return "\(items.count) items, expected \(expected.count); \(context)" }
        if Set(items.map(\.id)).count != items.count { return "duplicate item ids; \(context)" }
        for item in items {
            guard let e = expected[item.id] else { return "unexpected item \(item.id) (count \(item.count)); \(context)" }
            if item.count != e.count { return "\(item.id): count \(item.count), expected \(e.count)" }
            if abs(item.center.latitude - e.centerLat) > 1e-8 || abs(item.center.longitude - e.centerLon) > 1e-8 {
                return "\(item.id): center \(item.center), expected \(e.centerLat),\(e.centerLon)"
            }
            if item.bounds.west != e.west || item.bounds.east != e.east || item.bounds.south != e.south || item.bounds.north != e.north {
                return "\(item.id): bounds \(item.bounds), expected \(e.west) \(e.south) \(e.east) \(e.north)"
            }
            if item.expansionZoom != e.expansionZoom { return "\(item.id): expansion \(String(describing: item.expansionZoom)), expected \(String(describing: e.expansionZoom))" }
            let ids = e.count <= idsLimit ? e.memberIDs : nil
            if item.partyIDs != ids { return "\(item.id): ids \(String(describing: item.partyIDs)), expected \(String(describing: ids))" }
        }
        return nil
    }

    @Test(arguments: [16, 64, 256])
    func countsCentersBoundsAndIdsMatchBruteForce(cellSize: Int) throws {
        let parties = TestData.parties(3_000, seed: UInt64(cellSize))
        let index = try PartyIndex.incremental(parties, cellSizePixels: cellSize)
        #expect(index.invariantViolation() == nil)
        var rng = SeededGenerator(seed: 7 + UInt64(cellSize))
        for round in 0..<150 {
            let bbox = TestData.bbox(rng: &rng)
            let zoom = Int.random(in: 0...20, using: &rng)
            let filter = round % 3 == 0 ? TestData.filter(rng: &rng) : .none
            let idsLimit = [0, 1, 10, 1000][round % 4]
            let diff = try Self.compare(index, parties, bbox: bbox, zoom: zoom, filter: filter, idsLimit: idsLimit)
            #expect(diff == nil)
            if diff != nil { break }
        }
    }

    @Test func bulkBuildMatchesBruteForce() throws {
        let parties = TestData.parties(5_000, seed: 99)
        let index = try PartyIndex()
        index.upsert(contentsOf: parties)
        #expect(index.count == 5_000)
        #expect(index.invariantViolation() == nil)
        var rng = SeededGenerator(seed: 100)
        for _ in 0..<100 {
            let diff = try Self.compare(index, parties, bbox: TestData.bbox(rng: &rng), zoom: Int.random(in: 0...20, using: &rng), filter: .none)
            #expect(diff == nil)
            if diff != nil { break }
        }
    }

    /// 16-px cells need 48-bit codes, so past 65,536 parties the bulk load sorts codes and
    /// input indexes in separate arrays.
    @Test func bulkBuildWithUnpackedKeysMatchesBruteForce() throws {
        var parties = TestData.parties(70_000, seed: 12)
        parties += parties.prefix(100).map { var p = $0; p.version = 77; return p }
        let index = try PartyIndex(cellSizePixels: 16)
        index.upsert(contentsOf: parties)
        #expect(index.count == 70_000)
        #expect(index.invariantViolation() == nil)
        #expect(index.party(id: parties[5].id)?.version == 77)
        var rng = SeededGenerator(seed: 13)
        let unique = Array(parties.dropFirst(100))
        for _ in 0..<12 {
            let diff = try Self.compare(index, unique, bbox: TestData.bbox(rng: &rng), zoom: Int.random(in: 0...20, using: &rng), filter: .none, idsLimit: 3)
            #expect(diff == nil)
        }
    }

    /// A dense city of 60,000 parties: deep trees, leaves scanned at deep zooms, the linear
    /// filtered pass (the whole city in view) and the tree-walking one.
    @Test func denseCityMatchesBruteForce() throws {
        var rng = SeededGenerator(seed: 5)
        let parties = (0..<60_000).map { i -> Party in
            var p = TestData.party(id: "d\(i)", rng: &rng)
            let (lon, lat) = SyntheticParties.position(.city, rng: &rng)
            p.origin = Coordinate(uncheckedLatitude: lat, longitude: lon)
            return p
        }
        let index = try PartyIndex()
        index.upsert(contentsOf: parties)
        for zoom in [3, 9, 11, 13, 15, 17, 19] {
            let bbox = SyntheticParties.viewport(lat: 37.5665, lon: 126.978, zoom: zoom, jitter: true, rng: &rng)
            for filter in [PartyFilter.none, PartyFilter(departFrom: TestData.epoch.addingTimeInterval(3600), departUntil: TestData.epoch.addingTimeInterval(7 * 3600), minFreeSeats: 1, statuses: [.open])] {
                #expect(try Self.compare(index, parties, bbox: bbox, zoom: zoom, filter: filter, idsLimit: 10) == nil)
            }
        }
    }

    /// A cluster at zoom z is exactly the union of its children at z + 1, and keeps its id
    /// while it does not split.
    @Test(arguments: [16, 64])
    func childrenSumToTheirParent(cellSize: Int) throws {
        let parties = TestData.parties(4_000, seed: 11)
        let index = try PartyIndex.incremental(parties, cellSizePixels: cellSize)
        let world = try BoundingBox(west: -180, south: -90, east: 180, north: 90)
        var checked = 0
        for zoom in 0..<20 {
            for item in try index.clusters(bbox: world, zoom: zoom, idsLimit: 0) where item.count > 1 {
                let children = try index.clusters(bbox: item.bounds, zoom: zoom + 1, idsLimit: 0)
                #expect(children.reduce(0) { $0 + $1.count } == item.count, "zoom \(zoom) \(item.id)")
                let members = Set(try index.leaves(clusterID: item.id, limit: 10_000, offset: 0).map(\.id))
                var union = Set<String>()
                for child in children {
                    union.formUnion(try index.leaves(clusterID: child.id, limit: 10_000, offset: 0).map(\.id))
                }
                #expect(union == members, "zoom \(zoom) \(item.id)")
                #expect(members.count == item.count)
                if item.expansionZoom == zoom + 1 {
                    #expect(children.count > 1)
                } else {
                    #expect(children.count == 1)
                    #expect(children.first?.id == item.id, "a cluster that does not split keeps its id")
                    #expect(children.first?.expansionZoom == item.expansionZoom)
                }
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    /// The same parties inserted in any order, one by one or in bulk, give identical items.
    @Test func identicalAcrossRebuildsAndOrders() throws {
        let parties = TestData.parties(4_000, seed: 21)
        var rng = SeededGenerator(seed: 22)
        let a = try PartyIndex.incremental(parties)
        let b = try PartyIndex.incremental(parties.shuffled(using: &rng))
        let c = try PartyIndex()
        c.upsert(contentsOf: parties.shuffled(using: &rng))
        // d gets extra parties that are removed again, and moves that are undone.
        let d = try PartyIndex.incremental(parties.reversed())
        for p in TestData.parties(500, seed: 23) { d.upsert(Party(id: "extra-" + p.id, origin: p.origin, destination: p.destination, departure: p.departure, seatsTotal: 2, seatsTaken: 0, status: .open)) }
        for p in parties.prefix(300) { var q = p; q.origin = Coordinate(uncheckedLatitude: 1, longitude: 2); d.upsert(q) }
        for p in TestData.parties(500, seed: 23) { d.remove(id: "extra-" + p.id) }
        for p in parties.prefix(300) { d.upsert(p) }
        for _ in 0..<60 {
            let bbox = TestData.bbox(rng: &rng), zoom = Int.random(in: 0...20, using: &rng)
            let reference = try a.clusters(bbox: bbox, zoom: zoom)
            #expect(try b.clusters(bbox: bbox, zoom: zoom) == reference)
            #expect(try c.clusters(bbox: bbox, zoom: zoom) == reference)
            #expect(try d.clusters(bbox: bbox, zoom: zoom) == reference)
        }
    }

    @Test func antimeridianBoxes() throws {
        let positions: [(Double, Double)] = [(0, 179.5), (0.001, 179.5), (1, -179.5), (1.001, -179.5), (0, 0), (5, 170), (5, -170)]
        let parties = positions.enumerated().map { i, p in
            Party(id: "a\(i)", origin: Coordinate(uncheckedLatitude: p.0, longitude: p.1), destination: Coordinate(uncheckedLatitude: 0, longitude: 0),
                  departure: TestData.epoch, seatsTotal: 4, seatsTaken: 0, status: .open)
        }
        let index = try PartyIndex.incremental(parties)
        let box = try BoundingBox(west: 179, south: -2, east: -179, north: 2)
        for zoom in 0...20 {
            let items = try index.clusters(bbox: box, zoom: zoom, idsLimit: 100)
            let ids = Set(items.flatMap { $0.partyIDs ?? [] })
            // Low zooms have cells wide enough to take in the parties at ±170 too.
            #expect(ids.isSuperset(of: ["a0", "a1", "a2", "a3"]), "zoom \(zoom)")
            if zoom >= 6 { #expect(ids == ["a0", "a1", "a2", "a3"], "zoom \(zoom)") }
            #expect(try Self.compare(index, parties, bbox: box, zoom: zoom, filter: .none) == nil)
        }
        // A box that wraps nearly the whole world.
        let wide = try BoundingBox(west: 1, south: -90, east: -1, north: 90)
        for zoom in 0...20 { #expect(try Self.compare(index, parties, bbox: wide, zoom: zoom, filter: .none) == nil) }
    }

    @Test func coLocatedPartiesNeverSplit() throws {
        let index = try PartyIndex()
        for i in 0..<100 {
            index.upsert(Party(id: "same\(i)", origin: Coordinate(uncheckedLatitude: 37.5, longitude: 127), destination: Coordinate(uncheckedLatitude: 37, longitude: 127),
                               departure: TestData.epoch, seatsTotal: 4, seatsTaken: 0, status: .open))
        }
        #expect(index.invariantViolation() == nil)
        let box = try BoundingBox(west: 126, south: 37, east: 128, north: 38)
        for zoom in 0...20 {
            let items = try index.clusters(bbox: box, zoom: zoom)
            #expect(items.count == 1)
            #expect(items.first?.count == 100)
            #expect(items.first?.expansionZoom == ClusterItem.neverSplits)
            #expect(items.first?.id == "c22-" + String(CellGrid.morton(x: CellGrid(cellShift: 6).x(longitude: 127), y: CellGrid(cellShift: 6).y(latitude: 37.5)), radix: 16))
            #expect(items.first?.center == Coordinate(uncheckedLatitude: 37.5, longitude: 127))
        }
        let leaves = try index.leaves(clusterID: try index.clusters(bbox: box, zoom: 5)[0].id, limit: 10, offset: 95)
        #expect(leaves.map(\.id) == ["same95", "same96", "same97", "same98", "same99"])
    }

    @Test func leavesPageThroughMembersSortedByID() throws {
        let (parties, index) = try TestData.indexedParties(3_000, seed: 31)
        let world = try BoundingBox(west: -180, south: -90, east: 180, north: 90)
        var rng = SeededGenerator(seed: 32)
        let filter = TestData.filter(rng: &rng)
        for zoom in [2, 6, 10] {
            for item in try index.clusters(bbox: world, zoom: zoom, filter: filter, idsLimit: 0) where item.count > 1 {
                var pages: [String] = []
                var offset = 0
                while true {
                    let page = try index.leaves(clusterID: item.id, limit: 7, offset: offset, filter: filter)
                    if page.isEmpty { break }
                    #expect(page.allSatisfy(filter.matches))
                    pages += page.map(\.id)
                    offset += 7
                }
                #expect(pages.count == item.count)
                #expect(pages == pages.sorted(by: BruteForce.utf8Less))
            }
        }
        // A single party's item id leads to the party.
        let single = try #require(try index.clusters(bbox: world, zoom: 20).first { $0.count == 1 })
        #expect(try index.leaves(clusterID: single.id, limit: 5, offset: 0).map(\.id) == [single.id])
    }
}
