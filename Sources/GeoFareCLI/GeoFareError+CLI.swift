import GeoFareCore

/// What the commands' shared support throws: `internal_error` when an answer cannot be written.
extension GeoFareError {
    /// A value that cannot be encoded as JSON: `error` says why (`internal_error`).
    static func cannotEncodeJSON(_ error: any Error) -> GeoFareError {
        GeoFareError(code: .internalError, message: "cannot write as JSON: \(error)")
    }
}
