import Foundation
import GeoFareCore
import GeoFareGraphBuild
import Synchronization
import Testing

/// ``ParallelTeam``: a run returns only when every lane that joined it is done (no lane works for a
/// run after it returned), pieces claimed inside a run are all done by its return, the helpers do
/// join, and a stopped team's threads end.
@Suite struct ParallelTeamTests {
    /// Per-lane counters written from the team's threads (each lane its own slot).
    final class Counts: @unchecked Sendable {
        let slots: UnsafeMutableBufferPointer<Int>
        init(_ n: Int) { slots = .allocate(capacity: n); slots.initialize(repeating: 0) }
        deinit { slots.deallocate() }
    }

    @Test(arguments: [1, 2, 3])
    func runsWaitForTheLanesThatJoined(lanes: Int) {
        let team = ParallelTeam(lanes: lanes)
        let calls = Counts(lanes)
        let active = Atomic<Int>(-1), strays = Atomic<Int>(0)
        var unfinished = 0
        let runs = 20_000, pieces = 8
        for run in 0..<runs {
            let next = Atomic<Int>(0), done = Atomic<Int>(0)
            active.store(run, ordering: .releasing)
            team.run { lane in
                calls.slots[lane] += 1
                while true {
                    let p = next.add(1, ordering: .relaxed).oldValue
                    guard p < pieces else { break }
                    // a little work, so that a run that did not wait for its helpers shows
                    var x = run &+ p
                    for _ in 0..<40 { x = x &* 31 &+ lane }
                    if active.load(ordering: .acquiring) != run || x == Int.min { strays.add(1, ordering: .relaxed) }
                    done.add(1, ordering: .releasing)
                }
            }
            active.store(-1, ordering: .releasing)
            if done.load(ordering: .acquiring) != pieces { unfinished += 1 }
        }
        team.stop()
        #expect(strays.load(ordering: .acquiring) == 0)
        #expect(unfinished == 0)
        #expect(calls.slots[0] == runs)
        // helpers spin between runs, so they join (most of them, on free cores)
        for l in 1..<max(lanes, 1) { #expect(calls.slots[l] > 0, "lane \(l) joined \(calls.slots[l]) of \(runs) runs") }
    }
}
