import GeoFareCore
import GeoFareText

/// Requests the worker rejects before or instead of running them: `invalid_json` (the line is
/// not JSON), `invalid_utf8` (not UTF-8: the byte offset and the string's path),
/// `invalid_request` (not an object, or a non-scalar id), `unknown_op`, `missing_field`,
/// `wrong_type`, `invalid_value`, `request_too_large`, `not_found`, `internal_error`; each
/// with the JSON path of the field.
extension GeoFareError {
    // MARK: The request line

    /// A request that is not a JSON object (`invalid_request`).
    static func requestNotObject(_ got: JSONValue) -> GeoFareError {
        GeoFareError(code: .invalidRequest, message: "a request is a JSON object, got \(got.typeName)", field: nil)
    }

    /// An `id` that is not a scalar (`invalid_request`, field `id`).
    static func invalidRequestID() -> GeoFareError {
        GeoFareError(code: .invalidRequest, message: "id must be a string, number, boolean or null", field: "id")
    }

    /// A line longer than `--max-line-bytes` (`request_too_large`).
    static func lineTooLarge(_ bytes: Int, limit: Int) -> GeoFareError {
        GeoFareError(code: .requestTooLarge, message: "the line has \(bytes) bytes, more than --max-line-bytes \(limit)", field: nil)
    }

    /// Anything thrown that is not a ``GeoFareError`` (`internal_error`).
    static func internalError(_ error: any Error) -> GeoFareError {
        GeoFareError(code: .internalError, message: "\(error)", field: nil)
    }

    /// An op name the worker does not know (`unknown_op`, field `op`), listing `ops`.
    static func unknownOp(_ name: String, ops: [String]) -> GeoFareError {
        GeoFareError(code: .unknownOp, message: "unknown op '\(name)'; ops: \(ops.joined(separator: ", "))", field: "op")
    }

    /// A party handler given an op that is not a party op (`unknown_op`, field `op`).
    static func notAPartyOp(_ op: String) -> GeoFareError {
        GeoFareError(code: .unknownOp, message: "'\(op)' is not a party op", field: "op")
    }

    /// The party writer given an op that is not a party write (`internal_error`, field `op`).
    static func notAPartyWrite(_ op: String) -> GeoFareError {
        GeoFareError(code: .internalError, message: "'\(op)' is not a party write", field: "op")
    }

    /// A party op on a worker started without a party store (`unavailable`, field `op`).
    static func noPartyStore() -> GeoFareError {
        GeoFareError(code: .unavailable, message: "this worker has no party store", field: "op")
    }

    /// A places op on a worker started without a places index (`places_not_loaded`, field `op`).
    static func placesNotLoaded() -> GeoFareError {
        GeoFareError(code: .placesNotLoaded, message: "this worker has no places index: start it with --places FILE (geofare places build)", field: "op")
    }

    // MARK: Ops

    /// A `points[i]` of `transform` that is not `[x, y]` (`wrong_type`).
    static func pointNotPair(_ i: Int) -> GeoFareError {
        GeoFareError(code: .wrongType, message: "a point is [x, y] with x = longitude/easting", field: "points[\(i)]")
    }

    // (A `matrix` of too many cells is GeoFareRoute's ``GeoFareError/matrixTooLarge(sources:targets:max:)``.)

    /// A fare request with no trip at all (`missing_field`, field `from`).
    /// Two fields that cannot go together in one request (`invalid_request`, field: the second).
    static func fieldsConflict(_ a: String, _ b: String) -> GeoFareError {
        GeoFareError(code: .invalidRequest, message: "'\(a)' and '\(b)' cannot go together: give one of them", field: a)
    }

    static func tripRequired() -> GeoFareError {
        GeoFareError(code: .missingField, message: "give from/to coordinates, a trip {distance_m, duration_s} or segments", field: "from")
    }

    /// A `split` weight that is not a non-negative integer (`invalid_value`, field `weights[i]`).
    static func invalidWeight(_ i: Int) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "weights are non-negative integers", field: "weights[\(i)]")
    }

    /// A `split` with an empty `weights` (`invalid_value`, field `weights`).
    static func noWeights() -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "needs at least one weight", field: "weights")
    }

    /// A `match` field the op does not read (`invalid_value`, field: the name).
    static func unknownField(_ path: String, op: String, suggestion: String?) -> GeoFareError {
        GeoFareError(code: .unknownField, message: "\(op) has no field '\(path)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), field: path)
    }

    /// An HTTP body whose `op` names another op than its path (`invalid_request`, field `op`).
    static func opDiffersFromPath(_ given: JSONValue, path: String) -> GeoFareError {
        GeoFareError(code: .invalidRequest, message: "the body's op \(JSONWriter.string(given)) is not the path's '\(path)'", field: "op")
    }
}
