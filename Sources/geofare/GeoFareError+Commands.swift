import GeoFareCore

/// What the `geofare` commands throw themselves (besides their modules' errors): options that do
/// not fit (`invalid_party_size`, `missing_field`, `invalid_value` for a store this build cannot
/// open), and CSV headers without the columns a command needs (`missing_column`).
extension GeoFareError {
    /// A `postgres://` store given to a build without the PostgreSQL trait (`invalid_value`, field `store`).
    static func postgresNotBuilt(_ redactedStore: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "this geofare was built without PostgreSQL support, so it cannot open \(redactedStore): build it with `swift build --traits PostgreSQL`", field: "store")
    }


    /// A split `method` that needs `--weights` without them (`missing_field`, field `weights`).
    static func weightsRequired(_ method: String) -> GeoFareError {
        GeoFareError(code: .missingField, message: "\(method) needs --weights", field: "weights")
    }

    /// A party CSV row without a value in column `name` (`missing_field`).
    static func columnRequired(_ name: String) -> GeoFareError {
        GeoFareError(code: .missingField, message: "is required", field: name)
    }

    /// `--<axis>-column` names a column the header lacks (`missing_column`, field `<axis>-column`).
    static func noSuchColumn(_ name: String, axis: String, header: [String]) -> GeoFareError {
        GeoFareError(code: .missingColumn, message: "the header has no column '\(name)' (columns: \(header.joined(separator: ",")))", field: "\(axis)-column")
    }

    /// No column of the header looks like the `axis` column (`missing_column`, field `header`).
    static func axisColumnNotFound(_ axis: String, header: [String]) -> GeoFareError {
        GeoFareError(code: .missingColumn, message: "cannot find the \(axis) column in the header (\(header.joined(separator: ","))); name it with --\(axis)-column", field: "header")
    }
}
