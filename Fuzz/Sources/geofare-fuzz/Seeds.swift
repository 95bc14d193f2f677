import Foundation
import GeoFarePlaces

/// `GEOFARE_FUZZ_WRITE_SEEDS=DIR geofare-fuzz`: writes the generated seeds of the binary
/// targets (the seed city as PBF in three variants, its graph file and its places index, each
/// section file also with the 0x00 "leave the header alone" prefix) under DIR/<target>/.
/// The text targets' seeds are copies of the tests' fixtures and data files, committed as they are.
enum Seeds {
    static func write(to dir: String) {
        func put(_ target: String, _ name: String, _ bytes: [UInt8]) {
            let folder = dir + "/" + target
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes))
        }
        for v in 0..<3 { put("pbf", "seed-city-\(v).osm.pbf", Array(SeedCity.pbf(variant: v))) }
        let files = SeedCity.files
        let graph = Array(FileManager.default.contents(atPath: files.graph) ?? Data())
        let places = Array(FileManager.default.contents(atPath: files.places) ?? Data())
        put("graph-file", "seed-city-fixed.graph", [1] + graph)
        put("graph-file", "seed-city-raw.graph", [0] + graph)
        put("places-file", "seed-city-fixed.places", [1] + places)
        put("places-file", "seed-city-raw.places", [0] + places)
        print("geofare-fuzz: wrote seeds under \(dir): graph \(graph.count) bytes, places \(places.count) bytes")
    }
}
