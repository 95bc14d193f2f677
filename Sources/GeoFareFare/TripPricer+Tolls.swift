import Foundation
import GeoFareCore

/// A trip's road tolls from the toll data (``TollTable``), for a trip whose ends are known.
extension TripPricer {
    /// Sets `fare`'s tolls from the catalog's toll tables in the meter's currency, unless the
    /// caller gave them (``FareRequest/estimateTolls`` false) or an end is unknown.
    /// - Parameter routeMeters: the road distance the expressway estimate reads (the route's,
    ///   or a known trip's own).
    func applyTolls(_ fare: inout FareRequest, meter: Meter, routeMeters: Double) {
        guard fare.estimateTolls, let origin = fare.origin, let destination = fare.destination else { return }
        let catalog = engine.catalog
        var items: [TollItem] = []
        for table in catalog.tolls where table.currency == meter.currency {
            items += table.tolls(from: origin, to: destination, routeMeters: routeMeters, departure: fare.departure) { catalog.zones.zone($0)?.polygon }
        }
        fare.tollItems = items
        fare.tolls = items.reduce(0) { $0 + $1.amount }
    }

    /// Where a priced request's tolls come from (``FareQuote/tollBasis``), and how much the
    /// estimated ones move the fare's low and high.
    static func tollBasis(_ fare: FareRequest) -> (basis: TollBasis?, lowDelta: Int64, highDelta: Int64) {
        if !fare.estimateTolls { return (fare.tolls > 0 ? .given : nil, 0, 0) }
        guard !fare.tollItems.isEmpty else { return (nil, 0, 0) }
        var low: Int64 = 0, high: Int64 = 0
        for item in fare.tollItems {
            low += item.low - item.amount
            high += item.high - item.amount
        }
        return (fare.tollItems.contains { $0.basis == .estimated } ? .estimated : .sourced, low, high)
    }
}
