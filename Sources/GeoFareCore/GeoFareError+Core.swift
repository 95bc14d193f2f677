/// The errors of the core values: coordinates (`invalid_coordinate`, and `not_finite`,
/// `latitude_out_of_range`, `longitude_out_of_range` through ``GeoFareError/notFinite(_:_:)``
/// and ``GeoFareError/outOfRange(_:_:_:code:)``), trip segments (`negative_value`, ...),
/// bounding boxes (`invalid_bbox`) and zone files (`invalid_geojson`, field: the file and
/// feature).
extension GeoFareError {
    /// A `LAT,LON` text that is not two numbers (`invalid_coordinate`).
    public static func invalidCoordinateText(_ text: Substring, field: String) -> GeoFareError {
        GeoFareError(code: .invalidCoordinate, message: "expected LAT,LON in degrees, got '\(text)'", field: field)
    }

    /// A negative distance or duration (`negative_value`).
    public static func negative(_ field: String, _ value: Double) -> GeoFareError {
        GeoFareError(code: .negativeValue, message: "must not be negative, got \(value)", field: field)
    }

    /// A bounding box whose south edge is north of its north edge (`invalid_bbox`, field `south`).
    public static func southAboveNorth(south: Double, north: Double) -> GeoFareError {
        GeoFareError(code: .invalidBbox, message: "south (\(south)) must not exceed north (\(north))", field: "south")
    }

    /// A zone file that is not the GeoJSON we read (`invalid_geojson`); `field` is the file, or
    /// the file and the feature (`zones/kr.geojson: features[3]`).
    public static func invalidGeoJSON(_ message: String, field: String) -> GeoFareError {
        GeoFareError(code: .invalidGeojson, message: message, field: field)
    }
}
