/// What a places index file says about itself (JSON in the file).
public struct PlacesMetadata: Sendable, Hashable, Codable {
    /// The ODbL attribution every product built from the file must show (the graph file's).
    public static let attributionText = "© OpenStreetMap contributors, ODbL 1.0 (https://www.openstreetmap.org/copyright)"

    /// The PBF file's name it was built from.
    public var source: String
    /// The OSM data's newest timestamp, ISO 8601 UTC, or empty when unknown.
    public var osmTimestamp: String
    /// When the file was built, ISO 8601 UTC.
    public var buildTime: String
    /// How long the build took, milliseconds (reading the PBF, keys, grid, writing).
    public var buildMilliseconds: Int
    public var placeCount: Int
    /// Search keys (names, their later words, 초성 and romanised forms).
    public var keyCount: Int
    /// Places by kind (``PlaceKind/description``).
    public var kinds: [String: Int]
    /// The places' bounding box in degrees.
    public var west: Double, south: Double, east: Double, north: Double
    /// The categories the file holds places of (ids of ``PlaceCategories``), in section order.
    public var categories: [String]
    /// Places with a house number.
    public var addressCount: Int
    /// ``attributionText``.
    public var attribution: String
}
