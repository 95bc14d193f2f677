import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare
@testable import GeoFareRoute

/// The fare band of a trip by coordinates spans the route's own uncertainty (distance and speed)
/// besides the slow-time model's, and the duration band rides along in the quote.
struct FareBandTests {
    static let cityHall = Coordinate(uncheckedLatitude: 37.5665, longitude: 126.9780)
    static let gangnam = Coordinate(uncheckedLatitude: 37.4979, longitude: 127.0276)

    /// A trip by coordinates: the quote carries the route's duration band, its fare band holds the
    /// total and is wider than the same trip's given its distance and duration.
    @Test("A trip by coordinates carries the route's duration band; its fare band holds the total, wider than by totals")
    func coordinatesBand() throws {
        let when = ISO8601.parse("2026-11-25T15:00:00+09:00")!
        let (q, route) = try sharedPricer.quote(FareRequest(from: Self.cityHall, to: Self.gangnam, departure: when))
        let r = try #require(route)
        #expect(q.durationLowSeconds == r.durationLowSeconds && q.durationHighSeconds == r.durationHighSeconds)
        #expect(try #require(q.durationLowSeconds) < q.durationSeconds && q.durationSeconds < (try #require(q.durationHighSeconds)))
        #expect(q.low < q.total && q.total < q.high)
        let given = try sharedPricer.quote(FareRequest(trip: .totals(distanceMeters: q.distanceMeters, durationSeconds: q.durationSeconds),
                                                       departure: when, tariff: q.tariff)).quote
        #expect(given.durationLowSeconds == nil)
        #expect(q.low < given.low && given.high < q.high, "\(q.low)-\(q.high) vs \(given.low)-\(given.high)")
        // Longer in distance and time at the high corner, shorter at the low one.
        // The route's own spread, at the profile's fare band scale (a calibration's).
        let spread = r.spread
        let scale = try #require(sharedPricer.circuityEstimator?.profiles.first { $0.id == r.profile }).fareBandScale
        let computed = r.computedSpread().scaled(scale)
        #expect(abs(spread.durationHigh - computed.durationHigh) < 1e-9 && abs(spread.distanceLow - computed.distanceLow) < 1e-9)
        #expect(spread.distanceLow < 1 && spread.durationLow < spread.distanceLow && spread.distanceHigh > 1 && spread.durationHigh > spread.distanceHigh)
    }

    @Test("No spread leaves the meter's low and high exactly as before: RouteSpread.none is the identity")
    func noSpread() throws {
        let when = ISO8601.parse("2026-11-25T15:00:00+09:00")!
        var request = FareRequest(from: Self.cityHall, to: Self.gangnam, departure: when)
        var prepared = try sharedPricer.prepare(request)
        let resolved = prepared.resolved
        var fare = try #require(prepared.fare, "a trip by coordinates is rewritten to its route's segments")
        let with = try sharedPricer.engine.quote(fare, meter: resolved.meter)
        fare.routeSpread = .none
        let without = try sharedPricer.engine.quote(fare, meter: resolved.meter)
        #expect(with.total == without.total && with.low < without.low && with.high > without.high)
        request.tariff = "kr-seoul/regular"
        prepared = try sharedPricer.prepare(request)
        #expect(prepared.fare?.routeSpread != RouteSpread.none)
    }
}
