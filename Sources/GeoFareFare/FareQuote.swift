/// A priced trip: what the meter will show, what the riders pay, and why.
///
/// All money is integer minor units of `currency`. `total = meter + surcharges + tolls +
/// call_fee + rounding` and the per-person shares always sum to `total`. The JSON form (keys
/// below) is what the worker returns and what `fare-csv` writes in its result columns.
public struct FareQuote: Sendable, Hashable, Codable {
    /// Tariff id and the version used (its `effective_from`).
    public var tariff, tariffVersion: String
    public var currency: String
    /// The trip the quote prices.
    public var distanceMeters, durationSeconds: Double
    /// The 80 % band of the duration for a trip by coordinates (the route's), seconds; `nil`
    /// for a trip given by its distance and duration or segments.
    public var durationLowSeconds: Double? = nil, durationHighSeconds: Double? = nil
    /// The slow (standing) seconds the meter ran on, summed over the segments: the slow-time
    /// model's, the cruise rule's (`cruise_kmh`) or the caller's `slow_s` (JSON `slow_s`).
    public var slowSeconds: Double
    /// What the taxi meter shows: base and units with their per-unit surcharges.
    public var meter: Int64
    /// Flat per-trip surcharges (NYC), summed.
    public var surcharges: Int64
    public var tolls, callFee: Int64
    /// What is paid: everything above, rounded per the tariff.
    public var total: Int64
    /// The total's band: when the slow-time model priced the trip, an 80 % band (the totals at
    /// slow time ± `band_z`·σ, fitted so that 80 % of real NYC fares fall inside; not the
    /// Gaussian 10th/90th percentiles, whose fare band held 93 %); otherwise the totals for the least and most slow time the
    /// trip's distance and duration allow (the physical bounds).
    public var low, high: Int64
    /// Each rider's share, in rider order; sums to `total`.
    public var perPerson: [Int64]
    public var split: SplitMethod
    public var breakdown: Breakdown
    /// Whether a source places the trip on ``tariff`` at ``tariffVersion`` (`sourced`), or no
    /// source settles which tariff applies and the most likely one was used (`assumed`: an
    /// origin in a province whose data names no tariff group for it, a departure before the
    /// tariff's first modelled version or in a month whose day of change no source gives; the
    /// rule is in `Data/tariffs/README.md`). Never absent: every result says which.
    public var tariffBasis: TariffBasis = .sourced
    /// With `assumed`: the tariff and version used and why, and which other tariffs
    /// `low`/`high` cover; `nil` when sourced.
    public var assumption: String?
    /// Where ``tolls`` come from: `nil` when there are none; `sourced` (published tolls in force
    /// at departure, `Data/tolls`), `estimated` (the expressway toll of a long trip, from its
    /// distance: `low`/`high` carry its band), `given` (the caller's `tolls`).
    public var tollBasis: TollBasis?
    /// Each toll: a crossing or the expressway estimate, with its basis (empty for none or given).
    public var tollItems: [TollItem] = []

    /// How the total is made up.
    public struct Breakdown: Sendable, Hashable, Codable {
        public var base: Int64
        public var baseSurcharge: Int64
        /// Units charged, and how many came from distance and from slow time.
        public var units: Int64
        public var distanceUnits: Int64
        public var timeUnits: Int64
        public var unitPrice: Int64
        /// `units × unit_price`.
        public var unitsAmount: Int64
        /// Extra on units for night/out-of-zone rates when they ticked.
        public var unitSurcharges: Int64
        public var flatSurcharges: [FlatItem]
        public var tolls: Int64
        public var callFee: Int64
        /// The payment rounding (can be negative).
        public var rounding: Int64
        /// The meter's fare-distance counter at the end, in metres.
        public var counterMeters: Double

        private enum CodingKeys: String, CodingKey {
            case base, baseSurcharge = "base_surcharge", units, distanceUnits = "distance_units", timeUnits = "time_units"
            case unitPrice = "unit_price", unitsAmount = "units_amount", unitSurcharges = "unit_surcharges"
            case flatSurcharges = "flat_surcharges", tolls, callFee = "call_fee", rounding, counterMeters = "counter_m"
        }
    }

    /// One flat surcharge line.
    public struct FlatItem: Sendable, Hashable, Codable {
        public var name: String
        public var amount: Int64
    }

    private enum CodingKeys: String, CodingKey {
        case tariff, tariffVersion = "tariff_version", currency, distanceMeters = "distance_m", durationSeconds = "duration_s"
        case slowSeconds = "slow_s", meter, surcharges, tolls, callFee = "call_fee", total, low, high, perPerson = "per_person", split, breakdown
        case tariffBasis = "tariff_basis", assumption, durationLowSeconds = "duration_low_s", durationHighSeconds = "duration_high_s"
        case tollBasis = "toll_basis", tollItems = "toll_items"
    }
}

/// Whether a fare's tariff is the one a source places the trip on, or the most likely one where
/// no source says (``FareQuote/tariffBasis``).
public enum TariffBasis: String, Sendable, Hashable, Codable {
    /// A source places the origin in this tariff's region and the departure in this version.
    case sourced
    /// No source settles it: the most likely tariff or version was used (``FareQuote/assumption``
    /// says which and why), and `low`/`high` cover the other candidates. A request with
    /// ``FareRequest/strict`` gets the error instead.
    case assumed
}
