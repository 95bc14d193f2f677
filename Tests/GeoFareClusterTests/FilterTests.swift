import Foundation
import GeoFareCore
import Testing
@testable import GeoFareCluster

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
        let parties = TestData.parties(2_000, seed: 51)
        let index = try PartyIndex.incremental(parties)
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
        let parties = TestData.parties(3_000, seed: 61)
        let index = try PartyIndex.incremental(parties)
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
}
