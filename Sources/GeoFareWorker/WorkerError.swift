import GeoFareCore
import GeoFareText

/// A request the worker rejects before or instead of running it.
///
/// Codes: `invalid_json` (the line is not JSON), `invalid_request` (not an object, or a
/// non-scalar id), `unknown_op`, `missing_field`, `wrong_type`, `invalid_value`,
/// `request_too_large`, `not_found`, `internal_error`; each with the JSON path of the field.
public struct WorkerError: CodedError, Hashable {
    public var code: String
    public var message: String
    public var field: String?

    /// An error with one of ``ErrorCode``'s codes.
    public init(code: ErrorCode, message: String, field: String?) {
        self.init(code: code.rawValue, message: message, field: field)
    }

    public init(code: String, message: String, field: String?) {
        self.code = code
        self.message = message
        self.field = field
    }

    static func missing(_ field: String) -> WorkerError {
        WorkerError(code: .missingField, message: "is required", field: field)
    }

    static func wrongType(_ field: String, expected: String, got: JSONValue) -> WorkerError {
        WorkerError(code: .wrongType, message: "expected \(expected), got \(got.typeName)", field: field)
    }
}
