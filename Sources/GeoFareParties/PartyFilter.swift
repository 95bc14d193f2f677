import Foundation
import GeoFareCore

/// Which parties a query returns: every clause that is set must hold.
///
/// All clauses are inclusive. ``statuses`` `nil` means any status; an empty set matches
/// nothing. The destination clause needs both ``destination`` and ``destinationRadiusMeters``
/// (``validate()`` rejects one without the other; ``matches(_:)`` ignores such a half clause)
/// and measures with ``FastDistance/haversineMeters(_:_:)`` (a sphere of the mean radius, within
/// about 0.5 % of the WGS84 geodesic).
public struct PartyFilter: Sendable, Hashable {
    /// Earliest departure, inclusive.
    public var departFrom: Date?
    /// Latest departure, inclusive.
    public var departUntil: Date?
    /// Fewest free seats, 0...20.
    public var minFreeSeats: Int?
    /// The statuses to keep; `nil` keeps every status.
    public var statuses: Set<PartyStatus>?
    /// The centre of the destination clause.
    public var destination: Coordinate?
    /// The destination clause's radius in metres, 0...1,000,000.
    public var destinationRadiusMeters: Double?

    /// Creates a filter; every clause defaults to "not set". Dates are instants; the radius is
    /// in metres.
    public init(departFrom: Date? = nil, departUntil: Date? = nil, minFreeSeats: Int? = nil, statuses: Set<PartyStatus>? = nil,
                destination: Coordinate? = nil, destinationRadiusMeters: Double? = nil) {
        self.departFrom = departFrom
        self.departUntil = departUntil
        self.minFreeSeats = minFreeSeats
        self.statuses = statuses
        self.destination = destination
        self.destinationRadiusMeters = destinationRadiusMeters
    }

    /// The filter that matches every party.
    public static let none = PartyFilter()

    /// True when no clause is set, so queries may use the index's precomputed aggregates.
    /// - Complexity: O(1).
    public var isEmpty: Bool {
        departFrom == nil && departUntil == nil && minFreeSeats == nil && statuses == nil && destination == nil
            && destinationRadiusMeters == nil
    }

    /// Whether a party passes every clause that is set.
    /// - Complexity: O(1) (one haversine when the destination clause is set).
    public func matches(_ p: Party) -> Bool {
        if let departFrom, p.departure < departFrom { return false }
        if let departUntil, p.departure > departUntil { return false }
        if let minFreeSeats, p.freeSeats < minFreeSeats { return false }
        if let statuses, !statuses.contains(p.status) { return false }
        if let destination, let destinationRadiusMeters,
           !(FastDistance.haversineMeters(destination, p.destination) <= destinationRadiusMeters) { return false }
        return true
    }

    /// The largest destination radius accepted, in metres (1,000 km).
    public static let maxRadiusMeters = 1_000_000.0

    /// Checks the clauses.
    /// - Throws: ``GeoFareError`` naming `depart_from` / `depart_until` (`not_finite`, or
    ///   `invalid_range` when from > until), `min_free_seats` (`out_of_range`, 0...20),
    ///   `destination.center.lat`/`.lon`, or `destination.radius_m` (`not_finite`,
    ///   `out_of_range` 0...1,000,000, or `missing_value` when only half of the clause is set).
    /// - Complexity: O(1).
    public func validate() throws(GeoFareError) {
        if let departFrom, !departFrom.timeIntervalSinceReferenceDate.isFinite {
            throw .notFinite("depart_from", departFrom.timeIntervalSinceReferenceDate)
        }
        if let departUntil, !departUntil.timeIntervalSinceReferenceDate.isFinite {
            throw .notFinite("depart_until", departUntil.timeIntervalSinceReferenceDate)
        }
        if let departFrom, let departUntil, departFrom > departUntil {
            throw .departUntilBeforeFrom()
        }
        if let minFreeSeats, !(0...20).contains(minFreeSeats) {
            throw .outOfRange("min_free_seats", Double(minFreeSeats), 0...20)
        }
        switch (destination, destinationRadiusMeters) {
        case (nil, nil):
            break
        case (.some, nil):
            throw .destinationWithoutRadius()
        case (nil, .some):
            throw .radiusWithoutCenter()
        case let (center?, radius?):
            do { try Coordinate.validate(latitude: center.latitude, longitude: center.longitude) } catch {
                throw error.prefixed("destination.center")
            }
            guard radius.isFinite else { throw .notFinite("destination.radius_m", radius) }
            guard radius >= 0 && radius <= PartyFilter.maxRadiusMeters else {
                throw .outOfRange("destination.radius_m", radius, 0...PartyFilter.maxRadiusMeters)
            }
        }
    }
}
