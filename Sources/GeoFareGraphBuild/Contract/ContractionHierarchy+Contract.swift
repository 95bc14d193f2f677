import Dispatch
import Foundation
import GeoFareCore
import GeoFareGraph

/// Contraction: a ``ContractionHierarchy`` made from a network by ``ContractionHierarchyBuilder``.
extension ContractionHierarchy {
    /// Contracts `network` under `metric`.
    /// - Parameter settleLimit: nodes a witness search may settle before it gives up (a smaller
    ///   limit builds faster and adds more shortcuts; answers stay exact).
    /// - Parameter coreDegree: stop contracting when the remaining graph has more arcs (in + out)
    ///   per node than this, leaving those nodes as an uncontracted core (``coreStart``); `Int.max`
    ///   contracts every node.
    /// - Parameter progress: called after each contracted node with the number contracted so far
    ///   (of `network.nodeCount`; once with `nodeCount` when a core is left), on the calling thread.
    /// - Throws: ``GeoFareError`` `graph_invalid_network` when the network is inconsistent or a
    ///   shortcut's weight does not fit in 32 bits.
    public convenience init(network: RoadNetwork, metric: GraphMetric, settleLimit: Int = 200,
                            coreDegree: Int = ContractionHierarchy.coreMeanDegree,
                            progress: ((Int) -> Void)? = nil) throws(GeoFareError) {
        try self.init(network: network, metric: metric, settleLimit: settleLimit, coreDegree: coreDegree, lanes: nil,
                      progress: progress)
    }

    /// As the public initializer, with priority updates spread over the threads `lanes` allows (nil:
    /// this thread alone; the hierarchy is the same either way). Blocks while helper threads work.
    convenience init(network: RoadNetwork, metric: GraphMetric, settleLimit: Int, coreDegree: Int,
                     lanes: ContractionLanes?, progress: ((Int) -> Void)?) throws(GeoFareError) {
        try network.validate()
        var builder = ContractionHierarchyBuilder(nodeCount: network.nodeCount, tails: network.arcTail, heads: network.arcHead,
                                                  weights: metric.weights(of: network), settleLimit: settleLimit,
                                                  coreDegree: coreDegree, lanes: lanes)
        let arrays = try builder.build(progress: progress)
        let owner = BufferOwner()
        self.init(metric: metric, owner: owner,
                  views: [arrays.rank, arrays.order, arrays.upFirst, arrays.upHead, arrays.upWeight, arrays.downFirst,
                          arrays.downTail, arrays.downWeight, arrays.unpackA, arrays.unpackB].map { owner.keep($0) },
                  coreStart: arrays.coreStart)
    }

    /// Contracts `network` under each of `metrics` at the same time, one thread per metric; the cores
    /// are shared among the contractions still running (``ContractionLanes``), so once one finishes
    /// the others spread their witness searches over the core it leaves (on 2 cores the shortest
    /// metric's second half runs on both). The contractions are independent and deterministic: each
    /// result equals what ``init(network:metric:settleLimit:coreDegree:progress:)`` builds alone; peak
    /// memory is the sum of theirs, plus a search space of the node count per extra thread.
    ///
    /// Blocks the calling thread until every metric is done (it runs on Dispatch's threads, not
    /// Swift concurrency's pool): call it from a command or a thread of your own, not from async code.
    /// - Parameter progress: called after each contracted node with the metric's index in
    ///   `metrics` and that metric's number contracted so far (of `network.nodeCount`), from the
    ///   metric's thread, so it must be safe to call from two threads at once.
    /// - Returns: one hierarchy per metric, in the order of `metrics`.
    /// - Throws: ``GeoFareError`` `graph_invalid_network` (the first in `metrics` order when several fail).
    public static func contractConcurrently(network: RoadNetwork, metrics: [GraphMetric], settleLimit: Int = 200,
                                            coreDegree: Int = ContractionHierarchy.coreMeanDegree,
                                            progress: (@Sendable (_ metricIndex: Int, _ done: Int) -> Void)? = nil)
        throws(GeoFareError) -> [ContractionHierarchy] {
        try network.validate()
        let slots = ResultSlots(count: metrics.count)
        let lanes = ContractionLanes(running: metrics.count)
        DispatchQueue.concurrentPerform(iterations: metrics.count) { k in
            let result: Result<ContractionHierarchy, GeoFareError>
            do throws(GeoFareError) {
                result = .success(try ContractionHierarchy(network: network, metric: metrics[k], settleLimit: settleLimit,
                                                           coreDegree: coreDegree, lanes: lanes,
                                                           progress: progress.map { p in { p(k, $0) } }))
            } catch { result = .failure(error) }
            lanes.finished()
            slots.set(k, result)
        }
        return try slots.values()
    }
}

/// One result per concurrent contraction, written from the threads that made them.
private final class ResultSlots: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<ContractionHierarchy, GeoFareError>?]

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ result: Result<ContractionHierarchy, GeoFareError>) {
        lock.lock(); defer { lock.unlock() }
        results[k] = result
    }

    /// The hierarchies in order, or the first error.
    func values() throws(GeoFareError) -> [ContractionHierarchy] {
        lock.lock(); defer { lock.unlock() }
        var out: [ContractionHierarchy] = []
        for r in results { out.append(try r!.get()) }
        return out
    }
}
