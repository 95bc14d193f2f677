/// An error with a stable machine-readable code, a human message and the field it concerns.
///
/// Every GeoFare module throws errors that conform to this protocol, so the worker can send
/// `{"code", "message", "field"}` on the wire and the CLI can print the same text.
public protocol CodedError: Error, CustomStringConvertible, Sendable {
    /// A stable `snake_case` code, e.g. `latitude_out_of_range`; part of the wire protocol.
    var code: String { get }
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

/// An input value that GeoFare rejects: not finite, out of range, of the wrong shape.
///
/// The `field` names where the value came from, so a caller can point at it. Adapters that
/// know more of the path (the worker knows `fare.from`) re-home it with ``prefixed(_:)``.
public struct InvalidInput: CodedError, Hashable {
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

    /// The same error with `prefix` in front of its field path (`from` + `lat` → `from.lat`).
    public func prefixed(_ prefix: String) -> InvalidInput {
        var copy = self
        if let field, !field.isEmpty {
            copy.field = field.hasPrefix("[") ? prefix + field : prefix + "." + field
        } else {
            copy.field = prefix
        }
        return copy
    }

    /// A value that is NaN or infinite where a finite number is required.
    public static func notFinite(_ field: String, _ value: Double) -> InvalidInput {
        InvalidInput(code: .notFinite, message: "must be a finite number, got \(value)", field: field)
    }

    /// A value outside its allowed closed range.
    public static func outOfRange(_ field: String, _ value: Double, _ range: ClosedRange<Double>, code: ErrorCode = .outOfRange) -> InvalidInput {
        InvalidInput(
            code: code,
            message: "must be within \(format(range.lowerBound))...\(format(range.upperBound)), got \(format(value))",
            field: field
        )
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
