import Foundation
import GeoFareCore
@testable import GeoFareGraph
@testable import GeoFareGraphBuild
@testable import GeoFareOSM
import Testing

/// The taxi rules: a taxi is a public service vehicle (taxi and psv access and oneway tags decide
/// first), turn restrictions via ways, `except=` naming taxi/psv, conditional restrictions counted.
/// Hand-made PBF files through the real importer.
@Suite("Taxi access and via-way restrictions")
struct TaxiAccessTests {
    // MARK: access

    @Test("access: taxi, then psv, before motorcar / motor_vehicle / vehicle / access", arguments: [
        ([("access", "no"), ("psv", "yes")], true),
        ([("access", "no"), ("taxi", "yes")], true),
        ([("motorcar", "no"), ("taxi", "yes")], true),
        ([("motor_vehicle", "no"), ("psv", "designated")], true),
        ([("vehicle", "no"), ("taxi", "designated")], true),
        ([("taxi", "no"), ("motorcar", "yes")], false),
        ([("taxi", "no"), ("psv", "yes")], false),
        ([("psv", "no"), ("motorcar", "yes")], false),
        ([("access", "no"), ("bus", "yes")], false),
        ([("access", "no"), ("bus", "designated"), ("motorcar", "no")], false),
        ([("motor_vehicle", "no"), ("psv", "bus")], false),
        ([("access", "no"), ("psv", "yes"), ("taxi", "no")], false),
    ] as [([(String, String)], Bool)])
    func accessOrder(_ tags: [(String, String)], routable: Bool) throws {
        let (net, _) = try SmallNetworkTests.build(SmallNetworkTests.cross(armTags: [12: tags]))
        #expect(!net.arcs(from: SmallNetworkTests.S, to: SmallNetworkTests.X).isEmpty == routable, "\(tags)")
    }

    @Test("access values: delivery, bus, agricultural, forestry, emergency, no, private deny; psv, taxi, designated, destination allow",
          arguments: [("delivery", false), ("bus", false), ("agricultural", false), ("forestry", false), ("emergency", false),
                      ("no", false), ("private", false), ("psv", true), ("taxi", true), ("designated", true), ("destination", true),
                      ("permissive", true), ("customers", true)])
    func accessValues(_ value: String, routable: Bool) throws {
        for key in ["access", "motor_vehicle", "psv", "taxi"] {
            let (net, _) = try SmallNetworkTests.build(SmallNetworkTests.cross(armTags: [12: [(key, value)]]))
            #expect(!net.arcs(from: SmallNetworkTests.S, to: SmallNetworkTests.X).isEmpty == routable, "\(key)=\(value)")
        }
    }

    @Test("oneway: oneway:taxi, then oneway:psv, before oneway; oneway:bus is not for taxis", arguments: [
        ([("oneway", "yes"), ("oneway:psv", "no")], true, true),
        ([("oneway", "yes"), ("oneway:taxi", "no")], true, true),
        ([("oneway", "-1"), ("oneway:psv", "no")], true, true),
        ([("oneway", "yes"), ("oneway:bus", "no")], true, false),
        ([("oneway", "no"), ("oneway:taxi", "yes")], true, false),
        ([("oneway", "yes"), ("oneway:psv", "no"), ("oneway:taxi", "yes")], true, false),
        ([("junction", "roundabout"), ("oneway:psv", "no")], true, true),
    ] as [([(String, String)], Bool, Bool)])
    func onewayForTaxis(_ tags: [(String, String)], forward: Bool, backward: Bool) throws {
        let (net, _) = try SmallNetworkTests.build(SmallNetworkTests.cross(armTags: [12: tags]))
        #expect(!net.arcs(from: SmallNetworkTests.S, to: SmallNetworkTests.X).isEmpty == forward, "\(tags)")
        #expect(!net.arcs(from: SmallNetworkTests.X, to: SmallNetworkTests.S).isEmpty == backward, "\(tags)")
    }

