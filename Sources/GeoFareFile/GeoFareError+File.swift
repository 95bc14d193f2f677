import GeoFareCore

/// What the section-file container throws: its format's own codes (a graph file's `graph_*`, a
/// places file's `places_*`), each with the path as its field.
extension GeoFareError {
    /// A section file at `path` that fails with one of its format's codes (field: the path).
    static func sectionFile(_ code: ErrorCode, _ message: String, path: String) -> GeoFareError {
        GeoFareError(code: code, message: message, field: path)
    }

    /// A section file that cannot be written: `what` failed on `path`, for `reason` (strerror)
    /// (`graph_io`, field: the path).
    static func sectionFileWriteFailed(_ what: String, path: String, reason: String) -> GeoFareError {
        GeoFareError(code: .graphIo, message: "\(what) '\(path)': \(reason)", field: path)
    }
}
