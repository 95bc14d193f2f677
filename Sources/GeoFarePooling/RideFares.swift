import Foundation
import GeoFareCore
import GeoFareFare

/// The money of a shared ride: its fare as the meter runs it over the legs, and each rider's
/// share by the Shapley value over the riders' subsets (``FareSplit/shapley(total:riders:unit:cost:)``,
/// the split for routes with detours), allocated to the tariff's split unit so the shares sum to
/// the total exactly. (Sharing each leg's meter among the riders aboard, the split for riders
/// who board together, would charge the whole detour to whoever is aboard during it: on real
/// Manhattan pairs it left the first rider paying more than alone.)
public struct RideFares: Sendable {
    public let pricer: TripPricer

    public init(pricer: TripPricer) {
        self.pricer = pricer
    }

    /// The fare of a trip of `meters` and `seconds` starting at `origin` at `departure`, ending at
    /// `destination`, and the unit shares are rounded to.
    /// - Throws: ``GeoFareError`` from the pricer (no tariff where the trip starts, ...).
    public func fare(meters: Double, seconds: Double, origin: Coordinate, destination: Coordinate,
                     departure: Date) throws(GeoFareError) -> (total: Int64, unit: Int64, currency: String) {
        var request = FareRequest(trip: .totals(distanceMeters: meters, durationSeconds: seconds), departure: departure)
        request.origin = origin
        request.destination = destination
        let (figures, meter) = try pricer.figures(request)
        return (figures.total, figures.splitUnit, meter.currency)
    }

    /// The group's total and each rider's share (in the group's rider order, for all of a
    /// rider's seats together): the Shapley value of the fare game (`FareSplit.shapley`), where a
    /// set of the group's riders costs what the meter charges for the group's order of stops
    /// restricted to theirs, one rider alone its `soloFares` entry, and the whole group the
    /// ride's fare. With two riders each pays its solo fare less half of what sharing saves, so a
    /// share is below the solo fare exactly when the shared fare is below the two solo fares.
    /// - Parameters:
    ///   - points: the coordinates of the group's points (``RideStop/point`` numbering).
    ///   - leg: legs between points, for the subsets of two of three riders (not called for pairs).
    /// - Throws: ``GeoFareError`` from the pricer, or `no_route` when a subset's leg is missing.
    public func shares(of ride: SharedRide, points: [Coordinate], soloFares: [Int64],
                       leg: (Int, Int) -> RideLeg? = { _, _ in nil }) throws(GeoFareError) -> (total: Int64, shares: [Int64], currency: String) {
        let first = ride.stops[0]
        let departure = Date(timeIntervalSince1970: ride.pickupTimes[first.rider])
        let whole = try fare(meters: ride.legs.reduce(0) { $0 + $1.meters }, seconds: ride.legs.reduce(0) { $0 + $1.seconds },
                             origin: points[first.point], destination: points[ride.stops[ride.stops.count - 1].point], departure: departure)
        let n = soloFares.count
        let full = UInt32((1 << n) - 1)
        let shares = try FareSplit.shapley(total: whole.total, riders: n, unit: whole.unit) { (mask: UInt32) throws(GeoFareError) -> Int64 in
            if mask == 0 { return 0 }
            if mask == full { return whole.total }
            if mask.nonzeroBitCount == 1 { return soloFares[mask.trailingZeroBitCount] }
            let stops = ride.stops.filter { mask & (1 << UInt32($0.rider)) != 0 }
            var meters = 0.0, seconds = 0.0
            for (a, b) in zip(stops, stops.dropFirst()) {
                guard let l = leg(a.point, b.point) else {
                    throw .noLeg(from: a.point, to: b.point)
                }
                meters += l.meters
                seconds += l.seconds
            }
            return try fare(meters: meters, seconds: seconds, origin: points[stops[0].point],
                            destination: points[stops[stops.count - 1].point], departure: departure).total
        }
        return (whole.total, shares, whole.currency)
    }
}
