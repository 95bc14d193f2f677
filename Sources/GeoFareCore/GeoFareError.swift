/// The one error type of GeoFare: a code from ``ErrorCode``, a message, the field it concerns,
/// and where a byte parser knows it, the byte offset or line of the input it stopped at.
///
/// The worker sends `{"code", "message", "field"}` on the wire, the CLI prints
/// `geofare: <field>: <message> [<code>]`, `fare-csv` writes the code in its `error` column.
///
/// Each module adds its own constructors in an extension (`GeoFareError+OSM.swift`,
/// `+Fare`, `+Store`, ...), and documents there the codes it throws. The `field` names where
/// the value came from, so a caller can point at it; adapters that know more of the path (the
/// worker knows `fare.from`) re-home it with ``prefixed(_:)`` or ``at(_:)``.
public struct GeoFareError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The code; its `rawValue` (`snake_case`, e.g. `latitude_out_of_range`) is part of the
    /// wire protocol.
    public var code: ErrorCode
    /// A sentence that says what is wrong and with which value.
    public var message: String
    /// The field path the error concerns (`from.lat`, `points[3]`), or `nil` when none applies.
    public var field: String?
    /// The 0-based byte offset in the input where a byte parser stopped (the JSON parser), or `nil`.
    public var offset: Int?
    /// The 1-based line of the input the error concerns (a CSV record), or `nil`.
    public var line: Int?

    public init(code: ErrorCode, message: String, field: String? = nil, offset: Int? = nil, line: Int? = nil) {
        (self.code, self.message, self.field) = (code, message, field)
        (self.offset, self.line) = (offset, line)
    }

    /// `line N: field: message`: the line when the error has one (a row of a CSV or JSON-lines
    /// input), then the field and the message, or the message alone. Every row error of every
    /// command says where it is this one way.
    public var description: String {
        let text = field.map { "\($0): \(message)" } ?? message
        guard let line else { return text }
        return "line \(line): " + text
    }

    /// The same error on `line` (1-based) of its input: its ``description`` then begins `line N: `.
    public func onLine(_ line: Int) -> GeoFareError {
        var copy = self
        copy.line = line
        return copy
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
