import GeoFareCore

/// One cell of a ``ContractionHierarchyMatrix`` table: the best path's weight under the metric
/// the hierarchy minimises, and both of its totals in the network's units.
public struct MatrixCell: Sendable, Hashable {
    /// The minimised weight (ms for `fastest`, cm for `shortest`), offsets of the partial arcs included.
    public var weight: UInt64
    /// The same path's length, centimetres (what ``GraphPath/distanceMeters`` × 100 is for the route).
    public var distanceCentimeters: UInt64
    /// The same path's free-flow time, milliseconds (what ``GraphPath/timeSeconds`` × 1000 is for the route).
    public var timeMilliseconds: UInt64
}

/// Many-to-many shortest paths on a ``RoadGraph``'s contraction hierarchy with buckets (as
/// RoutingKit's and OSRM's `table`): one backward upward search per target, one forward upward
/// search per source, instead of one bidirectional query per cell.
///
/// 1. **Targets.** From each target's snap candidates (seeded at their arcs' tails with the
///    partial-arc offsets, as ``RoadGraphRouter`` seeds them) a backward search runs up the
///    hierarchy to exhaustion (stall-on-demand on); every node it settles without stalling gets a
///    bucket entry (target, weight to the target, the other metric's weight along the same path).
/// 2. **Sources.** From each source's candidates a forward upward search runs to exhaustion; at
///    every node it settles without stalling it scans the node's bucket: `d(s, v) + d(v, t)` is a
///    candidate for cell (s, t), and the least over all `v` is the shortest path (the CH meeting
///    property that the one-to-one query relies on too).
/// 3. **Same arc.** A source and a target on one arc, the target ahead, may also drive straight
///    along it, exactly as the router does.
///
/// Each search carries the *other* metric's weight along its tree (from a per-edge table of the
/// shortcuts' second weights, unpacked once when the object is made), so every cell reports the
/// distance and the free-flow time of the path it minimised without unpacking it. The totals
/// equal ``RoadGraphRouter``'s for the same pair whenever the best path is unique; where several
/// paths tie on the minimised weight, the minimised weight is equal and the other total is that of
/// one of the tied paths (the router's choice among ties is no better defined).
///
/// In the hierarchy's uncontracted core (``ContractionHierarchy/coreStart``) both searches are
/// plain Dijkstra over the core's arcs, exact as in ``ContractionHierarchyQuery``; being run to
/// exhaustion, each then settles the whole core reachable from its point, and every target leaves
/// a bucket entry at every core node it settles.
///
/// Cost: `targets` + `sources` upward searches (a few hundred nodes each) plus, per settled source
/// node, its bucket; memory is a few bytes per node for the labels plus 24 bytes per bucket entry.
/// One object per thread; it reuses its buffers from table to table.
public final class ContractionHierarchyMatrix {
    public let graph: RoadGraph
    public let metric: GraphMetric
    let hierarchy: ContractionHierarchy
    private let search: SearchSpace
    /// Per rank: the other metric's weight of the current search's label.
    private let otherWeight: UnsafeMutablePointer<UInt64>
    /// Per edge (up then down): the other metric's weight of the arc or shortcut.
    private let edgeOther: [UInt32]
    /// Per rank: where its bucket starts in `entries`, valid when `bucketStamp` is the table's.
    private let bucketFirst: UnsafeMutablePointer<UInt32>
    private let bucketCount: UnsafeMutablePointer<UInt32>
    private let bucketStamp: UnsafeMutablePointer<UInt32>
    private let bucketFill: UnsafeMutablePointer<UInt32>
    private var ranks: [UInt32] = []
    private var stamp: UInt32 = 0
    private struct Entry { var rank: UInt32; var target: UInt32; var weight: UInt64; var other: UInt64 }
    private var entries: [Entry] = []
    private var sorted: [Entry] = []
    /// Nodes settled by the last table (all searches), for benchmarks.
    public private(set) var settledCount = 0
    /// Bucket entries of the last table, for benchmarks.
    public private(set) var bucketEntryCount = 0

