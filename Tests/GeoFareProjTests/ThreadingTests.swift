import Foundation
import Testing
import GeoFareCore
@testable import GeoFareProj

/// PROJ contexts are not thread-safe; GeoFare gives every thread its own.
struct ThreadingTests {
    static func points(_ n: Int, seed: UInt64) -> [XYPoint] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { _ in XYPoint(x: .random(in: 125...130, using: &rng), y: .random(in: 33.5...38.5, using: &rng)) }
    }

    @Test("Many threads converting at once give bit-identical results to one thread")
    func concurrentEqualsSerial() throws {
        let input = Self.points(20_000, seed: 7)
        let pairs = [("wgs84", "utmk"), ("wgs84", "katec"), ("wgs84", "webmercator"), ("wgs84", "wcongnamul")]
        var expected: [[XYPoint]] = []
        for (a, b) in pairs { expected.append(try CoordinateTransformer(from: a, to: b).transform(input)) }

        let lanes = 8
        let results = Results(count: lanes * pairs.count)
        DispatchQueue.concurrentPerform(iterations: lanes * pairs.count) { job in
            let (a, b) = pairs[job % pairs.count]
            // Each job builds its transformer on its own thread and converts in small batches,
            // interleaving with the others as much as the scheduler allows.
            var out: [XYPoint] = []
            do {
                let t = try CoordinateTransformer(from: a, to: b)
                for start in stride(from: 0, to: input.count, by: 257) {
                    out += try t.transform(Array(input[start..<min(start + 257, input.count)]))
                }
            } catch { out = [] }
            results.set(job, out, context: ProjThreadState.current.contextIdentity)
        }
        for job in 0..<(lanes * pairs.count) {
            #expect(results.values[job] == expected[job % pairs.count], "job \(job) differs")
        }
    }

    @Test("Two threads never share a PROJ context")
    func contextsAreThreadLocal() throws {
        let ids = Results(count: 2)
        let group = DispatchGroup()
        for i in 0..<2 {
            let thread = Thread {
                _ = try? CoordinateTransformer(from: "wgs84", to: "utmk").transform(XYPoint(x: 127, y: 37))
                ids.set(i, [], context: ProjThreadState.current.contextIdentity)
                group.leave()
            }
            group.enter()
            thread.start()
        }
        group.wait()
        #expect(ids.contexts[0] != nil && ids.contexts[1] != nil)
        #expect(ids.contexts[0] != ids.contexts[1])
        #expect(ids.contexts[0] != ProjThreadState.current.contextIdentity)
    }

    /// A lock-protected results table for the threads above.
    final class Results: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var values: [[XYPoint]]
        private(set) var contexts: [ObjectIdentifier?]
        init(count: Int) {
            values = Array(repeating: [], count: count)
            contexts = Array(repeating: nil, count: count)
        }
        func set(_ i: Int, _ v: [XYPoint], context: ObjectIdentifier) {
            lock.lock(); defer { lock.unlock() }
            values[i] = v
            contexts[i] = context
        }
    }
}
