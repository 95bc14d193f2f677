import Foundation
import GeoFareCore
import GeoFareData
import GeoFareText

/// A vehicle profile for extracting a road network from OpenStreetMap: which ways drive, how
/// fast, in which direction, and which turn rules apply. Decoded from JSON (see
/// `Data/route/profiles/README.md` for every field and its unit) and validated on load.
public struct RoadProfile: Sendable, Hashable {
    /// One `highway=*` value the profile drives on.
    public struct RoadClass: Sendable, Hashable {
        /// The `highway` tag value, e.g. `primary`.
        public var highway: String
        /// Default free-flow speed in km/h when no usable `maxspeed` is tagged.
        public var speedKmh: Double
        /// Whether arcs of this class carry `ArcFlags.link` (`GeoFareGraph`).
        public var isLink: Bool
    }

    /// The profile's identifier, e.g. `car`.
    public var id: String
    /// Road classes in order; an arc's `arcRoadClass` is the index into this list.
    public var roadClasses: [RoadClass]
    /// `service=*` values whose `highway=service` ways are dropped.
    public var excludedServiceValues: Set<String>
    /// Access keys from most to least specific; the first present decides (`taxi`, `psv` before
    /// `motorcar`, `motor_vehicle`, `vehicle`, `access` in `car.json`).
    public var accessTags: [String]
    /// Access values that make a way not routable.
    public var deniedAccessValues: Set<String>
    /// Multiplier applied to a posted `maxspeed` to get the free-flow speed (OSRM uses 0.8).
    public var maxspeedFactor: Double
    /// Symbolic `maxspeed` values (lower-cased, e.g. `kr:urban`, `none`, `walk`) in km/h.
    public var maxspeedSymbolic: [String: Double]
    /// `oneway` values meaning forward only / backward only / both ways / drop the way.
    public var onewayForward: Set<String>
    public var onewayBackward: Set<String>
    public var onewayBoth: Set<String>
    public var onewayDropped: Set<String>
    /// Keys holding the `oneway` value, most specific first; the first present decides
    /// (`oneway:taxi`, `oneway:psv`, `oneway` in `car.json`). Optional in the JSON: `["oneway"]`.
    public var onewayKeys: [String]
    /// `highway` values implied one-way unless the way says otherwise.
    public var impliedOnewayHighways: Set<String>
    /// `junction` values that are roundabouts: implied one-way, flagged `ArcFlags.roundabout` (`GeoFareGraph`).
    public var roundaboutJunctions: Set<String>
    /// Whether `area=yes` ways are dropped.
    public var dropAreas: Bool
    /// Seconds added to every arc whose head is a `highway=traffic_signals` node.
    public var trafficSignalPenaltySeconds: Double
    /// Whether `type=restriction` relations (via node or via way(s)) are applied.
    public var turnRestrictions: Bool
    /// Restriction keys in order of precedence, e.g. `["restriction:motorcar", "restriction"]`.
    /// Their `:conditional` variants (and `restriction:conditional`) are counted, not applied.
    public var restrictionKeys: [String]
    /// `except=*` values (split at `;`) that exempt this vehicle: a restriction naming one of them
    /// is not applied. Optional in the JSON: `["motorcar", "motor_vehicle", "vehicle"]`.
    public var restrictionExceptValues: Set<String>

    /// A stable fingerprint of the profile's JSON bytes: FNV-1a 64-bit, 16 lower-case hex digits.
    /// The graph file records it so a graph can be matched to the profile that built it.
    public let fingerprint: String

