import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import GeoFareText

/// `geofare fare`: prices one trip.
struct FareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fare",
        abstract: "Price a taxi trip the way the meter will, and split it.",
        discussion: """
        Give the trip as coordinates (--from, --to, optional --via stops; the route is estimated),
        or as --distance-m and --duration-s (slow time from the slow-time model, or --cruise-kmh). Without
        --tariff the origin's region picks it (coordinates only). Money is in the tariff's
        currency: whole won for KRW, cents shown as dollars for USD. Where no source settles the
        tariff (a Gyeonggi city no source places in a group, a date before a tariff's first
        modelled version) the fare is priced on the most likely one, and where no source gives a
        tariff's out-of-city rate a trip leaving its zone is priced without it (0 %); either says
        so (tariff basis: assumed, and why); --strict refuses instead.

        Example: geofare fare --from 37.5665,126.9780 --to 37.4979,127.0276 --at 2024-05-15T22:30:00+09:00 --party 3
        """
    )

    @Option(parsing: .unconditional, help: "Origin as LAT,LON.") var from: String?
    @Option(parsing: .unconditional, help: "Destination as LAT,LON.") var to: String?
    @Option(parsing: .unconditionalSingleValue, help: "A stop as LAT,LON (repeatable, at most 25); for proportional/Shapley splits rider i gets off at stop i.") var via: [String] = []
    @Option(parsing: .unconditional, help: "Driven distance in metres (instead of coordinates).") var distanceM: Double?
    @Option(parsing: .unconditional, help: "Duration in seconds (with --distance-m).") var durationS: Double?
    @Option(help: "Average speed while moving, km/h (with --distance-m): slow = max(0, duration − distance / cruise); default: the slow-time model.") var cruiseKmh: Double?
    @Option(help: "Departure as ISO 8601 with offset (default: now).") var at: String?
    @Option(help: "Tariff id, e.g. kr-seoul/regular, us-nyc/yellow (default: by the origin).") var tariff: String?
    @Option(help: "The taxi's own business zone, a zone id (kr-sgg-gyeonggi-seongnam): 시계외 from its boundary (default: the origin's zone on the tariff).") var businessZone: String?
    @Option(help: "Riders sharing the taxi (1-20).") var party = 1
    @Option(help: "equal, proportional or shapley.") var split: SplitMethod = .equal
    @Option(help: "Round shares to this many minor units (default: 100 for KRW, 1 otherwise).") var splitUnit: Int64?
    @Option(help: "Tolls in minor units, paid at cost (default: from the toll data, Data/tolls, for a trip with --from and --to).") var tolls: Int64?
    @Option(help: "A call fee in minor units.") var callFee: Int64 = 0
    @Flag(help: "Print the quote as JSON (the worker's fare result).") var json = false
    @Flag(help: "Refuse where no source settles the tariff (unknown_tariff_group, no_tariff_version, tariff_version_uncertain) instead of pricing on the most likely one (tariff basis: assumed).") var strict = false
    @OptionGroup var data: DataOptions

    func validate() throws {
        let coords = from != nil || to != nil
        let totals = distanceM != nil || durationS != nil
        guard coords || totals else { throw ValidationError("give --from and --to, or --distance-m and --duration-s (or all four: a known trip with its ends)") }
        if coords, from == nil || to == nil { throw ValidationError("--from and --to go together") }
        if totals, distanceM == nil || durationS == nil { throw ValidationError("--distance-m and --duration-s go together") }
        if totals, !coords, tariff == nil { throw ValidationError("--tariff is required with --distance-m without --from and --to (there is no origin to pick it)") }
        if totals, !via.isEmpty { throw ValidationError("--via and --distance-m cannot go together: a known trip is not routed") }
    }

    func run() throws {
        let pricer = try data.pricer()
        let when = try departure(at)
        let options = FareOptions(partySize: party, split: split, splitUnit: splitUnit, tolls: tolls ?? 0, callFee: callFee)
        try reportingErrors {
            let quote: FareQuote
            var route: Route?
            if let from, let to, distanceM == nil {
                let origin = try coordinate(from, field: "from"), destination = try coordinate(to, field: "to")
                var r = FareRequest(from: origin, via: try via.enumerated().map { try coordinate($1, field: "via[\($0)]") }, to: destination,
                                    departure: when, tariff: tariff)
                r.options = options
                r.estimateTolls = tolls == nil
                r.businessZone = businessZone
                r.strict = strict
                (quote, route) = try pricer.quote(r)
            } else {
                var r = FareRequest(trip: .totals(distanceMeters: distanceM!, durationSeconds: durationS!), departure: when, tariff: tariff)
                if let from, let to {  // a known trip with its ends
                    r.origin = try coordinate(from, field: "from")
                    r.destination = try coordinate(to, field: "to")
                }
                r.cruiseKmh = cruiseKmh
                r.options = options
                r.estimateTolls = tolls == nil
                r.businessZone = businessZone
                r.strict = strict
                quote = try pricer.quote(r).quote
            }
            if json {
                print(FareJSON.string(quote, route: route))
            } else {
                print(FareTable.render(quote, route: route, tariffName: (try? pricer.catalog.tariff(quote.tariff).name) ?? quote.tariff))
            }
        }
    }
}