    @Test("profile validation: oneway.keys, restrictionKeys and restrictionExceptValues")
    func profileFields() throws {
        let car = try TestData.carProfile()
        #expect(car.accessTags == ["taxi", "psv", "motorcar", "motor_vehicle", "vehicle", "access"])
        #expect(car.onewayKeys == ["oneway:taxi", "oneway:psv", "oneway"])
        #expect(car.restrictionExceptValues.isSuperset(of: ["taxi", "psv", "motorcar"]) && !car.restrictionExceptValues.contains("bus"))
        #expect(!car.deniedAccessValues.contains("psv") && car.deniedAccessValues.isSuperset(of: ["bus", "delivery", "agricultural", "forestry", "emergency"]))
        // the optional fields default to a private car's rules
        let calibration = try TestData.calibrationProfile()
        #expect(calibration.onewayKeys == ["oneway"] && calibration.restrictionExceptValues == ["motorcar", "motor_vehicle", "vehicle"])
        try ProfileTests.expectInvalid({ var w = $0["oneway"] as! [String: Any]; w["keys"] = ["oneway:taxi", "direction"]; $0["oneway"] = w }, field: "oneway.keys")
        try ProfileTests.expectInvalid({ var w = $0["oneway"] as! [String: Any]; w["keys"] = [String](); $0["oneway"] = w }, field: "oneway.keys")
        try ProfileTests.expectInvalid({ var w = $0["oneway"] as! [String: Any]; w["keys"] = "oneway"; $0["oneway"] = w }, field: "oneway.keys")
        try ProfileTests.expectInvalid({ $0["restrictionKeys"] = ["restriction:conditional", "restriction"] }, field: "restrictionKeys")
        try ProfileTests.expectInvalid({ $0["restrictionKeys"] = ["restriction", "restriction"] }, field: "restrictionKeys")
        try ProfileTests.expectInvalid({ $0["restrictionExceptValues"] = [1] }, field: "restrictionExceptValues[0]")
        try ProfileTests.expectInvalid({ $0["accessTags"] = ["taxi", "taxi"] }, field: "accessTags")
    }

    // MARK: via-way restrictions

    static let A = (0.0, 0.0), B = (0.0, 0.001), C = (0.0, 0.003), P = (-0.001, -0.001), D = (-0.001, 0.001), Q = (-0.001, 0.0015)
    static let M = (-0.0005, 0.001)
    static let names: [String: (Double, Double)] = ["A": A, "B": B, "C": C, "P": P, "D": D, "Q": Q, "M": M]

    /// ```
    /// A ──10── B ────11──── C
    /// │        │13 (via)  ╱
    /// 16       │        12
    /// │        │       ╱
    /// P ──14── D ─15─ Q
    /// ```
    /// (P lies south-west of A: A–P is longer than A–B.) All two-way residential ways; with
    /// `splitVia` the via way B–D is two ways, 13 (B–M) and 17 (M–D).
    static func ladder(splitVia: Bool = false) -> PBFWriter {
        var w = PBFWriter()
        w.nodes = [
            .init(id: 1, lat: A.0, lon: A.1), .init(id: 2, lat: B.0, lon: B.1), .init(id: 3, lat: C.0, lon: C.1),
            .init(id: 4, lat: P.0, lon: P.1), .init(id: 5, lat: D.0, lon: D.1), .init(id: 6, lat: Q.0, lon: Q.1),
            .init(id: 7, lat: M.0, lon: M.1),
        ]
        let road = [("highway", "residential")]
        w.ways = [
            .init(id: 10, refs: [1, 2], tags: road), .init(id: 11, refs: [2, 3], tags: road), .init(id: 12, refs: [3, 6], tags: road),
            .init(id: 14, refs: [4, 5], tags: road), .init(id: 15, refs: [5, 6], tags: road), .init(id: 16, refs: [1, 4], tags: road),
        ]
        if splitVia {
            w.ways += [.init(id: 13, refs: [2, 7], tags: road), .init(id: 17, refs: [7, 5], tags: road)]
        } else {
            w.ways.append(.init(id: 13, refs: [2, 7, 5], tags: road))
        }
        return w
    }

    /// The ladder with these turn restrictions, imported on the car profile.
    static func buildLadder(restricted relations: PBFWriter.Relation...) throws -> (RoadNetwork, ImportReport) {
        var w = ladder()
        w.relations = relations
        return try SmallNetworkTests.build(w)
    }