    /// Decodes and validates a profile from its JSON bytes.
    /// - Throws: ``GeoFareError`` `invalid_profile` naming the field: unknown or missing fields,
    ///   wrong types, negative or zero speeds, a factor outside (0, 2], duplicate classes.
    public init(json bytes: [UInt8]) throws(GeoFareError) {
        let root: JSONValue
        do { root = try JSONParser.parse(bytes) } catch {
            throw GeoFareError.invalidProfile("not valid JSON: \(error.message)", field: nil)
        }
        var o = try ProfileObject(root, path: "")
        id = try o.string("id")
        guard !id.isEmpty else { throw GeoFareError.invalidProfile("must not be empty", field: "id") }
        _ = try o.optionalString("description")
        _ = try o.optionalString("source")
        var classes: [RoadClass] = []
        let classValues = try o.array("roadClasses")
        guard !classValues.isEmpty, classValues.count <= 255 else {
            throw GeoFareError.invalidProfile("must list 1...255 road classes, got \(classValues.count)", field: "roadClasses")
        }
        for (i, v) in classValues.enumerated() {
            var c = try ProfileObject(v, path: "roadClasses[\(i)]")
            let highway = try c.string("highway")
            let speed = try c.number("speedKmh")
            guard speed > 0, speed <= 300 else { throw GeoFareError.invalidProfile("must be within (0, 300] km/h, got \(speed)", field: "roadClasses[\(i)].speedKmh") }
            let link = try c.optionalBool("link") ?? false
            try c.finish()
            guard !classes.contains(where: { $0.highway == highway }) else {
                throw GeoFareError.invalidProfile("duplicate road class '\(highway)'", field: "roadClasses[\(i)].highway")
            }
            classes.append(RoadClass(highway: highway, speedKmh: speed, isLink: link))
        }
        roadClasses = classes
        excludedServiceValues = Set(try o.strings("excludedServiceValues"))
        accessTags = try o.strings("accessTags")
        guard !accessTags.isEmpty, Set(accessTags).count == accessTags.count else {
            throw GeoFareError.invalidProfile("must list 1 or more distinct keys, most specific first", field: "accessTags")
        }
        deniedAccessValues = Set(try o.strings("deniedAccessValues"))
        var m = try ProfileObject(try o.value("maxspeed"), path: "maxspeed")
        maxspeedFactor = try m.number("factor")
        guard maxspeedFactor > 0, maxspeedFactor <= 2 else { throw GeoFareError.invalidProfile("must be within (0, 2], got \(maxspeedFactor)", field: "maxspeed.factor") }
        var symbolic: [String: Double] = [:]
        var s = try ProfileObject(try m.value("symbolicKmh"), path: "maxspeed.symbolicKmh")
        for key in s.keys {
            let v = try s.number(key)
            guard v > 0, v <= 300 else { throw GeoFareError.invalidProfile("must be within (0, 300] km/h, got \(v)", field: "maxspeed.symbolicKmh.\(key)") }
            symbolic[key.lowercased()] = v
        }
        try s.finish()
        maxspeedSymbolic = symbolic
        try m.finish()
        var w = try ProfileObject(try o.value("oneway"), path: "oneway")
        onewayForward = Set(try w.strings("forward"))
        onewayBackward = Set(try w.strings("backward"))
        onewayBoth = Set(try w.strings("both"))
        onewayDropped = Set(try w.strings("dropped"))
        impliedOnewayHighways = Set(try w.strings("impliedHighways"))
        roundaboutJunctions = Set(try w.strings("roundaboutJunctions"))
        onewayKeys = try w.optionalStrings("keys") ?? ["oneway"]
        guard !onewayKeys.isEmpty, onewayKeys.allSatisfy({ $0 == "oneway" || $0.hasPrefix("oneway:") }), Set(onewayKeys).count == onewayKeys.count else {
            throw GeoFareError.invalidProfile("must list 1 or more distinct keys 'oneway' or 'oneway:<vehicle>'", field: "oneway.keys")
        }
        try w.finish()
        dropAreas = try o.bool("dropAreas")
        trafficSignalPenaltySeconds = try o.number("trafficSignalPenaltySeconds")
        guard trafficSignalPenaltySeconds >= 0, trafficSignalPenaltySeconds <= 600 else {
            throw GeoFareError.invalidProfile("must be within 0...600 s, got \(trafficSignalPenaltySeconds)", field: "trafficSignalPenaltySeconds")
        }
        turnRestrictions = try o.bool("turnRestrictions")
        restrictionKeys = try o.strings("restrictionKeys")
        guard restrictionKeys.allSatisfy({ ($0 == "restriction" || $0.hasPrefix("restriction:")) && !$0.hasSuffix(":conditional") }),
              Set(restrictionKeys).count == restrictionKeys.count else {
            throw GeoFareError.invalidProfile("must list distinct keys 'restriction' or 'restriction:<vehicle>' (conditional keys are not applied)", field: "restrictionKeys")
        }
        restrictionExceptValues = Set(try o.optionalStrings("restrictionExceptValues") ?? ["motorcar", "motor_vehicle", "vehicle"])
        try o.finish()
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        fingerprint = String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The index of the road class for a `highway` value, or `nil` if the profile does not drive it.
    public func roadClassIndex(highway: String) -> Int? {
        roadClasses.firstIndex { $0.highway == highway }
    }
}

/// A JSON object being decoded field by field; ``finish()`` rejects fields nobody read.
private struct ProfileObject {
    let fields: [String: JSONValue]
    let path: String
    var used: Set<String> = []

