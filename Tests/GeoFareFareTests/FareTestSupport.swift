import Foundation
import GeoFareCore
@testable import GeoFareFare

/// The embedded data through the one pricing entry, loaded once for all tests.
let sharedPricer: TripPricer = {
    do { return try TripPricer.standard() } catch { fatalError("embedded data does not load: \(error)") }
}()

/// The tariffs, zones and slow-time model of ``sharedPricer``.
var sharedCatalog: TariffCatalog { sharedPricer.catalog }

/// A case of a parameterised test, shown in the test report by its name.
protocol NamedCase: Sendable, CustomStringConvertible {
    var name: String { get }
}

extension NamedCase {
    var description: String { name }
}

/// An instant from ISO 8601 text with an offset.
func at(_ text: String) -> Date {
    guard let d = ISO8601.parse(text) else { fatalError("bad test time \(text)") }
    return d
}

/// A quote from total distance and duration. Strict by default: these helpers pin the sourced
/// tariffs and their refusals (`no_tariff_version`, `tariff_version_uncertain`); the assumed
/// answers are AssumedTariffTests'.
func quote(_ tariff: String, meters: Double, seconds: Double, at time: String, cruiseKmh: Double? = nil,
           party: Int = 1, split: SplitMethod = .equal, splitUnit: Int64? = nil, strict: Bool = true) throws -> FareQuote {
    var r = FareRequest(trip: .totals(distanceMeters: meters, durationSeconds: seconds), departure: at(time), tariff: tariff)
    r.strict = strict
    r.cruiseKmh = cruiseKmh
    r.partySize = party
    r.split = split
    r.splitUnit = splitUnit
    return try sharedPricer.quote(r).quote
}

/// A quote from explicit segments laid end to end from `time` (strict, as above).
func quote(_ tariff: String, segments: [(meters: Double, seconds: Double, slow: Double?, outside: Bool)], at time: String, strict: Bool = true) throws -> FareQuote {
    var start = at(time)
    var list: [TripSegment] = []
    for s in segments {
        list.append(TripSegment(distanceMeters: s.meters, durationSeconds: s.seconds, slowSeconds: s.slow, start: start, outsideZone: s.outside))
        start = start.addingTimeInterval(s.seconds)
    }
    var r = FareRequest(trip: .segments(list), departure: at(time), tariff: tariff)
    r.strict = strict
    return try sharedPricer.quote(r).quote
}
