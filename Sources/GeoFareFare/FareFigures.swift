import GeoFareCore

/// The money of a quote without its breakdown or shares: what `fare-csv` writes, computed
/// without allocating (``TripPricer/figures(_:)``). A quote is built on the same figures, so
/// both always agree.
///
/// A plain value (no references): copying it costs no reference counting, which matters
/// when every core prices rows at once.
public struct FareFigures: Sendable {
    public var reading: Meter.Reading
    public var distanceMeters: Double
    public var durationSeconds: Double
    /// The slow (standing) seconds the meter ran on: the sum of the segments' `slowSeconds`
    /// (the model's, the cruise rule's or the caller's; a segment without one counts 0).
    public var slowSeconds: Double
    /// Flat surcharges, summed.
    public var surcharges: Int64
    /// Tolls and the call fee, then the total and its band, as in ``FareQuote``.
    public var tolls, callFee: Int64
    public var total, low, high: Int64
    /// The unit equal shares are rounded to.
    public var splitUnit: Int64
    /// Sourced, or assumed (``FareQuote/tariffBasis``); `assumption` says what and why.
    public var tariffBasis: TariffBasis = .sourced
    public var assumption: String?

    /// All zero, sourced, no assumption: a value to fill (``TripPricer/figures(_:into:)``).
    public init() {
        reading = Meter.Reading()
        (distanceMeters, durationSeconds, slowSeconds) = (0, 0, 0)
        (surcharges, tolls, callFee, total, low, high, splitUnit) = (0, 0, 0, 0, 0, 0, 0)
    }

    /// Rider `i`'s equal share of the total (0-based): tolls and call fee split equally as
    /// their own items, as ``TripPricer/quote(_:)`` splits them.
    public func equalShare(_ i: Int, riders: Int) -> Int64 {
        FareSplit.EqualShares(total: total - tolls - callFee, riders: riders, unit: splitUnit)[i]
            + (tolls > 0 ? FareSplit.EqualShares(total: tolls, riders: riders, unit: splitUnit)[i] : 0)
            + (callFee > 0 ? FareSplit.EqualShares(total: callFee, riders: riders, unit: splitUnit)[i] : 0)
    }
}
