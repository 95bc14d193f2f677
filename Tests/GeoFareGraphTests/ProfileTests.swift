import Foundation
import GeoFareOSM
import Testing
import GeoFareCore

@Suite("Road profiles")
struct ProfileTests {
    @Test("maxspeed values", arguments: [
        ("50", 50.0), ("50 km/h", 50), ("50km/h", 50), ("50 kmh", 50), ("60 kph", 60), ("30 mph", 48.28032), ("30mph", 48.28032),
        ("KR:urban", 50), ("kr:urban", 50), ("US:urban", 40.2336), ("none", 140), ("walk", 5), ("DE:living_street", 7),
        ("50;30", 30), ("signals;40", 40), ("10 knots", 18.52), (" 70 ", 70),
    ] as [(String, Double)])
    func maxspeed(_ tag: String, kmh: Double) throws {
        let car = try TestData.carProfile()
        let posted = try #require(car.postedSpeedKmh(maxspeed: tag))
        #expect(abs(posted - kmh) < 1e-9, "\(tag) → \(posted)")
        #expect(abs(car.speedKmh(maxspeed: tag)! - kmh * 0.8) < 1e-9)
    }

    @Test("maxspeed values not understood fall back to the class speed", arguments: ["signals", "variable", "50 foo", "0", "", "fast", "-30", "XX:urban", "1000"])
    func maxspeedUnknown(_ tag: String) throws {
        #expect(try TestData.carProfile().postedSpeedKmh(maxspeed: tag) == nil)
    }

    @Test("the car profile: id, classes, stable fingerprint")
    func car() throws {
        let car = try TestData.carProfile()
        #expect(car.id == "car")
        #expect(car.roadClasses.first?.highway == "motorway" && car.roadClasses.first?.speedKmh == 90)
        #expect(car.roadClassIndex(highway: "service") != nil && car.roadClassIndex(highway: "track") == nil)
        #expect(car.fingerprint.count == 16 && car.fingerprint.allSatisfy(\.isHexDigit))
        #expect(try TestData.carProfile().fingerprint == car.fingerprint)
        #expect(try TestData.calibrationProfile().fingerprint != car.fingerprint)
        #expect(throws: GeoFareError.self) { try RoadProfile.named("no-such-profile") }
    }

    static func carJSON() throws -> [String: Any] {
        let url = TestData.packageRoot.appendingPathComponent("Data/route/profiles/car.json")
        return try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    }

    static func expectInvalid(_ edit: (inout [String: Any]) -> Void, field: String?) throws {
        var json = try carJSON()
        edit(&json)
        let bytes = [UInt8](try JSONSerialization.data(withJSONObject: json))
        do {
            _ = try RoadProfile(json: bytes)
            Issue.record("expected invalid_profile at \(field ?? "nil")")
        } catch {
            #expect(error.code == .invalidProfile)
            #expect(error.field == field, "\(error)")
        }
    }

    @Test("validation names the bad field")
    func validation() throws {
        try Self.expectInvalid({ $0["speed"] = 3 }, field: "speed")
        try Self.expectInvalid({ $0["id"] = nil }, field: "id")
        try Self.expectInvalid({ $0["id"] = "" }, field: "id")
        try Self.expectInvalid({ var c = $0["roadClasses"] as! [[String: Any]]; c[3]["speedKmh"] = -5; $0["roadClasses"] = c }, field: "roadClasses[3].speedKmh")
        try Self.expectInvalid({ var c = $0["roadClasses"] as! [[String: Any]]; c[0]["colour"] = "red"; $0["roadClasses"] = c }, field: "roadClasses[0].colour")
        try Self.expectInvalid({ var c = $0["roadClasses"] as! [[String: Any]]; c[1]["highway"] = "motorway"; $0["roadClasses"] = c }, field: "roadClasses[1].highway")
        try Self.expectInvalid({ $0["roadClasses"] = [] as [Any] }, field: "roadClasses")
        try Self.expectInvalid({ var m = $0["maxspeed"] as! [String: Any]; m["factor"] = 0; $0["maxspeed"] = m }, field: "maxspeed.factor")
        try Self.expectInvalid({ var m = $0["maxspeed"] as! [String: Any]; m["symbolicKmh"] = ["kr:urban": -1]; $0["maxspeed"] = m }, field: "maxspeed.symbolicKmh.kr:urban")
        try Self.expectInvalid({ var o = $0["oneway"] as! [String: Any]; o["forward"] = "yes"; $0["oneway"] = o }, field: "oneway.forward")
        try Self.expectInvalid({ $0["trafficSignalPenaltySeconds"] = -1 }, field: "trafficSignalPenaltySeconds")
        try Self.expectInvalid({ $0["turnRestrictions"] = "yes" }, field: "turnRestrictions")
        #expect(throws: GeoFareError.self) { try RoadProfile(json: Array("{".utf8)) }
    }
}
