import GeoFareCore

/// The errors of the batch CSV job that stop it before any row (its rows' errors go in their
/// `error` column instead).
extension GeoFareError {
    /// The input holds no header at all: nothing but blank lines or a byte-order mark
    /// (`empty_input`).
    public static func emptyCSVInput() -> GeoFareError {
        GeoFareError(code: .emptyInput, message: "the input is empty: expected a header line and rows", field: "header")
    }

    /// The header lacks a column the job needs, or a `--map` names a column it does not have
    /// (`missing_column`).
    public static func unusableHeader(_ message: String) -> GeoFareError {
        GeoFareError(code: .missingColumn, message: message, field: "header")
    }
}
