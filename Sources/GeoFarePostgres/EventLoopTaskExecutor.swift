import NIOCore

/// A `TaskExecutor` that runs every job on one NIO event loop: the PostgreSQL store's async
/// work (PostgresNIO's `COPY`, which has no future-based form) runs there, never on Swift
/// concurrency's cooperative pool.
///
/// Why: the store's API is synchronous, and its callers may themselves run on the cooperative
/// pool (every Swift Testing test does; the pool has one thread per core, two here). A caller
/// that waited for a `Task` scheduled on that pool could hold the very thread the task needs,
/// and the process would hang. A task whose executor preference is this executor needs no pool
/// thread: it runs on the event loop, which nobody blocks (NIO refuses `wait()` there).
final class EventLoopTaskExecutor: TaskExecutor, @unchecked Sendable {
    let eventLoop: any EventLoop

    init(_ eventLoop: any EventLoop) { self.eventLoop = eventLoop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        eventLoop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `body` as a task on the event loop and returns a future of its result, for a
    /// synchronous caller to wait on from any thread but the event loop's.
    func submit<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> EventLoopFuture<T> {
        let promise = eventLoop.makePromise(of: T.self)
        Task(executorPreference: self) {
            do { promise.succeed(try await body()) } catch { promise.fail(error) }
        }
        return promise.futureResult
    }
}
