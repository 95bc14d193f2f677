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
        GeoFareError(code: .csvUnterminatedQuote, message: "a quoted field opened on line \(line) is never closed",
                     field: "line \(line)", line: line)
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
}
