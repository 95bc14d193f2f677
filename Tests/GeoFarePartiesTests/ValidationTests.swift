import Foundation
import GeoFareCore
import Testing
@testable import GeoFareParties

/// Every rejected input names its field.
@Suite struct ValidationTests {
    static let good = Party(id: "ok", origin: Coordinate(uncheckedLatitude: 37.5, longitude: 127), destination: Coordinate(uncheckedLatitude: 37.4, longitude: 127.1),
                            departure: TestData.epoch, seatsTotal: 4, seatsTaken: 1, status: .open, attributesJSON: "{\"a\":1}", updatedAt: TestData.epoch, version: 1)

    static func field(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as GeoFareError { return error.field } catch { return "(other error \(error))" }
        return "(no error)"
    }

    static func code(_ body: () throws -> Void) -> String? {
        do { try body() } catch let error as GeoFareError { return error.code.rawValue } catch { return "(other error \(error))" }
        return "(no error)"
    }

    @Test func goodPartyPasses() throws {
        try Self.good.validate()
    }

    @Test(arguments: [
        ("", "id"), (String(repeating: "x", count: 129), "id"), (String(repeating: "가", count: 43), "id"),
    ])
    func badIds(id: String, field: String) {
        var p = Self.good
        p.id = id
        #expect(Self.field { try p.validate() } == field)
    }

    @Test func badFieldsAreNamed() {
        var p = Self.good
        p.seatsTotal = 0
        #expect(Self.field { try p.validate() } == "seats_total")
        p.seatsTotal = 21
        #expect(Self.field { try p.validate() } == "seats_total")
        p = Self.good
        p.seatsTaken = 5
        #expect(Self.field { try p.validate() } == "seats_taken")
        p.seatsTaken = -1
        #expect(Self.field { try p.validate() } == "seats_taken")
        p = Self.good
        p.origin = Coordinate(uncheckedLatitude: .nan, longitude: 0)
        #expect(Self.field { try p.validate() } == "origin.lat")
        p = Self.good
        p.destination = Coordinate(uncheckedLatitude: 0, longitude: 181)
        #expect(Self.field { try p.validate() } == "destination.lon")
        p = Self.good
        p.departure = Date(timeIntervalSinceReferenceDate: .infinity)
        #expect(Self.field { try p.validate() } == "depart_at")
        p = Self.good
        p.updatedAt = Date(timeIntervalSinceReferenceDate: .nan)
        #expect(Self.field { try p.validate() } == "updated_at")
        p = Self.good
        p.version = -1
        #expect(Self.field { try p.validate() } == "version")
        p = Self.good
        p.attributesJSON = "[1]"
        #expect(Self.field { try p.validate() } == "attributes")
        p.attributesJSON = "{\"a\":\"" + String(repeating: "x", count: 20_000) + "\"}"
        #expect(Self.code { try p.validate() } == "too_large")
    }

    @Test(arguments: [0, 8, 15, 32 + 1, 512, -64])
    func badCellSizes(size: Int) {
        #expect(Self.field { _ = try PartyIndex(cellSizePixels: size) } == "cell_size_pixels")
    }

    @Test func badQueriesAreNamed() throws {
        let index = try PartyIndex()
        index.upsert(Self.good)
        let c = Coordinate(uncheckedLatitude: 37.5, longitude: 127)
        var box = try BoundingBox(west: 126, south: 37, east: 128, north: 38)
        #expect(Self.field { _ = try index.clusters(bbox: box, zoom: 21) } == "zoom")
        #expect(Self.field { _ = try index.clusters(bbox: box, zoom: -1) } == "zoom")
        #expect(Self.field { _ = try index.clusters(bbox: box, zoom: 3, idsLimit: 1001) } == "ids_limit")
        #expect(Self.field { _ = try index.clusters(bbox: box, zoom: 3, idsLimit: -1) } == "ids_limit")
        box.north = .nan
        #expect(Self.field { _ = try index.clusters(bbox: box, zoom: 3) } == "bbox.north")
        box.north = 30
        #expect(Self.field { _ = try index.clusters(bbox: box, zoom: 3) } == "bbox.south")
        #expect(Self.field { _ = try index.nearby(center: c, radiusMeters: -1, limit: 5, filter: .none) } == "radius_m")
        #expect(Self.field { _ = try index.nearby(center: c, radiusMeters: 1_000_001, limit: 5, filter: .none) } == "radius_m")
        #expect(Self.field { _ = try index.nearby(center: c, radiusMeters: .nan, limit: 5, filter: .none) } == "radius_m")
        #expect(Self.field { _ = try index.nearby(center: c, radiusMeters: 10, limit: 0, filter: .none) } == "limit")
        #expect(Self.field { _ = try index.nearby(center: c, radiusMeters: 10, limit: 10_001, filter: .none) } == "limit")
        #expect(Self.field { _ = try index.nearby(center: Coordinate(uncheckedLatitude: .nan, longitude: 0), radiusMeters: 10, limit: 1, filter: .none) } == "center.lat")
        #expect(Self.field { _ = try index.nearest(center: c, k: 0, filter: .none) } == "k")
        #expect(Self.field { _ = try index.leaves(clusterID: "c3-00", limit: 0, offset: 0) } == "limit")
        #expect(Self.field { _ = try index.leaves(clusterID: "c3-00", limit: 5, offset: -1) } == "offset")
        for bad in ["", "c", "c3-", "c3-0", "c3-zz", "c99-0", "c03-00", "nope", "c3-000"] {
            #expect(Self.code { _ = try index.leaves(clusterID: bad, limit: 5, offset: 0) } == "unknown_cluster", "\(bad)")
        }
        // A well-formed id of an empty cell.
        #expect(Self.code { _ = try index.leaves(clusterID: "c3-00", limit: 5, offset: 0) } == "unknown_cluster")
    }

    @Test func badFiltersAreNamed() throws {
        let index = try PartyIndex()
        let c = Coordinate(uncheckedLatitude: 37.5, longitude: 127)
        let box = try BoundingBox(west: 126, south: 37, east: 128, north: 38)
        let cases: [(PartyFilter, String)] = [
            (PartyFilter(departFrom: Date(timeIntervalSinceReferenceDate: .nan)), "depart_from"),
            (PartyFilter(departUntil: Date(timeIntervalSinceReferenceDate: .infinity)), "depart_until"),
            (PartyFilter(departFrom: TestData.epoch, departUntil: TestData.epoch.addingTimeInterval(-1)), "depart_until"),
            (PartyFilter(minFreeSeats: 21), "min_free_seats"),
            (PartyFilter(minFreeSeats: -1), "min_free_seats"),
            (PartyFilter(destination: c), "destination.radius_m"),
            (PartyFilter(destinationRadiusMeters: 5), "destination.center"),
            (PartyFilter(destination: c, destinationRadiusMeters: -5), "destination.radius_m"),
            (PartyFilter(destination: Coordinate(uncheckedLatitude: 95, longitude: 0), destinationRadiusMeters: 5), "destination.center.lat"),
        ]
        for (filter, field) in cases {
            #expect(Self.field { try filter.validate() } == field)
            #expect(Self.field { _ = try index.clusters(bbox: box, zoom: 5, filter: filter) } == field)
            #expect(Self.field { _ = try index.nearby(center: c, radiusMeters: 5, limit: 5, filter: filter) } == field)
        }
    }
}
