/// A longitude/latitude box in degrees that may cross the antimeridian.
///
/// When `west > east` the box wraps across 180°: it covers `west...180` and `-180...east`.
public struct BoundingBox: Hashable, Sendable, Codable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    /// Creates a validated box.
    /// - Throws: ``GeoFareError`` when a value is not finite, a latitude is outside ±90, a
    ///   longitude outside ±180, or `south > north`.
    public init(west: Double, south: Double, east: Double, north: Double) throws(GeoFareError) {
        for (name, v) in [("west", west), ("south", south), ("east", east), ("north", north)] where !v.isFinite {
            throw .notFinite(name, v)
        }
        for (name, v) in [("west", west), ("east", east)] where !(-180.0...180.0).contains(v) {
            throw .outOfRange(name, v, -180...180, code: .longitudeOutOfRange)
        }
        for (name, v) in [("south", south), ("north", north)] where !(-90.0...90.0).contains(v) {
            throw .outOfRange(name, v, -90...90, code: .latitudeOutOfRange)
        }
        guard south <= north else {
            throw .southAboveNorth(south: south, north: north)
        }
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// True when the box wraps across the antimeridian.
    public var crossesAntimeridian: Bool { west > east }

    /// Whether the box contains a coordinate (edges included).
    public func contains(_ c: Coordinate) -> Bool {
        guard c.latitude >= south && c.latitude <= north else { return false }
        return crossesAntimeridian
            ? (c.longitude >= west || c.longitude <= east)
            : (c.longitude >= west && c.longitude <= east)
    }
}
