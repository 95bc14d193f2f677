import Foundation
import GeoFareCore
import GeoFareData
import GeoFareRoute

/// Prices trips: picks the tariff (named, or by the origin's region), estimates the route
/// inside that tariff's business zone when the trip is given by coordinates, and runs the meter
/// over the segments. The one computation path behind the library, the CLI, the worker and
/// `fare-csv`: they parse a ``FareRequest``, call ``quote(_:)`` or ``figures(_:)``, and format.
///
/// The one public pricing entry: the request's tariff is resolved and its options checked in
/// one private place (``checkedMeter(_:resolved:)``), once per request.
///
/// ```swift
/// let pricer = try TripPricer.standard()
/// var request = FareRequest(trip: .totals(distanceMeters: 5_000, durationSeconds: 900),
///                           departure: ISO8601.parse("2024-05-01T14:00:00+09:00")!, tariff: "kr-seoul/regular")
/// request.options = FareOptions(partySize: 3)
/// let quote = try pricer.quote(request).quote   // quote.total, quote.perPerson
/// ```
///
/// Immutable and `Sendable`.
public struct TripPricer: Sendable {
    let engine: FareEngine
    public let estimator: any RouteEstimator
    /// Names of route estimators (``RouteEstimator/name``) whose segments carry road-derived
    /// slow time, kept as they are. Every other estimator's segments (`circuity-v2` writes the
    /// tariff-agnostic cruise rule `max(0, T − D / cruise)`) get their slow seconds from the
    /// catalog's slow-time model for the meter's changeover speed and mode.
    public let roadDerivedSlowTime: Set<String>

    /// A pricer over `catalog`'s tariffs, routing trips by coordinates with `estimator`.
    public init(catalog: TariffCatalog, estimator: any RouteEstimator, roadDerivedSlowTime: Set<String> = []) {
        self.init(engine: FareEngine(sharing: catalog), estimator: estimator, roadDerivedSlowTime: roadDerivedSlowTime)
    }

    init(engine: FareEngine, estimator: any RouteEstimator, roadDerivedSlowTime: Set<String> = []) {
        self.engine = engine
        self.estimator = estimator
        self.roadDerivedSlowTime = roadDerivedSlowTime
    }

    /// The tariffs, zones and slow-time model the pricer prices with.
    public var catalog: TariffCatalog { engine.catalog }

    /// The circuity estimator behind the pricer's routes (a graph estimator's fallback): the one
    /// that holds the speed profiles, calibrations applied. `nil` for another estimator.
    public var circuityEstimator: CircuityRouteEstimator? {
        (estimator as? GraphRouteEstimator)?.fallback ?? (estimator as? CircuityRouteEstimator)
    }

    /// The embedded tariffs, zones and route calibration, plus an optional user data directory,
    /// road graph files (a trip inside a graph is routed on its roads, ``GraphRouteEstimator``,
    /// any other by the circuity model) and traffic calibrations (`geofare calibrate`'s files,
    /// applied to their speed profiles in order).
    /// - Throws: ``GeoFareError`` when a data file is malformed (its field names the file), a
    ///   graph file's code (`graph_corrupt`, ...) with its path as the field, or a traffic file's
    ///   (`invalid_route_data`, `unknown_profile`).
    public static func standard(data: DataCatalog = .embedded, graphs: [String] = [], traffic: [String] = []) throws(GeoFareError) -> TripPricer {
        var calibrations: [TrafficCalibration] = []
        for path in traffic { calibrations.append(try TrafficCalibration.load(path: path)) }
        return try standard(data: data, graphs: graphs, calibrations: calibrations)
    }

    /// ``standard(data:graphs:traffic:)`` with the traffic calibrations already read.
    public static func standard(data: DataCatalog = .embedded, graphs: [String] = [], calibrations: [TrafficCalibration]) throws(GeoFareError) -> TripPricer {
        let catalog = try TariffCatalog.load(from: data)
        return TripPricer(engine: try FareEngine(catalog: catalog), estimator: try estimator(data: data, zones: catalog.zones, graphs: graphs, calibrations: calibrations))
    }

