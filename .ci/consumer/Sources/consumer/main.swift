// Prices one trip through the library, the way docs/library.md shows.
import Foundation
import GeoFareCore
import GeoFareFare

let pricer = try TripPricer.standard()
var trip = FareRequest(from: try Coordinate(latitude: 37.5665, longitude: 126.9780),
                       to: try Coordinate(latitude: 37.4979, longitude: 127.0276),
                       departure: ISO8601.parse("2024-05-15T22:50:00+09:00")!)
trip.partySize = 3
let (quote, _) = try pricer.quote(trip)
print("\(quote.total) \(quote.currency) \(quote.perPerson.map(String.init).joined(separator: ";"))")
