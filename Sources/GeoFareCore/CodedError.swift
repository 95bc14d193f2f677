/// An error with a stable machine-readable code, a human message and the field it concerns.
///
/// ``GeoFareError`` is the one error every GeoFare module throws; the few hot-path errors
/// that carry more (the JSON parser's byte offset) conform too, so the worker can send
/// `{"code", "message", "field"}` on the wire and the CLI can print the same text.
public protocol CodedError: Error, CustomStringConvertible, Sendable {
    /// The code; its `rawValue` (`snake_case`, e.g. `latitude_out_of_range`) is part of the
    /// wire protocol.
    var code: ErrorCode { get }
    /// A sentence that says what is wrong and with which value.
    var message: String { get }
    /// The field path the error concerns (`from.lat`, `points[3]`), or `nil` when none applies.
    var field: String? { get }
}

extension CodedError {
    public var description: String {
        if let field { return "\(field): \(message)" }
        return message
    }
}

/// The error of every GeoFare module: a code from ``ErrorCode``, a message, and the field it
/// concerns.
///
/// Each module adds its own constructors in an extension (`GeoFareError+OSM.swift`,
/// `+Fare`, `+Store`, ...), and documents there the codes it throws. The `field` names where
/// the value came from, so a caller can point at it; adapters that know more of the path (the
/// worker knows `fare.from`) re-home it with ``prefixed(_:)`` or ``at(_:)``.
public struct GeoFareError: CodedError, Hashable {
    public var code: ErrorCode
    public var message: String
    public var field: String?

    public init(code: ErrorCode, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// The same error with `prefix` in front of its field path (`from` + `lat` → `from.lat`).
    public func prefixed(_ prefix: String) -> GeoFareError {
        var copy = self
        if let field, !field.isEmpty {
            copy.field = field.hasPrefix("[") ? prefix + field : prefix + "." + field
        } else {
            copy.field = prefix
        }
        return copy
    }

    /// The same error with its field replaced by `field`.
    public func at(_ field: String?) -> GeoFareError {
        var copy = self
        copy.field = field
        return copy
    }

    /// A value that is NaN or infinite where a finite number is required.
    public static func notFinite(_ field: String, _ value: Double) -> GeoFareError {
        GeoFareError(code: .notFinite, message: "must be a finite number, got \(value)", field: field)
    }

    /// A value outside its allowed closed range.
    public static func outOfRange(_ field: String, _ value: Double, _ range: ClosedRange<Double>, code: ErrorCode = .outOfRange) -> GeoFareError {
        GeoFareError(
            code: code,
            message: "must be within \(format(range.lowerBound))...\(format(range.upperBound)), got \(format(value))",
            field: field
        )
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
