import Dispatch
import Foundation

/// Splits a loop over 0..<n into one contiguous chunk per core (for bulk loads).
enum Parallel {
    /// Carries a closure into Dispatch's `@Sendable` worker closure. Safe because
    /// ``forEachChunk(_:minimumPerChunk:_:)`` hands every worker a disjoint range and waits.
    private struct Unchecked<T>: @unchecked Sendable {
        let value: T
    }

    /// How many chunks ``forEachChunk(_:minimumPerChunk:_:)`` uses for `n` items: up to four
    /// per core, so a core that another process keeps busy hands its share to the others
    /// (Dispatch gives iterations to whichever worker is free).
    static func chunkCount(_ n: Int, minimumPerChunk: Int = 65_536) -> Int {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return cores <= 1 ? 1 : min(4 * cores, max(1, n / minimumPerChunk), 64)
    }

    /// Calls `body(chunk, range)` on disjoint chunks covering 0..<n, concurrently when n is
    /// large, and returns when all are done. `body` must only write state that no other
    /// chunk touches.
    static func forEachChunk(_ n: Int, minimumPerChunk: Int = 65_536, _ body: (Int, Range<Int>) -> Void) {
        let workers = chunkCount(n, minimumPerChunk: minimumPerChunk)
        if workers <= 1 {
            body(0, 0..<n)
            return
        }
        withoutActuallyEscaping(body) { escapable in
            let box = Unchecked(value: escapable)
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                box.value(w, (w * n / workers)..<((w + 1) * n / workers))
            }
        }
    }
}