    init(_ value: JSONValue, path: String) throws(GeoFareError) {
        guard let o = value.object else { throw GeoFareError.invalidProfile("must be an object, got \(value.typeName)", field: path.isEmpty ? nil : path) }
        fields = o
        self.path = path
    }

    var keys: [String] { fields.keys.sorted() }
    func field(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

    mutating func optionalValue(_ name: String) -> JSONValue? {
        used.insert(name)
        return fields[name]
    }

    mutating func value(_ name: String) throws(GeoFareError) -> JSONValue {
        guard let v = optionalValue(name) else { throw GeoFareError.invalidProfile("is missing", field: field(name)) }
        return v
    }

    mutating func string(_ name: String) throws(GeoFareError) -> String {
        let v = try value(name)
        guard let s = v.string else { throw GeoFareError.invalidProfile("must be a string, got \(v.typeName)", field: field(name)) }
        return s
    }

    mutating func optionalString(_ name: String) throws(GeoFareError) -> String? {
        guard optionalValue(name) != nil else { return nil }
        return try string(name)
    }

    mutating func number(_ name: String) throws(GeoFareError) -> Double {
        let v = try value(name)
        guard let d = v.double, d.isFinite else { throw GeoFareError.invalidProfile("must be a finite number, got \(v.typeName)", field: field(name)) }
        return d
    }

    mutating func bool(_ name: String) throws(GeoFareError) -> Bool {
        let v = try value(name)
        guard case let .bool(b) = v else { throw GeoFareError.invalidProfile("must be true or false, got \(v.typeName)", field: field(name)) }
        return b
    }

    mutating func optionalBool(_ name: String) throws(GeoFareError) -> Bool? {
        guard optionalValue(name) != nil else { return nil }
        return try bool(name)
    }

    mutating func array(_ name: String) throws(GeoFareError) -> [JSONValue] {
        let v = try value(name)
        guard let a = v.array else { throw GeoFareError.invalidProfile("must be an array, got \(v.typeName)", field: field(name)) }
        return a
    }

    mutating func strings(_ name: String) throws(GeoFareError) -> [String] {
        var out: [String] = []
        for (i, v) in try array(name).enumerated() {
            guard let s = v.string else { throw GeoFareError.invalidProfile("must be a string, got \(v.typeName)", field: field(name) + "[\(i)]") }
            out.append(s)
        }
        return out
    }

    mutating func optionalStrings(_ name: String) throws(GeoFareError) -> [String]? {
        guard optionalValue(name) != nil else { return nil }
        return try strings(name)
    }

    func finish() throws(GeoFareError) {
        if let unknown = fields.keys.sorted().first(where: { !used.contains($0) }) {
            throw GeoFareError.invalidProfile("unknown field", field: field(unknown))
        }
    }
}

extension RoadProfile {
    /// The profile `Data/route/profiles/<id>.json` from `catalog` (embedded, or a user override).
    /// - Throws: ``GeoFareError`` `profile_not_found` when no such file exists, `invalid_profile` when it does not validate.
    public static func named(_ id: String, catalog: DataCatalog = .embedded) throws(GeoFareError) -> RoadProfile {
        let path = "route/profiles/\(id).json"
        let bytes: Data
        do { bytes = try catalog.file(path).bytes } catch {
            throw .profileNotFound(id, path: path)
        }
        return try RoadProfile(json: [UInt8](bytes))
    }
}