    static func restriction(_ id: Int64, from: Int64, via: [Int64], viaNode: Int64? = nil, to: Int64, tags: [(String, String)]) -> PBFWriter.Relation {
        var members: [PBFWriter.Member] = [.init(type: 1, id: from, role: "from")]
        if let viaNode { members.append(.init(type: 0, id: viaNode, role: "via")) }
        members += via.map { .init(type: 1, id: $0, role: "via") }
        members.append(.init(type: 1, id: to, role: "to"))
        return .init(id: id, members: members, tags: [("type", "restriction")] + tags)
    }

    /// Where a car can go next after driving along `stops` (consecutive arcs between the named
    /// places, any copy of a node): the names of the places one arc further.
    static func next(_ net: RoadNetwork, after stops: [String]) -> Set<String> {
        var current = Set<Int>()
        for (i, s) in stops.enumerated() {
            let at = Set(net.nodes(at: names[s]!.0, names[s]!.1))
            current = i == 0 ? at : Set((0..<net.arcCount).filter { current.contains(Int(net.arcTail[$0])) && at.contains(Int(net.arcHead[$0])) }.map { Int(net.arcHead[$0]) })
        }
        var result = Set<String>()
        for a in 0..<net.arcCount where current.contains(Int(net.arcTail[a])) {
            for (name, p) in names where net.nodes(at: p.0, p.1).contains(Int(net.arcHead[a])) { result.insert(name) }
        }
        return result
    }

    /// Plain Dijkstra over the network's arcs (distance), from any node at `from` to any node at
    /// `to`, independent of the router: centimetres, or nil.
    static func shortestCentimeters(_ net: RoadNetwork, from: (Double, Double), to: (Double, Double)) -> UInt64? {
        var dist = [UInt64](repeating: .max, count: net.nodeCount)
        var done = [Bool](repeating: false, count: net.nodeCount)
        for s in net.nodes(at: from.0, from.1) { dist[s] = 0 }
        let targets = Set(net.nodes(at: to.0, to.1))
        while let u = (0..<net.nodeCount).filter({ !done[$0] && dist[$0] < .max }).min(by: { dist[$0] < dist[$1] }) {
            if targets.contains(u) { return dist[u] }
            done[u] = true
            for a in 0..<net.arcCount where Int(net.arcTail[a]) == u {
                let v = Int(net.arcHead[a])
                dist[v] = min(dist[v], dist[u] + UInt64(net.arcDistanceCentimeters[a]))
            }
        }
        return nil
    }

    static func length(_ net: RoadNetwork, _ stops: [(Double, Double)]) -> UInt64 {
        zip(stops, stops.dropFirst()).reduce(0) { $0 + UInt64(net.arcDistanceCentimeters[net.arcs(from: $1.0, to: $1.1).first!]) }
    }

    @Test("without restrictions A → Q goes A–B–D–Q")
    func ladderUnrestricted() throws {
        let (net, report) = try SmallNetworkTests.build(Self.ladder())
        net.expectValid()
        #expect(report.restrictionNodeCopies == 0)
        #expect(Self.next(net, after: ["A", "B", "D"]) == ["B", "P", "Q"])
        #expect(Self.shortestCentimeters(net, from: Self.A, to: Self.Q) == Self.length(net, [Self.A, Self.B, Self.D, Self.Q]))
    }

    @Test("no_left_turn A–B → via B–D → D–Q: arriving from A that turn is gone (U-turn and P stay), a detour by P; from C it stays")
    func viaWayNoTurn() throws {
        let (net, report) = try Self.buildLadder(restricted: Self.restriction(100, from: 10, via: [13], to: 15, tags: [("restriction", "no_left_turn")]))
        net.expectValid()
        #expect(report.restrictionsApplied == 1 && report.restrictionsAppliedViaWay == 1, "\(report.restrictionsSkipped)")
        #expect(report.restrictionsSkipped.isEmpty)
        #expect(Self.next(net, after: ["A", "B", "D"]) == ["B", "P"])
        #expect(Self.next(net, after: ["C", "B", "D"]) == ["B", "P", "Q"])
        #expect(Self.next(net, after: ["P", "D"]) == ["B", "P", "Q"])
        let detour = Self.length(net, [Self.A, Self.P, Self.D, Self.Q])
        #expect(Self.shortestCentimeters(net, from: Self.A, to: Self.Q) == detour)
        #expect(detour > Self.length(net, [Self.A, Self.B, Self.D, Self.Q]) + 10_000)
        // the hierarchy answers as Dijkstra does on the network with the copies
        #expect(try checkExactness(network: net, pairs: 300, seed: 7).isEmpty)
    }

