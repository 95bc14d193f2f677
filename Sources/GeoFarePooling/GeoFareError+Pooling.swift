import GeoFareCore

/// What pooling throws: `invalid_value` for a request or an option out of its range (field:
/// the option), `no_route` for a group whose stops have no leg between them, and for the pool
/// CSV `empty_input`, `missing_column` (field: the logical column), and per row
/// `invalid_number`, `missing_field`, `invalid_value` or a coordinate's code, each message
/// starting with the row's line.
extension GeoFareError {
    // MARK: Requests and options

    /// A request's seats outside 1...`capacity` (`invalid_value`, field `seats`).
    static func seatsOutOfRange(_ seats: Int, capacity: Int) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "seats must be 1...\(capacity) (the taxi's capacity), got \(seats)", field: "seats")
    }

    /// A match limit out of its range (`invalid_value`); `message` says which range.
    static func invalidValue(_ field: String, _ message: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: message, field: field)
    }

    /// A pool delay outside 0...7200 s (`invalid_value`, field `delay`).
    static func delayOutOfRange(_ seconds: Double) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "the delay must be 0...7200 s, got \(seconds)", field: "delay")
    }

    /// A pool's max riders outside 2...3 (`invalid_value`, field `max_riders`).
    static func maxRidersOutOfRange(_ n: Int) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "max riders must be 2 or 3, got \(n)", field: "max_riders")
    }

    /// A taxi capacity outside 1...20 (`invalid_value`, field `capacity`).
    static func capacityOutOfRange(_ n: Int) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "the capacity must be 1...20 persons, got \(n)", field: "capacity")
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
        GeoFareError(code: .invalidNumber, message: "line \(line): \(name) must be a number, got '\(text)'", field: name)
    }

    /// The row on `line` has an empty id (`missing_field`, field `id`).
    static func emptyID(line: Int) -> GeoFareError {
        GeoFareError(code: .missingField, message: "line \(line): the id is empty", field: "id")
    }

    /// The row on `line` has a `depart_at` that is not ISO 8601 with an offset (`invalid_value`).
    static func invalidDepartAt(line: Int, _ text: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "line \(line): depart_at must be an ISO 8601 time with an offset, got '\(text)'", field: "depart_at")
    }

    /// The row on `line` has an invalid `which` (origin, destination) coordinate: `error`'s code
    /// and message, at `field`.
    static func invalidCoordinate(line: Int, _ which: String, _ error: GeoFareError, field: String) -> GeoFareError {
        GeoFareError(code: error.code, message: "line \(line): \(which): \(error.message)", field: field)
    }

    /// The row on `line` has seats that are not a whole number ≥ 1 (`invalid_value`, field `seats`).
    static func invalidSeats(line: Int, _ text: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "line \(line): seats must be a whole number ≥ 1, got '\(text)'", field: "seats")
    }
}
