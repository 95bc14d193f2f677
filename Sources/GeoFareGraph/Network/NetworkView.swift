import GeoFareCore
/// Read-only views of a ``RoadNetwork``'s arrays: into a mapped graph file or into memory a
/// ``BufferOwner`` keeps. Field meanings are ``RoadNetwork``'s.
package struct NetworkView: @unchecked Sendable {
    var nodeLatitudes: UnsafeBufferPointer<Int32>, nodeLongitudes: UnsafeBufferPointer<Int32>
    var arcTail: UnsafeBufferPointer<UInt32>, arcHead: UnsafeBufferPointer<UInt32>
    var arcDistanceCentimeters: UnsafeBufferPointer<UInt32>, arcTimeMilliseconds: UnsafeBufferPointer<UInt32>
    var arcRoadClass: UnsafeBufferPointer<UInt8>, arcFlags: UnsafeBufferPointer<UInt8>
    var shapeStart: UnsafeBufferPointer<UInt32>, shapeLatitudes: UnsafeBufferPointer<Int32>, shapeLongitudes: UnsafeBufferPointer<Int32>

    var nodeCount: Int { nodeLatitudes.count }
    var arcCount: Int { arcTail.count }

    func weights(_ metric: GraphMetric) -> UnsafeBufferPointer<UInt32> {
        metric == .fastest ? arcTimeMilliseconds : arcDistanceCentimeters
    }

    package init(keeping n: RoadNetwork, in owner: BufferOwner) {
        nodeLatitudes = owner.keep(n.nodeLatitudes); nodeLongitudes = owner.keep(n.nodeLongitudes)
        arcTail = owner.keep(n.arcTail); arcHead = owner.keep(n.arcHead)
        arcDistanceCentimeters = owner.keep(n.arcDistanceCentimeters); arcTimeMilliseconds = owner.keep(n.arcTimeMilliseconds)
        arcRoadClass = owner.keep(n.arcRoadClass); arcFlags = owner.keep(n.arcFlags)
        shapeStart = owner.keep(n.shapeStart); shapeLatitudes = owner.keep(n.shapeLatitudes); shapeLongitudes = owner.keep(n.shapeLongitudes)
    }

    /// The network sections of `file`, checked so that no index leaves its array.
    /// - Throws: ``GeoFareError`` `graph_corrupt` naming the section at fault.
    init(file: GraphFile) throws(GeoFareError) {
        typealias S = GraphFileLayout.Section
        guard let lat = file.view(S.nodeLatitudes, as: Int32.self) else { throw file.corrupt("no node section") }
        let n = lat.count
        guard let lon = file.view(S.nodeLongitudes, as: Int32.self, count: n),
              let tail = file.view(S.arcTail, as: UInt32.self) else { throw file.corrupt("node or arc sections missing") }
        let m = tail.count
        guard let head = file.view(S.arcHead, as: UInt32.self, count: m),
              let dist = file.view(S.arcDistanceCentimeters, as: UInt32.self, count: m),
              let time = file.view(S.arcTimeMilliseconds, as: UInt32.self, count: m),
              let cls = file.view(S.arcRoadClass, as: UInt8.self, count: m),
              let flags = file.view(S.arcFlags, as: UInt8.self, count: m),
              let start = file.view(S.shapeStart, as: UInt32.self, count: m + 1),
              let slat = file.view(S.shapeLatitudes, as: Int32.self),
              let slon = file.view(S.shapeLongitudes, as: Int32.self, count: slat.count)
        else { throw file.corrupt("arc or shape sections missing or of the wrong size") }
        nodeLatitudes = lat; nodeLongitudes = lon; arcTail = tail; arcHead = head
        arcDistanceCentimeters = dist; arcTimeMilliseconds = time; arcRoadClass = cls; arcFlags = flags
        shapeStart = start; shapeLatitudes = slat; shapeLongitudes = slon
        guard start[0] == 0, Int(start[m]) == slat.count else { throw file.corrupt("shape starts do not span the shapes") }
        for i in 0..<m {
            guard tail[i] < n, head[i] < n, start[i] <= start[i + 1], dist[i] > 0, time[i] > 0 else {
                throw file.corrupt("arc \(i) is inconsistent")
            }
        }
    }

    /// The polyline of `arc`: tail, shape points, head, in 1e-7 degrees (latitude, longitude).
    func polyline(_ arc: Int, into points: inout [(lat: Int32, lon: Int32)]) {
        points.removeAll(keepingCapacity: true)
        points.append((nodeLatitudes[Int(arcTail[arc])], nodeLongitudes[Int(arcTail[arc])]))
        for s in Int(shapeStart[arc])..<Int(shapeStart[arc + 1]) { points.append((shapeLatitudes[s], shapeLongitudes[s])) }
        points.append((nodeLatitudes[Int(arcHead[arc])], nodeLongitudes[Int(arcHead[arc])]))
    }
}
