import Foundation
import GeoFareCore

/// A taxi meter: one fare-distance counter run over trip segments, as `docs/METER.md` describes.
///
/// - The counter F (metres) grows with distance driven; in ``TariffVersion/Mode/concurrent``
///   mode, while the car moves below the changeover speed (unit distance ÷ unit time), time also
///   counts, converted to distance at that speed; in ``TariffVersion/Mode/exclusive`` mode below
///   it only time counts. Standing time always counts.
/// - The base fare covers F up to the base distance. With ``TariffVersion/ChargeUnit/onStart``
///   unit k is charged when F reaches `base + (k−1)·unit` (so N = 0 below the base distance,
///   else ⌊(F − base)/unit⌋ + 1); with ``TariffVersion/ChargeUnit/onComplete`` when F reaches
///   `base + k·unit`.
/// - A unit is priced at the moment it ticks: the night rate in force then plus the out-of-zone
///   rate if its segment is outside, added (capped by `maxCombinedRatePercent`), plus the rate of
///   the version's last ``TariffVersion/DistanceTier`` whose start the counter has reached when
///   the unit ticks (not capped), rounded to `surchargedUnitStep`. The base fare is priced once
///   at boarding.
///
/// The counter is kept in "metre·seconds" (distance × unit time + time × unit distance), so
/// integer inputs stay exact in floating point and units tick exactly at the thresholds.
/// - Complexity: O(segments + rate changes during the trip); independent of the number of units.
///
/// An immutable class, built once per tariff version by ``TariffCatalog`` and shared by every
/// thread: handing one around costs a single reference count, not a copy of its tables.
public final class Meter: Sendable {
    /// Which reading of the slow time to compute.
    public enum Scenario: Sendable {
        /// The segments as given (their `slowSeconds`, or uniform speed).
        case estimate
        /// The least the meter can show for each segment's distance and duration: max(D, v*·T).
        /// (A quote's `low` is this unless the slow-time model priced the trip: then it is the
        /// low end of the model's 80 % band, see ``Meter/runScenarios(buffer:bandSecondsPerSecond:spread:)``.)
        case low
        /// The most: D + v*·T (all of the time slow while the whole distance is driven).
        case high
    }

    /// What the meter shows at the end of a trip.
    public struct Reading: Sendable, Hashable {
        /// The base fare at the plain rate.
        public var baseFare: Int64 = 0
        /// Extra on the base fare for the night/out-of-zone rate at boarding.
        public var baseSurcharge: Int64 = 0
        /// Units charged.
        public var units: Int64 = 0
        /// Of those, the units the distance alone would have charged; the rest came from slow time.
        public var distanceUnits: Int64 = 0
        /// `units × unit price`, at the plain rate.
        public var unitsAmount: Int64 = 0
        /// Extra on units for the rates in force when they ticked.
        public var unitSurcharges: Int64 = 0
        /// The counter at the end, in metres.
        public var counterMeters: Double = 0
        /// The units charged from slow time.
        public var timeUnits: Int64 { units - distanceUnits }
        /// What the meter shows: base and units with their surcharges, in minor units.
        public var amount: Int64 { baseFare + baseSurcharge + unitsAmount + unitSurcharges }
    }

    /// The tariff this meter belongs to.
    public let tariff: Tariff
    public let version: TariffVersion
    public let clock: LocalClock
    /// The slow-time model this meter's trips are estimated with (its tariff's
    /// `slow_time_model`, else the catalog's default); `nil`: cruise speeds.
    public let slowTime: SlowTimeModel?
    /// Copies of the fields every quote reads, so pricing never copies the `tariff` or
    /// `version` structs (each copy retains every array and string inside them).
    public let tariffID: String
    public let currency: String
    public let versionLabel: String
    public let defaultCruiseKmh: Double
    /// The changeover speed v* = unit distance ÷ unit time, m/s: below it the meter counts time.
    public let changeoverSpeed: Double
    /// The version's mode (``TariffVersion/Mode``), copied for the same reason.
    public let mode: TariffVersion.Mode
    public let roundingStep: Int64
    public let hasFlatSurcharges: Bool
    /// Whether the version's out-of-zone rate depends on the destination
    /// (``TariffVersion/outOfZoneByDestination``): read per priced trip, so the common case
    /// costs one load.
    public let hasDestinationRates: Bool
    /// The unit shares are rounded to by default: 100 for KRW, 1 minor unit otherwise.
    public let defaultSplitUnit: Int64
    /// Rates by time of day: `starts[i]` (seconds after midnight, ascending, `starts[0] == 0`)
    /// begins a period with night rate `rates[i]`.
    private let starts: [Double]
    private let rates: [Int]
    private let scaledBase: Double
    private let scaledUnit: Double
    /// For each distance tier, the first unit (1-based) it prices: the first that ticks with the
    /// counter at or beyond the tier's start. Empty for a version without tiers, whose units
    /// are priced as before tiers existed (one branch per charge).
    private let tierFirstUnits: [Int64]
    private let tierRates: [Int]

