import Foundation
import GeoFareCore
import GeoFareFile
import GeoFareGraph
import GeoFareGraphBuild
import GeoFareOSM
import GeoFarePlaces

/// `pbf`: the input is an OSM PBF file, read by the graph builder (car profile, then contracted
/// when small, as `geofare graph build`) and by the places builder (then opened and searched,
/// as `geofare places build`). Bad input must be a typed ``GeoFareError``.
enum PBFTarget {
    static let target = FuzzTarget(name: "pbf", summary: "OSM PBF through the graph builder and the places builder", run: run)
    nonisolated(unsafe) static var profile: RoadProfile?

    static func run(_ input: UnsafeRawBufferPointer) {
        let data = Data(input)
        if profile == nil { profile = try? RoadProfile.named("car") }
        do {
            let reader = try PBFReader(data: data)
            let (network, _) = try OSMRoadNetworkBuilder(profile: profile!).build(reader: reader)
            if network.nodeCount > 0 && network.nodeCount <= 2_000 {
                let graph = try RoadGraph(network: network, metadata: GraphMetadata(profileID: "car", profileFingerprint: "", osmTimestamp: "", buildTime: ""))
                let m = graph.metadata
                if let a = try? Coordinate(latitude: m.south, longitude: m.west), let b = try? Coordinate(latitude: m.north, longitude: m.east) {
                    _ = try? graph.route(from: a, to: b)
                }
            }
        } catch {
            // A typed GeoFareError (typed throws): the expected answer to a bad file.
        }
        let pbfPath = SeedCity.scratch + "/input.osm.pbf", placesPath = SeedCity.scratch + "/input.places"
        write(input, to: pbfPath)
        do {
            _ = try PlacesIndexBuilder.build(pbfAt: URL(fileURLWithPath: pbfPath), to: placesPath)
            let index = try PlacesIndex(path: placesPath)
            _ = try index.search("시청")
            if index.count > 0 {
                let p = index.place(at: 0)
                _ = try index.reverse(p.coordinate, radiusMeters: 300)
            }
        } catch {}
    }
}

/// The seed-fixing both section-file targets share: a mutated file gets its declared length,
/// reserved field and CRC-32 made right again (when it starts with the magic), so the fuzzer
/// reaches the section table and the sections instead of stopping at the checksum.
func fixedSectionFile(_ input: UnsafeRawBufferPointer, magic: String) -> [UInt8] {
    var bytes = Array(input)
    // The first byte picks: 0x00 leaves the file as it is (the header checks themselves).
    guard let mode = bytes.first else { return bytes }
    bytes.removeFirst()
    guard mode != 0, bytes.count >= SectionFileLayout.headerSize, bytes.starts(with: Array(magic.utf8)) else { return bytes }
    bytes.withUnsafeMutableBytes { raw in
        raw.storeBytes(of: UInt64(raw.count).littleEndian, toByteOffset: 16, as: UInt64.self)
        raw.storeBytes(of: UInt32(0), toByteOffset: 28, as: UInt32.self)
        var crc = CRC32()
        crc.update(UnsafeRawBufferPointer(rebasing: raw[SectionFileLayout.headerSize...]))
        raw.storeBytes(of: crc.value.littleEndian, toByteOffset: 24, as: UInt32.self)
    }
    return bytes
}

/// `graph-file`: the input is a graph file (`geofare graph build`), opened by ``RoadGraph`` and
/// asked a few questions: snap, route on both metrics with geometry, a small matrix.
enum GraphFileTarget {
    static let target = FuzzTarget(name: "graph-file", summary: "graph file through RoadGraph(path:) and a few queries", run: run)

    static func run(_ input: UnsafeRawBufferPointer) {
        let path = SeedCity.scratch + "/input.graph"
        fixedSectionFile(input, magic: "GEOFAREG").withUnsafeBytes { write($0, to: path) }
        do {
            let graph = try RoadGraph(path: path)
            let m = graph.metadata
            guard let a = try? Coordinate(latitude: m.south, longitude: m.west), let b = try? Coordinate(latitude: m.north, longitude: m.east),
                  let c = try? Coordinate(latitude: (m.south + m.north) / 2, longitude: (m.west + m.east) / 2) else { return }
            _ = graph.contains(c)
            _ = try? graph.snap(c, maxDistanceMeters: 500)
            for metric in GraphMetric.allCases {
                _ = try? graph.route(from: a, to: b, metric: metric, withGeometry: true)
                _ = try? graph.route(from: c, to: a, metric: metric)
            }
            _ = graph.hierarchySize(.fastest)
        } catch {}
    }
}

/// `places-file`: the input is a places index (`geofare places build`), opened by
/// ``PlacesIndex`` and searched (Hangul, initials, Latin) and asked for a reverse look-up.
enum PlacesFileTarget {
    static let target = FuzzTarget(name: "places-file", summary: "places index through PlacesIndex(path:), search and reverse", run: run)

    static func run(_ input: UnsafeRawBufferPointer) {
        let path = SeedCity.scratch + "/input.places"
        fixedSectionFile(input, magic: "GEOFAREP").withUnsafeBytes { write($0, to: path) }
        do {
            let index = try PlacesIndex(path: path)
            let near = try? Coordinate(latitude: SeedCity.centerLat, longitude: SeedCity.centerLon)
            for q in ["시청", "ㅅㅊ", "city hall", "스타벅스 시청점", "gs25", "덕수궁"] { _ = try? index.search(q, near: near, limit: 5) }
            _ = try? index.searchByScan("시청역", limit: 5)
            if let near { _ = try? index.reverse(near, radiusMeters: 1_000) }
            for i in 0..<min(index.count, 8) { _ = index.place(at: i) }
        } catch {}
    }
}
