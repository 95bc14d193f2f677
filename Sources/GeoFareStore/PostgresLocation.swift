import Foundation
import GeoFareCore

/// Where a PostgreSQL party store is: parsed from
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?host=/socket/dir]` (also `postgresql://`).
///
/// - `HOST` is a name or an IP address (IPv6 in brackets); `PORT` defaults to 5432.
/// - `?host=/dir` connects through the Unix socket `/dir/.s.PGSQL.PORT` instead (as libpq does).
/// - With no password in the URL, the `PGPASSWORD` environment variable is used when set.
///
/// ``redacted`` is the only form that goes into logs and errors: the password never does.
public struct PostgresLocation: Sendable, Equatable {
    public var user: String
    public var password: String?
    public var host: String
    /// The TCP port (also names the Unix socket file).
    public var port: Int
    public var database: String
    /// The directory of the Unix socket, when connecting through one.
    public var socketDirectory: String?

    /// Whether `text` names a PostgreSQL store (rather than a SQLite path).
    public static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a `postgres://` URL.
    /// - Throws: ``StoreError`` `invalid_value` on field `store`; the message quotes the URL
    ///   without its password.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(StoreError) {
        func bad(_ why: String) -> StoreError {
            StoreError(code: .invalidValue, message: "\(why) in '\(Self.redact(text))' (expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)", field: "store")
        }
        guard Self.isPostgresURL(text) else { throw bad("not a postgres:// URL") }
        guard let c = URLComponents(string: text) else { throw bad("not a URL") }
        guard let user = c.user, !user.isEmpty else { throw bad("no user") }
        let database = c.path.hasPrefix("/") ? String(c.path.dropFirst()) : c.path
        guard !database.isEmpty, !database.contains("/") else { throw bad("no database name") }
        var socketDirectory: String?
        for item in c.queryItems ?? [] {
            switch item.name {
            case "host":
                guard let v = item.value, v.hasPrefix("/") else { throw bad("host= takes a socket directory (an absolute path)") }
                socketDirectory = v
            case "sslmode" where item.value == "disable":
                break
            default:
                throw bad("unknown parameter '\(item.name)'")
            }
        }
        let host = c.host ?? ""
        guard !host.isEmpty || socketDirectory != nil else { throw bad("no host") }
        if let p = c.port, !(1...65_535).contains(p) { throw bad("port out of range") }
        self.user = user
        self.password = c.password ?? environment["PGPASSWORD"]
        self.host = host
        self.port = c.port ?? 5432
        self.database = database
        self.socketDirectory = socketDirectory
    }

    /// The Unix socket file, when connecting through one.
    public var socketPath: String? {
        socketDirectory.map { "\($0)/.s.PGSQL.\(port)" }
    }

    /// The URL with `***` for the password: the form for logs, errors and `version`.
    public var redacted: String {
        var s = "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
        if let socketDirectory { s += "?host=\(socketDirectory)" }
        return s
    }

    /// `text` with any password between `://USER:` and `@` replaced by `***` (for messages
    /// about a URL that could not be parsed).
    public static func redact(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        guard let at = rest.lastIndex(of: "@") else { return text }
        let userinfo = rest[..<at]
        guard let colon = userinfo.firstIndex(of: ":") else { return text }
        return String(text[..<scheme.upperBound]) + userinfo[..<colon] + ":***" + rest[at...]
    }
}
