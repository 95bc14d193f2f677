import Foundation
import GeoFareCore

/// What to price: a trip (segments, or total distance and duration), when, with which tariff,
/// for how many riders.
public struct FareRequest: Sendable {
    /// The trip.
    public enum Trip: Sendable {
        /// Total driven distance (m) and duration (s); the slow time is estimated with a cruise
        /// speed: `slow = max(0, duration − distance / cruise)`.
        case totals(distanceMeters: Double, durationSeconds: Double)
        /// Segments as the meter sees them; their start times are taken as given.
        case segments([TripSegment])
    }

    public var trip: Trip
    /// Departure (boarding) time; the tariff version in force then is used.
    public var departure: Date
    /// A tariff id or alias; `nil` picks the tariff whose region contains `origin`.
    public var tariff: String?
    /// Origin and destination, when known: they pick the tariff and flat-surcharge zones.
    public var origin: Coordinate?
    public var destination: Coordinate?
    /// Average speed while moving, km/h, for `.totals`; `nil` uses the tariff's default.
    public var cruiseKmh: Double?
    /// Riders sharing the taxi, 1...20.
    public var partySize: Int = 1
    public var split: SplitMethod = .equal
    /// The unit shares are rounded to; `nil`: 100 for KRW, 1 minor unit otherwise.
    public var splitUnit: Int64?
    /// Where each rider gets off, as distance along the trip in metres (proportional and
    /// Shapley splits); `nil`: everybody rides to the end. Count must equal `partySize`.
    public var dropoffDistances: [Double]?
    /// Tolls paid at cost, minor units; split equally.
    public var tolls: Int64 = 0
    /// A call/booking fee, minor units; split equally.
    public var callFee: Int64 = 0

    public init(trip: Trip, departure: Date, tariff: String? = nil) {
        self.trip = trip
        self.departure = departure
        self.tariff = tariff
    }
}