    @Test("only_straight_on A–B → via B–D → D–P: from A only P after the via way; from C every turn")
    func viaWayOnly() throws {
        let (net, report) = try Self.buildLadder(restricted: Self.restriction(100, from: 10, via: [13], to: 14, tags: [("restriction", "only_straight_on")]))
        net.expectValid()
        #expect(report.restrictionsAppliedViaWay == 1)
        #expect(Self.next(net, after: ["A", "B", "D"]) == ["P"])
        #expect(Self.next(net, after: ["C", "B", "D"]) == ["B", "P", "Q"])
        #expect(Self.shortestCentimeters(net, from: Self.A, to: Self.Q) == Self.length(net, [Self.A, Self.P, Self.D, Self.Q]))
        #expect(try checkExactness(network: net, pairs: 300, seed: 8).isEmpty)
    }

    @Test("two via ways (B–M, M–D), in either member order; leaving the via path at M stays allowed", arguments: [[Int64(13), 17], [17, 13]])
    func twoViaWays(_ via: [Int64]) throws {
        var w = Self.ladder(splitVia: true)
        // a spur at M so that leaving the via path half-way is a choice
        w.nodes.append(.init(id: 8, lat: -0.0005, lon: 0.0005))
        w.ways.append(.init(id: 18, refs: [7, 8, 4], tags: [("highway", "residential")]))
        w.relations = [Self.restriction(100, from: 10, via: via, to: 15, tags: [("restriction", "no_left_turn")])]
        let (net, report) = try SmallNetworkTests.build(w)
        net.expectValid()
        #expect(report.restrictionsAppliedViaWay == 1, "\(report.restrictionsSkipped)")
        #expect(Self.next(net, after: ["A", "B", "M", "D"]) == ["M", "P"])
        #expect(Self.next(net, after: ["C", "B", "M", "D"]) == ["M", "P", "Q"])
        #expect(Self.next(net, after: ["A", "B", "M"]).contains("B"))
        #expect(try checkExactness(network: net, pairs: 300, seed: 9).isEmpty)
    }

    @Test("a via-node restriction at D and a via-way one ending at D both hold")
    func viaNodeAndViaWay() throws {
        let (net, report) = try Self.buildLadder(restricted:
            Self.restriction(100, from: 10, via: [13], to: 15, tags: [("restriction", "no_left_turn")]),
            Self.restriction(101, from: 13, via: [], viaNode: 5, to: 14, tags: [("restriction", "no_right_turn")]))
        net.expectValid()
        #expect(report.restrictionsApplied == 2 && report.restrictionsAppliedViaWay == 1)
        #expect(Self.next(net, after: ["A", "B", "D"]) == ["B"])
        #expect(Self.next(net, after: ["C", "B", "D"]) == ["B", "Q"])
        #expect(Self.next(net, after: ["P", "D"]) == ["B", "P", "Q"])
        #expect(try checkExactness(network: net, pairs: 300, seed: 10).isEmpty)
    }

    @Test("except= naming taxi, psv, motorcar: not applied to the taxi profile; except=bus still applies", arguments: [
        ("taxi", false), ("psv", false), ("bicycle; psv", false), ("motorcar", false), ("bus", true), ("bicycle;hgv", true),
    ])
    func except(_ value: String, applies: Bool) throws {
        for via in [[Int64(13)], []] {
            let (net, report) = try Self.buildLadder(restricted: Self.restriction(
                100, from: 10, via: via, viaNode: via.isEmpty ? 2 : nil, to: via.isEmpty ? 13 : 15,
                tags: [("restriction", via.isEmpty ? "no_left_turn" : "no_u_turn"), ("except", value)]))
            #expect(report.restrictionsApplied == (applies ? 1 : 0), "except=\(value) via \(via)")
            #expect(report.restrictionsSkipped == (applies ? [:] : ["excepted": 1]), "except=\(value)")
            if via.isEmpty {
                #expect(Self.next(net, after: ["A", "B"]).contains("D") == !applies)
            } else {
                #expect(Self.next(net, after: ["A", "B", "D"]).contains("Q") == !applies)
            }
        }
    }

