import Foundation

/// Approximate distances for indexes and hot loops, where a geodesic is too dear.
///
/// The distance GeoFare reports between two points (`distance`) is Karney's geodesic
/// (`GeoFareProj.Geodesic`), and a road segment's length is ``WGS84Geodesic``'s (see
/// docs/coordinates.md); these are for ranking and pruning. Errors measured against the WGS84
/// geodesic:
/// - ``haversineMeters(_:_:)``: a sphere of radius 6,371,008.8 m (the mean radius); errs up to
///   about 0.3 % in Korea and 0.56 % worldwide.
/// - ``CheapRuler``: a local flat-earth approximation with WGS84 curvature at a reference latitude
///   (Mapbox's cheap-ruler method); under 0.1 % for distances below 500 km near the reference
///   latitude, growing with distance and latitude difference.
public enum FastDistance {
    /// Mean Earth radius in metres (IUGG R1).
    public static let meanEarthRadiusMeters = 6_371_008.8

    /// Great-circle distance in metres on a sphere of the mean radius.
    @inlinable
    public static func haversineMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad
        let dLon = (b.longitude - a.longitude) * rad
        let s = sin(dLat / 2), t = sin(dLon / 2)
        let h = s * s + cos(a.latitude * rad) * cos(b.latitude * rad) * t * t
        return 2 * meanEarthRadiusMeters * asin(min(1, h.squareRoot()))
    }
}

/// A local flat-earth distance approximation valid near one latitude (Mapbox cheap-ruler).
///
/// Build one per query around the query's latitude, then measure many points in nanoseconds.
public struct CheapRuler: Sendable {
    /// Metres per degree of longitude at the reference latitude.
    public let metersPerDegreeLongitude: Double
    /// Metres per degree of latitude at the reference latitude.
    public let metersPerDegreeLatitude: Double

    /// - Parameter latitude: the reference latitude in degrees.
    public init(latitude: Double) {
        // WGS84 ellipsoid: a = 6378137 m, e² = f(2 − f).
        let a = 6_378_137.0, f = 1 / 298.257223563
        let e2 = f * (2 - f)
        let rad = Double.pi / 180
        let c = cos(latitude * rad)
        let w2 = 1 / (1 - e2 * (1 - c * c))
        let w = w2.squareRoot()
        metersPerDegreeLongitude = rad * a * w * c
        metersPerDegreeLatitude = rad * a * w * w2 * (1 - e2)
    }

    /// Distance in metres between two coordinates near the reference latitude.
    @inlinable
    public func distanceMeters(_ a: Coordinate, _ b: Coordinate) -> Double {
        var dLon = b.longitude - a.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let dx = dLon * metersPerDegreeLongitude
        let dy = (b.latitude - a.latitude) * metersPerDegreeLatitude
        return (dx * dx + dy * dy).squareRoot()
    }
}
