import GeoFareCore

/// A fare request or tariff file GeoFare cannot price with.
///
/// Codes: `unknown_tariff`, `no_tariff_version` (the date is before any version of the tariff),
/// `tariff_version_uncertain` (the date falls in a month in which the tariff changed on a day no
/// source gives),
/// `no_tariff_for_location` (no tariff region contains the origin), `unknown_tariff_group` (the
/// origin is in a province whose modelled city groups do not include it), `invalid_tariff` (a malformed
/// tariff file: the field names the file and the JSON path), `invalid_party_size`,
/// `invalid_split`, `unknown_out_of_zone_rate` (a segment outside the business zone, priced with a
/// tariff version whose out-of-zone rate no source gives), plus the ``InvalidInput`` codes for the numbers of the trip.
public struct FareError: CodedError, Hashable {
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

    static func invalidTariff(_ file: String, _ path: String, _ message: String) -> FareError {
        FareError(code: .invalidTariff, message: message, field: "\(file): \(path)")
    }
}