    /// This pricer's tariffs and meters with routes under other traffic calibrations (the data's
    /// route tables and `graphs` read again, the tariffs not): what `calibrate` scores a fit with.
    /// - Throws: ``GeoFareError`` as ``standard(data:graphs:calibrations:)``.
    public func with(calibrations: [TrafficCalibration], data: DataCatalog = .embedded, graphs: [String] = []) throws(GeoFareError) -> TripPricer {
        TripPricer(engine: engine, estimator: try Self.estimator(data: data, zones: catalog.zones, graphs: graphs, calibrations: calibrations),
                   roadDerivedSlowTime: roadDerivedSlowTime)
    }

    /// The circuity model under `calibrations`, behind `graphs` when there are any.
    private static func estimator(data: DataCatalog, zones: ZoneSet, graphs: [String], calibrations: [TrafficCalibration]) throws(GeoFareError) -> any RouteEstimator {
        let circuity = try CircuityRouteEstimator(data: data, regions: zones, traffic: calibrations)
        return graphs.isEmpty ? circuity : try GraphRouteEstimator(paths: graphs, fallback: circuity)
    }

    /// A pricer over the same data whose meters are its own copies: a thread that prices
    /// millions of trips takes one, so the reference counts of shared meters never bounce
    /// between cores. Answers are identical to this pricer's.
    public func threadCopy() -> TripPricer {
        TripPricer(engine: engine.withPrivateMeters(), estimator: estimator, roadDerivedSlowTime: roadDerivedSlowTime)
    }

    /// The tariff id a request resolves to (the assumed one where no source places its origin,
    /// unless the request is ``FareRequest/strict``).
    public func tariffID(for request: FareRequest) throws(GeoFareError) -> String {
        engine.catalog.tariffs[try resolveTariff(request).index].id
    }

    /// The route a trip between coordinates will be priced on.
    /// - Parameter anywhere: when no tariff is named and no tariff region contains the origin,
    ///   estimate the route anyway, with no business zone (the `route` op and command), instead
    ///   of failing with `no_tariff_for_location` (what pricing needs).
    /// - Throws: ``GeoFareError`` with the route's code and field (`too_many_stops`, ...), or
    ///   `missing_field` (`from`) when the trip is not given by coordinates.
    public func route(_ request: FareRequest, anywhere: Bool = false) throws(GeoFareError) -> Route {
        let tariff: Int?
        if anywhere && request.tariff == nil && request.tariffIndex == nil, case .stops = request.trip {
            tariff = try? resolveTariff(request).index
        } else {
            tariff = try resolveTariff(request).index
        }
        return try route(request, tariff: tariff)
    }

    /// A request's tariff: its position in the catalog's `tariffs` and, where no source places
    /// the origin in any tariff and the data names the one its province's unplaced origins take
    /// (`assumed_for`), why it was assumed and the province's other group tariffs.
    struct ResolvedTariff {
        var index: Int
        var assumption: String?
        var others: [Int] = []
    }

    /// The tariff a request names (by index or name), or the one whose region contains its
    /// origin: resolved once per request (the region test is a point-in-polygon search), as
    /// its position in the catalog's `tariffs` (no copy of the tariff), at the request's
    /// departure (a 시·군 placed for some tariff versions only is placed while one is in force).
    /// An origin that would be `unknown_tariff_group` takes its province's assumed tariff
    /// unless the request is strict.
    func resolveTariff(_ request: FareRequest) throws(GeoFareError) -> ResolvedTariff {
        if let i = request.tariffIndex {
            guard engine.catalog.tariffs.indices.contains(i) else {
                throw .noTariffAtIndex(i)
            }
            return ResolvedTariff(index: i)
        }
        if let id = request.tariff { return ResolvedTariff(index: try engine.catalog.tariffIndex(id)) }
        guard let origin = request.origin else {
            throw .tariffOrOriginRequired()
        }
        do {
            return ResolvedTariff(index: try engine.catalog.tariffIndex(forOrigin: origin, at: request.departure))
        } catch {
            guard error.code == .unknownTariffGroup, !request.strict, let a = engine.catalog.assumedTariff(forOrigin: origin, at: request.departure) else { throw error }
            let id = engine.catalog.tariffs[a.tariff].id
            var why = "\(a.label) (\(id)): no source names the tariff group of this city or county in \(a.province)"
            // A 시·군 a source places for other versions only says so (which, and the one in force).
            if let note = a.placedOtherwise { why += " at this departure: " + note }
            return ResolvedTariff(index: a.tariff, assumption: why, others: a.others)
        }
    }

