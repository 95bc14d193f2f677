import Foundation
import GeoFareCore
import GeoFareRoute

/// What to price: a trip (coordinates with stops, total distance and duration, or segments),
/// when, with which tariff, for how many riders. The one fare input of the library, the worker,
/// `fare-csv` and `geofare fare`: each of them only parses it and formats the answer of
/// ``TripPricer/quote(_:)`` or ``TripPricer/figures(_:)``.
public struct FareRequest: Sendable {
    /// The trip.
    public enum Trip: Sendable {
        /// From an origin through stops (at most ``RouteRequest/maxStops``) to a destination:
        /// the pricer's route estimator drives it. For proportional and Shapley splits, rider i
        /// gets off at the i-th stop (then the destination); riders beyond the stops ride to the end.
        case stops(origin: Coordinate, via: [Coordinate], destination: Coordinate)
        /// Total driven distance (m) and duration (s); the slow time is estimated by the
        /// catalog's slow-time model (``SlowTimeModel``) for the tariff's changeover speed and
        /// mode, or, when ``FareRequest/cruiseKmh`` is given (or the catalog has no model), with
        /// a cruise speed: `slow = max(0, duration − distance / cruise)`.
        case totals(distanceMeters: Double, durationSeconds: Double)
        /// Segments as the meter sees them; their start times and slow seconds are taken as
        /// given (a segment without `slowSeconds` is driven at uniform speed), unless
        /// ``FareRequest/modelSlowTime`` is set.
        case segments([TripSegment])
    }

    public var trip: Trip
    /// Departure (boarding) time; the tariff version in force then is used.
    public var departure: Date
    /// A tariff id or alias; `nil` picks the tariff whose region contains `origin`.
    public var tariff: String?
    /// The tariff already resolved, as its position in ``TariffCatalog/tariffs`` (a batch that
    /// names the same tariff on every row resolves it once); wins over ``tariff``.
    public var tariffIndex: Int?
    /// Origin and destination, when known: they pick the tariff and flat-surcharge zones
    /// (a `.stops` trip sets them).
    public var origin: Coordinate?
    public var destination: Coordinate?
    /// The taxi's own business zone (사업구역), a zone id of the data (`kr-sgg-gyeonggi-seongnam`):
    /// a taxi licensed in one 시·군 charges 시계외 from that zone's boundary wherever it picks up,
    /// and none on a ride that starts outside it (driving back in). `nil`: the zone of the
    /// origin on the tariff (its `business_zones`, else its `business_zone`).
    public var businessZone: String?
    /// Average speed while moving, km/h, for `.totals`: `slow = max(0, T − D / cruise)` and
    /// `low`/`high` the physical bounds. `nil` (the default) uses the slow-time model
    /// (``TariffCatalog/slowTime``) and its 80 % band (``FareQuote/low``), or the tariff's
    /// `default_cruise_kmh` when the catalog has no model.
    public var cruiseKmh: Double?
    /// For `.segments`: replace every segment's `slowSeconds` by the slow-time model's for the
    /// tariff (and give the model's band as `low`/`high`). ``TripPricer`` sets it for routed
    /// trips whose estimator's slow time is not road-derived. No effect without a model.
    public var modelSlowTime = false
    /// With ``modelSlowTime``: the segments already carry the model's slow seconds (set in place
    /// by ``TripPricer``, which saves the engine a copy of the segments); only the band is left.
    var segmentsModelled = false
    /// The route's own uncertainty the fare band spans besides the slow-time model's (set by
    /// ``TripPricer`` for a trip by coordinates).
    var routeSpread: RouteSpread = .none
    /// Who shares the taxi and what is added to the meter: one value, parsed once by a caller
    /// and set once (``partySize``, ``split``, ``splitUnit``, ``tolls`` and ``callFee`` read and
    /// write it).
    public var options = FareOptions()
    /// Riders sharing the taxi, 1...20.
    public var partySize: Int { get { options.partySize } set { options.partySize = newValue } }
    public var split: SplitMethod { get { options.split } set { options.split = newValue } }
    /// The unit shares are rounded to; `nil`: 100 for KRW, 1 minor unit otherwise.
    public var splitUnit: Int64? { get { options.splitUnit } set { options.splitUnit = newValue } }
    /// Where each rider gets off, as distance along the trip in metres (proportional and
    /// Shapley splits); `nil`: everybody rides to the end. Count must equal `partySize`.
    public var dropoffDistances: [Double]?
    /// For a trip by coordinates on a road graph: what the route minimises (``RouteMetric``),
    /// whether the route keeps its road geometry, and whether a point far from every road falls
    /// back to the circuity model (`true`) or answers `no_road_nearby`.
    public var metric: RouteMetric = .fastest
    public var includeGeometry = false
    public var fallbackWhenNoRoad = true
    /// How the route may leave or reach each point (origin, stops, destination), as
    /// ``RouteRequest/approaches``.
    public var approaches: [RouteApproach] = []
    /// Refuse instead of assuming: where no source settles the tariff (an origin in a province
    /// whose data names no tariff group for it: `unknown_tariff_group`; a departure before the
    /// tariff's first modelled version: `no_tariff_version`, or in a month whose day of change no
    /// source gives: `tariff_version_uncertain`) the request fails with that error, as it did
    /// before tariffs were assumed. `false` (the default): priced on the most likely tariff, the quote saying
    /// ``TariffBasis/assumed`` and why (``FareQuote/assumption``).
    public var strict = false
    /// Tolls paid at cost, minor units; split equally. Tolls other than 0 are the caller's
    /// (`given`); left at 0, ``TripPricer`` sets them from the toll data unless
    /// ``estimateTolls`` is `false` (a caller saying there are none).
    public var tolls: Int64 { get { options.tolls } set { options.tolls = newValue } }
    /// Whether ``TripPricer`` prices the trip's tolls from the toll data (`Data/tolls`: the
    /// crossings and the expressway estimate), for a trip whose ends are known and whose
    /// ``tolls`` are 0. `false`: the caller gave ``tolls`` (the worker's `tolls` field, 0
    /// included), taken as they are (`given`).
    public var estimateTolls = true
    /// A call/booking fee, minor units; split equally.
    public var callFee: Int64 { get { options.callFee } set { options.callFee = newValue } }

