import Foundation

/// A route's own uncertainty as factors on each segment's distance and duration, for the fare
/// band's `low` and `high` readings (the meter's `runScenarios(buffer:bandSecondsPerSecond:spread:)`).
/// In Core: the route makes it (`Route.spread(distance:speed:)`), the meter reads it, and
/// neither imports the other.
public struct RouteSpread: Sendable, Hashable {
    public var distanceLow: Double
    public var distanceHigh: Double
    public var durationLow: Double
    public var durationHigh: Double
    public init(distanceLow: Double, distanceHigh: Double, durationLow: Double, durationHigh: Double) {
        self.distanceLow = distanceLow
        self.distanceHigh = distanceHigh
        self.durationLow = durationLow
        self.durationHigh = durationHigh
    }
    /// No spread: the segments as they are.
    public static let none = RouteSpread(distanceLow: 1, distanceHigh: 1, durationLow: 1, durationHigh: 1)

    /// Each factor raised to `power`: the log half-widths × `power` (a calibration's fare band
    /// scale, ``SpeedProfile/fareBandScale``).
    public func scaled(_ power: Double) -> RouteSpread {
        power == 1 ? self : RouteSpread(distanceLow: pow(distanceLow, power), distanceHigh: pow(distanceHigh, power),
                                        durationLow: pow(durationLow, power), durationHigh: pow(durationHigh, power))
    }
}