    public init(tariff: Tariff, version: TariffVersion, clock: LocalClock, slowTime: SlowTimeModel? = nil) {
        self.tariff = tariff
        self.slowTime = slowTime
        self.version = version
        self.clock = clock
        tariffID = tariff.id
        currency = tariff.currency
        versionLabel = version.label
        defaultCruiseKmh = tariff.defaultCruiseKmh
        changeoverSpeed = version.unitDistanceMeters / version.unitTimeSeconds
        mode = version.mode
        roundingStep = version.roundingStep
        hasFlatSurcharges = !version.flatSurcharges.isEmpty
        hasDestinationRates = !version.outOfZoneByDestination.isEmpty
        defaultSplitUnit = tariff.currency == "KRW" ? 100 : 1
        var boundaries = Set([0])
        for w in version.night { boundaries.insert(w.fromSecond); boundaries.insert(w.toSecond % 86_400) }
        let sorted = boundaries.sorted()
        starts = sorted.map(Double.init)
        rates = sorted.map { s in
            version.night.first { TariffFile.window($0.fromSecond, $0.toSecond, contains: s) }?.ratePercent ?? 0
        }
        scaledBase = version.baseDistanceMeters * version.unitTimeSeconds
        scaledUnit = version.unitDistanceMeters * version.unitTimeSeconds
        // The units reached just short of a tier's start (within the micrometre tolerance of
        // `unitsReached`) tick before it; the next one is the tier's first.
        let (unitT, base, unit, onStart) = (version.unitTimeSeconds, version.baseDistanceMeters * version.unitTimeSeconds,
                                            version.unitDistanceMeters * version.unitTimeSeconds, version.chargeUnit == .onStart)
        tierFirstUnits = version.distanceTiers.map { tier in
            Self.units(past: tier.fromMeters * unitT - 1e-6 * unitT - base, unit: unit, onStart: onStart) + 1
        }
        tierRates = version.distanceTiers.map(\.ratePercent)
    }

    /// A meter equal to this one but its own object: a thread that prices millions of trips
    /// keeps private copies, so the reference counting of a shared object does not bounce
    /// between cores.
    func copy() -> Meter {
        Meter(tariff: tariff, version: version, clock: clock, slowTime: slowTime)
    }

    /// Runs the meter over the segments of one trip.
    /// - Parameters:
    ///   - segments: in order; the first one's start is the boarding time. Must be valid
    ///     (see ``TripSegment/validate()``); the caller checks.
    ///   - scenario: which reading of the slow time.
    public func run(_ segments: [TripSegment], scenario: Scenario = .estimate) -> Reading {
        segments.withUnsafeBufferPointer { run(buffer: $0, scenario: scenario) }
    }

    /// ``run(_:scenario:)`` over segments in contiguous memory (no array needed).
    public func run(buffer segments: UnsafeBufferPointer<TripSegment>, scenario: Scenario = .estimate) -> Reading {
        guard let first = segments.first else { return Reading() }
        var reading = boardingReading(first)
        var counter = 0.0          // scaled counter
        var distanceCounter = 0.0  // the part of it that distance alone accounts for
        for segment in segments {
            let step = increments(segment)
            let f: Double
            switch scenario {
            case .estimate: f = step.estimate; distanceCounter += step.estimateDistance
            case .low: f = step.low; distanceCounter += step.distance
            case .high: f = step.high; distanceCounter += step.distance
            }
            if f > 0 {
                var before = unitsReached(counter)
                forEachRatePeriod(of: segment) { whole, fraction, rate in
                    charge(counter, f, whole: whole, fraction: fraction, rate: rate, before: &before, into: &reading)
                }
            }
            counter += f
        }
        reading.distanceUnits = min(unitsReached(distanceCounter), reading.units)
        reading.counterMeters = counter / version.unitTimeSeconds
        return reading
    }

