import GeoFareCore

/// A route through a ``RoadGraph`` between two snapped points.
public struct GraphPath: Sendable, Hashable {
    /// A stretch of one network arc, between two fractions of its polyline's length (0 tail, 1 head).
    public struct ArcPiece: Sendable, Hashable {
        public var arc: UInt32
        public var fractionFrom, fractionTo: Double
    }

    /// The metric the route minimised.
    public var metric: GraphMetric
    /// Length in metres: the exact sum of the pieces' centimetres (partial arcs pro rata, rounded to the cm) / 100.
    public var distanceMeters: Double
    /// Travel time in seconds: the sum of the pieces' milliseconds / 1000.
    public var timeSeconds: Double
    /// The pieces in driving order.
    public var pieces: [ArcPiece]
    /// Where the two points snapped.
    public var from: SnapCandidate, to: SnapCandidate
    /// The polyline from `from.point` to `to.point` when asked for, else empty.
    public var geometry: [Coordinate]
}
