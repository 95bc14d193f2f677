import GeoFareCore

/// The errors of the byte parsers (JSON, CSV, byte sources).
extension GeoFareError {
    /// A JSON text that breaks the grammar (`invalid_json`) or is not UTF-8 (`invalid_utf8`),
    /// at byte `offset` (0-based, in the text); `field` is the JSON path of a string with invalid
    /// UTF-8 (`q`, `via[2].name`).
    public static func invalidJSON(at offset: Int, _ reason: String, code: ErrorCode = .invalidJson, field: String? = nil) -> GeoFareError {
        GeoFareError(code: code, message: "\(reason) at byte \(offset)", field: field, offset: offset)
    }

    /// A quoted CSV field opened on `line` (1-based) and never closed (`csv_unterminated_quote`).
    public static func unterminatedQuote(line: Int) -> GeoFareError {
        GeoFareError(code: .csvUnterminatedQuote, message: "a quoted field opens here and is never closed", line: line)
    }

    /// A header without the column `name` for `logical`, renamed by `--map` or not
    /// (`missing_column`, field: `logical`); `names` are the header's columns.
    public static func missingColumn(_ name: String, for logical: String, mapped: Bool, has names: [String]) -> GeoFareError {
        GeoFareError(code: .missingColumn, message: "the header has no column '\(name)'\(mapped ? " (--map \(logical)=\(name))" : ""); it has: \(names.joined(separator: ","))", field: logical)
    }

    /// A file that cannot be opened for reading (`file_unreadable`, field `input`).
    public static func cannotOpenInput(_ path: String) -> GeoFareError {
        GeoFareError(code: .fileUnreadable, message: "cannot open '\(path)' for reading", field: "input")
    }

    /// A text field that is not a number (`invalid_number`).
    public static func notANumber(_ text: String, field: String) -> GeoFareError {
        GeoFareError(code: .invalidNumber, message: "not a number: '\(text)'", field: field)
    }

    /// A text field that is not an integer (`invalid_number`).
    public static func notAnInteger(_ text: String, field: String) -> GeoFareError {
        GeoFareError(code: .invalidNumber, message: "not an integer: '\(text)'", field: field)
    }

    /// A text field that is not an ISO 8601 time with an offset (`invalid_time`).
    public static func invalidISOTime(_ text: String, field: String) -> GeoFareError {
        GeoFareError(code: .invalidTime, message: "expected ISO 8601 with an offset, got '\(text)'", field: field)
    }

    // MARK: Fields of JSON requests (RequestFields)

    public static func missing(_ field: String) -> GeoFareError {
        GeoFareError(code: .missingField, message: "is required", field: field)
    }

    public static func wrongType(_ field: String, expected: String, got: JSONValue) -> GeoFareError {
        GeoFareError(code: .wrongType, message: "expected \(expected), got \(got.typeName)", field: field)
    }

    /// A number field that is NaN or infinite (`not_finite`).
    public static func notFinite(_ field: String) -> GeoFareError {
        GeoFareError(code: .notFinite, message: "must be a finite number", field: field)
    }

    /// An integer field holding a fraction or too large a number (`invalid_value`).
    public static func notAnInteger(_ field: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "must be an integer", field: field)
    }

    /// An integer field outside `range` (`out_of_range`).
    public static func outOfRange(_ field: String, _ value: Int64, _ range: ClosedRange<Int64>) -> GeoFareError {
        GeoFareError(code: .outOfRange, message: "must be within \(range.lowerBound)...\(range.upperBound), got \(value)", field: field)
    }

    /// An array field with more than `max` items (`too_many_items`).
    public static func tooManyItems(_ field: String, max: Int, got count: Int) -> GeoFareError {
        GeoFareError(code: .tooManyItems, message: "at most \(max) items, got \(count)", field: field)
    }

    /// A string field that is none of its `choices` (`invalid_value`): "`name` is `choices`, got
    /// '`value`'", at `field` (default: `name`).
    public static func notOneOf(_ name: String, _ choices: String, got value: String, field: String? = nil) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "\(name) is \(choices), got '\(value)'", field: field ?? name)
    }

    /// A time that is not ISO 8601 with an offset (`invalid_time`).
    public static func invalidTime(_ field: String, _ value: String) -> GeoFareError {
        GeoFareError(code: .invalidTime, message: "expected ISO 8601 with an offset, e.g. 2024-05-15T22:30:00+09:00, got '\(value)'", field: field)
    }
}
