@preconcurrency import Dispatch
import Foundation
import GeoFareCore
import GeoFareParties
import GeoFareText
import GeoFareWorker

/// Runs the dispatcher's work off Swift concurrency's cooperative pool, as the worker's loop runs
/// it: the party ops (``WorkerOp/runsInOrder``) one at a time, in arrival order, on one serial
/// queue (the ``LivePartyIndex`` is not thread-safe, and a write is acknowledged only after its
/// commit); every other op on a concurrent queue as wide as the machine. Awaiting a result
/// suspends the caller's task; no pool thread ever blocks.
final class RequestRunner: Sendable {
    let dispatcher: WorkerDispatcher
    private let partyQueue = DispatchQueue(label: "geofare.serve.parties")
    private let computeQueue = DispatchQueue(label: "geofare.serve.compute", attributes: .concurrent)
    private let timerQueue = DispatchQueue(label: "geofare.serve.timeouts")

    init(dispatcher: WorkerDispatcher) {
        self.dispatcher = dispatcher
    }

    /// The queue an op runs on: the serial party queue for ops that must run in order (and for a
    /// name that is no op, which is answered at once).
    private func queue(for name: String) -> DispatchQueue {
        guard let op = WorkerOp(rawValue: name), !op.runsInOrder else { return partyQueue }
        return computeQueue
    }

    /// `POST /v1/{op}`: the dispatcher's answer for op `name` with `body` as its fields, or `nil`
    /// when it is not ready within `timeoutSeconds` (the work still runs to its end: a write
    /// queued is committed, only its answer is not awaited).
    func answer(op name: String, body: [UInt8], timeoutSeconds: Double) async -> WorkerDispatcher.Answer? {
        let dispatcher = self.dispatcher
        let once = FirstAnswer()
        return await withCheckedContinuation { continuation in
            once.set(continuation)
            let timer = DispatchWorkItem { once.resume(nil) }
            timerQueue.asyncAfter(deadline: .now() + timeoutSeconds, execute: timer)
            queue(for: name).async {
                let answer = body.withUnsafeBytes { dispatcher.respond(op: name, body: $0) }
                timer.cancel()
                once.resume(answer)
            }
        }
    }

    /// One worker line (`POST /v1/batch`), answered as the worker answers it.
    func answer(line: [UInt8]) async -> [UInt8] {
        let dispatcher = self.dispatcher
        let name = (try? line.withUnsafeBytes { try JSONParser.parse($0) })?.object?["op"]?.string ?? ""
        return await withCheckedContinuation { continuation in
            queue(for: name).async {
                continuation.resume(returning: line.withUnsafeBytes { dispatcher.respond(toLine: $0) })
            }
        }
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
            partyQueue.async(flags: .barrier) { continuation.resume() }
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