    /// The three scenarios' readings in one pass (what a quote needs): where a segment's rate
    /// changes (night windows, daylight-saving shifts) depends only on time, so each segment is
    /// split once for all three counters. Without a band it gives exactly what three
    /// ``run(buffer:scenario:)`` calls give.
    /// - Parameter bandSecondsPerSecond: `nil`: `low` and `high` are the physical bounds
    ///   (``Scenario/low``, ``Scenario/high``). Otherwise the slow-time model's band
    ///   (``SlowTimeModel/bandHalfWidth(tripSeconds:)`` ÷ the trip's duration): each segment is
    ///   run with `slowSeconds ∓ band·T_i`, clamped to [max(0, T_i − D_i/v*) in exclusive mode
    ///   or 0, T_i], for the `low` and `high` readings (the ends of the model's 80 % band).
    /// - Parameter spread: with a band, the route's own uncertainty: the `low` reading runs each
    ///   segment at `distance × distanceLow` and `duration × durationLow` (the time taken off
    ///   coming off its slow seconds), the `high` reading at the high factors (the time added
    ///   standing); `nil` or ``RouteSpread/none``: the segments as they are.
    public func runScenarios(buffer segments: UnsafeBufferPointer<TripSegment>, bandSecondsPerSecond band: Double? = nil,
                             spread: RouteSpread = .none) -> (estimate: Reading, low: Reading, high: Reading) {
        guard !segments.isEmpty else { return (Reading(), Reading(), Reading()) }
        let spreads = spread != .none
        // The base fare's rate is the one in force at boarding: the rate of the first period
        // of the first segment's walk below (the same clock reading ``boardingReading(_:)``
        // makes), so the clock is read once for it.
        var e = Reading()
        e.baseFare = version.baseFare
        var l = e, h = e
        var boardingRate: Int?
        var ce = 0.0, cl = 0.0, ch = 0.0     // scaled counters
        var de = 0.0, dl = 0.0, dh = 0.0     // their distance parts
        for segment in segments {
            var step = increments(segment)
            de += step.estimateDistance
            if let band {
                let d = segment.distanceMeters, t = segment.durationSeconds, slow = segment.slowSeconds ?? 0
                let w = band * t
                let lo: (f: Double, distance: Double), hi: (f: Double, distance: Double)
                if spreads {
                    let dLo = d * spread.distanceLow, tLo = t * spread.durationLow
                    let dHi = d * spread.distanceHigh, tHi = t * spread.durationHigh
                    let lowerLo = SlowTimeModel.lowerBound(distanceMeters: dLo, durationSeconds: tLo, changeoverSpeed: changeoverSpeed, mode: mode)
                    let lowerHi = SlowTimeModel.lowerBound(distanceMeters: dHi, durationSeconds: tHi, changeoverSpeed: changeoverSpeed, mode: mode)
                    lo = counter(distance: dLo, duration: tLo, slow: min(max(slow - w - (t - tLo), lowerLo), tLo))
                    hi = counter(distance: dHi, duration: tHi, slow: min(max(slow + w + (tHi - t), lowerHi), tHi))
                } else {
                    let lower = SlowTimeModel.lowerBound(distanceMeters: d, durationSeconds: t, changeoverSpeed: changeoverSpeed, mode: mode)
                    lo = counter(distance: d, duration: t, slow: min(max(slow - w, lower), t))
                    hi = counter(distance: d, duration: t, slow: min(max(slow + w, lower), t))
                }
                step.low = lo.f
                step.high = hi.f
                dl += lo.distance
                dh += hi.distance
            } else {
                dl += step.distance
                dh += step.distance
            }
            var be = unitsReached(ce), bl = unitsReached(cl), bh = unitsReached(ch)
            forEachRatePeriod(of: segment) { whole, fraction, rate in
                if boardingRate == nil { boardingRate = rate }
                // A counter adding nothing is left alone, as `run` skips it.
                if step.estimate > 0 { charge(ce, step.estimate, whole: whole, fraction: fraction, rate: rate, before: &be, into: &e) }
                if step.low > 0 { charge(cl, step.low, whole: whole, fraction: fraction, rate: rate, before: &bl, into: &l) }
                if step.high > 0 { charge(ch, step.high, whole: whole, fraction: fraction, rate: rate, before: &bh, into: &h) }
            }
            ce += step.estimate; cl += step.low; ch += step.high
        }
        let baseSurcharge = baseSurcharge(atRate: boardingRate ?? 0)  // set: every walk has a period
        (e.baseSurcharge, l.baseSurcharge, h.baseSurcharge) = (baseSurcharge, baseSurcharge, baseSurcharge)
        let unitT = version.unitTimeSeconds
        e.distanceUnits = min(unitsReached(de), e.units)
        l.distanceUnits = min(unitsReached(dl), l.units)
        h.distanceUnits = min(unitsReached(dh), h.units)
        e.counterMeters = ce / unitT
        l.counterMeters = cl / unitT
        h.counterMeters = ch / unitT
        return (e, l, h)
    }

