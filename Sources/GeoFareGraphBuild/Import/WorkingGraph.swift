import GeoFareGraph

/// The road graph while it is being extracted: nodes indexed by their place in the sorted
/// array of used OSM node ids (plus copies made for turn restrictions), arcs with the index of
/// the way they come from, shapes in one pool. Deleted arcs stay in place, flagged.
struct WorkingGraph {
    var nodeLatitudes: [Int32] = [], nodeLongitudes: [Int32] = []
    var nodeSignal: [Bool] = []
    /// The original node (index into the sorted OSM node ids) each node is, or is a copy of.
    var nodeOrigin: [Int32] = []

    var arcTail: [Int32] = [], arcHead: [Int32] = [], arcWay: [Int32] = []
    var arcDistanceCentimeters: [UInt32] = []
    /// Travel time without any signal penalty, milliseconds (the penalty depends on the final head).
    var arcTravelMilliseconds: [UInt32] = []
    var arcRoadClass: [UInt8] = []
    var arcFlags: [UInt8] = []
    var arcShapeStart: [Int32] = [], arcShapeCount: [Int32] = []
    var arcDeleted: [Bool] = []
    var shapeLatitudes: [Int32] = [], shapeLongitudes: [Int32] = []
    var signalPenaltyMilliseconds: UInt32 = 0

    var nodeCount: Int { nodeLatitudes.count }
    var liveArcCount: Int { arcDeleted.reduce(0) { $0 + ($1 ? 0 : 1) } }
    /// Nodes that are the tail or head of a live arc.
    var routingNodeCount: Int {
        var used = [Bool](repeating: false, count: nodeCount)
        for a in 0..<arcTail.count where !arcDeleted[a] { used[Int(arcTail[a])] = true; used[Int(arcHead[a])] = true }
        return used.reduce(0) { $0 + ($1 ? 1 : 0) }
    }

    /// A new node at `v`'s place (a copy made for a turn restriction), without arcs.
    mutating func appendNode(copyOf v: Int32) -> Int32 {
        nodeLatitudes.append(nodeLatitudes[Int(v)])
        nodeLongitudes.append(nodeLongitudes[Int(v)])
        nodeSignal.append(nodeSignal[Int(v)])
        nodeOrigin.append(nodeOrigin[Int(v)])
        return Int32(nodeLatitudes.count - 1)
    }

    mutating func appendArc(copyOf b: Int, tail: Int32, head: Int32? = nil) -> Int32 {
        arcTail.append(tail)
        arcHead.append(head ?? arcHead[b])
        arcWay.append(arcWay[b])
        arcDistanceCentimeters.append(arcDistanceCentimeters[b])
        arcTravelMilliseconds.append(arcTravelMilliseconds[b])
        arcRoadClass.append(arcRoadClass[b])
        arcFlags.append(arcFlags[b])
        arcShapeStart.append(arcShapeStart[b])
        arcShapeCount.append(arcShapeCount[b])
        arcDeleted.append(false)
        return Int32(arcTail.count - 1)
    }

    /// Applies the turn restrictions: the via-node ones first (``applyViaNodeRestrictions``),
    /// then the via-way ones (``applyViaWayRestrictions``), which keep what the first did.
    mutating func applyRestrictions(_ restrictions: [WayCollector.Restriction], ways: WayCollector, nodeIds: [Int64], report: inout ImportReport) {
        guard !restrictions.isEmpty else { return }
        var wayIndex: [Int64: Int32] = [:]
        wayIndex.reserveCapacity(ways.wayIds.count)
        for (i, id) in ways.wayIds.enumerated() { wayIndex[id] = Int32(i) }
        applyViaNodeRestrictions(restrictions.filter { $0.viaWays.isEmpty }, nodeIds: nodeIds, wayIndex: wayIndex, report: &report)
        applyViaWayRestrictions(restrictions.filter { !$0.viaWays.isEmpty }, ways: ways, nodeIds: nodeIds, wayIndex: wayIndex, report: &report)
    }

