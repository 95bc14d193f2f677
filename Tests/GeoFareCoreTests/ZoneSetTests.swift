import Foundation
import Testing
import GeoFareCore

/// ``ZoneSet`` reads GeoJSON with `JSONDecoder`: the zones must be exactly what the file says
/// (checked against a plain `JSONSerialization` reading of the real region file), and every
/// malformed file must get `invalid_geojson` naming the file and the feature.
struct ZoneSetTests {
    static func load(_ json: String) throws(GeoFareError) -> ZoneSet {
        var zones = ZoneSet()
        try zones.load(geoJSON: Data(json.utf8), origin: "t.geojson")
        return zones
    }

    @Test func polygonsAndMultiPolygons() throws {
        let zones = try Self.load("""
        {"type":"FeatureCollection","features":[
         {"type":"Feature","properties":{"id":"a","name":"Alpha"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]]]}},
         {"type":"Feature","properties":{"id":"b","parent":"a"},"geometry":{"type":"MultiPolygon","coordinates":[[[[10,10],[11,10],[11,11],[10,10]]],[[[20,20],[21,20],[21,21],[20,20]]]]}},
         {"type":"Feature","properties":{"id":"a","name":"Alpha 2"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[3,0],[3,3],[0,3],[0,0]]]}}
        ]}
        """)
        #expect(zones.zones.map(\.id) == ["a", "b"])
        #expect(zones.zone("a")?.name == "Alpha 2")  // the later feature replaced the earlier
        #expect(zones.zone("a")?.polygon.rings == [[XYPoint(x: 0, y: 0), XYPoint(x: 3, y: 0), XYPoint(x: 3, y: 3), XYPoint(x: 0, y: 3), XYPoint(x: 0, y: 0)]])
        #expect(zones.zone("b")?.name == "b")
        #expect(zones.zone("b")?.parent == "a")
        #expect(zones.zone("b")?.polygon.rings.count == 2)
        #expect(zones.zones(containing: Coordinate(uncheckedLatitude: 2.5, longitude: 2.5)) == ["a"])
        #expect(zones.zones(containing: Coordinate(uncheckedLatitude: 20.2, longitude: 20.8)) == ["b"])
    }

    @Test(arguments: [
        ("{\"features\": [", "not JSON", "t.geojson"),
        ("[1, 2]", "expected a FeatureCollection with features", "t.geojson"),
        ("{\"type\":\"FeatureCollection\"}", "expected a FeatureCollection with features", "t.geojson"),
        ("{\"features\":[{\"properties\":{\"name\":\"x\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[]}}]}", "a feature needs properties.id", "t.geojson: features[0]"),
        ("{\"features\":[{\"properties\":{\"id\":7},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[]}}]}", "a feature needs properties.id", "t.geojson: features[0]"),
        ("{\"features\":[{\"properties\":{\"id\":\"z\"}}]}", "feature 'z' has no geometry", "t.geojson: features[0]"),
        ("{\"features\":[{\"properties\":{\"id\":\"z\"},\"geometry\":{\"type\":\"Polygon\"}}]}", "feature 'z' has no geometry", "t.geojson: features[0]"),
        ("{\"features\":[{\"properties\":{\"id\":\"z\"},\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}}]}", "feature 'z': geometry LineString is not a Polygon or MultiPolygon", "t.geojson: features[0]"),
        ("{\"features\":[{\"properties\":{\"id\":\"z\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[\"0\",0]]]}}]}", "feature 'z': rings must be arrays of [lon, lat] numbers", "t.geojson: features[0]"),
        ("{\"features\":[{\"properties\":{\"id\":\"z\"},\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[[[0,0],[1,1]]]}}]}", "feature 'z': rings must be arrays of [lon, lat] numbers", "t.geojson: features[0]"),
        ("{\"features\":[{\"properties\":{\"id\":\"y\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[0,1],[0,0]]]}},{\"properties\":{\"id\":\"z\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,95],[1,0],[0,0]]]}}]}", "feature 'z': bad position [0.0, 95.0]", "t.geojson: features[1]"),
    ])
    func malformed(_ json: String, _ message: String, _ field: String) {
        do {
            _ = try Self.load(json)
            Issue.record("accepted: \(json)")
        } catch {
            #expect(error.code == .invalidGeojson)
            #expect(error.message.hasPrefix(message), "\(error.message)")
            #expect(error.field == field)
        }
    }

    /// Every zone of the real region file, ring by ring and point by point, as a generic JSON
    /// reading of the same bytes gives them.
    @Test func regionFileMatchesGenericReading() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Data/zones/kr-regions.geojson")
        let data = try Data(contentsOf: url)
        var zones = ZoneSet()
        try zones.load(geoJSON: data, origin: "kr-regions.geojson")
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let features = try #require(root["features"] as? [[String: Any]])
        #expect(zones.zones.count == features.count)
        #expect(features.count > 10)
        for feature in features {
            let id = try #require((feature["properties"] as? [String: Any])?["id"] as? String)
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let polygons: [[[[Double]]]] = geometry["type"] as? String == "Polygon"
                ? [try #require(geometry["coordinates"] as? [[[Double]]])]
                : try #require(geometry["coordinates"] as? [[[[Double]]]])
            let rings = polygons.flatMap { $0 }.map { $0.map { XYPoint(x: $0[0], y: $0[1]) } }
            #expect(zones.zone(id)?.polygon.rings == rings, "zone \(id)")
        }
    }