    @Test("restriction:taxi and restriction:psv win over restriction (the taxi's own rule first)")
    func taxiKey() throws {
        let (net, _) = try Self.buildLadder(restricted: Self.restriction(100, from: 10, via: [13], to: 15, tags: [("restriction", "no_left_turn"), ("restriction:psv", "only_left_turn")]))
        #expect(Self.next(net, after: ["A", "B", "D"]) == ["Q"])
        let (taxi, _) = try Self.buildLadder(restricted: Self.restriction(100, from: 10, via: [13], to: 15, tags: [("restriction:psv", "only_left_turn"), ("restriction:taxi", "no_left_turn")]))
        #expect(Self.next(taxi, after: ["A", "B", "D"]) == ["B", "P"])
    }

    @Test("via-way restrictions that cannot be matched are skipped with a reason")
    func viaWaySkips() throws {
        var w = Self.ladder()
        w.relations = [
            // from 11 (B–C) via 15 (D–Q) to 14: 11 and 15 do not touch
            Self.restriction(100, from: 11, via: [15], to: 14, tags: [("restriction", "no_left_turn")]),
            // two from ways
            .init(id: 101, members: [.init(type: 1, id: 10, role: "from"), .init(type: 1, id: 16, role: "from"), .init(type: 1, id: 13, role: "via"),
                                     .init(type: 1, id: 15, role: "to")], tags: [("type", "restriction"), ("restriction", "no_left_turn")]),
            // a way the profile does not keep
            Self.restriction(102, from: 10, via: [99], to: 15, tags: [("restriction", "no_left_turn")]),
        ]
        w.ways.append(.init(id: 99, refs: [2, 5], tags: [("highway", "footway")]))
        let (net, report) = try SmallNetworkTests.build(w)
        #expect(report.restrictionsApplied == 0 && report.restrictionNodeCopies == 0)
        #expect(report.restrictionsSkipped == ["via_way_not_connected": 1, "via_way_members": 1, "way_not_routable": 1])
        #expect(Self.next(net, after: ["A", "B", "D"]) == ["B", "P", "Q"])
        // against a one-way via way: nothing to forbid
        var oneway = Self.ladder()
        oneway.ways[oneway.ways.count - 1].tags.append(("oneway", "-1"))
        oneway.relations = [Self.restriction(100, from: 10, via: [13], to: 15, tags: [("restriction", "no_left_turn")])]
        let (_, r2) = try SmallNetworkTests.build(oneway)
        #expect(r2.restrictionsSkipped == ["via_way_not_drivable": 1])
    }

    // MARK: conditional restrictions

    @Test("conditional restrictions are counted and left out; a plain value beside one still applies")
    func conditional() throws {
        let (net, report) = try Self.buildLadder(restricted:
            Self.restriction(100, from: 10, via: [13], to: 15, tags: [("restriction:conditional", "no_left_turn @ (Mo-Fr 07:00-09:00)")]),
            Self.restriction(101, from: 16, via: [], viaNode: 4, to: 14, tags: [("restriction:motorcar:conditional", "no_left_turn @ (22:00-06:00)")]),
            Self.restriction(102, from: 11, via: [], viaNode: 2, to: 10, tags: [("restriction", "no_straight_on"), ("restriction:conditional", "none @ (Su)")]),
            Self.restriction(103, from: 11, via: [], viaNode: 2, to: 13, tags: [("restriction:hgv:conditional", "no_left_turn @ (wet)")]))
        #expect(report.restrictionsConditional == 3)
        #expect(report.restrictionsApplied == 1)
        #expect(report.restrictionsSkipped == ["conditional": 2, "no_restriction_tag": 1])
        #expect(Self.next(net, after: ["A", "B", "D"]) == ["B", "P", "Q"])
        #expect(!Self.next(net, after: ["C", "B"]).contains("A"))
    }
}