    /// The route inside a resolved tariff's business zone (no zone without a tariff).
    func route(_ request: FareRequest, tariff: Int?) throws(GeoFareError) -> Route {
        guard case let .stops(origin, via, destination) = request.trip else {
            throw .routeEndpointsRequired()
        }
        let zone = try businessZone(request, tariff: tariff, origin: origin)
        do {
            var r = RouteRequest(origin: origin, via: via, destination: destination, departure: request.departure, businessZone: zone)
            r.metric = request.metric
            r.includeGeometry = request.includeGeometry
            r.fallbackWhenNoRoad = request.fallbackWhenNoRoad
            r.approaches = request.approaches
            return try estimator.estimate(r)
        } catch {
            throw error
        }
    }

    /// Prices a trip up to its money figures (no breakdown, no shares array: the batch path).
    /// Shares are equal ones (``FareFigures/equalShare(_:riders:)``); use ``quote(_:)``
    /// for other splits.
    /// - Returns: the figures and the meter (tariff version) they came from.
    /// - Throws: ``GeoFareError`` as ``quote(_:)``.
    public func figures(_ request: FareRequest) throws(GeoFareError) -> (figures: FareFigures, meter: Meter) {
        var f = FareFigures()
        let meter = try figures(request, into: &f)
        return (f, meter)
    }

    /// ``figures(_:)`` written into `figures` (every field set): a batch keeps one value per
    /// thread and reuses it, instead of copying 160 bytes of figures out of every row.
    /// - Returns: the meter (tariff version) the figures came from.
    /// - Throws: ``GeoFareError`` as ``quote(_:)``; `figures` is then unspecified.
    public func figures(_ request: FareRequest, into f: inout FareFigures) throws(GeoFareError) -> Meter {
        if case .stops = request.trip {} else if request.destination == nil || request.origin == nil {
            // The batch path's distance/duration rows without both ends: what ``prepare(_:)``
            // does for them, without handing a copy of the request back (a measurable share of
            // a row). A known trip with its ends takes ``prepare(_:)`` (its zones need the ends).
            let resolved = try checkedMeter(request)
            try engine.figures(request, meter: resolved.meter, into: &f)
            if let assumption = resolved.assumption {
                let band = widen(request, low: f.low, high: f.high, others: resolved.others)
                (f.low, f.high, f.tariffBasis, f.assumption) = (band.low, band.high, .assumed, Self.text(assumption, covering: band.covered))
            }
            return resolved.meter
        }
        let prepared = try prepare(request)
        // The request itself unless preparing rewrote it: no copy of it on the common path.
        @inline(__always)
        func finish(_ fare: FareRequest) throws(GeoFareError) {
            try engine.figures(fare, meter: prepared.resolved.meter, into: &f)
            if let assumption = prepared.resolved.assumption {
                let band = widen(fare, low: f.low, high: f.high, others: prepared.resolved.others)
                (f.low, f.high, f.tariffBasis, f.assumption) = (band.low, band.high, .assumed, Self.text(assumption, covering: band.covered))
            }
            // An estimated toll's band on top of every candidate's (they share the trip's tolls).
            let tolls = Self.tollBasis(fare, items: prepared.tollItems)
            f.low += tolls.lowDelta
            f.high += tolls.highDelta
        }
        if let fare = prepared.fare { try finish(fare) } else { try finish(request) }
        return prepared.resolved.meter
    }

