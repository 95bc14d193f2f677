import Foundation
import GeoFareCore

extension RoadGraph {
    /// How far from the centre line a point must lie to have a side, metres: a point closer than
    /// this to its road (one given on the road, at a node's own coordinates) keeps both directions.
    public static let curbCentreMeters = 0.1

    /// The candidates a taxi may use to leave or reach `point` at the kerb: on a two-way road only
    /// the direction that has the point on its right-hand side (traffic drives on the right, as in
    /// Korea and the US). A candidate is dropped when the point lies more than
    /// ``curbCentreMeters`` to its left and the arc back between the same two nodes is also a
    /// candidate; a one-way road (no arc back among the candidates) and a point on the centre
    /// line keep every candidate, so the result is never empty when `candidates` is not.
    /// - Parameters:
    ///   - candidates: what ``snap(_:maxDistanceMeters:field:)`` gave for `point`.
    ///   - point: the request point (WGS84).
    /// - Complexity: O(c² + the candidates' polyline points), c the number of candidates.
    public func curbSide(_ candidates: [SnapCandidate], of point: Coordinate) -> [SnapCandidate] {
        guard candidates.count > 1 else { return candidates }
        let net = network
        var points: [(lat: Int32, lon: Int32)] = []
        let left = candidates.map { c -> Bool in
            guard c.distanceMeters > Self.curbCentreMeters else { return false }
            return Self.sideMeters(of: point, from: c, polyline: { net.polyline(Int(c.arc), into: &points); return points }()) > Self.curbCentreMeters
        }
        return candidates.enumerated().filter { i, c in
            guard left[i] else { return true }
            let tail = net.arcTail[Int(c.arc)], head = net.arcHead[Int(c.arc)]
            // the same road driven the other way, with the point on its right
            return !candidates.enumerated().contains { j, r in
                j != i && !left[j] && net.arcTail[Int(r.arc)] == head && net.arcHead[Int(r.arc)] == tail
            }
        }.map(\.1)
    }

    /// Signed distance of `point` from the direction of travel along the candidate's arc at the
    /// snapped point, metres: positive to the left, negative to the right (local equirectangular
    /// frame, x east, y north).
    static func sideMeters(of point: Coordinate, from c: SnapCandidate, polyline: [(lat: Int32, lon: Int32)]) -> Double {
        let cumulative = RoadGraphRouter.cumulativeFractions(polyline)
        // the segment holding the snapped fraction, skipping zero-length ones
        var k = 1
        while k < polyline.count - 1 && (cumulative[k] < c.fraction || cumulative[k] == cumulative[k - 1]) { k += 1 }
        let my = Snapper.metersPerDegree, mx = my * cos(c.point.latitude * .pi / 180)
        let dx = Double(polyline[k].lon - polyline[k - 1].lon) / 1e7 * mx, dy = Double(polyline[k].lat - polyline[k - 1].lat) / 1e7 * my
        let px = (point.longitude - c.point.longitude) * mx, py = (point.latitude - c.point.latitude) * my
        let length = (dx * dx + dy * dy).squareRoot()
        return length > 0 ? (dx * py - dy * px) / length : 0
    }
}
