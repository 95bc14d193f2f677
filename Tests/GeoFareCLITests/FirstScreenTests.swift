import Foundation
import GeoFareTestSupport
import GeoFareText
import Testing

/// What a new user sees first (issue 43): `geofare demo`'s first answer fits on a screen, and the
/// full catalogue of tariffs and zones is one field away.
struct FirstScreenTests {
    @Test("demo's first answer (version) fits on an 80×24 screen; \"catalog\": true lists every tariff and zone")
    func firstScreen() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-first-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("demo.db").path
        let demo = try GeoFareBinary.run(["demo", "--db", db])
        #expect(demo.status == 0, "\(demo.stderr)")
        let first = try #require(demo.stdout.split(separator: "\n").first { $0.hasPrefix("< ") }.map(String.init), "\(demo.stdout)")
        #expect(first.utf8.count <= 80 * 24, "the first answer is \(first.utf8.count) bytes: \(String(first.prefix(300)))…")
        let version = try #require(try JSONParser.parse(Array(first.dropFirst(2).utf8)).object?["result"]?.object)
        let tariffs = try #require(version["tariff_count"]?.int64), zones = try #require(version["zone_count"]?.int64)
        #expect(tariffs >= 9 && zones >= 100 && version["tariffs"] == nil && version["zones"] == nil, "\(version.keys.sorted())")

        let full = try GeoFareBinary.run(["worker", "--db", db], stdin: #"{"id":1,"op":"version","catalog":true}"# + "\n")
        let result = try #require(try JSONParser.parse(Array(full.stdout.utf8)).object?["result"]?.object, "\(full.stdout)")
        #expect(Int64(result["tariffs"]?.array?.count ?? 0) == tariffs)
        #expect(Int64(result["zones"]?.array?.count ?? 0) == zones)
        #expect(result["tariffs"]?.array?.first?.object?["versions"]?.array?.isEmpty == false)
    }
}
