import Foundation
import Synchronization

/// Threads kept awake for many small fork-joins in a row: ``run(_:)`` costs about a cache line's
/// round trip instead of ``Parallel/run(lanes:_:)``'s queue hop and thread wake-up (tens of
/// microseconds), for loops that fork millions of times over pieces of 20–300 µs (a contraction's
/// witness searches). Lane 0 runs on the caller's thread, lanes 1... on the team's own threads,
/// which spin briefly between runs and then sleep in short naps, so an idle team costs little.
///
/// Use it only while the team's lanes have cores to themselves (a contraction uses one once the
/// other metric's contraction has finished); call ``stop()`` when done. Not for async code: ``run(_:)``
/// waits for its lanes.
public final class ParallelTeam: @unchecked Sendable {
    /// Lanes in all, the caller's included.
    public let lanes: Int
    /// The run's number shifted left by 8, plus the tickets left for helper lanes: a helper joins a
    /// run only by taking a ticket of that run, and the caller takes back the tickets left when its
    /// own lane is done, so it never waits for a helper that was asleep.
    private let state = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let exited = Atomic<Int>(0)
    /// The running job; written before `state` announces the run, read after a ticket is taken.
    private var job: ((Int) -> Void)?
    private var runs = 0

    /// Starts `lanes - 1` threads (none for 1 lane; at most 255 lanes).
    public init(lanes: Int) {
        self.lanes = min(max(lanes, 1), 255)
        for lane in 1..<self.lanes {
            let thread = Thread { [self] in work(lane: lane) }
            thread.name = "geofare-team-\(lane)"
            thread.start()
        }
    }

    /// Runs `body(0)` on this thread and `body(lane)` for each helper lane that is awake to join,
    /// concurrently, and returns when all that joined are done. Callers spread their work by
    /// claiming pieces (an atomic counter), so a lane that does not join loses nothing. `body` must
    /// only write state that no other lane touches; one caller at a time.
    public func run(_ body: (Int) -> Void) {
        guard lanes > 1 else { body(0); return }
        withoutActuallyEscaping(body) { escapable in
            job = escapable
            runs += 1
            finished.store(0, ordering: .relaxed)
            state.store(runs << 8 | (lanes - 1), ordering: .releasing)
            escapable(0)
            let unstarted = state.exchange(runs << 8, ordering: .acquiringAndReleasing) & 0xff
            var spins = 0
            while finished.load(ordering: .acquiring) < lanes - 1 - unstarted {
                spins += 1
                if spins > 4096 { sched_yield() }
            }
            job = nil
        }
    }

    /// Lets the team's threads end; waits until they have.
    public func stop() {
        stopping.store(true, ordering: .releasing)
        while exited.load(ordering: .acquiring) < lanes - 1 { usleep(50) }
    }

    private func work(lane: Int) {
        var seen = 0, idle = 0
        while true {
            let v = state.load(ordering: .acquiring)
            if v >> 8 != seen {
                if v & 0xff == 0 {
                    // a run this lane missed (its tickets taken back): runs are coming, stay awake
                    seen = v >> 8
                    idle = 0
                } else if state.compareExchange(expected: v, desired: v - 1, ordering: .acquiringAndReleasing).exchanged {
                    seen = v >> 8
                    job?(lane)
                    finished.add(1, ordering: .releasing)
                    idle = 0
                }
                continue
            }
            if stopping.load(ordering: .acquiring) { exited.add(1, ordering: .releasing); return }
            idle += 1
            // spin (a run usually follows within microseconds), then yield, then nap
            if idle > 20_000 { usleep(50) } else if idle > 2_000 { sched_yield() }
        }
    }
}
