import Foundation
import GeoFareCore
import GeoFareGraph
import GeoFareGraphBuild
import GeoFareOSM
import GeoFarePlaces
import GeoFareFare

/// A small made-up block of central Seoul as an OSM extract: a 7 × 7 street grid (named
/// residential rows, tertiary columns, a one-way primary), a turn restriction, and named places
/// of every kind the places index keeps (a station, a bus stop, a café, a building outline, an
/// area, a multipolygon landmark). Small enough to build in milliseconds, real enough that the
/// graph builder keeps a network and the places builder finds places.
enum SeedCity {
    static let centerLat = 37.5665, centerLon = 126.9780
    static let side = 7

    static func nodeID(_ x: Int, _ y: Int) -> Int64 { Int64(1000 + y * side + x) }

    static func writer(variant: Int = 0) -> PBFWriter {
        var w = PBFWriter()
        w.replicationTimestamp = 1_716_000_000
        for y in 0..<side {
            for x in 0..<side {
                var tags: [(String, String)] = []
                if x == 3 && y == 3 { tags = [("highway", "traffic_signals")] }
                w.nodes.append(.init(id: nodeID(x, y), lat: centerLat + Double(y - 3) * 0.001, lon: centerLon + Double(x - 3) * 0.00125, tags: tags))
            }
        }
        let pois: [(Int64, Double, Double, [(String, String)])] = [
            (5001, 0.0002, 0.0003, [("railway", "station"), ("name", "시청역"), ("name:en", "City Hall Station"), ("name:ko-Latn", "Sicheong-yeok")]),
            (5002, -0.0011, 0.0009, [("highway", "bus_stop"), ("name", "시청앞"), ("bus", "yes")]),
            (5003, 0.0013, -0.0017, [("amenity", "cafe"), ("name", "스타벅스 시청점"), ("name:en", "Starbucks City Hall"), ("addr:street", "세종대로")]),
            (5004, -0.0021, -0.0004, [("place", "neighbourhood"), ("name", "태평로"), ("alt_name", "Taepyeong-ro")]),
            (5005, 0.0024, 0.0026, [("shop", "convenience"), ("name", "GS25 서울광장점"), ("short_name", "GS25")]),
            (5006, 0.0007, -0.0029, [("railway", "subway_entrance"), ("name", "시청역 3번 출구")]),
        ]
        for (id, dlat, dlon, tags) in pois { w.nodes.append(.init(id: id, lat: centerLat + dlat, lon: centerLon + dlon, tags: tags)) }
        // A building outline and a landmark's outer ring (closed ways of their own nodes).
        let ring: [(Double, Double)] = [(0.0004, 0.0004), (0.0004, 0.0009), (0.0008, 0.0009), (0.0008, 0.0004)]
        for (k, (dlat, dlon)) in ring.enumerated() {
            w.nodes.append(.init(id: 6001 + Int64(k), lat: centerLat + dlat, lon: centerLon + dlon))
            w.nodes.append(.init(id: 6101 + Int64(k), lat: centerLat - dlat - 0.001, lon: centerLon - dlon))
        }
        var wayID: Int64 = 100
        for y in 0..<side {
            var tags: [(String, String)] = [("highway", y == 3 ? "primary" : "residential"), ("name", "세종대로\(y)길")]
            if y == 3 { tags += [("oneway", "yes"), ("maxspeed", "50")] }
            if y == 5 && variant == 1 { tags = [("highway", "service"), ("access", "private")] }
            w.ways.append(.init(id: wayID, refs: (0..<side).map { nodeID($0, y) }, tags: tags))
            wayID += 1
        }
        for x in 0..<side {
            w.ways.append(.init(id: wayID, refs: (0..<side).map { nodeID(x, $0) }, tags: [("highway", "tertiary"), ("name", "을지로\(x)가")]))
            wayID += 1
        }
        w.ways.append(.init(id: 900, refs: [6001, 6002, 6003, 6004, 6001], tags: [("building", "yes"), ("name", "서울특별시청"), ("name:en", "Seoul City Hall")]))
        w.ways.append(.init(id: 901, refs: [6101, 6102, 6103, 6104, 6101], tags: []))
        // No left turn from row 3 (way 103) onto column 3 (way 110) at the middle node.
        w.relations.append(.init(id: 1, members: [.init(type: 1, id: 103, role: "from"), .init(type: 0, id: nodeID(3, 3), role: "via"),
                                                  .init(type: 1, id: 110, role: "to")],
                                 tags: [("type", "restriction"), ("restriction", "no_left_turn")]))
        w.relations.append(.init(id: 2, members: [.init(type: 1, id: 901, role: "outer")],
                                 tags: [("type", "multipolygon"), ("tourism", "attraction"), ("name", "덕수궁"), ("name:en", "Deoksugung")]))
        if variant == 2 { w.waysFirst = true }
        return w
    }

    static func pbf(variant: Int = 0) -> Data {
        var w = writer(variant: variant)
        return w.encode()
    }

    /// Builds the graph file of `pbf` at `path` with the car profile, as `geofare graph build`.
    static func buildGraph(pbf: Data, to path: String) throws(GeoFareError) {
        let reader = try PBFReader(data: pbf)
        let profile = try RoadProfile.named("car")
        let (network, report) = try OSMRoadNetworkBuilder(profile: profile).build(reader: reader)
        var meta = GraphMetadata(profileID: profile.id, profileFingerprint: profile.fingerprint, osmTimestamp: "2024-05-18T02:40:00Z",
                                 buildTime: "2024-05-18T02:40:00Z")
        meta.signalPenaltySeconds = profile.trafficSignalPenaltySeconds
        meta.turnRestrictionsApplied = report.restrictionsApplied
        let chs = try ContractionHierarchy.contractConcurrently(network: network, metrics: GraphMetric.allCases)
        var hierarchies: [GraphMetric: ContractionHierarchy] = [:]
        for (k, m) in GraphMetric.allCases.enumerated() { hierarchies[m] = chs[k] }
        try GraphFileWriter.write(network: network, hierarchies: hierarchies, metadata: meta, to: path)
    }

    /// A private directory for this process's files (graph, places index, inputs written to disk).
    static let scratch: String = {
        let base = ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let dir = "\(base)/geofare-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: SeedCity.scratch) }
        return dir
    }()

    /// The seed city's graph file and places index, built once per process.
    static let files: (graph: String, places: String) = {
        let pbfPath = scratch + "/city.osm.pbf", graph = scratch + "/city.graph", places = scratch + "/city.places"
        do {
            let data = pbf()
            try data.write(to: URL(fileURLWithPath: pbfPath))
            try buildGraph(pbf: data, to: graph)
            _ = try PlacesIndexBuilder.build(pbfAt: URL(fileURLWithPath: pbfPath), to: places)
        } catch {
            fatalError("geofare-fuzz: cannot build the seed city: \(error)")
        }
        return (graph, places)
    }()

    /// The standard pricer (embedded tariffs and zones) routing on the seed city's graph, loaded
    /// once per process: loading the catalog is most of a target's start-up.
    static let pricer: TripPricer = {
        do { return try TripPricer.standard(graphs: [files.graph]) } catch { fatalError("geofare-fuzz: cannot load the pricer: \(error)") }
    }()
}
