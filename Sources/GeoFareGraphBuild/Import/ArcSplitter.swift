import GeoFareCore
import GeoFareGraph
import GeoFareOSM

/// Splits kept ways into arcs between routing nodes (see ``OSMRoadNetworkBuilder``).
enum ArcSplitter {
    static func split(ways: WayCollector, nodes: NodeLocator, profile: RoadProfile, report: inout ImportReport) -> WorkingGraph {
        let ids = nodes.ids
        let present = nodes.present
        var g = WorkingGraph()
        g.nodeLatitudes = nodes.latitudes
        g.nodeLongitudes = nodes.longitudes
        g.nodeSignal = [Bool](repeating: false, count: ids.count)
        g.nodeOrigin = Array(0..<Int32(ids.count))
        g.signalPenaltyMilliseconds = UInt32((profile.trafficSignalPenaltySeconds * 1000).rounded())
        for id in ways.signalNodeIds {
            if let i = ids.sortedIndex(of: id), present[i] { g.nodeSignal[i] = true }
        }
        report.signalNodes = g.nodeSignal.reduce(0) { $0 + ($1 ? 1 : 0) }

        // node index of every way reference, and how often each node is used
        var refIndex = [Int32](repeating: 0, count: ways.refs.count)
        var uses = [UInt8](repeating: 0, count: ids.count)
        for (k, r) in ways.refs.enumerated() {
            let i = ids.sortedIndex(of: r)!
            refIndex[k] = Int32(i)
            if uses[i] < 2 { uses[i] += 1 }
        }
        var routing = [Bool](repeating: false, count: ids.count)
        // a signal must be an arc end to put its penalty on the arcs into it; without a penalty it stays a shape point
        let signalsRoute = g.signalPenaltyMilliseconds > 0
        for i in 0..<ids.count { routing[i] = uses[i] >= 2 || (signalsRoute && g.nodeSignal[i]) }
        for w in 0..<ways.wayIds.count {
            let s = ways.wayRefStart[w], e = ways.wayRefStart[w + 1]
            for k in s..<e {
                let i = Int(refIndex[k])
                guard present[i] else { report.missingNodeReferences += 1; continue }
                if k == s || k == e - 1 || !present[Int(refIndex[k - 1])] || !present[Int(refIndex[k + 1])] { routing[i] = true }
            }
        }
        if profile.turnRestrictions {
            // via ways join their from and to ways at shared nodes, routing nodes already
            for r in ways.restrictions where r.viaWays.isEmpty {
                if let i = ids.sortedIndex(of: r.via), present[i] { routing[i] = true }
            }
        }
        // A stretch of way that comes back to the routing node it left (a closed way touching the
        // network at its first/last node only, a loop inside a way) would be an arc from a node to
        // itself: the node halfway along it becomes a routing node, so that the loop is two arcs.
        for w in 0..<ways.wayIds.count {
            let s = ways.wayRefStart[w], e = ways.wayRefStart[w + 1]
            var tail = -1
            for k in s..<e {
                let i = Int(refIndex[k])
                guard present[i] else { tail = -1; continue }
                guard tail >= 0 else { tail = k; continue }
                guard routing[i] else { continue }
                if refIndex[tail] == refIndex[k] && k - tail >= 2 {
                    routing[Int(refIndex[(tail + k) / 2])] = true
                    report.loopsSplit += 1
                }
                tail = k
            }
        }

        var shapeLat: [Int32] = [], shapeLon: [Int32] = []
        for w in 0..<ways.wayIds.count {
            let s = ways.wayRefStart[w], e = ways.wayRefStart[w + 1]
            var tail: Int32 = -1
            var metres = 0.0
            var prev: Int32 = -1
            shapeLat.removeAll(keepingCapacity: true); shapeLon.removeAll(keepingCapacity: true)
            for k in s..<e {
                let i = refIndex[k]
                guard present[Int(i)] else { tail = -1; continue }
                if tail < 0 {
                    tail = i; prev = i; metres = 0
                    shapeLat.removeAll(keepingCapacity: true); shapeLon.removeAll(keepingCapacity: true)
                    continue
                }
                metres += WGS84Geodesic.distanceMeters(latitudeE7: g.nodeLatitudes[Int(prev)], longitudeE7: g.nodeLongitudes[Int(prev)],
                                                       latitudeE7: g.nodeLatitudes[Int(i)], longitudeE7: g.nodeLongitudes[Int(i)])
                prev = i
                guard routing[Int(i)] else {
                    shapeLat.append(g.nodeLatitudes[Int(i)]); shapeLon.append(g.nodeLongitudes[Int(i)])
                    continue
                }
                if i == tail {
                    report.selfLoopsDropped += 1
                } else {
                    emit(&g, way: w, ways: ways, from: tail, to: i, metres: metres, shapeLat: shapeLat, shapeLon: shapeLon)
                }
                tail = i; metres = 0
                shapeLat.removeAll(keepingCapacity: true); shapeLon.removeAll(keepingCapacity: true)
            }
        }
        return g
    }

    private static func emit(_ g: inout WorkingGraph, way w: Int, ways: WayCollector, from tail: Int32, to head: Int32,
                             metres: Double, shapeLat: [Int32], shapeLon: [Int32]) {
        let cm = max(1, (metres * 100).rounded())
        let centimetres = UInt32(min(cm, Double(UInt32.max)))
        func milliseconds(_ kmh: Double) -> UInt32 {
            UInt32(min(Double(UInt32.max / 2), max(1, (metres * 3600 / kmh).rounded())))
        }
        if ways.wayForward[w] {
            let start = Int32(g.shapeLatitudes.count)
            g.shapeLatitudes.append(contentsOf: shapeLat); g.shapeLongitudes.append(contentsOf: shapeLon)
            append(&g, w, ways, tail, head, centimetres, milliseconds(ways.waySpeedForwardKmh[w]), start, Int32(shapeLat.count))
        }
        if ways.wayBackward[w] {
            let start = Int32(g.shapeLatitudes.count)
            g.shapeLatitudes.append(contentsOf: shapeLat.reversed()); g.shapeLongitudes.append(contentsOf: shapeLon.reversed())
            append(&g, w, ways, head, tail, centimetres, milliseconds(ways.waySpeedBackwardKmh[w]), start, Int32(shapeLat.count))
        }
    }

    private static func append(_ g: inout WorkingGraph, _ w: Int, _ ways: WayCollector, _ tail: Int32, _ head: Int32,
                               _ cm: UInt32, _ ms: UInt32, _ shapeStart: Int32, _ shapeCount: Int32) {
        g.arcTail.append(tail)
        g.arcHead.append(head)
        g.arcWay.append(Int32(w))
        g.arcDistanceCentimeters.append(cm)
        g.arcTravelMilliseconds.append(ms)
        g.arcRoadClass.append(ways.wayClass[w])
        g.arcFlags.append(ways.wayFlags[w].rawValue)
        g.arcShapeStart.append(shapeStart)
        g.arcShapeCount.append(shapeCount)
        g.arcDeleted.append(false)
    }
}
