import GeoFareCore

/// What the data catalog throws: `data_file_missing` (neither the data directory nor the
/// embedded files have it), `data_file_unreadable`, `data_directory_unreadable`; the field is
/// the catalog path (`tariffs/seoul.json`, `zones/`).
extension GeoFareError {
    /// A folder of the data directory that cannot be listed (`data_directory_unreadable`).
    static func dataDirectoryUnreadable(_ path: String, _ reason: String, field: String) -> GeoFareError {
        GeoFareError(code: .dataDirectoryUnreadable, message: "cannot list \(path): \(reason)", field: field)
    }

    /// A data directory file that exists but cannot be read (`data_file_unreadable`).
    static func dataFileUnreadable(_ path: String, _ reason: String, field: String) -> GeoFareError {
        GeoFareError(code: .dataFileUnreadable, message: "cannot read \(path): \(reason)", field: field)
    }

    /// A catalog path with no file (`data_file_missing`, field: the path).
    static func dataFileMissing(_ path: String) -> GeoFareError {
        GeoFareError(code: .dataFileMissing, message: "no data file '\(path)' is embedded or in the data directory", field: path)
    }
}
