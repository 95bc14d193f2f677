import Dispatch
import Foundation
import Synchronization

/// The one way GeoFare spreads work over the cores: lanes on Dispatch's global queue, lane 0 on
/// the calling thread.
///
/// Not `DispatchQueue.concurrentPerform`: with two short iterations it often ran both on the
/// calling thread before a pool thread woke up (measured: the worker used one core). Not Swift
/// concurrency's cooperative pool either: the callers are synchronous and wait, and a wait on
/// a pool thread for work that needs the pool can deadlock.
public enum Parallel {
    /// Carries a non-escaping closure into Dispatch's `@Sendable` closures. Safe because the
    /// caller waits for every lane before the closure's lifetime ends, and each lane touches
    /// state no other lane does (the callers' contract).
    private struct Unchecked<T>: @unchecked Sendable {
        let value: T
    }

    /// Runs `body(lane)` for every lane of 0..<lanes concurrently and returns when all are done:
    /// lane 0 on this thread, the others on the global queue.
    public static func run(lanes: Int, _ body: (Int) -> Void) {
        guard lanes > 1 else { body(0); return }
        withoutActuallyEscaping(body) { escapable in
            let box = Unchecked(value: escapable)
            let group = start(lanes: 1..<lanes) { box.value($0) }
            box.value(0)
            group.wait()
        }
    }

    /// Starts `body(lane)` for every lane in `lanes` on the global queue and returns at once;
    /// the caller waits on the group (after work of its own, such as reading the next block).
    public static func start(lanes: Range<Int>, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        let queue = DispatchQueue.global(qos: .userInitiated)
        for lane in lanes { queue.async(group: group) { body(lane) } }
        return group
    }

    /// How many chunks ``forEachChunk(_:minimumPerChunk:_:)`` uses for `n` items: up to four
    /// per core, so a core that another process keeps busy hands its share to the others.
    public static func chunkCount(_ n: Int, minimumPerChunk: Int = 65_536) -> Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return cores <= 1 ? 1 : min(4 * cores, max(1, n / minimumPerChunk), 64)
    }

    /// Calls `body(chunk, range)` on ``chunkCount(_:minimumPerChunk:)`` disjoint chunks covering
    /// 0..<n, one lane per core claiming the next chunk as it comes free, and returns when all
    /// are done. `body` must only write state that no other chunk touches.
    public static func forEachChunk(_ n: Int, minimumPerChunk: Int = 65_536, _ body: (Int, Range<Int>) -> Void) {
        let chunks = chunkCount(n, minimumPerChunk: minimumPerChunk)
        if chunks <= 1 {
            body(0, 0..<n)
            return
        }
        let next = Atomic<Int>(0)
        run(lanes: min(chunks, ProcessInfo.processInfo.activeProcessorCount)) { _ in
            while true {
                let c = next.add(1, ordering: .relaxed).oldValue
                guard c < chunks else { return }
                body(c, (c * n / chunks)..<((c + 1) * n / chunks))
            }
        }
    }
}