    /// Prices a trip: resolves its tariff (once), estimates its route when it is given by
    /// coordinates, and runs the meter.
    /// - Returns: the quote, and the route it was priced on (`nil` for distance/duration and
    ///   segment trips); its segments carry the slow seconds the meter ran on (the slow-time
    ///   model's, unless the estimator is in ``roadDerivedSlowTime``).
    /// - Throws: ``GeoFareError`` (tariff, route and fare errors, each with its field).
    public func quote(_ request: FareRequest) throws(GeoFareError) -> (quote: FareQuote, route: Route?) {
        let prepared = try prepare(request)
        let route = prepared.route
        // The request itself unless preparing rewrote it: no copy of it on the common path.
        @inline(__always)
        func finish(_ fare: FareRequest) throws(GeoFareError) -> FareQuote {
            var q = try engine.quote(fare, meter: prepared.resolved.meter)
            q.durationLowSeconds = route?.durationLowSeconds
            q.durationHighSeconds = route?.durationHighSeconds
            if let assumption = prepared.resolved.assumption {
                let band = widen(fare, low: q.low, high: q.high, others: prepared.resolved.others)
                (q.low, q.high, q.tariffBasis, q.assumption) = (band.low, band.high, .assumed, Self.text(assumption, covering: band.covered))
            }
            // An estimated toll's band on top of every candidate's (they share the trip's tolls).
            let tolls = Self.tollBasis(fare, items: prepared.tollItems)
            (q.tollBasis, q.tollItems) = (tolls.basis, prepared.tollItems)
            q.low += tolls.lowDelta
            q.high += tolls.highDelta
            return q
        }
        if let fare = prepared.fare { return (try finish(fare), route) }
        return (try finish(request), route)
    }

    /// The request the meter runs on, and its meter: for a trip by coordinates the tariff is
    /// resolved, the route estimated, its segments' slow seconds set from the slow-time model
    /// (unless the estimator is in ``roadDerivedSlowTime``) and, for proportional and Shapley
    /// splits, each rider's drop-off set at the end of a leg; other trips are validated first,
    /// as the engine does.
    /// - Returns: the request rewritten (`nil`: priced as given), its meter, its route, and the
    ///   trip's tolls from the toll data (``applyTolls(_:meter:routeMeters:)``; their sum is the
    ///   rewritten request's ``FareRequest/tolls``).
    func prepare(_ request: FareRequest) throws(GeoFareError) -> Prepared {
        guard case .stops = request.trip else {
            // A known trip with its ends: the tariff once, then the segments the ends imply.
            if case let .totals(distance, _) = request.trip, request.origin != nil, request.destination != nil {
                let tariff = try resolveTariff(request)
                var fare = request
                fare.tariffIndex = tariff.index
                if let segments = try knownTripSegments(request, tariff: tariff.index) {
                    fare.trip = .segments(segments)
                    fare.modelSlowTime = request.cruiseKmh == nil
                }
                let resolved = try checkedMeter(fare, resolved: tariff)
                let items = applyTolls(&fare, meter: resolved.meter, routeMeters: distance)
                return Prepared(fare: fare, resolved: resolved, route: nil, tollItems: items)
            }
            let resolved = try checkedMeter(request)
            // The screen first: the segments array is not touched (retained) for a city ride.
            if let o = request.origin, let d = request.destination, engine.catalog.mayHaveTolls(o, d), case let .segments(list) = request.trip {
                var meters = 0.0
                for s in list { meters += s.distanceMeters }
                let items = tollItems(request, meter: resolved.meter, routeMeters: meters)
                if !items.isEmpty {
                    var fare = request
                    fare.tolls = Self.total(items)
                    return Prepared(fare: fare, resolved: resolved, route: nil, tollItems: items)
                }
            }
            return Prepared(fare: nil, resolved: resolved, route: nil, tollItems: [])
        }
        let tariff = try resolveTariff(request)
        var route = try route(request, tariff: tariff.index)
        let resolved = try checkedMeter(request, resolved: tariff, route: route.segments)
        let meter = resolved.meter
        var fare = request
        if !roadDerivedSlowTime.contains(route.estimator) && meter.slowTime != nil {
            // In place (the route's segments are not shared yet): the route returned is the
            // one priced, its segments carrying the slow seconds the meter ran on.
            engine.applyModel(to: &route.segments, meter: meter)
            fare.modelSlowTime = true
            fare.segmentsModelled = true
        }
        let tollItems = applyTolls(&fare, meter: meter, routeMeters: route.distanceMeters)
        fare.trip = .segments(route.segments)
        fare.tariffIndex = tariff.index
        fare.routeSpread = route.spread
        if request.split != .equal && request.partySize >= 1 {  // a bad party size is the engine's error to report
            let ends = route.legEndDistances
            fare.dropoffDistances = (0..<request.partySize).map { ends[min($0, ends.count - 1)] }
        }
        return Prepared(fare: fare, resolved: resolved, route: route, tollItems: tollItems)
    }

