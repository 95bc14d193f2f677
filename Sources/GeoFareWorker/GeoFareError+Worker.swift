import GeoFareCore
import GeoFareText

/// Requests the worker rejects before or instead of running them: `invalid_json` (the line is
/// not JSON), `invalid_utf8` (not UTF-8: the byte offset and the string's path),
/// `invalid_request` (not an object, or a non-scalar id), `unknown_op`, `missing_field`,
/// `wrong_type`, `invalid_value`, `request_too_large`, `not_found`, `internal_error`; each
/// with the JSON path of the field.
extension GeoFareError {
    static func missing(_ field: String) -> GeoFareError {
        GeoFareError(code: .missingField, message: "is required", field: field)
    }

    static func wrongType(_ field: String, expected: String, got: JSONValue) -> GeoFareError {
        GeoFareError(code: .wrongType, message: "expected \(expected), got \(got.typeName)", field: field)
    }
}
