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

    /// A row's column that is present but empty where a value is needed (`missing_field`).
    static func emptyColumn(_ field: String) -> GeoFareError {
        GeoFareError(code: .missingField, message: "is empty", field: field)
    }

    /// A row's split that is none of the methods (`invalid_value`, field `split`).
    static func unknownSplitMethod(_ name: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "split is equal, proportional or shapley, got '\(name)'", field: "split")
    }

    /// A row with neither both points nor distance and duration (`missing_field`, field `origin_lat`).
    static func tripColumnsMissing() -> GeoFareError {
        GeoFareError(code: .missingField, message: "needs origin and destination coordinates or distance_m and duration_s", field: "origin_lat")
    }
}