    /// A matrix for `metric` on `graph` (unpacks the hierarchy's second weights: one pass over its edges).
    public init(graph: RoadGraph, metric: GraphMetric) {
        self.graph = graph
        self.metric = metric
        let ch = graph.hierarchies[metric.index]
        hierarchy = ch
        let n = ch.nodeCount
        search = SearchSpace(nodeCount: n)
        otherWeight = .allocate(capacity: max(n, 1))
        otherWeight.initialize(repeating: 0, count: max(n, 1))
        bucketFirst = .allocate(capacity: max(n, 1))
        bucketFirst.initialize(repeating: 0, count: max(n, 1))
        bucketCount = .allocate(capacity: max(n, 1))
        bucketCount.initialize(repeating: 0, count: max(n, 1))
        bucketStamp = .allocate(capacity: max(n, 1))
        bucketStamp.initialize(repeating: 0, count: max(n, 1))
        bucketFill = .allocate(capacity: max(n, 1))
        bucketFill.initialize(repeating: 0, count: max(n, 1))
        edgeOther = Self.otherWeights(ch, network: graph.network, other: metric == .fastest ? 1 : 0)
    }

    deinit {
        otherWeight.deallocate()
        bucketFirst.deallocate()
        bucketCount.deallocate()
        bucketStamp.deallocate()
        bucketFill.deallocate()
    }

    /// The other metric's weight of every hierarchy edge: an arc's own, a shortcut's the sum of
    /// its two parts (saturating at `UInt32.max`), by an explicit stack (shortcuts nest deeply).
    static func otherWeights(_ ch: ContractionHierarchy, network net: NetworkView, other: Int) -> [UInt32] {
        let m = ch.edgeCount
        var w = [UInt32](repeating: UInt32.max, count: m)
        var done = [Bool](repeating: false, count: m)
        var stack: [UInt32] = []
        for e0 in 0..<m where !done[e0] {
            stack.append(UInt32(e0))
            while let e = stack.last {
                let ei = Int(e)
                if done[ei] { stack.removeLast(); continue }
                let a = ch.unpackA[ei], b = ch.unpackB[ei]
                if b == UInt32.max {
                    w[ei] = other == 0 ? net.arcTimeMilliseconds[Int(a)] : net.arcDistanceCentimeters[Int(a)]
                    done[ei] = true
                    stack.removeLast()
                } else if !done[Int(a)] {
                    stack.append(a)
                } else if !done[Int(b)] {
                    stack.append(b)
                } else {
                    let s = UInt64(w[Int(a)]) + UInt64(w[Int(b)])
                    w[ei] = UInt32(min(s, UInt64(UInt32.max)))
                    done[ei] = true
                    stack.removeLast()
                }
            }
        }
        return w
    }

