import Foundation
import GeoFareCore

/// Where a PostgreSQL party store is: parsed from
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?PARAM=VALUE&...]` (also `postgresql://`).
///
/// - `HOST` is a name or an IP address (IPv6 in brackets); `PORT` defaults to 5432.
/// - `host=/dir` connects through the Unix socket `/dir/.s.PGSQL.PORT` instead (as libpq does).
/// - `sslmode=disable|prefer|require|verify-ca|verify-full` (libpq's words; default `prefer`)
///   and `sslrootcert=PATH` (a PEM file of the certificate authorities to trust; default: the
///   system's): see ``TLSMode``. TLS does not apply to a Unix socket: there only `disable` and
///   `prefer` are accepted.
/// - With no password in the URL, the `PGPASSWORD` environment variable is used when set.
///
/// ``redacted`` is the only form that goes into logs and errors: the password never does.
public struct PostgresLocation: Sendable, Equatable {
    /// How the connection uses TLS, as libpq's `sslmode`.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP: passwords and parties cross the network in clear.
        case disable
        /// TLS when the server offers it, plain TCP when it does not; the certificate is not
        /// checked (protects against listeners, not against an impostor).
        case prefer
        /// TLS or no connection; the certificate is not checked unless `sslrootcert` is given,
        /// which makes it `verify-ca` (as libpq does).
        case require
        /// TLS, and the server's certificate must chain to a trusted authority.
        case verifyCA = "verify-ca"
        /// As `verify-ca`, and the certificate must name the host of the URL (its DNS name or
        /// IP address).
        case verifyFull = "verify-full"
    }
    public var user: String
    public var password: String?
    public var host: String
    /// The TCP port (also names the Unix socket file).
    public var port: Int
    public var database: String
    /// The directory of the Unix socket, when connecting through one.
    public var socketDirectory: String?
    /// `sslmode` (default `prefer`).
    public var tlsMode: TLSMode
    /// `sslrootcert`: a PEM file of the authorities to trust, instead of the system's.
    public var tlsRootCertificates: String?
    /// `connect_timeout`, in seconds, when the URL gives it.
    public var connectTimeoutSeconds: Int64?
    /// `statement_timeout`, in seconds, when the URL gives it.
    public var statementTimeoutSeconds: Int64?

    /// Whether `text` names a PostgreSQL store (rather than a SQLite path).
    public static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a `postgres://` URL.
    /// - Throws: ``GeoFareError`` `invalid_value` on field `store`; the message quotes the URL
    ///   without its password.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(GeoFareError) {
        func bad(_ why: String) -> GeoFareError {
            .invalidPostgresURL(why, redacted: Self.redact(text))
        }
        guard Self.isPostgresURL(text) else { throw bad("not a postgres:// URL") }
        guard let c = URLComponents(string: text) else { throw bad("not a URL") }
        guard let user = c.user, !user.isEmpty else { throw bad("no user") }
        let database = c.path.hasPrefix("/") ? String(c.path.dropFirst()) : c.path
        guard !database.isEmpty, !database.contains("/") else { throw bad("no database name") }
        var socketDirectory: String?
        var tlsMode = TLSMode.prefer
        var explicitMode = false
        var rootCertificates: String?
        var connectTimeout: Int64?
        var statementTimeout: Int64?
        func seconds(_ item: URLQueryItem) throws(GeoFareError) -> Int64 {
            guard let v = item.value, let n = Int64(v), (1...86_400).contains(n) else {
                throw bad("\(item.name)='\(item.value ?? "")' is not a whole number of seconds from 1 to 86400")
            }
            return n
        }
        for item in c.queryItems ?? [] {
            switch item.name {
            case "host":
                guard let v = item.value, v.hasPrefix("/") else { throw bad("host= takes a socket directory (an absolute path)") }
                socketDirectory = v
            case "sslmode":
                guard let v = item.value, let mode = TLSMode(rawValue: v) else {
                    throw bad("sslmode='\(item.value ?? "")' is not one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tlsMode = mode
                explicitMode = true
            case "sslrootcert":
                guard let v = item.value, !v.isEmpty else { throw bad("sslrootcert= takes the path of a PEM file") }
                rootCertificates = v
            case "connect_timeout":
                connectTimeout = try seconds(item)
            case "statement_timeout":
                statementTimeout = try seconds(item)
            default:
                throw bad("unknown parameter '\(item.name)'")
            }
        }
        let host = c.host ?? ""
        guard !host.isEmpty || socketDirectory != nil else { throw bad("no host") }
        if socketDirectory != nil && (tlsMode != .prefer && tlsMode != .disable || rootCertificates != nil) {
            throw bad("sslmode=\(tlsMode.rawValue) and sslrootcert= need a TCP host: TLS does not apply to a Unix socket")
        }
        if socketDirectory != nil { tlsMode = .disable }
        if tlsMode == .require && rootCertificates != nil { tlsMode = .verifyCA }
        if rootCertificates != nil && tlsMode != .verifyCA && tlsMode != .verifyFull {
            throw bad("sslrootcert= is used only with sslmode=require, verify-ca or verify-full (sslmode=\(tlsMode.rawValue)\(explicitMode ? "" : ", the default"))")
        }
        if let p = c.port, !(1...65_535).contains(p) { throw bad("port out of range") }
        self.user = user
        self.password = c.password ?? environment["PGPASSWORD"]
        self.host = host
        self.port = c.port ?? 5432
        self.database = database
        self.socketDirectory = socketDirectory
        self.tlsMode = tlsMode
        self.tlsRootCertificates = rootCertificates
        self.connectTimeoutSeconds = connectTimeout
        self.statementTimeoutSeconds = statementTimeout
    }

    /// The Unix socket file, when connecting through one.
    public var socketPath: String? {
        socketDirectory.map { "\($0)/.s.PGSQL.\(port)" }
    }

    /// The URL with `***` for the password: the form for logs, errors and `version`.
    public var redacted: String {
        var s = "postgres://\(user)\(password == nil ? "" : ":***")@\(host):\(port)/\(database)"
        var parameters: [String] = []
        if let socketDirectory { parameters.append("host=\(socketDirectory)") }
        if socketDirectory == nil && tlsMode != .prefer { parameters.append("sslmode=\(tlsMode.rawValue)") }
        if let tlsRootCertificates { parameters.append("sslrootcert=\(tlsRootCertificates)") }
        if let connectTimeoutSeconds { parameters.append("connect_timeout=\(connectTimeoutSeconds)") }
        if let statementTimeoutSeconds { parameters.append("statement_timeout=\(statementTimeoutSeconds)") }
        if !parameters.isEmpty { s += "?" + parameters.joined(separator: "&") }
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
