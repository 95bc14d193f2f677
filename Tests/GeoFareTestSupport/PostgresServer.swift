import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real PostgreSQL server for one test: `initdb` into a temporary directory, `pg_ctl start`
/// on a free loopback port (and a Unix socket in the same directory), stopped by ``stop()``.
///
/// - Finds `initdb` under `/usr/lib/postgresql/*/bin` (Debian's `postgresql` package; not on
///   PATH), the newest version first; `.ci/install-deps` installs it when missing.
/// - PostgreSQL refuses to run as root: as root, every server command runs as the `postgres`
///   user (`runuser -u postgres --`), which owns the directory.
/// - The role `geofare` logs in over TCP with ``password`` (scram-sha-256), so the tests go
///   through the same authentication as a worker on another host.
public final class PostgresServer: @unchecked Sendable {
    /// The temporary directory (data in `data/`, the socket and the log beside it).
    public let directory: String
    public let port: Int
    public let password: String
    public let user = "geofare"
    public let database = "postgres"
    let bin: String
    /// With TLS (``init(tls:)``): the PEM file of the authority that signed the server's
    /// certificate (for `sslrootcert=`), and of another authority that signed nothing here.
    public let certificateAuthority: String?
    public let otherCertificateAuthority: String?
    let tls: Bool

    /// The stores the `geofare` binary under test was built with: `sqlite`, and `postgres`
    /// in a build with the PostgreSQL trait (`swift build --traits PostgreSQL`).
    public static var storesBuilt: [String] {
        #if PostgreSQL
        ["sqlite", "postgres"]
        #else
        ["sqlite"]
        #endif
    }