extension SplitMethod: ExpressibleByArgument {}


/// The human-readable fare table.
enum FareTable {
    static func render(_ q: FareQuote, route: Route?, tariffName: String) -> String {
        let cur = q.currency
        func money(_ v: Int64) -> String { MinorUnits.format(v, currency: cur) + " " + cur }
        var rows: [(String, String)] = []
        if let route {
            rows.append(("route", "\(DecimalFormat.string(route.distanceMeters / 1000, decimals: 1)) km, \(Int((route.durationSeconds / 60).rounded())) min (80 %: \(DecimalFormat.string(route.distanceLowMeters / 1000, decimals: 1))–\(DecimalFormat.string(route.distanceHighMeters / 1000, decimals: 1)) km)"))
        } else {
            rows.append(("trip", "\(DecimalFormat.string(q.distanceMeters / 1000, decimals: 2)) km, \(Int((q.durationSeconds / 60).rounded())) min"))
        }
        let b = q.breakdown
        rows.append(("base fare", money(b.base)))
        if b.baseSurcharge != 0 { rows.append(("base surcharge", money(b.baseSurcharge))) }
        rows.append(("units", "\(b.units) × \(money(b.unitPrice)) = \(money(b.unitsAmount))  (\(b.distanceUnits) distance, \(b.timeUnits) time)"))
        rows.append(("slow time", "\(Int(q.slowSeconds.rounded())) s  (\(b.timeUnits) time units)"))
        if b.unitSurcharges != 0 { rows.append(("unit surcharges", money(b.unitSurcharges))) }
        rows.append(("meter", money(q.meter)))
        for f in b.flatSurcharges { rows.append((f.name.replacingOccurrences(of: "_", with: " "), money(f.amount))) }
        if q.tolls != 0 { rows.append(("tolls", money(q.tolls))) }
        if q.callFee != 0 { rows.append(("call fee", money(q.callFee))) }
        if b.rounding != 0 { rows.append(("rounding", money(b.rounding))) }
        rows.append(("total", "\(money(q.total))  (range \(money(q.low)) – \(money(q.high)))"))
        if q.perPerson.count > 1 {
            rows.append(("per person", q.perPerson.map { MinorUnits.format($0, currency: cur) }.joined(separator: " / ") + " \(cur) (\(q.split.rawValue))"))
        }
        rows.append(("tariff basis", q.assumption.map { "\(q.tariffBasis.rawValue): \($0)" } ?? q.tariffBasis.rawValue))
        let width = rows.map(\.0.count).max() ?? 0
        return (["\(tariffName) — \(q.tariff), version \(q.tariffVersion)"] + rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 })
            .joined(separator: "\n")
    }
}
