@preconcurrency import Dispatch
import Foundation
import GeoFareCore
import GeoFareParties
import GeoFareText
import GeoFareWorker

/// Runs the dispatcher's work as the worker's loop runs it: the party ops
/// (``WorkerOp/runsInOrder``) one at a time, in arrival order, on one serial queue off Swift
/// concurrency's pool (the ``LivePartyIndex`` is not thread-safe, a commit waits on the disk or
/// the database, and a write is acknowledged only after its commit); a stateless op, pure
/// computation, on the request's own task. Awaiting a party op suspends the caller's task; no pool
/// thread ever blocks.
final class RequestRunner: Sendable {
    let dispatcher: WorkerDispatcher
    private let partyQueue = DispatchQueue(label: "geofare.serve.parties")
    private let timerQueue = DispatchQueue(label: "geofare.serve.timeouts")

    init(dispatcher: WorkerDispatcher) {
        self.dispatcher = dispatcher
    }

    /// Whether an op named `name` runs on the request's own task (a stateless op) rather than the
    /// party queue (party ops, and a name that is no op, answered there at once).
    private static func inline(_ name: String) -> Bool {
        guard let op = WorkerOp(rawValue: name) else { return false }
        return !op.runsInOrder
    }

    /// `POST /v1/{op}`: the dispatcher's answer for op `name` with `body` as its fields, or `nil`
    /// when it is not ready within `timeoutSeconds` (the work still runs to its end: a write
    /// queued is committed, only its answer is not awaited).
    func answer(op name: String, body: [UInt8], timeoutSeconds: Double) async -> WorkerDispatcher.Answer? {
        let dispatcher = self.dispatcher
        // A stateless op is pure computation of microseconds to milliseconds: answered on the
        // calling task at once (no queue to wait in, so no timeout to miss), as the worker's
        // lanes answer them; only the party queue can make a request wait.
        if Self.inline(name) { return body.withUnsafeBytes { dispatcher.respond(op: name, body: $0) } }
        let once = FirstAnswer()
        return await withCheckedContinuation { continuation in
            once.set(continuation)
            let timer = DispatchWorkItem { once.resume(nil) }
            timerQueue.asyncAfter(deadline: .now() + timeoutSeconds, execute: timer)
            partyQueue.async {
                let answer = body.withUnsafeBytes { dispatcher.respond(op: name, body: $0) }
                timer.cancel()
                once.resume(answer)
            }
        }
    }

    /// One worker line (`POST /v1/batch`), answered as the worker answers it, with the op it
    /// names (`nil` for none known).
    func answer(line: [UInt8]) async -> (response: [UInt8], op: WorkerOp?) {
        let dispatcher = self.dispatcher
        // Parsed once: a line that parses is answered from its tree, one that does not from its bytes.
        let parsed = try? line.withUnsafeBytes { try JSONParser.parse($0) }
        let name = parsed?.object?["op"]?.string ?? ""
        let answer = { @Sendable in parsed.map { dispatcher.respond(to: $0) } ?? line.withUnsafeBytes { dispatcher.respond(toLine: $0) } }
        if Self.inline(name) { return (answer(), WorkerOp(rawValue: name)) }
        let response = await withCheckedContinuation { continuation in
            partyQueue.async { continuation.resume(returning: answer()) }
        }
        return (response, WorkerOp(rawValue: name))
    }

    /// What the party store holds, read on the party queue (for `/metrics`): the parties, the
    /// last change of the feed seen, and whether the store answered its last check.
    func partyState() async -> (parties: Int, feedSeq: Int64, storeUp: Bool)? {
        guard let parties = dispatcher.parties else { return nil }
        return await withCheckedContinuation { continuation in
            partyQueue.async {
                let up = (try? parties.sync()) != nil
                continuation.resume(returning: (parties.count, parties.feedSeq, up))
            }
        }
    }

    /// Waits until every party op queued before it has run (a graceful stop's last step before
    /// the store is closed).
    func drainParties() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            partyQueue.async { continuation.resume() }
        }
    }

    /// A quiet server catches up with the changes other processes made to a shared store
    /// (``LivePartyIndex/catchUpIfNoticed()``), on the party queue.
    func idle() {
        let dispatcher = self.dispatcher
        partyQueue.async { dispatcher.idle() }
    }
}

/// Resumes a continuation with the first of two outcomes (the answer or the timeout).
private final class FirstAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<WorkerDispatcher.Answer?, Never>?

    func set(_ c: CheckedContinuation<WorkerDispatcher.Answer?, Never>) { lock.withLock { continuation = c } }

    func resume(_ answer: WorkerDispatcher.Answer?) {
        let c: CheckedContinuation<WorkerDispatcher.Answer?, Never>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        c?.resume(returning: answer)
    }
}
