import GeoFareCore

extension RoadGraph {
    /// What a route estimator needs of each piece of a path: its share of the path's exact
    /// centimetres and milliseconds, whether a traffic signal stands at its end, and a point in
    /// its middle (to tell inside from outside a zone along the road).
    public struct PieceDetail: Sendable, Hashable {
        /// Metres of road, so that the pieces sum exactly to ``GraphPath/distanceMeters``.
        public var distanceMeters: Double
        /// Free-flow seconds by the profile (signal penalty included), summing to ``GraphPath/timeSeconds``.
        public var freeFlowSeconds: Double
        /// The piece reaches its arc's head and a signal stands there: its time includes the wait.
        public var signalAtEnd: Bool
        /// The profile's road class index of the arc.
        public var roadClass: UInt8
        /// The point halfway along the piece.
        public var midpoint: Coordinate
    }

    /// The pieces of `path` in driving order, described (see ``PieceDetail``).
    public func details(of path: GraphPath) -> [PieceDetail] {
        let net = network
        var out: [PieceDetail] = []
        out.reserveCapacity(path.pieces.count)
        var points: [(lat: Int32, lon: Int32)] = []
        for (i, p) in path.pieces.enumerated() {
            let a = Int(p.arc)
            let cm: UInt32, ms: UInt32
            if path.pieces.count == 1 {  // both points on one arc, the target ahead (the router's direct case)
                cm = path.to.fromTail[1] - min(path.to.fromTail[1], path.from.fromTail[1])
                ms = path.to.fromTail[0] - min(path.to.fromTail[0], path.from.fromTail[0])
            } else if i == 0 {
                cm = path.from.toHead[1]; ms = path.from.toHead[0]
            } else if i == path.pieces.count - 1 {
                cm = path.to.fromTail[1]; ms = path.to.fromTail[0]
            } else {
                cm = net.arcDistanceCentimeters[a]; ms = net.arcTimeMilliseconds[a]
            }
            net.polyline(a, into: &points)
            let mid = Self.point(at: (p.fractionFrom + p.fractionTo) / 2, of: points)
            out.append(PieceDetail(distanceMeters: Double(cm) / 100, freeFlowSeconds: Double(ms) / 1000,
                                   signalAtEnd: p.fractionTo >= 1 && ArcFlags(rawValue: net.arcFlags[a]).contains(.signalAtHead),
                                   roadClass: net.arcRoadClass[a], midpoint: mid))
        }
        return out
    }

    /// The point at a fraction of a polyline's length (local equirectangular, as snapping measures).
    static func point(at fraction: Double, of points: [(lat: Int32, lon: Int32)]) -> Coordinate {
        let c = RoadGraphRouter.cumulativeFractions(points)
        var k = 1
        while k < points.count - 1 && c[k] < fraction { k += 1 }
        let span = c[k] - c[k - 1]
        let t = span > 0 ? max(0, min(1, (fraction - c[k - 1]) / span)) : 0
        let lat = (Double(points[k - 1].lat) + (Double(points[k].lat) - Double(points[k - 1].lat)) * t) / 1e7
        let lon = (Double(points[k - 1].lon) + (Double(points[k].lon) - Double(points[k - 1].lon)) * t) / 1e7
        return Coordinate(uncheckedLatitude: lat, longitude: lon)
    }
}
