/// A planar or geographic point as two doubles, laid out contiguously for batch work.
///
/// `x` is longitude or easting, `y` latitude or northing, in the units of the CRS it belongs
/// to (degrees for geographic systems, metres for the projected ones GeoFare knows).
/// Arrays of `XYPoint` are passed to PROJ in place, 16 bytes a point.
public struct XYPoint: Hashable, Sendable, Codable {
    /// Longitude (degrees) or easting (CRS units).
    public var x: Double
    /// Latitude (degrees) or northing (CRS units).
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Parses `"X,Y"` or `"X Y"` (x first: longitude/easting), e.g. `126.9780,37.5665`.
    public init?(text: Substring) {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == ";" })
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else { return nil }
        self.init(x: x, y: y)
    }
}
