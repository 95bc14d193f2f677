import Foundation
import GeoFareCore

extension PartyIndex {
    /// The parties whose origin is within a radius of a point, nearest first.
    ///
    /// Distances are great-circle metres on a sphere of the mean Earth radius
    /// (``FastDistance/haversineMeters(_:_:)``): within about 0.3 % of the WGS84 geodesic in
    /// Korea and 0.56 % anywhere. Use `GeoFareProj.Geodesic` where an exact figure matters.
    /// The same function ranks and is reported, so the order always agrees with the numbers.
    ///
    /// - Parameters:
    ///   - center: the query point.
    ///   - radiusMeters: 0...1,000,000 (inclusive).
    ///   - limit: 1...10,000 results at most.
    ///   - filter: parties to consider.
    /// - Returns: parties with their distances, sorted by distance, ties by id (UTF-8 bytes).
    /// - Throws: ``GeoFareError`` naming `center.lat`/`center.lon`, `radius_m`, `limit` or a
    ///   filter field.
    /// - Complexity: best-first search over the tree's node bounds: about
    ///   O((limit + parties of the leaves it opens) · log) for an unfiltered query.
    public func nearby(center: Coordinate, radiusMeters: Double, limit: Int, filter: PartyFilter) throws(GeoFareError) -> [(party: Party, distanceMeters: Double)] {
        do { try Coordinate.validate(latitude: center.latitude, longitude: center.longitude) } catch { throw error.prefixed("center") }
        guard radiusMeters.isFinite else { throw .notFinite("radius_m", radiusMeters) }
        guard radiusMeters >= 0 && radiusMeters <= PartyFilter.maxRadiusMeters else {
            throw .outOfRange("radius_m", radiusMeters, 0...PartyFilter.maxRadiusMeters)
        }
        guard (1...10_000).contains(limit) else { throw .outOfRange("limit", Double(limit), 1...10_000) }
        try filter.validate()
        return search(center: center, k: limit, maxMeters: radiusMeters, filter: CompiledFilter(filter))
    }

    /// The `k` parties whose origins are nearest to a point, nearest first (any distance).
    ///
    /// Distances as in ``nearby(center:radiusMeters:limit:filter:)``.
    /// - Parameters:
    ///   - k: 1...10,000.
    /// - Throws: ``GeoFareError`` naming `center.lat`/`center.lon`, `k` or a filter field.
    /// - Complexity: as ``nearby(center:radiusMeters:limit:filter:)``; a selective filter
    ///   may open many leaves.
    public func nearest(center: Coordinate, k: Int, filter: PartyFilter) throws(GeoFareError) -> [(party: Party, distanceMeters: Double)] {
        do { try Coordinate.validate(latitude: center.latitude, longitude: center.longitude) } catch { throw error.prefixed("center") }
        guard (1...10_000).contains(k) else { throw .outOfRange("k", Double(k), 1...10_000) }
        try filter.validate()
        return search(center: center, k: k, maxMeters: .infinity, filter: CompiledFilter(filter))
    }

    /// Best-first k-nearest search bounded by `maxMeters`.
    private func search(center: Coordinate, k: Int, maxMeters: Double, filter: CompiledFilter) -> [(party: Party, distanceMeters: Double)] {
        let nodes = tree.nodes, tree = tree, columns = columns
        let bound = SphericalBound(center: center)
        // Nodes by the least distance any party under them can have.
        var queue = BinaryHeap<(Double, Int32)> { $0.0 < $1.0 }
        // The best k so far, worst on top: larger distance, then larger id, is "less".
        var best = BinaryHeap<(Double, UInt32)> { a, b in a.0 > b.0 || (a.0 == b.0 && columns.idLess(b.1, a.1)) }
        if nodes[0].count > 0 { queue.push((0, 0)) }
        while let (lower, n) = queue.pop() {
            if lower > maxMeters { break }
            if best.count == k, let worst = best.top, lower > worst.0 { break }
            let node = nodes[Int(n)]
            if node.child < 0 {
                columns.hot.withUnsafeBufferPointer { hot in
                    tree.withSlots(ofLeaf: node) { bucket in
                    for slot in bucket {
                        let h = hot[Int(slot)]
                        guard filter.matches(h) else { continue }
                        let d = FastDistance.haversineMeters(center, Coordinate(uncheckedLatitude: h.lat, longitude: h.lon))
                        guard d <= maxMeters else { continue }
                        if best.count == k, let worst = best.top {
                            guard d < worst.0 || (d == worst.0 && columns.idLess(slot, worst.1)) else { continue }
                        }
                        guard filter.destination == nil || filter.matchesDestination(columns.destination[Int(slot)]) else { continue }
                        if best.count == k { best.replaceTop((d, slot)) } else { best.push((d, slot)) }
                    }
                    }
                }
            } else if node.child > 0 {
                for c in Int(node.child)..<Int(node.child) + 4 where nodes[c].count > 0 {
                    let lb = bound.lowerBoundMeters(nodes[c])
                    if lb > maxMeters { continue }
                    if best.count == k, let worst = best.top, lb > worst.0 { continue }
                    queue.push((lb, Int32(c)))
                }
            }
        }
        var found = best.elements
        found.sort { a, b in a.0 < b.0 || (a.0 == b.0 && columns.idLess(a.1, b.1)) }
        return found.map { (columns.party(at: $0.1), $0.0) }
    }
}
