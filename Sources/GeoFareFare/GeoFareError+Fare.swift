import GeoFareCore

/// What the fare modules throw for a request or tariff file they cannot price with:
/// `unknown_tariff`, `no_tariff_version` (the date is before any version of the tariff),
/// `tariff_version_uncertain` (the date falls in a month in which the tariff changed on a day no
/// source gives), `no_tariff_for_location` (no tariff region contains the origin),
/// `unknown_tariff_group` (the origin is in a province whose modelled city groups do not
/// include it), `invalid_tariff` (a malformed tariff file: the field names the file and the
/// JSON path), `invalid_party_size`, `invalid_split`, `unknown_out_of_zone_rate` (a segment
/// outside the business zone, priced with a tariff version whose out-of-zone rate no source
/// gives), plus the input codes for the numbers of the trip.
extension GeoFareError {
    static func invalidTariff(_ file: String, _ path: String, _ message: String) -> GeoFareError {
        GeoFareError(code: .invalidTariff, message: message, field: "\(file): \(path)")
    }
}
