import Foundation
import GeoFareGraph
import GeoFareGraphBuild
import GeoFareOSM
import Testing

/// Hand-made PBF files (real encoding through ``PBFWriter``) with known answers.
@Suite("Small hand-made networks")
struct SmallNetworkTests {
    /// A plus-shaped crossing at X (0, 0) with arms N, E, S, W 0.001° away, each arm a two-way
    /// residential way from the arm end to X, and a ring road joining the arm ends so every
    /// arm end is a junction.
    static func cross(restriction: (value: String, from: Int64, to: Int64)? = nil, armTags: [Int64: [(String, String)]] = [:]) -> PBFWriter {
        var w = PBFWriter()
        w.nodes = [
            .init(id: 1, lat: 0, lon: 0),        // X
            .init(id: 2, lat: 0.001, lon: 0),    // N
            .init(id: 3, lat: 0, lon: 0.001),    // E
            .init(id: 4, lat: -0.001, lon: 0),   // S
            .init(id: 5, lat: 0, lon: -0.001),   // W
        ]
        for (wayId, arm) in [(10, 2), (11, 3), (12, 4), (13, 5)] as [(Int64, Int64)] {
            w.ways.append(.init(id: wayId, refs: [arm, 1], tags: [("highway", "residential")] + (armTags[wayId] ?? [])))
        }
        w.ways.append(.init(id: 20, refs: [2, 3, 4, 5, 2], tags: [("highway", "tertiary")]))
        if let r = restriction {
            w.relations.append(.init(id: 100, members: [.init(type: 1, id: r.from, role: "from"), .init(type: 0, id: 1, role: "via"),
                                                        .init(type: 1, id: r.to, role: "to")],
                                     tags: [("type", "restriction"), ("restriction", r.value)]))
        }
        return w
    }

    static let X = (0.0, 0.0), N = (0.001, 0.0), E = (0.0, 0.001), S = (-0.001, 0.0), W = (0.0, -0.001)

    static func build(_ writer: PBFWriter, profile: RoadProfile? = nil) throws -> (RoadNetwork, ImportReport) {
        var writer = writer
        let reader = try PBFReader(data: writer.encode())
        return try OSMRoadNetworkBuilder(profile: try profile ?? TestData.carProfile()).build(reader: reader)
    }

    /// The arm ends reachable in exactly two arcs (arm → X copy → arm) when arriving from `from`.
    static func turnsAtX(_ net: RoadNetwork, from: (Double, Double)) -> Set<String> {
        let names = ["N": N, "E": E, "S": S, "W": W]
        var result = Set<String>()
        for a in net.arcs(from: from, to: X) {
            let copy = net.arcHead[a]
            for b in 0..<net.arcCount where net.arcTail[b] == copy {
                for (name, p) in names where net.nodes(at: p.0, p.1).contains(Int(net.arcHead[b])) { result.insert(name) }
            }
        }
        return result
    }

    @Test("without restrictions every turn at the crossing is possible, U-turns included")
    func unrestricted() throws {
        let (net, report) = try Self.build(Self.cross())
        net.expectValid()
        #expect(net.nodeCount == 5 && report.restrictionNodeCopies == 0)
        #expect(Self.turnsAtX(net, from: Self.S) == ["N", "E", "S", "W"])
        // 4 two-way arms + 4 two-way ring sections
        #expect(net.arcCount == 16)
    }

    @Test("no_left_turn S→W forbids exactly that turn; other approaches keep all turns")
    func noLeftTurn() throws {
        let (net, report) = try Self.build(Self.cross(restriction: ("no_left_turn", 12, 13)))
        net.expectValid()
        #expect(report.restrictionsApplied == 1)
        #expect(report.restrictionNodeCopies == 3, "one copy of X per incoming arc beyond the first")
        #expect(net.nodes(at: 0, 0).count == 4)
        #expect(Self.turnsAtX(net, from: Self.S) == ["N", "E", "S"])
        #expect(Self.turnsAtX(net, from: Self.N) == ["N", "E", "S", "W"])
        #expect(Self.turnsAtX(net, from: Self.E) == ["N", "E", "S", "W"])
    }

    @Test("only_straight_on S→N allows nothing else from S, U-turn included")
    func onlyStraightOn() throws {
        let (net, _) = try Self.build(Self.cross(restriction: ("only_straight_on", 12, 10)))
        net.expectValid()
        #expect(Self.turnsAtX(net, from: Self.S) == ["N"])
        #expect(Self.turnsAtX(net, from: Self.W) == ["N", "E", "S", "W"])
    }

