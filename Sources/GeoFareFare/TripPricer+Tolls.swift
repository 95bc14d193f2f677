import Foundation
import GeoFareCore

/// A trip's road tolls from the toll data (``TollTable``), for a trip whose ends are known.
extension TripPricer {
    /// Sets `fare`'s tolls from the catalog's toll tables in the meter's currency, unless the
    /// caller gave them (``FareRequest/estimateTolls`` false, or tolls other than 0) or an end
    /// is unknown.
    /// - Parameter routeMeters: the road distance the expressway estimate reads (the route's,
    ///   or a known trip's own).
    /// - Returns: the tolls found (their sum is now `fare`'s ``FareRequest/tolls``).
    func applyTolls(_ fare: inout FareRequest, meter: Meter, routeMeters: Double) -> [TollItem] {
        let items = tollItems(fare, meter: meter, routeMeters: routeMeters)
        if !items.isEmpty { fare.tolls = Self.total(items) }
        return items
    }

    /// What the riders pay for `items`: the sum of their amounts.
    static func total(_ items: [TollItem]) -> Int64 { items.reduce(0) { $0 + $1.amount } }

    /// The tolls ``applyTolls(_:meter:routeMeters:)`` would set (none: an empty array, no
    /// allocation), without touching the request.
    func tollItems(_ request: FareRequest, meter: Meter, routeMeters: Double) -> [TollItem] {
        guard request.estimateTolls, request.tolls == 0, let origin = request.origin, let destination = request.destination,
              engine.catalog.mayHaveTolls(origin, destination) else { return [] }
        let catalog = engine.catalog
        var items: [TollItem] = []
        for i in catalog.tolls.indices where catalog.tolls[i].currency == meter.currency {
            let found = catalog.tolls[i].tolls(from: origin, to: destination, routeMeters: routeMeters, departure: request.departure, areas: catalog.tollAreas[i])
            if !found.isEmpty { items += found }
        }
        return items
    }

    /// Where a priced request's tolls come from (``FareQuote/tollBasis``), and how much the
    /// estimated ones move the fare's low and high.
    static func tollBasis(_ fare: FareRequest, items: [TollItem]) -> (basis: TollBasis?, lowDelta: Int64, highDelta: Int64) {
        guard !items.isEmpty else { return (fare.tolls > 0 ? .given : nil, 0, 0) }
        var low: Int64 = 0, high: Int64 = 0
        for item in items {
            low += item.low - item.amount
            high += item.high - item.amount
        }
        return (items.contains { $0.basis == .estimated } ? .estimated : .sourced, low, high)
    }
}
