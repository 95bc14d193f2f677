import GeoFareCore
import GRDB

/// A storage failure: the database cannot be opened, read or written.
///
/// Codes: `storage_error` (with SQLite's result code and message, e.g. `SQLITE_BUSY` when
/// another process holds the write lock past the busy timeout), `storage_corrupt`.
public struct StoreError: CodedError, Hashable {
    public var code: String
    public var message: String
    public var field: String?
    /// SQLite's primary result code, when the failure came from SQLite.
    public var sqliteCode: Int32?

    /// An error with one of ``ErrorCode``'s codes.
    public init(code: ErrorCode, message: String, field: String? = nil, sqliteCode: Int32? = nil) {
        self.init(code: code.rawValue, message: message, field: field, sqliteCode: sqliteCode)
    }

    public init(code: String, message: String, field: String? = nil, sqliteCode: Int32? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.sqliteCode = sqliteCode
    }

    init(_ error: any Error, doing what: String) {
        if let db = error as? DatabaseError {
            let corrupt = db.resultCode == .SQLITE_CORRUPT || db.resultCode == .SQLITE_NOTADB
            self.init(code: corrupt ? ErrorCode.storageCorrupt.rawValue : ErrorCode.storageError.rawValue,
                      message: "\(what): SQLite error \(db.resultCode.rawValue): \(db.message ?? "\(db)")",
                      sqliteCode: db.resultCode.primaryResultCode.rawValue)
        } else {
            self.init(code: .storageError, message: "\(what): \(error)")
        }
    }
}
