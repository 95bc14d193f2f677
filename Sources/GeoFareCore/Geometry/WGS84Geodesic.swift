import Foundation

/// WGS84 ellipsoidal distance by Vincenty's inverse formula (T. Vincenty, "Direct and inverse
/// solutions of geodesics on the ellipsoid with application of nested equations", Survey Review
/// 23(176), 1975), iterated to 1e-12 rad in λ.
///
/// For the short segments of a road network (metres to kilometres) it agrees with Karney's
/// algorithm (GeographicLib, PROJ `geod_inverse`) to well under 0.1 mm; the tests compare it
/// with reference values. Nearly antipodal points, where Vincenty may not converge, fall back
/// to the last iterate (never reached by road segments).
public enum WGS84Geodesic {
    /// Semi-major axis in metres and flattening of WGS84.
    public static let a = 6_378_137.0
    public static let f = 1 / 298.257223563
    static let b = a * (1 - f)

    /// The geodesic distance in metres between two points given in degrees.
    public static func distanceMeters(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        if latitude1 == latitude2 && longitude1 == longitude2 { return 0 }
        let rad = Double.pi / 180
        let L = (longitude2 - longitude1) * rad
        let U1 = atan((1 - f) * tan(latitude1 * rad))
        let U2 = atan((1 - f) * tan(latitude2 * rad))
        let sinU1 = sin(U1), cosU1 = cos(U1), sinU2 = sin(U2), cosU2 = cos(U2)
        var lambda = L
        var sinSigma = 0.0, cosSigma = 0.0, sigma = 0.0, cos2Alpha = 0.0, cos2SigmaM = 0.0
        for _ in 0..<200 {
            let sinLambda = sin(lambda), cosLambda = cos(lambda)
            let t1 = cosU2 * sinLambda
            let t2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            sinSigma = (t1 * t1 + t2 * t2).squareRoot()
            if sinSigma == 0 { return 0 }
            cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            cos2Alpha = 1 - sinAlpha * sinAlpha
            cos2SigmaM = cos2Alpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cos2Alpha : 0
            let C = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
            let previous = lambda
            lambda = L + (1 - C) * f * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) <= 1e-12 { break }
        }
        let u2 = cos2Alpha * (a * a - b * b) / (b * b)
        let A = 1 + u2 / 16384 * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)))
        let B = u2 / 1024 * (256 + u2 * (-128 + u2 * (74 - 47 * u2)))
        let deltaSigma = B * sinSigma * (cos2SigmaM + B / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - B / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * A * (sigma - deltaSigma)
    }

    /// The geodesic distance in metres between two points in OSM fixed point (1e-7 degrees).
    @inline(__always)
    public static func distanceMeters(latitudeE7 lat1: Int32, longitudeE7 lon1: Int32, latitudeE7 lat2: Int32, longitudeE7 lon2: Int32) -> Double {
        distanceMeters(latitude1: Double(lat1) * 1e-7, longitude1: Double(lon1) * 1e-7, latitude2: Double(lat2) * 1e-7, longitude2: Double(lon2) * 1e-7)
    }
}
