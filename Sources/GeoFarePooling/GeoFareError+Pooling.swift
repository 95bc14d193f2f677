import GeoFareCore

/// What pooling throws: `invalid_value` for a request or an option out of its range (field:
/// the option), `no_route` for a group whose stops have no leg between them, and for the pool
/// CSV `empty_input`, `missing_column` (field: the logical column), and per row
/// `invalid_number`, `missing_field`, `invalid_value` or a coordinate's code, each carrying
/// its row's line (``GeoFareError/line``: `line N: field: message` in its description). Options
/// out of range are Core's `outOfRange` with `invalid_value`.
extension GeoFareError {
    // MARK: Requests and options

    /// A match limit out of its range (`invalid_value`); `message` says which range.
    static func invalidValue(_ field: String, _ message: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: message, field: field)
    }

    /// A maximum gap that is negative or not finite (`invalid_value`, field `max_gap`).
    static func invalidMaxGap() -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "the maximum gap must be a non-negative number of seconds", field: "max_gap")
    }

    /// No leg between two stops (points `a`, `b`) of a group (`no_route`).
    static func noLeg(from a: Int, to b: Int) -> GeoFareError {
        GeoFareError(code: .noRoute, message: "no leg from stop \(a) to stop \(b) of the group")
    }

    // MARK: The pool CSV

    /// A pool CSV with no header row (`empty_input`).
    static func emptyPoolInput() -> GeoFareError {
        GeoFareError(code: .emptyInput, message: "the input is empty: it needs a header row")
    }

    /// Column `name` of the row on `line` is not a finite number (`invalid_number`, field: `name`).
    static func notANumber(line: Int, _ name: String, got text: String) -> GeoFareError {
        GeoFareError(code: .invalidNumber, message: "must be a number, got '\(text)'", field: name, line: line)
    }

    /// The row on `line` has an empty id (`missing_field`, field `id`).
    static func emptyID(line: Int) -> GeoFareError {
        GeoFareError(code: .missingField, message: "the id is empty", field: "id", line: line)
    }

    /// The row on `line` has a `depart_at` that is not ISO 8601 with an offset (`invalid_value`).
    static func invalidDepartAt(line: Int, _ text: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "must be an ISO 8601 time with an offset, got '\(text)'", field: "depart_at", line: line)
    }

    /// The row on `line` has an invalid `which` (origin, destination) coordinate: `error`'s code
    /// and message, at `field`.
    static func invalidCoordinate(line: Int, _ which: String, _ error: GeoFareError, field: String) -> GeoFareError {
        GeoFareError(code: error.code, message: "\(which): \(error.message)", field: field, line: line)
    }

    /// The row on `line` has seats that are not a whole number ≥ 1 (`invalid_value`, field `seats`).
    static func invalidSeats(line: Int, _ text: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "must be a whole number ≥ 1, got '\(text)'", field: "seats", line: line)
    }
}