    /// `postgres://geofare:PASSWORD@127.0.0.1:PORT/postgres?statement_timeout=S`: the store's
    /// 30-s wait for an answer, scaled like the tests' time limits (``TestTime``), so a sanitized
    /// build reloading 25,000 parties in one statement is not cut off by it.
    public var url: String { url("statement_timeout=\(30 * TestTime.scale)") }
    /// The server's URL through `host` with `parameters` (`NAME=VALUE&...`, none when empty) as
    /// its query.
    public func url(host: String = "127.0.0.1", _ parameters: String) -> String {
        "postgres://\(user):\(password)@\(host):\(port)/\(database)" + (parameters.isEmpty ? "" : "?\(parameters)")
    }
    /// The same server with a wrong password.
    public var urlWithWrongPassword: String { "postgres://\(user):not-\(password)@127.0.0.1:\(port)/\(database)" }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The directory holding `initdb`, `pg_ctl`, `psql`, or `nil` when PostgreSQL is not installed.
    public static var binDirectory: String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for v in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let dir = "\(root)/\(v)/bin"
            if FileManager.default.isExecutableFile(atPath: "\(dir)/initdb") { return dir }
        }
        return nil
    }

    /// Creates and starts a new server.
    /// - Parameter tls: serve TLS only on TCP, with a certificate for `localhost` and
    ///   `127.0.0.1` signed by a certificate authority made for this server (``certificateAuthority``;
    ///   `openssl` makes them), listening on 127.0.0.1 and 127.0.0.2 (a loopback address the
    ///   certificate does not name); a connection without TLS is rejected by `pg_hba.conf`.
    /// - Throws: ``Failure`` with the tool's output when PostgreSQL is missing or will not start.
    public init(tls: Bool = false) throws {
        self.tls = tls
        guard let bin = Self.binDirectory else {
            throw Failure(description: "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run .ci/install-deps")
        }
        self.bin = bin
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-pg-\(UUID().uuidString.prefix(8))").path
        password = "pw-\(UUID().uuidString.prefix(12))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try "\(password)\n".write(toFile: "\(directory)/pwfile", atomically: true, encoding: .utf8)
        if getuid() == 0 {
            _ = try Self.run("/bin/chown", ["-R", "postgres:postgres", directory])
        }
        _ = try Self.checked("\(bin)/initdb", ["-D", "\(directory)/data", "-U", user, "--pwfile=\(directory)/pwfile", "--auth-local=trust",
                                      "--auth-host=scram-sha-256", "--no-sync", "--no-instructions", "-E", "UTF8", "--locale=C"])
        (certificateAuthority, otherCertificateAuthority) = tls ? try Self.makeCertificates(in: directory) : (nil, nil)
        // A free port can be taken between the probe and the start by another test: try again.
        var lastError: (any Error)?
        var chosen = 0
        for _ in 0..<5 {
            chosen = Self.freePort()
            do {
                try Self.startServer(bin: bin, directory: directory, port: chosen, asPostgres: getuid() == 0, tls: tls)
                lastError = nil
                break
            } catch { lastError = error }
        }
        port = chosen
        if let lastError { throw lastError }
    }

    deinit { try? stop() }

    /// A certificate authority, the server's key and certificate (signed by it, naming
    /// `localhost` and 127.0.0.1), another authority, and a `pg_hba.conf` that takes TCP
    /// connections over TLS only.
    static func makeCertificates(in directory: String) throws -> (authority: String, other: String) {
        let dir = "\(directory)/tls"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func openssl(_ args: [String]) throws {
            let r = try run("/usr/bin/openssl", args)
            guard r.status == 0 else { throw Failure(description: "openssl \(args.prefix(2).joined(separator: " ")) failed (\(r.status)): \(r.output)") }
        }
        for ca in ["ca", "other-ca"] {
            try openssl(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(dir)/\(ca).key", "-out", "\(dir)/\(ca).crt",
                         "-days", "2", "-subj", "/CN=GeoFare test \(ca)"])
        }
        try "subjectAltName=DNS:localhost,IP:127.0.0.1\n".write(toFile: "\(dir)/san.cnf", atomically: true, encoding: .utf8)
        try openssl(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(dir)/server.key", "-out", "\(dir)/server.csr", "-subj", "/CN=localhost"])
        try openssl(["x509", "-req", "-in", "\(dir)/server.csr", "-CA", "\(dir)/ca.crt", "-CAkey", "\(dir)/ca.key", "-CAcreateserial",
                     "-out", "\(dir)/server.crt", "-days", "2", "-extfile", "\(dir)/san.cnf"])
        try """
            local all all trust
            hostssl all all 127.0.0.0/8 scram-sha-256
            hostnossl all all 127.0.0.0/8 reject

            """.write(toFile: "\(directory)/data/pg_hba.conf", atomically: true, encoding: .utf8)
        if getuid() == 0 {
            _ = try run("/bin/chown", ["-R", "postgres:postgres", dir, "\(directory)/data/pg_hba.conf"])
        }
        _ = try run("/bin/chmod", ["600", "\(dir)/server.key"])
        return ("\(dir)/ca.crt", "\(dir)/other-ca.crt")
    }

    static func startServer(bin: String, directory: String, port: Int, asPostgres: Bool, tls: Bool) throws {
        var options = "-p \(port) -k \(directory) -c max_connections=40 -c shared_buffers=16MB"
        options += tls
            ? " -c listen_addresses=127.0.0.1,127.0.0.2 -c ssl=on -c ssl_cert_file=\(directory)/tls/server.crt -c ssl_key_file=\(directory)/tls/server.key"
            : " -c listen_addresses=127.0.0.1"
        let args = ["-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-t", "30", "-o", options, "start"]
        let r = try run(asPostgres ? "/usr/sbin/runuser" : "\(bin)/pg_ctl", asPostgres ? ["-u", "postgres", "--", "\(bin)/pg_ctl"] + args : args)
        if r.status != 0 {
            let log = (try? String(contentsOfFile: "\(directory)/log", encoding: .utf8)) ?? ""
            throw Failure(description: "pg_ctl start failed (\(r.status)): \(r.output)\n\(log.suffix(2000))")
        }
    }

    /// Stops the server: `fast` (clean) or `immediate` (as a crash: no shutdown checkpoint,
    /// recovery from the WAL at the next start).
    public func stop(mode: String = "fast") throws {
        guard FileManager.default.fileExists(atPath: "\(directory)/data/postmaster.pid") else { return }
        try command("\(bin)/pg_ctl", ["-D", "\(directory)/data", "-m", mode, "-w", "stop"])
    }

    /// Freezes the server (SIGSTOP to the postmaster and every backend) or thaws it
    /// (SIGCONT): a server, or a network, that stops answering without closing a connection.
    public func setPaused(_ paused: Bool) throws {
        let pidFile = try String(contentsOfFile: "\(directory)/data/postmaster.pid", encoding: .utf8)
        guard let first = pidFile.split(separator: "\n").first, let postmaster = Int32(first) else {
            throw Failure(description: "no postmaster pid in \(directory)/data/postmaster.pid")
        }
        let children = try Self.run("/usr/bin/pgrep", ["-P", String(postmaster)]).output.split(separator: "\n").compactMap { Int32($0) }
        for pid in [postmaster] + children where kill(pid, paused ? SIGSTOP : SIGCONT) != 0 {
            throw Failure(description: "cannot signal PostgreSQL process \(pid): errno \(errno)")
        }
    }

    /// Starts the server again on the same port and data.
    public func start() throws {
        try Self.startServer(bin: bin, directory: directory, port: port, asPostgres: getuid() == 0, tls: tls)
    }

    /// Stops the server and deletes its directory.
    public func destroy() {
        try? stop(mode: "immediate")
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs SQL as the `geofare` superuser through `psql` over the Unix socket; returns its
    /// unaligned output.
    public func psql(_ sql: String) throws -> String {
        let r = try commandOutput("\(bin)/psql", ["-h", directory, "-p", "\(port)", "-U", user, "-d", database, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
        return r.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    func command(_ tool: String, _ args: [String]) throws -> String { try commandOutput(tool, args) }

    func commandOutput(_ tool: String, _ args: [String]) throws -> String { try Self.checked(tool, args) }

    /// Runs a PostgreSQL tool (as `postgres` when root); its output, or ``Failure``.
    static func checked(_ tool: String, _ args: [String]) throws -> String {
        let asPostgres = getuid() == 0
        let r = try run(asPostgres ? "/usr/sbin/runuser" : tool, asPostgres ? ["-u", "postgres", "--", tool] + args : args)
        guard r.status == 0 else { throw Failure(description: "\(tool) \(args.first ?? "") failed (\(r.status)): \(r.output)") }
        return r.output
    }

    /// Runs a program, returning its exit status and stdout+stderr (through a file).
    ///
    /// Not Foundation's `Process`: on Linux it learns that a child ended when a socket the child
    /// inherited closes, and the server that `pg_ctl start` leaves running inherits it too, so
    /// `waitUntilExit()` would never return. `posix_spawn` with every descriptor above 2 closed
    /// and `waitpid` instead.
    /// A tool still running after `timeout` seconds is killed (SIGKILL: status 137).
    static func run(_ path: String, _ args: [String], timeout: Double = 180) throws -> (status: Int32, output: String) {
        let outPath = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-pg-out-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Close every other descriptor in the child (glibc ignores closing one that is not open).
        let open = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
        for fd in 3...max(3, (open.max() ?? 3) + 16) { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + args).map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard rc == 0 else { throw Failure(description: "cannot start \(path): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(TestTime.seconds(timeout))
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno != EINTR) { break }
            if Date() > deadline {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                break
            }
            usleep(5_000)
        }
        let text = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        // Exited normally: the exit code; killed: 128 + the signal.
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, text)
    }

    /// A TCP port nobody listens on now (bound to port 0, read back, closed).
    public static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}
