import GeoFareCore

/// The administrative area of a point from the zones GeoFare already has (Data/zones: the
/// Korean provinces and metropolitan cities, the city tariff groups, New York City).
public struct PlaceArea: Sendable, Hashable {
    /// The first zone in load order without a parent that holds the point (a province or
    /// metropolitan city: `kr-seoul`), or `nil`.
    public let region: ZoneSet.Zone?
    /// The first zone in load order with a parent that holds the point (a city or county group:
    /// `kr-gyeonggi-gwangmyeong`), or `nil`.
    public let city: ZoneSet.Zone?

    /// The area of `c` in `zones` (tested in load order, as the tariff look-up does).
    public init(of c: Coordinate, in zones: ZoneSet) {
        let holding = zones.zones(containing: c).compactMap { zones.zone($0) }
        let city = holding.first { $0.parent != nil }
        self.city = city
        region = city.flatMap { zones.zone($0.parent!) } ?? holding.first { $0.parent == nil }
    }
}