    public init(trip: Trip, departure: Date, tariff: String? = nil) {
        self.trip = trip
        self.departure = departure
        self.tariff = tariff
        if case let .stops(origin, _, destination) = trip {
            self.origin = origin
            self.destination = destination
        }
    }

    /// A trip between coordinates, through optional stops.
    public init(from origin: Coordinate, via: [Coordinate] = [], to destination: Coordinate, departure: Date, tariff: String? = nil) {
        self.init(trip: .stops(origin: origin, via: via, destination: destination), departure: departure, tariff: tariff)
    }
}

/// The riders of a trip and the charges added to its meter: what a caller reads from its input
/// once (a worker request's `party_size`, `split`, `split_unit`, `tolls`, `call_fee`; the same
/// command-line options) and sets on a ``FareRequest`` as one value. ``TripPricer`` checks it
/// (party size 1...20, no negative charge) before the meter runs.
public struct FareOptions: Sendable, Equatable {
    /// Riders sharing the taxi, 1...20.
    public var partySize: Int = 1
    public var split: SplitMethod = .equal
    /// The unit shares are rounded to; `nil`: 100 for KRW, 1 minor unit otherwise.
    public var splitUnit: Int64?
    /// Tolls paid at cost, minor units; split equally.
    public var tolls: Int64 = 0
    /// A call/booking fee, minor units; split equally.
    public var callFee: Int64 = 0

    public init(partySize: Int = 1, split: SplitMethod = .equal, splitUnit: Int64? = nil, tolls: Int64 = 0, callFee: Int64 = 0) {
        self.partySize = partySize
        self.split = split
        self.splitUnit = splitUnit
        self.tolls = tolls
        self.callFee = callFee
    }
}