    @Test("a restriction the profile does not apply leaves the graph alone")
    func restrictionsOff() throws {
        let (net, report) = try Self.build(Self.cross(restriction: ("no_left_turn", 12, 13)), profile: try TestData.calibrationProfile())
        #expect(report.restrictionsApplied == 0 && net.nodeCount == 5)
        #expect(Self.turnsAtX(net, from: Self.S) == ["N", "E", "S", "W"])
    }

    @Test("a closed via way, conditional and excepted restrictions are skipped and counted")
    func skippedRestrictions() throws {
        var w = Self.cross()
        w.relations.append(.init(id: 101, members: [.init(type: 1, id: 12, role: "from"), .init(type: 1, id: 20, role: "via"), .init(type: 1, id: 13, role: "to")],
                                 tags: [("type", "restriction"), ("restriction", "no_u_turn")]))
        w.relations.append(.init(id: 102, members: [.init(type: 1, id: 12, role: "from"), .init(type: 0, id: 1, role: "via"), .init(type: 1, id: 13, role: "to")],
                                 tags: [("type", "restriction"), ("restriction:conditional", "no_left_turn @ (Mo-Fr 07:00-09:00)")]))
        w.relations.append(.init(id: 103, members: [.init(type: 1, id: 12, role: "from"), .init(type: 0, id: 1, role: "via"), .init(type: 1, id: 13, role: "to")],
                                 tags: [("type", "restriction"), ("restriction", "no_left_turn"), ("except", "bicycle;motorcar")]))
        let (net, report) = try Self.build(w)
        #expect(report.restrictionsApplied == 0)
        // the via way 20 is the closed ring: a path through a node twice
        #expect(report.restrictionsSkipped == ["via_way_loop": 1, "conditional": 1, "excepted": 1])
        #expect(report.restrictionsConditional == 1)
        #expect(Self.turnsAtX(net, from: Self.S) == ["N", "E", "S", "W"])
    }

    @Test("restriction:motorcar wins over restriction")
    func motorcarKey() throws {
        var w = Self.cross()
        w.relations.append(.init(id: 100, members: [.init(type: 1, id: 12, role: "from"), .init(type: 0, id: 1, role: "via"), .init(type: 1, id: 13, role: "to")],
                                 tags: [("type", "restriction"), ("restriction", "only_straight_on"), ("restriction:motorcar", "no_left_turn")]))
        let (net, _) = try Self.build(w)
        #expect(Self.turnsAtX(net, from: Self.S) == ["N", "E", "S"])
    }

    @Test("oneway=yes keeps only the forward arc; -1 only the backward one; motorway and roundabout imply it; oneway=no cancels")
    func oneway() throws {
        // arm S (way 12) goes S → X
        for (tags, forward, backward) in [
            ([("oneway", "yes")], true, false), ([("oneway", "-1")], false, true), ([("oneway", "true")], true, false),
            ([("junction", "roundabout")], true, false), ([("junction", "circular"), ("oneway", "no")], true, true),
            ([], true, true),
        ] as [([(String, String)], Bool, Bool)] {
            let (net, _) = try Self.build(Self.cross(armTags: [12: tags]))
            #expect(!net.arcs(from: Self.S, to: Self.X).isEmpty == forward, "\(tags)")
            #expect(!net.arcs(from: Self.X, to: Self.S).isEmpty == backward, "\(tags)")
            if tags.contains(where: { $0.0 == "junction" }) {
                let a = try #require(net.arcs(from: Self.S, to: Self.X).first)
                #expect(ArcFlags(rawValue: net.arcFlags[a]).contains(.roundabout))
            }
        }
        // a motorway arm is one-way: its backward direction is gone, so S is a dead end left out of the SCC
        var w = Self.cross()
        w.ways[2].tags = [("highway", "motorway")]
        let (net, _) = try Self.build(w)
        #expect(net.arcs(from: Self.X, to: Self.S).isEmpty)
        // reversible: the way is dropped
        let (rev, _) = try Self.build(Self.cross(armTags: [12: [("oneway", "reversible")]]))
        #expect(rev.arcs(from: Self.S, to: Self.X).isEmpty && rev.arcs(from: Self.X, to: Self.S).isEmpty)
    }

