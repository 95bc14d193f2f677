import Foundation
import Testing
import GeoFareData
import GeoFareCore

/// Every data file in the package's Data/ folder must be embedded into the binary.
struct DataCatalogTests {
    static var dataDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data")
    }

    @Test("Every .json and .geojson file under Data/ is embedded, byte for byte")
    func everyFileIsEmbedded() throws {
        let root = Self.dataDirectory
        let enumerator = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var onDisk: [String] = []
        for case let url as URL in enumerator where ["json", "geojson"].contains(url.pathExtension) {
            onDisk.append(String(url.path.dropFirst(root.path.count + 1)))
        }
        #expect(!onDisk.isEmpty)
        #expect(Set(onDisk) == Set(DataCatalog.embeddedPaths), "add new data files to Sources/CGeoFareData/data.c")
        for path in onDisk {
            #expect(try Data(contentsOf: root.appendingPathComponent(path)) == DataCatalog.embeddedFile(path), "\(path) is stale")
        }
    }

    @Test("A user directory overrides an embedded file and adds new ones")
    func overrideDirectory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-data-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("crs"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("{}".utf8).write(to: dir.appendingPathComponent("crs/aliases.json"))
        try Data("{}".utf8).write(to: dir.appendingPathComponent("crs/extra.json"))
        let catalog = DataCatalog(overrideDirectory: dir)
        #expect(try catalog.file("crs/aliases.json").bytes == Data("{}".utf8))
        #expect(try catalog.paths(under: "crs/", extensions: ["json"]) == ["crs/aliases.json", "crs/extra.json"])
        #expect(throws: GeoFareError.self) { try catalog.file("crs/none.json") }
    }
}
