import GeoFareCore

/// Coordinate-system failures: `unknown_crs` (a name PROJ and the alias table do not know, or
/// an object that is not a 2D coordinate reference system), `transform_unavailable` (PROJ knows
/// both systems but finds no way between them), `transform_failed` (this point cannot be
/// converted, e.g. far outside the projection's area), and `not_finite`,
/// `latitude_out_of_range`, `longitude_out_of_range` for the input values.
extension GeoFareError {
    static func unknownCRS(_ name: String, detail: String?) -> GeoFareError {
        GeoFareError(code: .unknownCrs, message: "unknown coordinate reference system '\(name)'" + (detail.map { ": \($0)" } ?? ""), field: "crs")
    }

    /// PROJ cannot put the transformation's axes in lon,lat / easting,northing order
    /// (`transform_unavailable`, field `to`).
    static func axisOrderUnavailable(_ source: String, _ target: String) -> GeoFareError {
        GeoFareError(code: .transformUnavailable, message: "PROJ cannot normalise the axis order of \(source) → \(target)", field: "to")
    }
}