    /// Applies via-node turn restrictions by node splitting: each restricted via node gets one
    /// copy per incoming arc, and each copy keeps only the outgoing arcs that turn is allowed into.
    mutating func applyViaNodeRestrictions(_ restrictions: [WayCollector.Restriction], nodeIds: [Int64], wayIndex: [Int64: Int32], report: inout ImportReport) {
        guard !restrictions.isEmpty else { return }
        struct Rule { var isOnly: Bool; var from: Set<Int32>; var to: Set<Int32>; var applied = false }
        var rulesAt: [Int32: [Rule]] = [:]
        for r in restrictions {
            guard let v = nodeIds.sortedIndex(of: r.via) else {
                report.restrictionsSkipped["via_not_routable", default: 0] += 1
                continue
            }
            let from = Set(r.from.compactMap { wayIndex[$0] })
            let to = Set(r.to.compactMap { wayIndex[$0] })
            guard !from.isEmpty, !to.isEmpty else {
                report.restrictionsSkipped["way_not_routable", default: 0] += 1
                continue
            }
            rulesAt[Int32(v), default: []].append(Rule(isOnly: r.isOnly, from: from, to: to))
        }
        guard !rulesAt.isEmpty else { return }
        var incoming: [Int32: [Int32]] = [:]
        var outgoing: [Int32: [Int32]] = [:]
        for a in 0..<arcTail.count where !arcDeleted[a] {
            if rulesAt[arcHead[a]] != nil { incoming[arcHead[a], default: []].append(Int32(a)) }
            if rulesAt[arcTail[a]] != nil { outgoing[arcTail[a], default: []].append(Int32(a)) }
        }
        var pending = Set(rulesAt.keys)
        for v in rulesAt.keys.sorted() {
            pending.remove(v)
            var rules = rulesAt[v]!
            let inc = (incoming[v] ?? []).filter { !arcDeleted[Int($0)] }
            let out = (outgoing[v] ?? []).filter { !arcDeleted[Int($0)] }
            func allowed(_ a: Int32, _ b: Int32) -> Bool {
                let wa = arcWay[Int(a)], wb = arcWay[Int(b)]
                for r in rules where r.from.contains(wa) {
                    if r.isOnly ? !r.to.contains(wb) : r.to.contains(wb) { return false }
                }
                return true
            }
            for i in rules.indices {
                let hasFrom = inc.contains { rules[i].from.contains(arcWay[Int($0)]) }
                let hasTo = out.contains { rules[i].to.contains(arcWay[Int($0)]) }
                rules[i].applied = hasFrom && hasTo
                if rules[i].applied { report.restrictionsApplied += 1 } else { report.restrictionsSkipped["not_at_via", default: 0] += 1 }
            }
            rules.removeAll { !$0.applied }
            guard !rules.isEmpty else { continue }
            for (i, a) in inc.enumerated() {
                var c = v
                if i > 0 {
                    c = appendNode(copyOf: v)
                    report.restrictionNodeCopies += 1
                    arcHead[Int(a)] = c
                }
                for b in out where allowed(a, b) {
                    let copy = appendArc(copyOf: Int(b), tail: c)
                    let h = arcHead[Int(b)]
                    if pending.contains(h) { incoming[h, default: []].append(copy) }
                }
            }
            for b in out { arcDeleted[Int(b)] = true }
        }
    }

    /// The nodes of the largest strongly connected component of the live arcs.
    func largestComponent() -> [Bool] {
        let n = nodeCount
        var firstOut = [Int](repeating: 0, count: n + 1)
        for a in 0..<arcTail.count where !arcDeleted[a] { firstOut[Int(arcTail[a]) + 1] += 1 }
        for i in 0..<n { firstOut[i + 1] += firstOut[i] }
        var fill = firstOut
        var heads = [Int32](repeating: 0, count: firstOut[n])
        for a in 0..<arcTail.count where !arcDeleted[a] {
            let t = Int(arcTail[a])
            heads[fill[t]] = arcHead[a]
            fill[t] += 1
        }
        let (component, count) = StrongComponents.tarjan(nodeCount: n, firstOut: firstOut, heads: heads)
        guard count > 0 else { return [] }
        var size = [Int](repeating: 0, count: count)
        for c in component { size[Int(c)] += 1 }
        let best = Int32(size.indices.max { size[$0] < size[$1] }!)
        // a component of one node without arcs is no network
        if size[Int(best)] < 2 { return [Bool](repeating: false, count: n) }
        return component.map { $0 == best }
    }

