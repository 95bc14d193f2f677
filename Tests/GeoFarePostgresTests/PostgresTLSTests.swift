// The PostgreSQL store exists only in a build with the trait: `swift build --traits PostgreSQL`.
#if PostgreSQL
import Foundation
import Testing
import GeoFareParties
import GeoFareCore
import GeoFarePostgres
import GeoFareTestSupport

/// `sslmode` and `sslrootcert` against a real server that takes TCP connections over TLS only,
/// with a certificate for `localhost` and 127.0.0.1 signed by an authority made for the test.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(10))))
struct PostgresTLSTests {
    static func roundTrip(_ store: PostgresPartyStore, id: String) throws -> Party? {
        let p = Party(id: id, origin: try Coordinate(latitude: 37.55, longitude: 126.92), destination: try Coordinate(latitude: 37.5, longitude: 127.03),
                      departure: Date(timeIntervalSince1970: 1_900_000_000), seatsTotal: 4, seatsTaken: 1, status: .open, attributesJSON: nil)
        try store.upsert(p)
        return try store.party(id: id)
    }

    /// The connection's own view of its encryption, asked of the server.
    static func encryptedConnections(_ server: PostgresServer) throws -> String {
        try server.psql("SELECT count(*) FILTER (WHERE ssl) || '/' || count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.client_addr IS NOT NULL")
    }

    /// require, verify-ca and verify-full with the right authority connect over TLS (the server
    /// says so); the default (prefer) uses TLS too; disable is refused by a TLS-only server.
    @Test("sslmode require, verify-ca, verify-full and prefer connect over TLS; disable is refused by a TLS-only server")
    func modesThatConnect() throws {
        let server = try PostgresServer(tls: true)
        defer { server.destroy() }
        let ca = try #require(server.certificateAuthority)
        var stores: [PostgresPartyStore] = []
        for (i, parameters) in ["sslmode=require", "sslmode=verify-ca&sslrootcert=\(ca)", "sslmode=verify-full&sslrootcert=\(ca)",
                                "sslmode=require&sslrootcert=\(ca)", ""].enumerated() {
            let store = try PostgresPartyStore(url: server.url(parameters))
            #expect(try Self.roundTrip(store, id: "tls\(i)")?.id == "tls\(i)", "\(parameters)")
            stores.append(store)
        }
        // verify-full checks the name: `localhost` is in the certificate as well.
        let byName = try PostgresPartyStore(url: server.url(host: "localhost", "sslmode=verify-full&sslrootcert=\(ca)"))
        #expect(try byName.count() == 5)
        stores.append(byName)
        #expect(try Self.encryptedConnections(server) == "6/6")
        do {
            _ = try PostgresPartyStore(url: server.url("sslmode=disable"))
            Issue.record("a connection without TLS got through a TLS-only pg_hba.conf")
        } catch {
            #expect(error.code == .storageError && error.message.contains("no encryption") && !error.message.contains(server.password), "\(error.message)")
        }
    }

    /// verify-full refuses a certificate from another authority and one that names another host;
    /// verify-ca accepts the second; a missing sslrootcert file is invalid_value; no message shows
    /// the password.
    @Test("verify-full refuses a foreign or misnamed certificate, verify-ca accepts the misnamed one; bad sslrootcert is invalid_value")
    func modesThatRefuse() throws {
        let server = try PostgresServer(tls: true)
        defer { server.destroy() }
        let ca = try #require(server.certificateAuthority), other = try #require(server.otherCertificateAuthority)
        for parameters in ["sslmode=verify-full&sslrootcert=\(other)", "sslmode=verify-ca&sslrootcert=\(other)", "sslmode=verify-full"] {
            do {
                _ = try PostgresPartyStore(url: server.url(parameters), connectTimeoutSeconds: 5)
                Issue.record("\(parameters): connected to a server whose certificate no trusted authority signed")
            } catch {
                #expect(error.code == .storageError, "\(parameters): \(error)")
                #expect(error.message.contains("TLS") && error.message.contains("certificate"), "\(parameters): \(error.message)")
                #expect(!error.message.contains(server.password), "\(error.message)")
            }
        }
        // 127.0.0.2 reaches the same server, but the certificate names 127.0.0.1 and localhost only.
        do {
            _ = try PostgresPartyStore(url: server.url(host: "127.0.0.2", "sslmode=verify-full&sslrootcert=\(ca)"), connectTimeoutSeconds: 5)
            Issue.record("verify-full accepted a certificate that does not name 127.0.0.2")
        } catch {
            #expect(error.code == .storageError && error.message.contains("TLS") && !error.message.contains(server.password), "\(error.message)")
        }
        let caOnly = try PostgresPartyStore(url: server.url(host: "127.0.0.2", "sslmode=verify-ca&sslrootcert=\(ca)"))
        #expect(try Self.roundTrip(caOnly, id: "ca-only")?.id == "ca-only")
        do {
            _ = try PostgresPartyStore(url: server.url("sslmode=verify-full&sslrootcert=/nonexistent/root.crt"))
            Issue.record("a missing sslrootcert was accepted")
        } catch {
            #expect(error.code == .invalidValue && error.field == "store" && error.message.contains("/nonexistent/root.crt"), "\(error.message)")
            #expect(!error.message.contains(server.password), "\(error.message)")
        }
    }

    @Test("sslmode=require against a server without TLS fails clearly; prefer falls back to plain TCP there")
    func requireWithoutServerTLS() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        do {
            _ = try PostgresPartyStore(url: server.url("sslmode=require"), connectTimeoutSeconds: 5)
            Issue.record("sslmode=require connected without TLS")
        } catch {
            #expect(error.code == .storageError && error.message.contains("TLS") && !error.message.contains(server.password), "\(error.message)")
        }
        let plain = try PostgresPartyStore(url: server.url("sslmode=prefer"))
        #expect(try Self.roundTrip(plain, id: "plain")?.id == "plain")
    }

    @Test("A worker and parties export connect with sslmode=verify-full through the command line; the URL they print keeps sslmode and hides the password")
    func workerOverTLS() throws {
        let server = try PostgresServer(tls: true)
        defer { server.destroy() }
        let ca = try #require(server.certificateAuthority)
        let url = server.url("sslmode=verify-full&sslrootcert=\(ca)")
        let worker = try WorkerProcess(arguments: ["--store", url])
        let answer = worker.call(#"{"id":1,"op":"party.upsert","party":\#(partyJSON("w1"))}"#)
        #expect(answer?.isOK == true, "\(String(describing: answer))")
        #expect(worker.finish() == 0)
        #expect(worker.stderrContains("sslmode=verify-full"))
        #expect(!String(decoding: worker.errorOutput, as: UTF8.self).contains(server.password))
        let export = try GeoFareBinary.run(["parties", "export", "--store", url])
        #expect(export.status == 0 && export.stdout.contains(#""w1""#), "\(export.stderr)")
        let refused = try GeoFareBinary.run(["parties", "export", "--store", server.url("sslmode=verify-full&sslrootcert=\(try #require(server.otherCertificateAuthority))")])
        #expect(refused.status == 74 && refused.stderr.contains("certificate") && !refused.stderr.contains(server.password), "\(refused.stderr)")
    }
}
#endif
