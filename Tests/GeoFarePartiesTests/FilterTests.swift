import Foundation
import GeoFareCore
import Testing
@testable import GeoFareParties

/// The filter's clauses, one by one, and the compiled form used in the index's loops.
@Suite struct FilterTests {
    @Test func clausesAreInclusive() {
        var p = ValidationTests.good
        p.departure = TestData.epoch
        #expect(PartyFilter(departFrom: TestData.epoch, departUntil: TestData.epoch).matches(p))
        #expect(!PartyFilter(departFrom: TestData.epoch.addingTimeInterval(1)).matches(p))
        #expect(!PartyFilter(departUntil: TestData.epoch.addingTimeInterval(-1)).matches(p))
        #expect(PartyFilter(minFreeSeats: 3).matches(p))
        #expect(!PartyFilter(minFreeSeats: 4).matches(p))
        #expect(PartyFilter(statuses: [.open, .full]).matches(p))
        #expect(!PartyFilter(statuses: [.closed]).matches(p))
        #expect(!PartyFilter(statuses: []).matches(p))
        let d = FastDistance.haversineMeters(p.destination, Coordinate(uncheckedLatitude: 37.4, longitude: 127))
        #expect(PartyFilter(destination: Coordinate(uncheckedLatitude: 37.4, longitude: 127), destinationRadiusMeters: d).matches(p))
        #expect(!PartyFilter(destination: Coordinate(uncheckedLatitude: 37.4, longitude: 127), destinationRadiusMeters: d.nextDown).matches(p))
        #expect(PartyFilter.none.matches(p))
        #expect(PartyFilter.none.isEmpty)
        #expect(!PartyFilter(statuses: [.open]).isEmpty)
    }

    @Test func compiledFilterAgreesWithMatches() throws {
        let (parties, index) = try TestData.indexedParties(2_000, seed: 51)
        var rng = SeededGenerator(seed: 52)
        for _ in 0..<200 {
            let filter = TestData.filter(rng: &rng)
            let compiled = CompiledFilter(filter)
            for p in parties.prefix(200) {
                let slot = try #require(index.columns.find(id: p.id)).slot
                #expect(compiled.matches(index.columns.hot[Int(slot)], slot: slot, columns: index.columns) == filter.matches(p))
            }
        }
    }

    /// Filtered clusters by both strategies (walking the tree, one pass over every party).
    @Test func bothFilteredStrategiesMatchBruteForce() throws {
        let (parties, index) = try TestData.indexedParties(3_000, seed: 61)
        var rng = SeededGenerator(seed: 62)
        for round in 0..<80 {
            let bbox = TestData.bbox(rng: &rng), zoom = Int.random(in: 0...20, using: &rng)
            let filter = TestData.filter(rng: &rng)
            let window = CellWindow(grid: index.grid, bbox: bbox, level: index.grid.level(zoom: zoom))
            var scan = ClusterScan(index: index, window: window, filter: CompiledFilter(filter), idsLimit: 10)
            scan.run()
            let linear = index.linearClusters(window: window, filter: CompiledFilter(filter), idsLimit: 10)
            #expect(scan.items == linear, "round \(round)")
            #expect(try ClusterPropertyTests.compare(index, parties, bbox: bbox, zoom: zoom, filter: filter, idsLimit: 10) == nil)
        }
    }

    /// Departures on and around minute boundaries, filter bounds exactly on them: the minute
    /// prefilter of the sequential pass must never drop a party the exact filter keeps.
    @Test func departureBoundsAreExactInTheSequentialPass() throws {
        var rng = SeededGenerator(seed: 71)
        let parties = (0..<3_000).map { i -> Party in
            var p = TestData.party(id: "t\(i)", rng: &rng)
            p.departure = TestData.epoch.addingTimeInterval(Double(Int.random(in: 0..<200, using: &rng)) * 30 + [0, 0.001, -0.001, 59.999][i % 4])
            p.status = .open
            p.seatsTaken = 0
            return p
        }
        let index = try PartyIndex.incremental(parties)
        let world = try BoundingBox(west: -180, south: -90, east: 180, north: 90)
        for _ in 0..<60 {
            let a = Double(Int.random(in: 0..<200, using: &rng)) * 30, b = a + Double(Int.random(in: 0..<60, using: &rng)) * 30
            let filter = PartyFilter(departFrom: TestData.epoch.addingTimeInterval(a), departUntil: TestData.epoch.addingTimeInterval(b))
            let zoom = Int.random(in: 0...8, using: &rng)
            let window = CellWindow(grid: index.grid, bbox: world, level: index.grid.level(zoom: zoom))
            let linear = index.linearClusters(window: window, filter: CompiledFilter(filter), idsLimit: 1000)
            #expect(linear.reduce(0) { $0 + $1.count } == parties.filter(filter.matches).count)
            #expect(try ClusterPropertyTests.compare(index, parties, bbox: world, zoom: zoom, filter: filter) == nil)
        }
    }
}
