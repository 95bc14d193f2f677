import GeoFareCore

/// What `calibrate` throws before it fits: an empty file, a header without a column, too few
/// usable rides.
extension GeoFareError {
    /// A rides file with no header row (`empty_input`).
    static func emptyRides() -> GeoFareError {
        GeoFareError(code: .emptyInput, message: "the rides file is empty: it needs a header row")
    }

    /// The header lacks the column `name` for `logical`, renamed by `--map` or not
    /// (`missing_column`, field: `logical`); `names` are the header's columns.
    static func missingRideColumn(_ name: String, for logical: String, mapped: Bool, has names: [String]) -> GeoFareError {
        GeoFareError(code: .missingColumn, message: "the header has no column '\(name)'\(mapped ? " (--map \(logical)=\(name))" : ""); it has: \(names.joined(separator: ","))", field: logical)
    }

    /// Fewer usable rides than a fit needs (`invalid_value`, field `rides`).
    static func tooFewRides(_ n: Int, need: Int) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "\(n) usable rides; a calibration needs at least \(need) (the skipped rows and why are listed above)", field: "rides")
    }
}
