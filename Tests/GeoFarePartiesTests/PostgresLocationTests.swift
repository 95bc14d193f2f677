import Foundation
import GeoFareCore
import Testing
import GeoFareParties

/// `PostgresLocation.redact`, the form a `postgres://` URL takes in logs and errors, on odd
/// passwords (no server needed; the URL forms with a server are in GeoFarePostgresTests).
@Suite struct PostgresLocationTests {
    @Test("redact hides a password holding '@' or NULs: everything up to the authority's last '@'")
    func redactOddPasswords() {
        #expect(PostgresLocation.redact("postgres://me:p@ss@h/db") == "postgres://me:***@h/db")
        #expect(PostgresLocation.redact("postgres://me:pw@h/db") == "postgres://me:***@h/db")
        #expect(PostgresLocation.redact("postgres://me@h/db") == "postgres://me@h/db")
        // The fuzz finding's input (Fuzz/corpus/postgres-url/regression-nul-password.txt): the
        // password is "p" and 23 NULs, the host 25 NULs and "p". `redact` was right; the harness
        // searched with Foundation's `contains`, which skips NULs, and called it a leak.
        let nuls = { (n: Int) in String(repeating: "\u{0}", count: n) }
        let redacted = PostgresLocation.redact("pres://requireu:p" + nuls(23) + "@" + nuls(25) + "p")
        #expect(Array(redacted.utf8) == Array(("pres://requireu:***@" + nuls(25) + "p").utf8))
        do {
            _ = try PostgresLocation(url: "postgres://me:s3cr@t!@h:99999/db", environment: [:])
            Issue.record("port 99999 accepted")
        } catch {
            #expect(error.code == .invalidValue)
            #expect(Array(error.message.utf8).firstRange(of: Array("s3cr@t!".utf8)) == nil, "\(error.message)")
            #expect(error.message.contains("postgres://me:***@h:99999/db"), "\(error.message)")
        }
    }
}
