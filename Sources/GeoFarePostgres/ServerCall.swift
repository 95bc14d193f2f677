import Foundation
import PostgresNIO

/// One store call's conversation with the server: the futures of its statements, each waited
/// for on the caller's thread until it completes, the connection closes, or the call's
/// deadline passes, whichever comes first. Nothing here waits forever.
///
/// Why not `EventLoopFuture.wait()`: PostgresNIO leaves a statement's future pending for good
/// when the statement reaches a connection whose channel has just closed (its handler is gone,
/// so nobody fails the promise; postgres-nio #487, reverted in #501). A server that crashes
/// between two statements of a transaction hung the worker that way. A caller-side wait that
/// also watches the connection's close, and a wall-clock deadline that needs no event loop,
/// turn every such case into a `storage_error` answer.
struct ServerCall {
    let connection: PostgresConnection
    let watch: ConnectionWatch
    /// When the call gives up (and closes the connection).
    let deadline: Date
    let seconds: Double

    /// The result of `future`, a statement on ``connection``.
    /// - Throws: the statement's own error; ``ServerCallError`` when the connection closed
    ///   before it answered, or when the deadline passed (the connection is then closed, so
    ///   the server's later answer cannot be mistaken for another statement's).
    func wait<T>(_ future: EventLoopFuture<T>) throws -> T {
        switch watch.wait(for: future, until: deadline) {
        case let .answered(result): return try result.get()
        case .closed: throw ServerCallError.connectionClosed
        case .timedOut:
            PostgresPartyStore.close(connection)
            throw ServerCallError.noAnswer(seconds: seconds)
        }
    }
}

/// Why a store call stopped waiting without the server's answer.
enum ServerCallError: Error, Equatable, CustomStringConvertible {
    case connectionClosed
    case noAnswer(seconds: Double)
    /// The connection attempt itself got no answer in time.
    case noConnection(seconds: Double)

    var description: String {
        switch self {
        case .connectionClosed: "the connection to the server closed before it answered"
        case let .noAnswer(s): "no answer from the server within \(Self.format(s)) s; the connection was closed"
        case let .noConnection(s): "no connection within \(Self.format(s)) s"
        }
    }

    private static func format(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }
}

/// The caller-side view of one connection: whether its channel has closed, and the condition
/// a waiting caller sleeps on (signalled by each awaited future and by the close).
final class ConnectionWatch: @unchecked Sendable {
    private let condition = NSCondition()
    private var closed = false

    /// A watch on `connection`'s close (or a watch that never closes, for a connection attempt).
    init(_ connection: PostgresConnection? = nil) {
        connection?.closeFuture.whenComplete { [self] _ in
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }
    }

    enum Outcome<T> {
        case answered(Result<T, any Error>)
        case closed
        case timedOut
    }

    /// Waits for `future` until `deadline`; an answer that arrived before the close wins.
    func wait<T>(for future: EventLoopFuture<T>, until deadline: Date) -> Outcome<T> {
        let slot = Slot<T>()
        future.whenComplete { [self] result in
            condition.lock()
            slot.result = result
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = slot.result { return .answered(result) }
            if closed { return .closed }
            if !condition.wait(until: deadline) {
                if let result = slot.result { return .answered(result) }
                return .timedOut
            }
        }
    }

    private final class Slot<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }
}
