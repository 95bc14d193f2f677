import GeoFareCore

/// What the PostgreSQL party store throws: `storage_error` (the server refused a statement, the
/// connection failed or is backing off, a transaction was rolled back, the schema is newer than
/// this geofare), `invalid_value` (field `store` for TLS settings that cannot be used; `id` or
/// `attributes` for a NUL character PostgreSQL text cannot hold). Messages name the store only by
/// its redacted location.
extension GeoFareError {
    /// `what` failed: `detail` says how (`storage_error`).
    static func storageError(_ what: String, _ detail: String) -> GeoFareError {
        GeoFareError(code: .storageError, message: "\(what): \(detail)")
    }

    /// The server refused a statement with SQLSTATE `sqlState` (`storage_error`).
    static func serverError(_ what: String, sqlState: String, message: String) -> GeoFareError {
        GeoFareError(code: .storageError, message: "\(what): PostgreSQL error \(sqlState): \(message)")
    }

    /// The server offers no TLS where the sslmode requires it (`storage_error`).
    static func tlsUnsupported(_ what: String) -> GeoFareError {
        GeoFareError(code: .storageError, message: "\(what): the server does not offer TLS, which this sslmode requires (sslmode=prefer would fall back to plain TCP)")
    }

    /// A transaction that ended with `command` instead of `COMMIT` (`storage_error`).
    static func rolledBack(_ what: String, command: String) -> GeoFareError {
        GeoFareError(code: .storageError, message: "\(what): the transaction was rolled back (\(command))")
    }

    /// The server could not be reached and the next attempt is `milliseconds` away (`storage_error`).
    static func unreachable(_ location: String, retryInMilliseconds milliseconds: Int) -> GeoFareError {
        GeoFareError(code: .storageError, message: "PostgreSQL at \(location) is unreachable; next connection attempt in \(milliseconds) ms")
    }

    /// The database holds migrations this geofare does not know (`storage_error`).
    static func migratedByNewerVersion(_ unknown: [String]) -> GeoFareError {
        GeoFareError(code: .storageError, message: "the database was migrated by a newer geofare (\(unknown.map { "'\($0)'" }.joined(separator: ", ")) unknown to this one): upgrade geofare before it opens this database")
    }

    /// Party `i` (0-based) of `count` holds a NUL in `field` (`invalid_value`, field: `field`).
    static func nulCharacter(party i: Int, of count: Int, field: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "party \(i + 1) of \(count) has a NUL character in its \(field); PostgreSQL text cannot hold it", field: field)
    }

    /// An `sslrootcert` that cannot be read as PEM certificates (`invalid_value`, field `store`).
    static func unreadableRootCertificate(_ path: String, of location: String, _ error: any Error) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "sslrootcert '\(path)' of \(location) is not a readable PEM file of certificates (\(error))", field: "store")
    }

    /// A TLS context that cannot be made (`invalid_value`, field `store`).
    static func tlsSetupFailed(_ location: String, _ error: any Error) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "cannot set up TLS for \(location): \(error)", field: "store")
    }
}