    /// A reading with only the base fare, priced at the rate in force at boarding.
    private func boardingReading(_ first: TripSegment) -> Reading {
        var reading = Reading()
        let boardingRate = combinedRate(night: nightRate(at: first.start.timeIntervalSince1970), outside: first.outsideZone)
        reading.baseFare = version.baseFare
        reading.baseSurcharge = baseSurcharge(atRate: boardingRate)
        return reading
    }

    /// The extra on the base fare at a combined rate (percent), rounded half-up to the step.
    @inline(__always)
    private func baseSurcharge(atRate rate: Int) -> Int64 {
        Self.roundHalfUp(version.baseFare * Int64(100 + rate), divisor: 100, step: version.surchargedBaseStep) - version.baseFare
    }

    /// What one segment adds to the scaled counter in each scenario, and the part of it that
    /// distance alone accounts for (`estimateDistance` for the estimate, `distance` otherwise).
    @inline(__always)
    private func increments(_ segment: TripSegment) -> (estimate: Double, estimateDistance: Double, low: Double, high: Double, distance: Double) {
        let unitD = version.unitDistanceMeters, unitT = version.unitTimeSeconds
        let d = segment.distanceMeters, duration = segment.durationSeconds
        let e = counter(distance: d, duration: duration, slow: segment.slowSeconds ?? 0)
        return (e.f, e.distance, max(d * unitT, unitD * duration), d * unitT + unitD * duration, d * unitT)
    }

    /// What a segment of `distance` m and `duration` s with `slow` standing seconds (the rest
    /// driven at uniform speed) adds to the scaled counter, and the part distance alone accounts for.
    @inline(__always)
    private func counter(distance d: Double, duration: Double, slow: Double) -> (f: Double, distance: Double) {
        let unitD = version.unitDistanceMeters, unitT = version.unitTimeSeconds
        let fd = d * unitT
        let moving = duration - slow
        var fe = slow * unitD, fde = fd
        let crawling = moving > 0 && d * unitT < unitD * moving
        switch version.mode {
        case .concurrent: fe += d * unitT + (crawling ? unitD * moving : 0)
        case .exclusive:
            fe += crawling ? unitD * moving : d * unitT
            if crawling { fde = 0 }
        }
        return (fe, fde)
    }

    /// Walks one segment period by period where the rate changes (night windows,
    /// daylight-saving shifts): `body(whole, fraction, rate)` for each, with the fraction of
    /// the segment's duration reached at the period's end (`whole` at the segment's end).
    @inline(__always)
    private func forEachRatePeriod(of segment: TripSegment, _ body: (_ whole: Bool, _ fraction: Double, _ rate: Int) -> Void) {
        let t0 = segment.start.timeIntervalSince1970
        let duration = segment.durationSeconds
        var elapsed = 0.0
        while true {
            let now = t0 + elapsed
            let (local, transition) = clock.localSecondsAndNextTransition(now)
            let second = LocalClock.secondOfDay(local)
            let i = periodIndex(second)
            let nextBoundary = (i + 1 < starts.count ? starts[i + 1] : 86_400) - second
            let nextShift = transition - now
            let end = duration <= 0 ? duration : min(duration, elapsed + min(nextBoundary, nextShift))
            let whole = duration <= 0 || end >= duration
            body(whole, whole ? 1 : end / duration, combinedRate(night: rates[i], outside: segment.outsideZone))
            if whole { return }
            elapsed = end
        }
    }

