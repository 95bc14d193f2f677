import Foundation
import GeoFareCore
import GeoFareData
import GeoFareRoute

/// Prices trips given as coordinates: picks the tariff (named, or by the origin's region),
/// estimates the route inside that tariff's business zone, and runs the meter over the route's
/// segments. The one computation path behind the library, the CLI, the worker and `fare-csv`.
///
/// Immutable and `Sendable`.
public struct TripPricer: Sendable {
    public let engine: FareEngine
    public let estimator: any RouteEstimator

    public init(engine: FareEngine, estimator: any RouteEstimator) {
        self.engine = engine
        self.estimator = estimator
    }

    /// The embedded tariffs, zones and route calibration, plus an optional user data directory.
    /// - Throws: ``FareError`` when a data file is malformed (its field names the file).
    public static func standard(data: DataCatalog = .embedded) throws(FareError) -> TripPricer {
        let catalog = try TariffCatalog.load(from: data)
        let estimator: CircuityRouteEstimator
        do { estimator = try CircuityRouteEstimator(data: data, regions: catalog.zones) } catch {
            throw FareError(code: error.code, message: error.message, field: error.field)
        }
        return TripPricer(engine: try FareEngine(catalog: catalog), estimator: estimator)
    }

    /// A trip between coordinates.
    public struct Request: Sendable {
        public var origin: Coordinate
        /// Intermediate stops, at most 25. For proportional and Shapley splits, rider i gets
        /// off at the i-th stop (then the destination); riders beyond the stops ride to the end.
        public var via: [Coordinate] = []
        public var destination: Coordinate
        public var departure: Date
        public var tariff: String?
        public var partySize = 1
        public var split: SplitMethod = .equal
        public var splitUnit: Int64?
        public var tolls: Int64 = 0
        public var callFee: Int64 = 0

        public init(origin: Coordinate, destination: Coordinate, departure: Date) {
            self.origin = origin
            self.destination = destination
            self.departure = departure
        }
    }

    /// The tariff id a request resolves to.
    public func tariffID(for request: Request) throws(FareError) -> String {
        engine.catalog.tariffs[try resolveTariff(request)].id
    }

    /// The route the trip will be priced on.
    /// - Parameter anywhere: when no tariff is named and no tariff region contains the origin,
    ///   estimate the route anyway, with no business zone (the `route` op and command), instead
    ///   of failing with `no_tariff_for_location` (what pricing needs).
    /// - Throws: ``FareError`` with the route's code and field (`too_many_stops`, ...).
    public func route(_ request: Request, anywhere: Bool = false) throws(FareError) -> Route {
        let tariff: Int?
        if anywhere && request.tariff == nil {
            tariff = try? engine.catalog.tariffIndex(forOrigin: request.origin)
        } else {
            tariff = try resolveTariff(request)
        }
        return try route(request, tariff: tariff)
    }

    /// The tariff a request names, or the one whose region contains its origin (resolved once
    /// per request: the region test is a point-in-polygon search).
    /// Its position in the catalog's `tariffs` (no copy of the tariff).
    func resolveTariff(_ request: Request) throws(FareError) -> Int {
        if let id = request.tariff { return try engine.catalog.tariffIndex(id) }
        return try engine.catalog.tariffIndex(forOrigin: request.origin)
    }

    /// The route inside a resolved tariff's business zone (no zone without a tariff).
    func route(_ request: Request, tariff: Int?) throws(FareError) -> Route {
        let zone = tariff.flatMap { engine.catalog.businessZone(ofTariffAt: $0) }
        do {
            return try estimator.estimate(RouteRequest(origin: request.origin, via: request.via, destination: request.destination,
                                                       departure: request.departure, businessZone: zone))
        } catch {
            throw FareError(code: error.code, message: error.message, field: error.field)
        }
    }

    /// Estimates the route and prices it up to its money figures (no breakdown, no shares
    /// array: the batch path). Shares are equal ones (``FareEngine/Figures/equalShare(_:riders:)``);
    /// use ``quote(_:)`` for other splits.
    /// - Throws: ``FareError`` as ``quote(_:)``.
    public func figures(_ request: Request) throws(FareError) -> (figures: FareEngine.Figures, meter: Meter) {
        let (fare, _) = try fareRequest(request)
        let meter = try engine.meter(for: fare)
        return (try engine.figures(fare, meter: meter), meter)
    }

    /// Estimates the route and prices it.
    /// - Throws: ``FareError`` (tariff, route and fare errors, each with its field).
    public func quote(_ request: Request) throws(FareError) -> (quote: FareQuote, route: Route) {
        let (fare, route) = try fareRequest(request)
        return (try engine.quote(fare), route)
    }

    /// The fare request for a trip: its tariff resolved once, its route estimated, and, for
    /// proportional and Shapley splits, each rider's drop-off at the end of a leg.
    func fareRequest(_ request: Request) throws(FareError) -> (FareRequest, Route) {
        let tariff = try resolveTariff(request)
        let route = try route(request, tariff: tariff)
        var fare = FareRequest(trip: .segments(route.segments), departure: request.departure, tariff: engine.catalog.tariffs[tariff].id)
        fare.origin = request.origin
        fare.destination = request.destination
        fare.partySize = request.partySize
        fare.split = request.split
        fare.splitUnit = request.splitUnit
        fare.tolls = request.tolls
        fare.callFee = request.callFee
        if request.split != .equal && request.partySize >= 1 {  // a bad party size is the engine's error to report
            let ends = route.legEndDistances
            fare.dropoffDistances = (0..<request.partySize).map { ends[min($0, ends.count - 1)] }
        }
        return (fare, route)
    }
}