    @Test("access: the most specific tag decides", arguments: [
        ([("access", "no")], false), ([("access", "no"), ("motorcar", "yes")], true), ([("access", "yes"), ("motor_vehicle", "private")], false),
        ([("vehicle", "no"), ("motor_vehicle", "destination")], true), ([("access", "delivery")], false), ([("access", "permissive")], true),
        ([("area", "yes")], false),
    ] as [([(String, String)], Bool)])
    func access(_ tags: [(String, String)], routable: Bool) throws {
        let (net, _) = try Self.build(Self.cross(armTags: [12: tags]))
        #expect(!net.arcs(from: Self.S, to: Self.X).isEmpty == routable)
    }

    @Test("driveways are dropped, other service roads kept")
    func service() throws {
        var w = Self.cross()
        w.ways[2].tags = [("highway", "service"), ("service", "driveway")]
        #expect(try Self.build(w).0.arcs(from: Self.S, to: Self.X).isEmpty)
        w.ways[2].tags = [("highway", "service"), ("service", "alley")]
        #expect(!(try Self.build(w).0.arcs(from: Self.S, to: Self.X).isEmpty))
    }

    @Test("a traffic signal mid-way is a routing node with the penalty on arcs into it; lengths and times follow the speed")
    func signal() throws {
        var w = PBFWriter()
        w.nodes = [.init(id: 1, lat: 0, lon: 0), .init(id: 2, lat: 0, lon: 0.001, tags: [("highway", "traffic_signals")]), .init(id: 3, lat: 0, lon: 0.002)]
        w.ways = [.init(id: 10, refs: [1, 2, 3], tags: [("highway", "primary"), ("maxspeed", "50")])]
        let (net, report) = try Self.build(w)
        net.expectValid()
        #expect(report.signalNodes == 1)
        #expect(net.nodeCount == 3 && net.arcCount == 4)
        let into = net.arcs(from: (0, 0), to: (0, 0.001))
        let out = net.arcs(from: (0, 0.001), to: (0, 0.002))
        #expect(into.count == 1 && out.count == 1)
        // 0.001° of longitude on the equator: 111.319491 m (WGS84 a·π/180·0.001)
        #expect(net.arcDistanceCentimeters[into[0]] == 11132)
        // 50 km/h posted × 0.8 = 40 km/h: 111.32 m → 10 019 ms, + 2 000 ms signal
        #expect(net.arcTimeMilliseconds[out[0]] == 10019)
        #expect(net.arcTimeMilliseconds[into[0]] == 12019)
        #expect(ArcFlags(rawValue: net.arcFlags[into[0]]).contains(.signalAtHead))
        #expect(!ArcFlags(rawValue: net.arcFlags[out[0]]).contains(.signalAtHead))
    }

    @Test("shape points: nodes used once stay inside the arc's polyline; a node missing from the file splits the way")
    func shapesAndMissingNodes() throws {
        var w = PBFWriter()
        w.waysFirst = true
        w.nodes = [.init(id: 1, lat: 0, lon: 0), .init(id: 2, lat: 0.0005, lon: 0.0005), .init(id: 3, lat: 0, lon: 0.001),
                   .init(id: 5, lat: 0, lon: 0.003), .init(id: 6, lat: 0, lon: 0.004)]
        w.ways = [.init(id: 10, refs: [1, 2, 3, 4, 5, 6], tags: [("highway", "residential")])]
        let (net, report) = try Self.build(w)
        net.expectValid()
        #expect(report.missingNodeReferences == 1)
        // the largest component is 1–3 (with 2 as a shape point) or 5–6: both have 2 nodes, 2 arcs
        #expect(net.nodeCount == 2 && net.arcCount == 2)
        let shapeCounts = (0..<net.arcCount).map { Int(net.shapeStart[$0 + 1] - net.shapeStart[$0]) }
        if net.nodes(at: 0, 0).count == 1 {
            #expect(shapeCounts == [1, 1])
            #expect(net.shapeLatitudes == [5_000_000 / 1000, 5_000_000 / 1000])
        } else {
            #expect(shapeCounts == [0, 0])
        }
    }

    @Test("ways listed before their nodes (unsorted files) build the same network")
    func waysFirst() throws {
        var a = Self.cross(restriction: ("no_left_turn", 12, 13))
        var b = a
        b.waysFirst = true
        let na = try OSMRoadNetworkBuilder(profile: try TestData.carProfile()).build(reader: try PBFReader(data: a.encode())).network
        let nb = try OSMRoadNetworkBuilder(profile: try TestData.carProfile()).build(reader: try PBFReader(data: b.encode())).network
        #expect(na == nb)
    }
}
