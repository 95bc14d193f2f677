import Foundation
import GeoFareCore

/// A taxi tariff: one region and vehicle class (`kr-seoul/regular`), with its versions over time.
///
/// Loaded from one JSON file in `Data/tariffs/` (the format is described in
/// `Data/tariffs/README.md`) and validated on load. A trip is priced with the version in force
/// at its departure.
public struct Tariff: Sendable, Hashable {
    /// `<region>/<class>`, e.g. `kr-seoul/regular`.
    public let id: String
    /// Other ids that name this tariff (e.g. `kr-seoul/jumbo` for the deluxe tariff).
    public let aliases: [String]
    /// A name for people.
    public let name: String
    /// ISO 4217 currency of every amount.
    public let currency: String
    /// The IANA time zone in which night windows and flat-surcharge hours are read.
    public let timeZone: TimeZone
    /// The zone whose area this tariff serves by default (the origin picks it), if any.
    public let region: String?
    /// Further zones whose origins take this tariff (a city on a neighbour's tariff, e.g.
    /// Gwangmyeong on Seoul's); empty for most.
    public let alsoRegions: [String]
    /// The zone outside which units carry the out-of-zone rate, if any.
    public let businessZone: String?
    /// Provinces (zones) whose unplaced origins take this tariff as an assumption: an origin in
    /// one of them that no tariff's region holds is priced on this tariff, with
    /// ``TariffBasis/assumed`` and an ``FareQuote/assumption`` naming it (the file's
    /// `assumed_for`; empty for most).
    public let assumedFor: [AssumedFor]
    /// Average speed while moving, km/h, used when only total distance and duration are known.
    public let defaultCruiseKmh: Double
    /// The versions, sorted by `effectiveFrom`.
    public let versions: [TariffVersion]
    /// Where the tariff was loaded from (`embedded:tariffs/...` or a file path).
    public let origin: String
    /// Zones whose origins a source places on this tariff for some of its versions only (the
    /// file's `placed_for_versions`; empty for most): a trip from one of them departing while
    /// one of those versions is in force takes this tariff, as ``TariffBasis/sourced``; under
    /// any other version the zone places nothing and the origin is unplaced in its province.
    public internal(set) var placedForVersions: [PlacedForVersions] = []
    /// Zones each of which is the business zone of the trips that start in it (the file's
    /// `business_zones`; empty for most): a province's tariff whose 시계외 starts at the boundary of
    /// the 시·군 the taxi belongs to. An origin in none of them takes ``businessZone``.
    public internal(set) var businessZonesByOrigin: [String] = []
    /// The slow-time model this tariff's meters estimate slow time with (the file's
    /// `slow_time_model`: `kr` reads `fare/slow-time-kr.json`, ``SlowTimeModel/path(named:)``);
    /// `nil`: the catalog's default model (``SlowTimeModel/path``).
    public internal(set) var slowTimeModel: String?

    /// A province whose unplaced origins this tariff prices as the most likely one.
    public struct AssumedFor: Sendable, Hashable {
        /// The province's zone id (one whose city groups have tariffs but that has none of its own).
        public let zone: String
        /// What the assumption calls this tariff ("Gyeonggi standard group").
        public let label: String
        /// Why it is the most likely one (the sources that say so), for people.
        public let why: String
    }

    /// A zone a source places on this tariff for some versions only (a Gyeonggi 시·군 named in one
    /// group's 2019 notice and in no 2023 one).
    public struct PlacedForVersions: Sendable, Hashable {
        /// The zone's id (a group zone in `Data/zones`, whose `parent` is its province).
        public let zone: String
        /// The positions in ``Tariff/versions`` of the versions the sources place it on, increasing.
        public let versions: [Int]
        /// Who places it there and the words that do, for people.
        public let sources: [String]
    }

    /// Which version, if any, is in force at an instant.
    public enum VersionLookup: Sendable, Hashable {
        /// The version at this position in ``Tariff/versions``.
        case inForce(Int)
        /// Before the first version (and outside its uncertain month, if it has one).
        case beforeFirst
        /// Inside the month in which the version at this position took effect on a day no
        /// source gives (``TariffVersion/uncertainFrom`` ..< ``TariffVersion/effectiveFrom``).
        case uncertainMonth(Int)
    }

    /// The version in force at `date`: the last one whose `effectiveFrom` is at or before it,
    /// unless `date` falls in the uncertain month of the next one.
    /// - Complexity: O(number of versions).
    public func versionLookup(at date: Date) -> VersionLookup {
        var v = versions.count - 1
        while v >= 0 && versions[v].effectiveFrom > date { v -= 1 }
        if v + 1 < versions.count, let u = versions[v + 1].uncertainFrom, u <= date { return .uncertainMonth(v + 1) }
        return v >= 0 ? .inForce(v) : .beforeFirst
    }

    /// The version in force at `date`, or `nil` if the date is before the first version or in
    /// a month whose day of change no source gives (see ``versionLookup(at:)``).
    public func version(at date: Date) -> TariffVersion? {
        if case let .inForce(v) = versionLookup(at: date) { return versions[v] }
        return nil
    }
}

/// One version of a tariff: every number the meter needs, in force from `effectiveFrom` until
/// the next version starts.
public struct TariffVersion: Sendable, Hashable {
    /// How slow time and distance combine below the changeover speed.
    public enum Mode: String, Sendable, Codable {
        /// 동시병산 (mode D): below the changeover speed time **and** distance count.
        case concurrent
        /// 상호병산 (mode S): below it only time counts, at or above it only distance.
        case exclusive
    }

