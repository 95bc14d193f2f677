import Foundation
import GeoFareCore
import Testing
@testable import GeoFareParties

/// Radius and nearest-neighbour queries against brute force.
@Suite struct NearbyTests {
    @Test func nearbyAndNearestMatchBruteForce() throws {
        let (parties, index) = try TestData.indexedParties(5_000, seed: 41)
        var rng = SeededGenerator(seed: 42)
        for round in 0..<300 {
            let p = TestData.position(rng: &rng)
            let center = Coordinate(uncheckedLatitude: p.lat, longitude: p.lon)
            let radius = [0, 50, 2_000, 40_000, 1_000_000][round % 5] as Double
            let limit = [1, 5, 50, 10_000][round % 4]
            let filter = round % 3 == 0 ? TestData.filter(rng: &rng) : .none
            let got = try index.nearby(center: center, radiusMeters: radius, limit: limit, filter: filter).map { ($0.party.id, $0.distanceMeters) }
            let expected = BruteForce.nearby(parties, center: center, radius: radius, limit: limit, filter: filter)
            #expect(got.map(\.0) == expected.map(\.0), "round \(round)")
            #expect(got.map(\.1) == expected.map(\.1), "round \(round)")
            let k = [1, 3, 20, 500][round % 4]
            let nearest = try index.nearest(center: center, k: k, filter: filter).map { ($0.party.id, $0.distanceMeters) }
            let all = BruteForce.nearby(parties, center: center, radius: .infinity, limit: k, filter: filter)
            #expect(nearest.map(\.0) == all.map(\.0), "round \(round)")
            #expect(nearest.map(\.1) == all.map(\.1), "round \(round)")
        }
    }

    @Test func nearbyAcrossTheAntimeridianAndNearThePoles() throws {
        let spots: [(Double, Double)] = [(0, 179.99), (0, -179.99), (89.9, 0), (89.9, 180), (-89.95, 45), (0, 0)]
        let parties = spots.enumerated().map { i, s in
            Party(id: "n\(i)", origin: Coordinate(uncheckedLatitude: s.0, longitude: s.1), destination: Coordinate(uncheckedLatitude: 0, longitude: 0),
                  departure: TestData.epoch, seatsTotal: 2, seatsTaken: 0, status: .open)
        }
        let index = try PartyIndex.incremental(parties)
        let dateline = try index.nearby(center: Coordinate(latitude: 0, longitude: 180), radiusMeters: 5_000, limit: 10, filter: .none)
        #expect(Set(dateline.map(\.party.id)) == ["n0", "n1"])
        let pole = try index.nearby(center: Coordinate(latitude: 90, longitude: 0), radiusMeters: 20_000, limit: 10, filter: .none)
        #expect(pole.map(\.party.id) == ["n2", "n3"])
        let south = try index.nearest(center: Coordinate(latitude: -90, longitude: -120), k: 1, filter: .none)
        #expect(south.map(\.party.id) == ["n4"])
    }

    @Test func tiesAreBrokenById() throws {
        let index = try PartyIndex()
        for id in ["b", "a", "c", "aa"] {
            index.upsert(Party(id: id, origin: Coordinate(uncheckedLatitude: 10, longitude: 10), destination: Coordinate(uncheckedLatitude: 0, longitude: 0),
                               departure: TestData.epoch, seatsTotal: 2, seatsTaken: 0, status: .open))
        }
        let found = try index.nearby(center: Coordinate(latitude: 10.001, longitude: 10), radiusMeters: 1_000, limit: 3, filter: .none)
        #expect(found.map(\.party.id) == ["a", "aa", "b"])
    }
}
