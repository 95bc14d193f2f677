import Foundation
import GeoFareCore

/// One rider's request to ride (one or more seats) from an origin to a destination, not before
/// `departure`.
public struct RideRequest: Sendable, Hashable {
    /// The caller's id (a CSV row's `id`, a rider's id); echoed in answers.
    public var id: String
    /// The request time: the earliest moment the rider is ready to be picked up.
    public var departure: Date
    /// WGS84 degrees.
    public var origin: Coordinate
    /// WGS84 degrees.
    public var destination: Coordinate
    /// Persons riding on this request (1 ... ``SharedRide/defaultCapacity``).
    public var seats: Int

    public init(id: String, departure: Date, origin: Coordinate, destination: Coordinate, seats: Int = 1) {
        self.id = id
        self.departure = departure
        self.origin = origin
        self.destination = destination
        self.seats = seats
    }

    /// Checks the seats (the coordinates and time were checked when made).
    /// - Throws: ``GeoFareError`` `invalid_value` (field `seats`).
    public func validate(capacity: Int = SharedRide.defaultCapacity) throws(GeoFareError) {
        guard (1...capacity).contains(seats) else {
            throw .outOfRange("seats", Double(seats), 1...Double(capacity), code: .invalidValue)
        }
    }
}