    /// The final network: kept nodes renumbered along a Hilbert curve, arcs sorted by (tail, head).
    func network(keeping keep: [Bool]) -> RoadNetwork {
        var kept: [Int32] = []
        for i in 0..<keep.count where keep[i] { kept.append(Int32(i)) }
        guard !kept.isEmpty else { return RoadNetwork() }
        var minLat = Int32.max, maxLat = Int32.min, minLon = Int32.max, maxLon = Int32.min
        for v in kept {
            minLat = min(minLat, nodeLatitudes[Int(v)]); maxLat = max(maxLat, nodeLatitudes[Int(v)])
            minLon = min(minLon, nodeLongitudes[Int(v)]); maxLon = max(maxLon, nodeLongitudes[Int(v)])
        }
        let latSpan = Double(maxLat) - Double(minLat) + 1, lonSpan = Double(maxLon) - Double(minLon) + 1
        let keys: [UInt64] = kept.map { v in
            let x = UInt32((Double(nodeLongitudes[Int(v)]) - Double(minLon)) / lonSpan * 65535)
            let y = UInt32((Double(nodeLatitudes[Int(v)]) - Double(minLat)) / latSpan * 65535)
            return hilbertIndex(x: x, y: y) << 32 | UInt64(UInt32(v))
        }
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        var newId = [Int32](repeating: -1, count: nodeCount)
        var net = RoadNetwork()
        net.nodeLatitudes.reserveCapacity(kept.count)
        net.nodeLongitudes.reserveCapacity(kept.count)
        for (n, k) in order.enumerated() {
            let v = Int(kept[k])
            newId[v] = Int32(n)
            net.nodeLatitudes.append(nodeLatitudes[v])
            net.nodeLongitudes.append(nodeLongitudes[v])
        }
        var arcs: [Int] = []
        for a in 0..<arcTail.count where !arcDeleted[a] && newId[Int(arcTail[a])] >= 0 && newId[Int(arcHead[a])] >= 0 {
            arcs.append(a)
        }
        arcs.sort { (newId[Int(arcTail[$0])], newId[Int(arcHead[$0])], $0) < (newId[Int(arcTail[$1])], newId[Int(arcHead[$1])], $1) }
        net.shapeStart = [0]
        for a in arcs {
            let head = Int(arcHead[a])
            net.arcTail.append(UInt32(newId[Int(arcTail[a])]))
            net.arcHead.append(UInt32(newId[head]))
            net.arcDistanceCentimeters.append(arcDistanceCentimeters[a])
            var flags = ArcFlags(rawValue: arcFlags[a])
            var time = UInt64(arcTravelMilliseconds[a])
            if nodeSignal[head] && signalPenaltyMilliseconds > 0 {
                flags.insert(.signalAtHead)
                time += UInt64(signalPenaltyMilliseconds)
            }
            net.arcTimeMilliseconds.append(UInt32(min(time, UInt64(UInt32.max))))
            net.arcRoadClass.append(arcRoadClass[a])
            net.arcFlags.append(flags.rawValue)
            let s = Int(arcShapeStart[a]), c = Int(arcShapeCount[a])
            net.shapeLatitudes.append(contentsOf: shapeLatitudes[s..<(s + c)])
            net.shapeLongitudes.append(contentsOf: shapeLongitudes[s..<(s + c)])
            net.shapeStart.append(UInt32(net.shapeLatitudes.count))
        }
        return net
    }
}

/// The index of (x, y) on a Hilbert curve over a 65536 × 65536 grid.
func hilbertIndex(x: UInt32, y: UInt32) -> UInt64 {
    var x = x, y = y
    var d: UInt64 = 0
    var s: UInt32 = 1 << 15
    let n: UInt32 = 1 << 16
    while s > 0 {
        let rx: UInt32 = (x & s) > 0 ? 1 : 0
        let ry: UInt32 = (y & s) > 0 ? 1 : 0
        d += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
        if ry == 0 {
            if rx == 1 { x = n - 1 - x; y = n - 1 - y }
            swap(&x, &y)
        }
        s >>= 1
    }
    return d
}