    /// The candidate grid behind ``ZoneSet/forEachZoneIndex(containing:_:)`` only skips zones
    /// that cannot hold a point: for every zone file of the data, plus a zone too wide for the
    /// grid and one whose box lies exactly on cell lines, the zones it reports are exactly those
    /// whose polygon contains the point, in load order. Points: random ones over Korea, New York
    /// and the world, every polygon vertex, every box corner and points on the ⅛° cell lines,
    /// where a grid that rounds instead of flooring, or is off by a cell, would miss a zone.
    @Test func gridAgreesWithTestingEveryZone() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Data/zones")
        var zones = ZoneSet()
        for name in ["kr-regions", "kr-seoul-business-zone", "kr-tariff-groups"] {
            try zones.load(geoJSON: Data(contentsOf: dir.appendingPathComponent("\(name).geojson")), origin: name)
        }
        try zones.load(geoJSON: Data("""
        {"type":"FeatureCollection","features":[
         {"type":"Feature","properties":{"id":"wide"},"geometry":{"type":"Polygon","coordinates":[[[100,20],[140,20],[140,45],[100,20]]]}},
         {"type":"Feature","properties":{"id":"on-cell-lines"},"geometry":{"type":"Polygon","coordinates":[[[126.875,37.5],[127.0,37.5],[127.0,37.625],[126.875,37.5]]]}}
        ]}
        """.utf8), origin: "test")
        #expect(zones.zones.count > 20)

        var points: [(Double, Double)] = []
        var rng = SeededGenerator(seed: 22)
        for _ in 0..<20_000 { points.append((Double.random(in: 124...132, using: &rng), Double.random(in: 33...39, using: &rng))) }
        for _ in 0..<2_000 { points.append((Double.random(in: -74.3 ... -73.6, using: &rng), Double.random(in: 40.4...41, using: &rng))) }
        for _ in 0..<2_000 { points.append((Double.random(in: -180...180, using: &rng), Double.random(in: -90...90, using: &rng))) }
        for zone in zones.zones {
            let b = zone.polygon.bounds
            points += [(b.west, b.south), (b.east, b.north), (b.west, b.north), (b.east, b.south)]
            for ring in zone.polygon.rings { for p in ring { points.append((p.x, p.y)) } }
        }
        for i in 0..<400 {
            let x = 124 + Double(i) / 8 * 0.2, y = 33 + Double(i % 48) / 8
            points += [(x, y), ((x * 8).rounded(.down) / 8, y), (x, (y * 8).rounded(.down) / 8), (x.nextDown, y.nextDown)]
        }
        var mismatches = 0, inside = 0
        for (x, y) in points {
            let c = Coordinate(uncheckedLatitude: y, longitude: x)
            var viaGrid: [Int] = []
            zones.forEachZoneIndex(containing: c) { viaGrid.append($0) }
            let direct = zones.zones.indices.filter { zones.zones[$0].polygon.contains(longitude: x, latitude: y) }
            if viaGrid != direct { mismatches += 1 }
            if !direct.isEmpty { inside += 1 }
            if mismatches == 1 && viaGrid != direct { Issue.record("(\(x), \(y)): grid \(viaGrid), every zone \(direct)") }
        }
        #expect(mismatches == 0)
        #expect(inside > 10_000)  // the points do land in zones, several at once where they nest
        #expect(zones.zones(containing: Coordinate(uncheckedLatitude: 37.51, longitude: 126.99)).contains("on-cell-lines"))
    }

    /// The zones fuzz target's input (minimised): a Polygon whose ring is one position was
    /// accepted and its look-ups trapped converting NaN to Int. Now `invalid_geojson`.
    @Test func ringOfOnePositionIsInvalid() {
        let json = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"z"},"geometry":{"type":"Polygon","coordinates":[[[-73.94,40.7815]]]}}]}"#
        #expect(throws: GeoFareError.self) { try Self.load(json) }
        do { _ = try Self.load(json) } catch { #expect(error.code == .invalidGeojson && error.message.contains("at least 4"), "\(error)") }
        let triangle = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"t"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}}]}"#
        #expect((try? Self.load(triangle))?.zones.count == 1)
    }

    /// A Polygon or MultiPolygon with no ring at all (the zones fuzz target's second find).
    @Test func polygonOfNoRingIsInvalid() {
        for coordinates in ["[]", "[[]]"] {
            let type = coordinates == "[]" ? "Polygon" : "MultiPolygon"
            let json = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":"z"},"geometry":{"type":"\#(type)","coordinates":\#(coordinates)}}]}"#
            do { _ = try Self.load(json); Issue.record("\(type) \(coordinates) loaded") } catch {
                #expect(error.code == .invalidGeojson && error.message.contains("at least one ring"), "\(error)")
            }
        }
    }
}
