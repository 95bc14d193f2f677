import Foundation
@testable import GeoFareGraph
@testable import GeoFareGraphBuild
@testable import GeoFareOSM
import Testing

/// On the shared extracts: what the taxi rules change against a private car's
/// rules (the profile before: access `motorcar` > ... > `access`, `psv` denied, `oneway` only,
/// `except` motorcar/motor_vehicle/vehicle). Prints one line per extract (the numbers in
/// docs/routing.md come from it) and checks that the change is what the tags say.
struct TaxiAccessExtractTests {
    /// car.json as it was before the taxi rules.
    static func privateCarProfile() throws -> RoadProfile {
        var json = try ProfileTests.carJSON()
        json["accessTags"] = ["motorcar", "motor_vehicle", "vehicle", "access"]
        json["deniedAccessValues"] = ["no", "private", "agricultural", "forestry", "delivery", "emergency", "psv", "bus"]
        var oneway = json["oneway"] as! [String: Any]
        oneway["keys"] = nil
        json["oneway"] = oneway
        json["restrictionKeys"] = ["restriction:motorcar", "restriction"]
        json["restrictionExceptValues"] = nil
        return try RoadProfile(json: [UInt8](try JSONSerialization.data(withJSONObject: json)))
    }

    @Test("taxi access on the shared extracts: ways opened, closed, made two-way; restrictions via ways; conditional ones counted",
          .needsExtracts, arguments: TestData.extracts)
    func counts(extract: String) throws {
        let reader = try PBFReader(contentsOf: TestData.extract(extract))
        let taxi = try TestData.carProfile(), car = try Self.privateCarProfile()
        var t = WayCollector(profile: taxi), c = WayCollector(profile: car)
        _ = try reader.visit(&t, kinds: .all)
        _ = try reader.visit(&c, kinds: .all)
        func byId(_ w: WayCollector) -> [Int64: (Bool, Bool)] {
            Dictionary(uniqueKeysWithValues: w.wayIds.indices.map { (w.wayIds[$0], (w.wayForward[$0], w.wayBackward[$0])) })
        }
        let tw = byId(t), cw = byId(c)
        let opened = tw.keys.filter { cw[$0] == nil }.count
        let closed = cw.keys.filter { tw[$0] == nil }.count
        let twoWay = tw.filter { id, d in d.0 && d.1 && cw[id].map { !($0.0 && $0.1) } == true }.count
        let otherDirection = tw.filter { id, d in cw[id].map { $0 != d } == true }.count - twoWay
        let viaWay = t.restrictions.filter { !$0.viaWays.isEmpty }.count
        let (_, taxiReport) = try OSMRoadNetworkBuilder(profile: taxi).build(reader: reader)
        let (_, carReport) = try OSMRoadNetworkBuilder(profile: car).build(reader: reader)
        print("""
        taxi-access \(extract): ways kept \(c.wayIds.count) → \(t.wayIds.count) (opened \(opened), closed \(closed), \
        two-way for taxis \(twoWay), other direction change \(otherDirection)); \
        network nodes \(carReport.nodes) → \(taxiReport.nodes), arcs \(carReport.arcs) → \(taxiReport.arcs); \
        restrictions applied \(carReport.restrictionsApplied) → \(taxiReport.restrictionsApplied) \
        (via way \(taxiReport.restrictionsAppliedViaWay) of \(viaWay) via-way relations; node copies \(carReport.restrictionNodeCopies) → \(taxiReport.restrictionNodeCopies)); \
        conditional \(taxiReport.restrictionsConditional); skipped \(taxiReport.restrictionsSkipped.sorted { $0.key < $1.key })
        """)
        #expect(taxiReport.restrictionsConditional == carReport.restrictionsConditional || taxi.restrictionKeys.count > car.restrictionKeys.count)
        #expect(taxiReport.restrictionsSkipped["via_way"] == nil)
        #expect(taxiReport.restrictionsAppliedViaWay <= viaWay)
    }
}