    /// What ``prepare(_:)`` found: the request rewritten (`nil`: the caller's as given, not
    /// copied), the meter, the route of a trip by coordinates and the trip's tolls.
    struct Prepared {
        var fare: FareRequest?
        var resolved: ResolvedMeter
        var route: Route?
        var tollItems: [TollItem]
    }

    /// The meter a request is priced on and, when it was assumed, why and the other
    /// candidates' meters (the band covers them).
    struct ResolvedMeter {
        var meter: Meter
        /// `nil`: sourced.
        var assumption: String?
        var others: [Meter] = []
    }

    /// The one place a request is checked and its meter found: its ``FareOptions`` (party
    /// size, tolls, call fee), then its tariff (`resolved` already, for a trip by coordinates
    /// whose route needed it, or ``resolveTariff(_:)`` now) at the version in force at
    /// departure. Every pricing path comes through here once, before the meter runs; a trip
    /// by coordinates after its route, so it reports the route's errors first.
    ///
    /// Unless the request is ``FareRequest/strict``, a departure with no version known to be in
    /// force takes the most likely one (``TariffCatalog/assumedMeter(tariffAt:at:)``), and an
    /// origin that took its province's assumed tariff has the province's other group tariffs in
    /// force then as further candidates; and a trip that leaves the business zone of a version
    /// with no known out-of-zone rate is priced at 0 % with the highest rate in the data as a
    /// further candidate (``TariffCatalog/assumedOutOfZoneRate(_:)``).
    /// - Parameter route: a trip by coordinates' route segments (which say which run outside).
    private func checkedMeter(_ request: FareRequest, resolved: ResolvedTariff? = nil, route: [TripSegment]? = nil) throws(GeoFareError) -> ResolvedMeter {
        try engine.validate(request)
        // A batch's common case, the same answer with no intermediate values: a tariff named by
        // index with a version in force (no assumption, no other candidate), as below.
        if resolved == nil, let i = request.tariffIndex, let meter = engine.catalog.meterInForce(tariffAt: i, at: request.departure) {
            // The out-of-zone rules that read the trip's segments are rare: off this path.
            if Self.hasOutOfZoneRules(meter, strict: request.strict) {
                var out = ResolvedMeter(meter: meter)
                applyOutOfZoneRules(&out, request, route: route)
                return out
            }
            return ResolvedMeter(meter: meter)
        }
        let tariff: ResolvedTariff
        if let resolved { tariff = resolved } else { tariff = try resolveTariff(request) }
        let catalog = engine.catalog
        // One version lookup for both questions (in force? else the assumed one).
        let m = try catalog.meterOrAssumed(tariffAt: tariff.index, at: request.departure, strict: request.strict)
        var out = ResolvedMeter(meter: m.meter, assumption: m.why, others: m.others)
        if let why = tariff.assumption {
            out.assumption = [why, out.assumption].compactMap { $0 }.joined(separator: "; ")
            // The province's other groups, at the version in force then (a group that had none
            // is no candidate).
            out.others += tariff.others.compactMap { try? catalog.meter(tariffAt: $0, at: request.departure) }
        }
        if Self.hasOutOfZoneRules(out.meter, strict: request.strict) { applyOutOfZoneRules(&out, request, route: route) }
        return out
    }

    /// Whether a meter has an out-of-zone rule that depends on the trip (a version with no known
    /// rate, unless strict; a rate by destination): two loads, so the rules stay off the path of
    /// every other request.
    @inline(__always)
    private static func hasOutOfZoneRules(_ meter: Meter, strict: Bool) -> Bool {
        meter.hasDestinationRates || (!strict && meter.version.outOfZoneRatePercent == nil)
    }

