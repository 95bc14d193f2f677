import GeoFareCore
import GRDB

/// Storage failures: the database cannot be opened, read or written. `storage_error` (with
/// SQLite's result code and message, e.g. `SQLITE_BUSY` when another process holds the write
/// lock past the busy timeout, or PostgreSQL's SQLSTATE and message), `storage_corrupt`;
/// `invalid_value` (field `store`) for a bad store URL.
extension GeoFareError {
    /// `error` (GRDB's, or any) while doing `what`.
    init(_ error: any Error, doing what: String) {
        if let db = error as? DatabaseError {
            let corrupt = db.resultCode == .SQLITE_CORRUPT || db.resultCode == .SQLITE_NOTADB
            self.init(code: corrupt ? .storageCorrupt : .storageError,
                      message: "\(what): SQLite error \(db.resultCode.rawValue): \(db.message ?? "\(db)")")
        } else if let e = error as? GeoFareError {
            self = e
        } else {
            self.init(code: .storageError, message: "\(what): \(error)")
        }
    }

    /// The database at `path` stays in journal mode `mode` instead of WAL (`storage_error`).
    static func walUnavailable(_ path: String, mode: String?) -> GeoFareError {
        GeoFareError(code: .storageError, message: "cannot switch \(path) to WAL (journal_mode \(mode ?? "?"))")
    }
}
