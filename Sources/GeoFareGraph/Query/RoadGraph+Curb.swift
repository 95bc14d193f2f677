import Foundation
import GeoFareCore

extension RoadGraph {
    /// How far from the centre line a point must lie to have a side, metres: a point closer than
    /// this to its road (one given on the road, at a node's own coordinates) keeps both directions.
    public static let curbCentreMeters = 0.1

    /// The candidates a taxi may use to leave or reach `point` at the kerb: on a two-way road only
    /// the direction that has the point on its right-hand side (traffic drives on the right, as in
    /// Korea and the US). A candidate is dropped when the point lies more than
    /// ``curbCentreMeters`` to its left and the same road driven the other way (the arc back
    /// between the same two nodes, or one snapped at the same point, within 1 cm, along an
    /// opposite segment: a turn restriction's copy of a node) is a candidate with the point on its
    /// right; a one-way road and a point on the centre line keep every candidate, so the result is
    /// never empty when `candidates` is not.
    /// - Parameters:
    ///   - candidates: what ``snap(_:maxDistanceMeters:field:)`` gave for `point`.
    ///   - point: the request point (WGS84).
    /// - Complexity: O(c² + the candidates' polyline points), c the number of candidates.
    public func curbSide(_ candidates: [SnapCandidate], of point: Coordinate) -> [SnapCandidate] {
        guard candidates.count > 1 else { return candidates }
        let net = network
        var points: [(lat: Int32, lon: Int32)] = []
        let frames = candidates.map { c -> (side: Double, dx: Double, dy: Double) in
            net.polyline(Int(c.arc), into: &points)
            return Self.frame(of: point, from: c, polyline: points)
        }
        let left = candidates.indices.map { c in candidates[c].distanceMeters > Self.curbCentreMeters && frames[c].side > Self.curbCentreMeters }
        /// `r` drives the road of `c` the other way: the arc back between the same nodes, or (where
        /// a turn restriction gave one end node a copy) the same snapped point on an opposite segment.
        func reverse(_ c: Int, _ r: Int) -> Bool {
            let a = Int(candidates[c].arc), b = Int(candidates[r].arc)
            if net.arcTail[b] == net.arcHead[a] && net.arcHead[b] == net.arcTail[a] { return true }
            let p = candidates[c].point, q = candidates[r].point
            let my = Snapper.metersPerDegree, mx = my * cos(p.latitude * .pi / 180)
            let gap = hypot((p.longitude - q.longitude) * mx, (p.latitude - q.latitude) * my)
            return gap < 0.01 && frames[c].dx * frames[r].dx + frames[c].dy * frames[r].dy < -0.99
        }
        return candidates.indices.filter { c in
            // dropped: the point on its left, and the same road driven the other way with the point on its right
            !(left[c] && candidates.indices.contains { r in r != c && !left[r] && reverse(c, r) })
        }.map { candidates[$0] }
    }

    /// Signed distance of `point` from the direction of travel along the candidate's arc at the
    /// snapped point, metres (positive to the left, negative to the right), and that direction as
    /// a unit vector (local equirectangular frame, x east, y north).
    static func frame(of point: Coordinate, from c: SnapCandidate, polyline: [(lat: Int32, lon: Int32)]) -> (side: Double, dx: Double, dy: Double) {
        let cumulative = RoadGraphRouter.cumulativeFractions(polyline)
        // the segment holding the snapped fraction, skipping zero-length ones
        var k = 1
        while k < polyline.count - 1 && (cumulative[k] < c.fraction || cumulative[k] == cumulative[k - 1]) { k += 1 }
        let my = Snapper.metersPerDegree, mx = my * cos(c.point.latitude * .pi / 180)
        let dx = Double(polyline[k].lon - polyline[k - 1].lon) / 1e7 * mx, dy = Double(polyline[k].lat - polyline[k - 1].lat) / 1e7 * my
        let px = (point.longitude - c.point.longitude) * mx, py = (point.latitude - c.point.latitude) * my
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return (0, 0, 0) }
        return ((dx * py - dy * px) / length, dx / length, dy / length)
    }
}
