import Foundation
import GeoFareCore

/// A lower bound of the great-circle distance from a point to any point of a node's
/// longitude/latitude bounds, on the sphere ``FastDistance/haversineMeters(_:_:)`` uses.
///
/// Uses two bounds and takes the larger: the latitude difference (no path is shorter than
/// its change of latitude), and, when the point's longitude is outside the box, the distance
/// to the nearer edge meridian's great circle, asin(cos φ · sin Δλ) for Δλ < 90° and
/// π/2 − |φ| beyond (where cos Δλ ≤ 0 makes cos d ≤ |sin φ|). The result is shrunk by a
/// relative 1e-9 and 1 mm so rounding never prunes a party at the exact radius.
struct SphericalBound {
    let lat: Double, lon: Double, cosLat: Double

    init(center: Coordinate) {
        lat = center.latitude
        lon = center.longitude
        cosLat = cos(lat * .pi / 180)
    }

    @inline(__always)
    func lowerBoundMeters(_ n: QuadNode) -> Double {
        let rad = Double.pi / 180
        var dLat = 0.0
        if lat < n.minLat { dLat = n.minLat - lat } else if lat > n.maxLat { dLat = lat - n.maxLat }
        var angle = dLat * rad
        if lon < n.minLon || lon > n.maxLon {
            var a = abs(lon - n.minLon)
            if a > 180 { a = 360 - a }
            var b = abs(lon - n.maxLon)
            if b > 180 { b = 360 - b }
            let dLon = min(a, b)
            let lonAngle = dLon < 90 ? asin(min(1, cosLat * sin(dLon * rad))) : Double.pi / 2 - abs(lat) * rad
            angle = max(angle, lonAngle)
        }
        return max(0, angle * FastDistance.meanEarthRadiusMeters * (1 - 1e-9) - 1e-3)
    }
}
