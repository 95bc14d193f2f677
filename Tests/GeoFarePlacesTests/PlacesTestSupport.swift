import Foundation
import GeoFarePlaces
import GeoFareTestSupport

/// Places indexes of the shared extracts, built once per test run into a temporary directory.
enum PlacesData {
    static let extracts = ["seoul_mapo.osm.pbf", "busan_seomyeon_1km.osm.pbf", "nyc_lower_manhattan.osm.pbf"]
    /// Midtown Manhattan (the Empire State Building, Macy's, Herald Square): address and intersection tests.
    static let midtown = "nyc_midtown_south.osm.pbf"
    static var run: Bool { SharedData.runs("osm") }
    static let directory: URL = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-places-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }()
    private static let lock = NSLock()
    nonisolated(unsafe) private static var built: [String: PlacesIndex] = [:]

    static func pbf(_ name: String) -> URL { SharedData.url("osm/\(name)") }

    /// The index of a shared extract (built on first use).
    static func index(_ name: String) throws -> PlacesIndex {
        lock.lock(); defer { lock.unlock() }
        if let i = built[name] { return i }
        let path = directory.appendingPathComponent(name + ".places").path
        try PlacesIndexBuilder.build(pbfAt: pbf(name), to: path)
        let index = try PlacesIndex(path: path)
        built[name] = index
        return index
    }
}
