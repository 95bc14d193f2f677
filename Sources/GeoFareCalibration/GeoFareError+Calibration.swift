import GeoFareCore

/// What `calibrate` throws before it fits: an empty file, too few usable rides (a header
/// without a column is `CSVReader.columns(of:required:optional:map:)`'s `missing_column`).
extension GeoFareError {
    /// A rides file with no header row (`empty_input`).
    static func emptyRides() -> GeoFareError {
        GeoFareError(code: .emptyInput, message: "the rides file is empty: it needs a header row")
    }


    /// Fewer usable rides than a fit needs (`invalid_value`, field `rides`).
    public static func tooFewRides(_ n: Int, need: Int) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "\(n) usable rides; a calibration needs at least \(need) (the skipped rows and why are listed above)", field: "rides")
    }
}
