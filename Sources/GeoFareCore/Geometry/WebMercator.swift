import Foundation

/// Web Mercator (EPSG:3857) pixel and tile arithmetic on 256-pixel tiles.
///
/// World pixel coordinates at zoom `z` run from 0 to `256 · 2^z` in x (west to east) and y
/// (north to south). Latitudes are clamped to ±85.0511287798°, the square world's edge.
public enum WebMercator {
    /// The largest latitude Web Mercator represents, in degrees.
    public static let maxLatitude = 85.051_128_779_806_59

    /// The longitude as a fraction of the world's width, 0 (−180°) ... 1 (+180°).
    @inlinable
    public static func unitX(longitude: Double) -> Double { longitude / 360 + 0.5 }

    /// The latitude as a fraction of the world's height, 0 (north edge) ... 1 (south edge).
    @inlinable
    public static func unitY(latitude: Double) -> Double {
        let s = sin(min(max(latitude, -maxLatitude), maxLatitude) * .pi / 180)
        let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
        return min(max(y, 0), 1)
    }

    /// The longitude in degrees of a world fraction `x` (inverse of ``unitX(longitude:)``).
    @inlinable
    public static func longitude(unitX x: Double) -> Double { (x - 0.5) * 360 }

    /// The latitude in degrees of a world fraction `y` (inverse of ``unitY(latitude:)``).
    @inlinable
    public static func latitude(unitY y: Double) -> Double {
        let y2 = (180 - y * 360) * .pi / 180
        return 360 * atan(exp(y2)) / .pi - 90
    }
}
