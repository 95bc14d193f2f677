/// A validated WGS84 position: longitude and latitude in degrees.
///
/// GeoFare always orders coordinates (longitude, latitude) internally; the JSON protocol names
/// them (`{"lat":..,"lon":..}`). A `Coordinate` can only hold a finite latitude within ±90° and a
/// finite longitude within ±180°, so code that receives one never has to check again.
public struct Coordinate: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Longitude in degrees east, −180...180.
    public let longitude: Double
    /// Latitude in degrees north, −90...90.
    public let latitude: Double

    /// Creates a coordinate after validating both values.
    /// - Throws: ``GeoFareError`` with code `not_finite`, `latitude_out_of_range` or
    ///   `longitude_out_of_range`, its field `lat` or `lon`.
    public init(latitude: Double, longitude: Double) throws(GeoFareError) {
        try Coordinate.validate(latitude: latitude, longitude: longitude)
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a coordinate the caller has already validated (hot loops over checked arrays).
    public init(uncheckedLatitude latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Checks a latitude/longitude pair without building a coordinate.
    /// - Throws: ``GeoFareError`` naming `lat` or `lon`.
    @inlinable
    public static func validate(latitude: Double, longitude: Double) throws(GeoFareError) {
        guard latitude.isFinite else { throw .notFinite("lat", latitude) }
        guard longitude.isFinite else { throw .notFinite("lon", longitude) }
        guard (-90.0...90.0).contains(latitude) else {
            throw .outOfRange("lat", latitude, -90...90, code: .latitudeOutOfRange)
        }
        guard (-180.0...180.0).contains(longitude) else {
            throw .outOfRange("lon", longitude, -180...180, code: .longitudeOutOfRange)
        }
    }

    /// Parses `"LAT,LON"` (latitude first, as people write it), e.g. `37.5665,126.9780`.
    /// - Throws: ``GeoFareError`` with code `invalid_coordinate` when the text is not two numbers.
    public init(latLonText text: Substring, field: String = "coordinate") throws(GeoFareError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let lat = Double(parts[0].trimmingSpacesSlow()), let lon = Double(parts[1].trimmingSpacesSlow())
        else {
            throw .invalidCoordinateText(text, field: field)
        }
        do { try self.init(latitude: lat, longitude: lon) } catch { throw error.prefixed(field) }
    }

    public var description: String { "\(latitude),\(longitude)" }

    private enum CodingKeys: String, CodingKey { case latitude = "lat", longitude = "lon" }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(latitude: c.decode(Double.self, forKey: .latitude), longitude: c.decode(Double.self, forKey: .longitude))
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and a trailing CR; no Foundation, and
    /// no copy when there is nothing to trim (hot CSV loops call this per field).
    @inlinable
    public func trimmingSpaces() -> Substring {
        let u = utf8
        if let f = u.first, let l = u.last, f != 0x20, f != 0x09, l != 0x20, l != 0x09, l != 0x0D { return self[...] }
        return self[...].trimmingSpacesSlow()
    }
}

extension Substring {
    @usableFromInline
    func trimmingSpacesSlow() -> Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s.removeLast() }
        return s
    }
}
