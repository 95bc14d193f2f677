import Foundation
import GeoFareCore
@testable import GeoFareFare

/// The embedded catalog, loaded once for all tests.
let sharedEngine: FareEngine = {
    do { return try FareEngine() } catch { fatalError("embedded tariffs do not load: \(error)") }
}()

/// An instant from ISO 8601 text with an offset.
func at(_ text: String) -> Date {
    guard let d = ISO8601.parse(text) else { fatalError("bad test time \(text)") }
    return d
}

/// A quote from total distance and duration.
func quote(_ tariff: String, meters: Double, seconds: Double, at time: String, cruiseKmh: Double? = nil,
           party: Int = 1, split: SplitMethod = .equal, splitUnit: Int64? = nil) throws -> FareQuote {
    var r = FareRequest(trip: .totals(distanceMeters: meters, durationSeconds: seconds), departure: at(time), tariff: tariff)
    r.cruiseKmh = cruiseKmh
    r.partySize = party
    r.split = split
    r.splitUnit = splitUnit
    return try sharedEngine.quote(r)
}

/// A quote from explicit segments laid end to end from `time`.
func quote(_ tariff: String, segments: [(meters: Double, seconds: Double, slow: Double?, outside: Bool)], at time: String) throws -> FareQuote {
    var start = at(time)
    var list: [TripSegment] = []
    for s in segments {
        list.append(TripSegment(distanceMeters: s.meters, durationSeconds: s.seconds, slowSeconds: s.slow, start: start, outsideZone: s.outside))
        start = start.addingTimeInterval(s.seconds)
    }
    return try sharedEngine.quote(FareRequest(trip: .segments(list), departure: at(time), tariff: tariff))
}
