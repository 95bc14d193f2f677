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
}
