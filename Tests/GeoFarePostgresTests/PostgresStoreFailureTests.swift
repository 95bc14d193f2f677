// The PostgreSQL store exists only in a build with the trait: `swift build --traits PostgreSQL`.
#if PostgreSQL
import Foundation
import Testing
import GeoFareParties
import GeoFareCore
@testable import GeoFarePostgres
import PostgresNIO
import GeoFareTestSupport

/// The PostgreSQL store when the server goes away or stops answering: every call returns (a
/// `storage_error`) in bounded time, and the store recovers when the server is back.
@Suite(.serialized, .timeLimit(.minutes(TestTime.minutes(3))))
struct PostgresStoreFailureTests {
    static func party(_ id: String) -> Party {
        Party(id: id, origin: Coordinate(uncheckedLatitude: 37.55, longitude: 126.97),
              destination: Coordinate(uncheckedLatitude: 37.50, longitude: 127.03),
              departure: Date(timeIntervalSince1970: 1_900_000_000), seatsTotal: 4, seatsTaken: 1,
              status: .open, attributesJSON: nil, updatedAt: Date(), version: 0)
    }

    @Test("A statement that reaches a connection just closed fails at once: PostgresNIO never completes its future, the store's wait watches the close")
    func statementAfterClose() throws {
        let server = try PostgresServer()
        defer { server.destroy() }
        let store = try PostgresPartyStore(url: server.url, statementTimeoutSeconds: 60)
        let c = try store.connected()
        let watch = ConnectionWatch(c)
        _ = watch.wait(for: c.close(), until: Date().addingTimeInterval(10))
        // The hazard: a statement sent now gets a future that PostgresNIO never completes
        // (what `EventLoopFuture.wait()` would wait for, forever).
        let pending = ConnectionWatch().wait(for: c.query("SELECT 2", logger: store.logger), until: Date().addingTimeInterval(1))
        if case .timedOut = pending {} else {
            Issue.record("PostgresNIO now completes a statement sent on a closed connection (\(pending)): this test no longer shows the hazard it guards against")
        }
        let late = c.query("SELECT 1", logger: store.logger)
        let start = Date()
        let call = ServerCall(connection: c, watch: watch, deadline: Date().addingTimeInterval(60), seconds: 60)
        do {
            _ = try call.wait(late)
            Issue.record("a statement on a closed connection succeeded")
        } catch {
            #expect(error as? ServerCallError == .connectionClosed, "\(error)")
        }
        #expect(Date().timeIntervalSince(start) < 5, "the wait took \(Date().timeIntervalSince(start)) s")
        // The store itself notices the closed connection and reconnects.
        #expect(try store.upsert(Self.party("a"), now: Date()).version == 1)
    }

    /// A server that stops answering without closing: each call fails with storage_error within the
    /// statement timeout; once it answers again the store reconnects and every acknowledged write
    /// is there.
    /// The timeouts come from the initialiser's arguments or from the URL's `connect_timeout` and
    /// `statement_timeout` (what the CLI's `--store` gives); an argument wins over the URL.
    @Test("A server that stops answering: calls fail with storage_error in the statement timeout, then reconnect with every write",
          arguments: ["arguments", "url", "arguments over url"])
    func frozenServer(timeoutsFrom: String) throws {
        let server = try PostgresServer()
        defer { try? server.setPaused(false); server.destroy() }
        let store = switch timeoutsFrom {
        case "arguments": try PostgresPartyStore(url: server.url(""), connectTimeoutSeconds: 2, statementTimeoutSeconds: 2)
        case "url": try PostgresPartyStore(url: server.url("connect_timeout=2&statement_timeout=2"))
        default: try PostgresPartyStore(url: server.url("connect_timeout=600&statement_timeout=600"), connectTimeoutSeconds: 2, statementTimeoutSeconds: 2)
        }
        #expect(try store.upsert(Self.party("before"), now: Date()).version == 1)
        try server.setPaused(true)
        var start = Date()
        do {
            _ = try store.upsert(Self.party("during"), now: Date())
            Issue.record("a write to a frozen server was acknowledged")
        } catch {
            #expect(error.code == .storageError && error.message.contains("no answer from the server within 2 s"), "\(error)")
        }
        var took = Date().timeIntervalSince(start)
        #expect(took >= 1.9 && took < 6, "the write gave up after \(took) s")
        // The next call connects again: the frozen server accepts the TCP connection (the
        // kernel does) but never answers the startup, so the attempt ends at its own deadline.
        start = Date()
        #expect(throws: GeoFareError.self) { _ = try store.count() }
        took = Date().timeIntervalSince(start)
        #expect(took < 10, "the reconnect gave up after \(took) s")
        try server.setPaused(false)
        var back = false
        let until = Date().addingTimeInterval(30)
        while !back && Date() < until {
            if (try? store.count()) != nil { back = true } else { usleep(100_000) }
        }
        #expect(back, "the store did not reconnect after the server answered again")
        #expect(try store.party(id: "before")?.version == 1)
        #expect(try store.upsert(Self.party("after"), now: Date()).version == 1)
    }
}
#endif
