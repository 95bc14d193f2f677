import GeoFareCore
extension RoadNetwork {
    /// Checks that the arrays agree: per-node and per-arc lengths, arc ends are nodes,
    /// `shapeStart` is non-decreasing from 0 to the shape count, weights are positive.
    /// - Throws: ``GeoFareError`` `graph_invalid_network` naming the first array at fault.
    public func validate() throws(GeoFareError) {
        func fail(_ field: String, _ message: String) -> GeoFareError {
            .invalidNetwork(field, message)
        }
        let n = nodeCount, m = arcCount
        guard n < Int(UInt32.max), m < Int(UInt32.max) else { throw fail("arcTail", "too many nodes or arcs (\(n), \(m))") }
        guard nodeLongitudes.count == n else { throw fail("nodeLongitudes", "\(nodeLongitudes.count) longitudes for \(n) nodes") }
        for (name, c) in [("arcHead", arcHead.count), ("arcDistanceCentimeters", arcDistanceCentimeters.count),
                          ("arcTimeMilliseconds", arcTimeMilliseconds.count), ("arcRoadClass", arcRoadClass.count),
                          ("arcFlags", arcFlags.count)] where c != m {
            throw fail(name, "\(c) entries for \(m) arcs")
        }
        guard shapeStart.count == m + 1, shapeStart.first == 0, Int(shapeStart[m]) == shapeLatitudes.count,
              shapeLongitudes.count == shapeLatitudes.count
        else { throw fail("shapeStart", "shapeStart must have arcCount + 1 entries from 0 to the shape point count") }
        for i in 0..<m {
            guard arcTail[i] < n, arcHead[i] < n else { throw fail("arcTail[\(i)]", "arc \(i) joins a node that does not exist") }
            guard arcDistanceCentimeters[i] > 0, arcTimeMilliseconds[i] > 0 else {
                throw fail("arcTimeMilliseconds[\(i)]", "arc \(i) has a zero weight")
            }
            guard shapeStart[i] <= shapeStart[i + 1] else { throw fail("shapeStart[\(i)]", "shapeStart decreases at arc \(i)") }
        }
    }
}
