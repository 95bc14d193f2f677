import Foundation
import GeoFareCore

/// Typed, path-aware access to the fields of a JSON request object: every error names the JSON
/// path of the field (`fare.via[2].lat` is reported as `via[2].lat`). The worker reads every op
/// with it; the party and places modules read their objects with it too (a party line of
/// `parties import` is a `party.upsert`'s `party`).
public struct RequestFields {
    public let object: [String: JSONValue]
    /// The path of this object inside the request (`""` at the top).
    public let path: String

    public init(_ object: [String: JSONValue], path: String = "") {
        self.object = object
        self.path = path
    }

    public func at(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    public func has(_ key: String) -> Bool {
        if let v = object[key], v != .null { return true }
        return false
    }

    public func value(_ key: String) throws(GeoFareError) -> JSONValue {
        guard let v = object[key], v != .null else { throw .missing(at(key)) }
        return v
    }

    public func double(_ key: String) throws(GeoFareError) -> Double {
        let v = try value(key)
        guard let d = v.double else { throw .wrongType(at(key), expected: "a number", got: v) }
        guard d.isFinite else { throw .notFinite(at(key)) }
        return d
    }

    public func optionalDouble(_ key: String) throws(GeoFareError) -> Double? {
        has(key) ? try double(key) : nil
    }

    public func int(_ key: String, range: ClosedRange<Int64>) throws(GeoFareError) -> Int64 {
        let v = try value(key)
        guard case .number = v else { throw .wrongType(at(key), expected: "an integer", got: v) }
        guard let i = v.int64 else { throw .notAnInteger(at(key)) }
        guard range.contains(i) else { throw .outOfRange(at(key), i, range) }
        return i
    }

    public func optionalInt(_ key: String, range: ClosedRange<Int64>) throws(GeoFareError) -> Int64? {
        has(key) ? try int(key, range: range) : nil
    }

    public func string(_ key: String) throws(GeoFareError) -> String {
        let v = try value(key)
        guard let s = v.string else { throw .wrongType(at(key), expected: "a string", got: v) }
        return s
    }

    public func optionalString(_ key: String) throws(GeoFareError) -> String? {
        has(key) ? try string(key) : nil
    }

    public func bool(_ key: String, default fallback: Bool) throws(GeoFareError) -> Bool {
        guard has(key) else { return fallback }
        let v = try value(key)
        guard case let .bool(b) = v else { throw .wrongType(at(key), expected: "a boolean", got: v) }
        return b
    }

    public func nested(_ key: String) throws(GeoFareError) -> RequestFields {
        let v = try value(key)
        guard let o = v.object else { throw .wrongType(at(key), expected: "an object", got: v) }
        return RequestFields(o, path: at(key))
    }

    public func array(_ key: String, maxCount: Int) throws(GeoFareError) -> [JSONValue] {
        let v = try value(key)
        guard let a = v.array else { throw .wrongType(at(key), expected: "an array", got: v) }
        guard a.count <= maxCount else { throw .tooManyItems(at(key), max: maxCount, got: a.count) }
        return a
    }

    /// `{"lat": .., "lon": ..}` as a validated coordinate.
    public func coordinate(_ key: String) throws(GeoFareError) -> Coordinate {
        try Self.coordinate(try value(key), path: at(key))
    }

    public static func coordinate(_ v: JSONValue, path: String) throws(GeoFareError) -> Coordinate {
        guard let o = v.object else { throw .wrongType(path, expected: "an object {\"lat\", \"lon\"}", got: v) }
        let f = RequestFields(o, path: path)
        let lat = try f.double("lat"), lon = try f.double("lon")
        do { return try Coordinate(latitude: lat, longitude: lon) } catch {
            throw error.prefixed(path)
        }
    }

    /// An ISO 8601 time with offset; `nil` when absent.
    public func time(_ key: String) throws(GeoFareError) -> Date? {
        guard has(key) else { return nil }
        let s = try string(key)
        guard let d = ISO8601.parse(s) else {
            throw .invalidTime(at(key), s)
        }
        return d
    }
}