    /// Charges the units that tick while a counter at `counter` (at the segment's start) has
    /// added `fraction` of `add`, each at the price of `rate`.
    @inline(__always)
    private func charge(_ counter: Double, _ add: Double, whole: Bool, fraction: Double, rate: Int, before: inout Int64, into reading: inout Reading) {
        let after = unitsReached(whole ? counter + add : counter + add * fraction)
        guard after > before else { return }
        if !tierFirstUnits.isEmpty { return chargeTiered(through: after, rate: rate, before: &before, into: &reading) }
        let n = after - before
        let price = unitPrice(rate)
        reading.units += n
        reading.unitsAmount += n * version.unitPrice
        reading.unitSurcharges += n * (price - version.unitPrice)
        before = after
    }

    /// Charges units `before + 1 ... after` of a version with distance tiers: each run of units
    /// inside one tier (or before the first) at `rate` plus that tier's rate.
    private func chargeTiered(through after: Int64, rate: Int, before: inout Int64, into reading: inout Reading) {
        var k = before + 1
        var t = -1  // the last tier whose first unit is at or before k
        while t + 1 < tierFirstUnits.count && tierFirstUnits[t + 1] <= k { t += 1 }
        while k <= after {
            let end = t + 1 < tierFirstUnits.count ? min(after, tierFirstUnits[t + 1] - 1) : after
            let n = end - k + 1
            let price = unitPrice(rate + (t >= 0 ? tierRates[t] : 0))
            reading.units += n
            reading.unitsAmount += n * version.unitPrice
            reading.unitSurcharges += n * (price - version.unitPrice)
            k = end + 1
            t += 1
        }
        before = after
    }

    /// Units charged once the scaled counter reaches `f`. A threshold reached within a
    /// micrometre counts as reached, so sums of fractional distances do not lose a unit to
    /// floating-point rounding.
    @inline(__always)
    func unitsReached(_ f: Double) -> Int64 {
        Self.units(past: f + 1e-6 * version.unitTimeSeconds - scaledBase, unit: scaledUnit,
                   onStart: version.chargeUnit == .onStart)
    }

    /// Units charged when the scaled counter is `x` past the base (negative: still inside it):
    /// one per whole `unit`, plus the one charged at its start with ``TariffVersion/ChargeUnit/onStart``.
    @inline(__always)
    static func units(past x: Double, unit: Double, onStart: Bool) -> Int64 {
        // x ≥ 0 and unit > 0: truncation is the floor (one instruction; `rounded(.down)` is a
        // call to libm's `floor` when building for baseline x86-64, which lacks SSE4.1's `roundsd`; several per row). NaN traps as before.
        x < 0 ? 0 : Int64(x / unit) + (onStart ? 1 : 0)
    }

    @inline(__always)
    func periodIndex(_ secondOfDay: Double) -> Int {
        var i = starts.count - 1
        while i > 0 && starts[i] > secondOfDay { i -= 1 }
        return i
    }

    /// The night rate (percent) at an instant.
    public func nightRate(at epochSeconds: Double) -> Int {
        rates[periodIndex(LocalClock.secondOfDay(clock.localSeconds(epochSeconds)))]
    }

    @inline(__always)
    func combinedRate(night: Int, outside: Bool) -> Int {
        let sum = night + (outside ? version.outOfZoneRatePercent ?? 0 : 0)  // nil: FareEngine refuses outside segments
        return version.maxCombinedRatePercent.map { min(sum, $0) } ?? sum
    }

    /// The price of one unit at a combined rate, rounded half-up to the tariff's step.
    @inline(__always)
    func unitPrice(_ ratePercent: Int) -> Int64 {
        ratePercent == 0 ? version.unitPrice : Self.roundHalfUp(version.unitPrice * Int64(100 + ratePercent), divisor: 100, step: version.surchargedUnitStep)
    }

    /// `value / divisor` rounded half-up to a multiple of `step`, in integers (value ≥ 0).
    @inline(__always)
    public static func roundHalfUp(_ value: Int64, divisor: Int64, step: Int64) -> Int64 {
        let q = divisor * step
        return (value + q / 2) / q * step
    }
}
