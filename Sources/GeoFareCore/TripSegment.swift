import Foundation

/// A piece of a trip as the taxi meter sees it: how far, how long, when, and where.
///
/// Route estimates produce segments and the meter runs over them; a caller can also give them
/// directly. Within a segment, movement is taken as uniform: `slowSeconds` of standing or
/// crawling are mixed evenly through it.
public struct TripSegment: Sendable, Hashable, Codable {
    /// Distance driven in metres (≥ 0).
    public var distanceMeters: Double
    /// Duration in seconds (≥ 0).
    public var durationSeconds: Double
    /// Seconds of the duration spent standing or crawling, during which the meter counts time;
    /// the rest is driving at `distanceMeters / (durationSeconds − slowSeconds)`. `nil` means
    /// the whole segment is driven at one uniform speed (`distance / duration`).
    public var slowSeconds: Double?
    /// When the segment starts.
    public var start: Date
    /// Whether the segment lies outside the tariff's business zone (out-of-zone rate applies).
    public var outsideZone: Bool

    public init(distanceMeters: Double, durationSeconds: Double, slowSeconds: Double? = nil, start: Date, outsideZone: Bool = false) {
        self.distanceMeters = distanceMeters
        self.durationSeconds = durationSeconds
        self.slowSeconds = slowSeconds
        self.start = start
        self.outsideZone = outsideZone
    }

    /// When the segment ends.
    public var end: Date { start.addingTimeInterval(durationSeconds) }

    /// The longest distance a segment may have: 10,000 km.
    public static let maxDistanceMeters = 10_000_000.0
    /// The longest duration a segment may have: 7 days.
    public static let maxDurationSeconds = 604_800.0

    /// Checks the numbers: finite, not negative, at most ``maxDistanceMeters`` and
    /// ``maxDurationSeconds`` (so no later integer conversion can overflow).
    /// - Throws: ``GeoFareError`` naming `distance_m`, `duration_s` or `slow_s`.
    public func validate() throws(GeoFareError) {
        guard distanceMeters.isFinite else { throw .notFinite("distance_m", distanceMeters) }
        guard durationSeconds.isFinite else { throw .notFinite("duration_s", durationSeconds) }
        guard distanceMeters >= 0 else { throw .negative("distance_m", distanceMeters) }
        guard durationSeconds >= 0 else { throw .negative("duration_s", durationSeconds) }
        guard distanceMeters <= Self.maxDistanceMeters else { throw .outOfRange("distance_m", distanceMeters, 0...Self.maxDistanceMeters) }
        guard durationSeconds <= Self.maxDurationSeconds else { throw .outOfRange("duration_s", durationSeconds, 0...Self.maxDurationSeconds) }
        if let slowSeconds {
            guard slowSeconds.isFinite else { throw .notFinite("slow_s", slowSeconds) }
            guard slowSeconds >= 0 && slowSeconds <= durationSeconds else {
                throw .outOfRange("slow_s", slowSeconds, 0...durationSeconds)
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case distanceMeters = "distance_m", durationSeconds = "duration_s", slowSeconds = "slow_s", start, outsideZone = "outside"
    }
}
