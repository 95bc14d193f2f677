import GeoFareCore

/// A route request GeoFare cannot estimate: bad coordinates (`latitude_out_of_range`,
/// `not_finite` with the field, e.g. `via[2].lat`), `too_many_stops`, or a broken calibration
/// file (`invalid_route_data`).
public struct RouteError: CodedError, Hashable {
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

    public init(_ invalid: InvalidInput) {
        self.init(code: invalid.code, message: invalid.message, field: invalid.field)
    }
}