    /// The table between snapped points: `result[i * targets.count + j]` is the best path from
    /// `sources[i]` to `targets[j]` (`nil` when none), each point given by its snap candidates
    /// (``RoadGraph/snap(_:maxDistanceMeters:field:)``, as ``RoadGraphRouter`` routes them).
    public func table(sources: [[SnapCandidate]], targets: [[SnapCandidate]]) -> [MatrixCell?] {
        let ch = hierarchy, net = graph.network
        let k = metric.index, o = 1 - k
        let cols = targets.count
        var result = [MatrixCell?](repeating: nil, count: sources.count * cols)
        settledCount = 0
        if stamp == UInt32.max {
            for i in 0..<ch.nodeCount { bucketStamp[i] = 0 }
            stamp = 0
        }
        stamp += 1
        let upFirst = ch.upFirst, upHead = ch.upHead, upWeight = ch.upWeight
        let downFirst = ch.downFirst, downTail = ch.downTail, downWeight = ch.downWeight
        let upCount = ch.upCount
        let rank = ch.rank
        // no stalling in the uncontracted core (as ContractionHierarchyQuery)
        let stallBelow = UInt32(ch.coreStart)
        // 1. backward searches: buckets
        entries.removeAll(keepingCapacity: true)
        for (j, cands) in targets.enumerated() {
            search.begin()
            for t in cands {
                let r = rank[Int(net.arcTail[Int(t.arc)])]
                if search.reach(r, UInt64(t.fromTail[k]), parentNode: UInt32.max, parentArc: UInt32.max) {
                    otherWeight[Int(r)] = UInt64(t.fromTail[o])
                }
            }
            while !search.heap.isEmpty {
                let (u, d) = search.heap.pop()
                let ui = Int(u)
                settledCount += 1
                var stalled = false
                if u < stallBelow {
                    for e in Int(upFirst[ui])..<Int(upFirst[ui + 1]) {
                        let x = upHead[e]
                        if search.isReached(x) && search.labels[Int(x)].dist + UInt64(upWeight[e]) < d { stalled = true; break }
                    }
                }
                if stalled { continue }
                let ou = otherWeight[ui]
                entries.append(Entry(rank: u, target: UInt32(j), weight: d, other: ou))
                for e in Int(downFirst[ui])..<Int(downFirst[ui + 1]) {
                    let x = downTail[e]
                    if search.reach(x, d + UInt64(downWeight[e]), parentNode: u, parentArc: UInt32(e)) {
                        otherWeight[Int(x)] = ou + UInt64(edgeOther[upCount + e])
                    }
                }
            }
        }
        bucketEntryCount = entries.count
        // counting sort of the entries by rank into `sorted` (buckets are contiguous per rank)
        ranks.removeAll(keepingCapacity: true)
        for en in entries {
            let r = Int(en.rank)
            if bucketStamp[r] != stamp { bucketStamp[r] = stamp; bucketCount[r] = 0; ranks.append(en.rank) }
            bucketCount[r] += 1
        }
        var next: UInt32 = 0
        for r in ranks {
            bucketFirst[Int(r)] = next
            bucketFill[Int(r)] = next
            next += bucketCount[Int(r)]
        }
        if sorted.count < entries.count { sorted = entries }
        for en in entries {
            let r = Int(en.rank)
            sorted[Int(bucketFill[r])] = en
            bucketFill[r] += 1
        }
        // 2. forward searches: scan the buckets
        for (i, cands) in sources.enumerated() {
            search.begin()
            for s in cands {
                let r = rank[Int(net.arcHead[Int(s.arc)])]
                if search.reach(r, UInt64(s.toHead[k]), parentNode: UInt32.max, parentArc: UInt32.max) {
                    otherWeight[Int(r)] = UInt64(s.toHead[o])
                }
            }
            let row = i * cols
            while !search.heap.isEmpty {
                let (u, d) = search.heap.pop()
                let ui = Int(u)
                settledCount += 1
                var stalled = false
                if u < stallBelow {
                    for e in Int(downFirst[ui])..<Int(downFirst[ui + 1]) {
                        let x = downTail[e]
                        if search.isReached(x) && search.labels[Int(x)].dist + UInt64(downWeight[e]) < d { stalled = true; break }
                    }
                }
                if stalled { continue }
                let ou = otherWeight[ui]
                if bucketStamp[ui] == stamp {
                    let first = Int(bucketFirst[ui])
                    for b in first..<(first + Int(bucketCount[ui])) {
                        let en = sorted[b]
                        let w = d + en.weight
                        let c = row + Int(en.target)
                        if let cell = result[c], cell.weight <= w { continue }
                        let other = ou + en.other
                        result[c] = k == 0 ? MatrixCell(weight: w, distanceCentimeters: other, timeMilliseconds: w)
                                           : MatrixCell(weight: w, distanceCentimeters: w, timeMilliseconds: other)
                    }
                }
                for e in Int(upFirst[ui])..<Int(upFirst[ui + 1]) {
                    let x = upHead[e]
                    if search.reach(x, d + UInt64(upWeight[e]), parentNode: u, parentArc: UInt32(e)) {
                        otherWeight[Int(x)] = ou + UInt64(edgeOther[e])
                    }
                }
            }
        }
        // 3. straight along a shared arc, the target ahead (strictly better only, as the router)
        for (i, starts) in sources.enumerated() {
            for (j, ends) in targets.enumerated() {
                for s in starts {
                    for t in ends where s.arc == t.arc && t.fraction >= s.fraction && t.fromTail[k] >= s.fromTail[k] {
                        let w = UInt64(t.fromTail[k] - s.fromTail[k])
                        let c = i * cols + j
                        if let cell = result[c], cell.weight <= w { continue }
                        result[c] = MatrixCell(weight: w, distanceCentimeters: UInt64(t.fromTail[1] - min(t.fromTail[1], s.fromTail[1])),
                                               timeMilliseconds: UInt64(t.fromTail[0] - min(t.fromTail[0], s.fromTail[0])))
                    }
                }
            }
        }
        return result
    }
}

extension RoadGraph {
    /// A many-to-many matrix for the calling thread (see ``ContractionHierarchyMatrix``).
    public func makeMatrix(metric: GraphMetric) -> ContractionHierarchyMatrix {
        ContractionHierarchyMatrix(graph: self, metric: metric)
    }
}