    /// The out-of-zone (시계외) rules that depend on the trip, applied to a resolved meter: a
    /// version with no known rate whose trip leaves the zone is assumed at 0 % (unless strict,
    /// ``assumeOutOfZoneRate(_:leaving:)``), and a version whose rate depends on the destination
    /// takes the destination's (``rateByDestination(_:_:leaving:)``). Not inlined, and called
    /// only where ``hasOutOfZoneRules(_:strict:)``: every other request (a version with its one
    /// rate) never pays for it.
    /// - Parameter route: a trip by coordinates' route segments (else the request's own).
    @inline(never)
    private func applyOutOfZoneRules(_ out: inout ResolvedMeter, _ request: FareRequest, route: [TripSegment]?) {
        if !request.strict, out.meter.version.outOfZoneRatePercent == nil {
            assumeOutOfZoneRate(&out, leaving: route ?? Self.segments(of: request.trip))
        }
        if out.meter.hasDestinationRates { rateByDestination(&out.meter, request, leaving: route ?? Self.segments(of: request.trip)) }
    }

    /// Where the meter's version sets the out-of-zone (시계외) rate by destination
    /// (``TariffVersion/outOfZoneByDestination``) and the trip leaves the business zone: the
    /// meter at the rate for the request's destination (unchanged when it has none, or no rule's
    /// zone holds it). Every path that picks a meter comes through ``checkedMeter(_:resolved:route:)``,
    /// so the worker, `geofare fare` and `fare-csv` agree.
    private func rateByDestination(_ meter: inout Meter, _ request: FareRequest, leaving segments: [TripSegment]) {
        guard let destination = request.destination, segments.contains(where: \.outsideZone),
              let m = engine.catalog.destinationMeter(meter, to: destination) else { return }
        meter = m
    }

    /// Where a trip leaves the business zone of a version that gives no out-of-zone rate: that
    /// meter priced at 0 %, the top rate a further candidate of the band, and the assumption
    /// saying so (after any other). Other candidates giving no rate stay out of the band, as
    /// before (``widen(_:low:high:others:)``).
    private func assumeOutOfZoneRate(_ out: inout ResolvedMeter, leaving segments: [TripSegment]) {
        guard segments.contains(where: \.outsideZone), let a = engine.catalog.assumedOutOfZoneRate(out.meter) else { return }
        out.meter = a.priced
        if let top = a.top { out.others.append(top) }
        out.assumption = [out.assumption, a.why].compactMap { $0 }.joined(separator: "; ")
    }

    /// A trip's segments as given (none for a distance/duration trip: it never leaves a zone).
    private static func segments(of trip: FareRequest.Trip) -> [TripSegment] {
        if case let .segments(list) = trip { return list }
        return []
    }

    /// The band of an assumed fare widened to the other candidates: the trip priced on each
    /// one's meter (a routed trip on the same route; the slow-time model's slow seconds for
    /// each meter's changeover speed), and the least `low` and greatest `high` taken.
    /// - Returns: the band, and the candidates it covers as `tariff version` (one that cannot
    ///   price the trip, e.g. with no known out-of-zone rate, is left out and not named).
    func widen(_ fare: FareRequest, low: Int64, high: Int64, others: [Meter]) -> (low: Int64, high: Int64, covered: [String]) {
        var band = (low: low, high: high, covered: [String]())
        var alt = fare
        alt.segmentsModelled = false  // the segments carry the first meter's slow seconds: each candidate models its own
        for m in others {
            guard let f = try? engine.figures(alt, meter: m) else { continue }
            band.low = min(band.low, f.low)
            band.high = max(band.high, f.high)
            band.covered.append("\(m.tariffID) \(m.versionLabel)")
        }
        return band
    }

    /// An assumption and the candidates its band covers, for people.
    static func text(_ assumption: String, covering covered: [String]) -> String {
        covered.isEmpty ? assumption : assumption + "; low/high cover " + covered.joined(separator: ", ")
    }
}