    /// When a unit is charged.
    public enum ChargeUnit: String, Sendable, Codable {
        /// When the unit starts (Korean meters): the first unit the moment the counter passes the base distance.
        case onStart = "on_start"
        /// When the unit completes (NYC): the initial charge covers the first partial unit.
        case onComplete = "on_complete"
    }

    /// A window of local time with a percentage surcharge on units (and on the base fare at boarding).
    public struct NightWindow: Sendable, Hashable {
        /// Start and end (exclusive), seconds after local midnight; the end may be ≤ the start
        /// when the window wraps midnight.
        public let fromSecond, toSecond: Int
        public let ratePercent: Int
    }

    /// A per-trip amount added on top of the meter (NYC's MTA tax, overnight, rush hour, congestion).
    public struct FlatSurcharge: Sendable, Hashable {
        public let name: String
        /// Minor units.
        public let amount: Int64
        /// Local time window at boarding, seconds after midnight (`nil`: all day).
        public let fromSecond: Int?
        public let toSecond: Int?
        /// ISO weekdays (1 = Monday) at boarding (`nil`: every day).
        public let weekdays: Set<Int>?
        /// A zone the trip must start or end in (`nil`: anywhere).
        public let zone: String?
    }

    /// An out-of-zone (시계외) rate for trips to some places: the file's
    /// `out_of_zone_by_destination` (Gwangju from 2025-10-22: 40 % to the adjacent Naju,
    /// Damyang, Jangseong and Hampyeong, 35 % elsewhere).
    public struct DestinationRate: Sendable, Hashable {
        /// Ids of zones in `Data/zones` (checked when the catalog loads): a trip whose
        /// destination lies in one of them takes ``ratePercent``.
        public let zones: [String]
        /// Percent added to the units that tick outside the business zone, instead of
        /// ``TariffVersion/outOfZoneRatePercent``.
        public let ratePercent: Int
    }

    /// A surcharge on the units charged once the counter has passed a distance (복합할증 beyond
    /// a distance, long-distance tiers): the file's `distance_tiers`.
    public struct DistanceTier: Sendable, Hashable {
        /// Metres of the counter (distance plus slow time converted at the changeover speed, as
        /// the units count it) from which the tier applies: a unit that ticks with the counter
        /// at or beyond it carries the tier's rate. At least the base distance.
        public let fromMeters: Double
        /// Percent added to those units' price, on top of the night and out-of-zone rates
        /// (which ``TariffVersion/maxCombinedRatePercent`` caps; the tier's rate is not capped).
        /// A later tier replaces an earlier one.
        public let ratePercent: Int
    }

    /// The instant the version is known to be in force from. For a version whose start is
    /// known only to the month (`effective_month`), the first instant of the next month.
    public let effectiveFrom: Date
    /// For a version whose start is known only to the month: the first instant of that month
    /// (local time of the tariff). From then until ``effectiveFrom`` neither this version nor
    /// the one before is known to be in force, and a departure there is `tariff_version_uncertain`.
    /// `nil` when the source gives the day.
    public let uncertainFrom: Date?
    /// `true` for a first version modelled from `in_force_on`, the start of the modelled period:
    /// it is known to be in force then, its own (earlier) start is not modelled, and ``effectiveFrom``
    /// is 00:00 local time on that day.
    public let startsAtPeriodStart: Bool
    /// The `effective_from` (or `effective_month`) text as written in the file, used as the version
    /// label; for `in_force_on`, "in force on YYYY-MM-DD".
    public internal(set) var label: String
    public let sources: [String]
    /// Fields of this version known only from secondary sources.
    public let secondary: [String]
    /// Minor units charged at boarding.
    public let baseFare: Int64
    /// Metres of the counter the base fare covers.
    public let baseDistanceMeters: Double
    /// Minor units per unit.
    public let unitPrice: Int64
    public let unitDistanceMeters: Double
    public let unitTimeSeconds: Double
    public let mode: Mode
    public let chargeUnit: ChargeUnit
    public let night: [NightWindow]
    /// Percent added to units that tick outside the business zone (시계외), or `nil` when no
    /// source gives it: a trip with a segment outside the zone is then priced at 0 % as
    /// ``TariffBasis/assumed`` (``TripPricer``), or fails with `unknown_out_of_zone_rate` when
    /// ``FareRequest/strict``.
    public internal(set) var outOfZoneRatePercent: Int?
    /// A cap on night + out-of-zone rates combined (Daegu: 40), if any.
    public let maxCombinedRatePercent: Int?
    /// The surcharged base fare is rounded half-up to a multiple of this.
    public let surchargedBaseStep: Int64
    /// A surcharged unit price is rounded half-up to a multiple of this.
    public let surchargedUnitStep: Int64
    public let flatSurcharges: [FlatSurcharge]
    /// Unit surcharges from a counter distance on, in increasing order of `fromMeters`; empty
    /// for most tariffs.
    public let distanceTiers: [DistanceTier]
    /// The amount paid is rounded half-up to a multiple of this.
    public let roundingStep: Int64
    /// Out-of-zone rates by the trip's destination, tried in order (the first whose zones hold
    /// the destination applies; none: ``outOfZoneRatePercent``); empty for most tariffs. Only a
    /// trip whose destination is known (by coordinates, or a request's `destination`) is
    /// matched: ``TripPricer`` picks the meter (``TariffCatalog/destinationMeter(_:to:)``).
    public internal(set) var outOfZoneByDestination: [DestinationRate] = []

    /// The changeover speed in m/s: unit distance ÷ unit time.
    public var changeoverSpeed: Double { unitDistanceMeters / unitTimeSeconds }
}
