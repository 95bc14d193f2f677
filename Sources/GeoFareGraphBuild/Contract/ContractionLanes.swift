import Foundation
import Synchronization

/// How many threads each of several contractions running at once may use for its priority updates:
/// the cores divided among the contractions still running, so that a metric that finishes early
/// hands its core to the ones left (on this 2-core machine the shortest metric's contraction runs
/// more than twice as long as the fastest's). Shared by the contractions of one build.
final class ContractionLanes: Sendable {
    /// Threads one contraction never exceeds (each holds a search space of the node count).
    static let maximum = 4
    private let running: Atomic<Int>
    private let cores: Int

    /// - Parameters:
    ///   - cores: the cores to share (by default the active processors).
    ///   - running: the contractions that start now.
    init(cores: Int = ProcessInfo.processInfo.activeProcessorCount, running: Int) {
        self.cores = max(cores, 1)
        self.running = Atomic(max(running, 1))
    }

    /// A contraction has finished: its share goes to the others.
    func finished() {
        running.subtract(1, ordering: .relaxed)
    }

    /// Threads one running contraction may use now (at least 1).
    var available: Int {
        min(Self.maximum, max(1, cores / max(1, running.load(ordering: .relaxed))))
    }
}
