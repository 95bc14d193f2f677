import Foundation
import GeoFareCore

/// The money of a trip whose meter is chosen and whose request is checked: the meter over its
/// segments, flat surcharges, payment rounding and splits. Internal: ``TripPricer`` is the one
/// entry, which resolves the tariff and checks the request once, then calls this.
///
/// Immutable and `Sendable`: one engine serves every thread.
struct FareEngine: Sendable {
    let catalog: TariffCatalog

    /// The same engine over ``TariffCatalog/withPrivateMeters()``.
    func withPrivateMeters() -> FareEngine {
        FareEngine(sharing: catalog.withPrivateMeters())
    }

    init(sharing catalog: TariffCatalog) { self.catalog = catalog }

    /// An engine over the embedded tariffs (or a catalog of your own).
    init(catalog: TariffCatalog? = nil) throws(GeoFareError) {
        if let catalog { self.catalog = catalog } else { self.catalog = try TariffCatalog.load() }
    }

    /// Prices a trip on `meter` (the tariff version ``TripPricer`` resolved; `request.tariff`
    /// and `request.origin` are not looked at) after ``TripPricer`` checked the request
    /// (``validate(_:)``).
    /// - Throws: ``GeoFareError``: `invalid_split`, an input code with the field
    ///   (`distance_m`, `segments[2].duration_s`, `cruise_kmh`, ...), `unknown_out_of_zone_rate`.
    func quote(_ request: FareRequest, meter: Meter) throws(GeoFareError) -> FareQuote {
        let segments = try tripSegments(request, meter: meter)
        let flats = meter.hasFlatSurcharges ? flatSurcharges(meter.version, request: request, clock: meter.clock) : []
        let band = modelBand(request, segments: segments, meter: meter)
        var figures = FareFigures()
        segments.withUnsafeBufferPointer { self.figures(request, meter: meter, segments: $0, flats: flats, band: band, into: &figures) }
        return try quote(request, figures: figures, meter: meter, segments: segments, flats: flats)
    }

    /// ``quote(_:meter:)`` up to the money figures (no breakdown, no shares array): the batch
    /// path, on the same terms.
    func figures(_ request: FareRequest, meter: Meter) throws(GeoFareError) -> FareFigures {
        var f = FareFigures()
        try figures(request, meter: meter, into: &f)
        return f
    }

    /// ``figures(_:meter:)`` written into `f` (every field set; a batch reuses one value).
    func figures(_ request: FareRequest, meter: Meter, into f: inout FareFigures) throws(GeoFareError) {
        if case let .totals(distance, duration) = request.trip {
            var one = try totalsSegment(request, distance: distance, duration: duration, meter: meter)
            let band = request.cruiseKmh == nil ? meter.slowTime.map { Self.bandPerSecond($0, tripSeconds: duration) } : nil
            withUnsafePointer(to: &one) { p in
                self.figures(request, meter: meter, segments: UnsafeBufferPointer(start: p, count: 1), flats: nil, band: band, into: &f)
            }
            return
        }
        let segments = try tripSegments(request, meter: meter)
        let band = modelBand(request, segments: segments, meter: meter)
        segments.withUnsafeBufferPointer { self.figures(request, meter: meter, segments: $0, flats: nil, band: band, into: &f) }
    }

    /// Checks the request's ``FareOptions`` (party size, tolls, call fee): run once per request,
    /// by ``TripPricer``, before the meter.
    func validate(_ request: FareRequest) throws(GeoFareError) {
        guard (1...20).contains(request.partySize) else {
            throw .partySizeOutOfRange(request.partySize)
        }
        guard request.tolls >= 0 else { throw .negativeAmount("tolls", request.tolls) }
        guard request.callFee >= 0 else { throw .negativeAmount("call_fee", request.callFee) }
    }

    /// The slow-time model's band for a trip, as seconds per second of trip
    /// (``Meter/runScenarios(buffer:bandSecondsPerSecond:)``).
    @inline(__always)
    static func bandPerSecond(_ model: SlowTimeModel, tripSeconds: Double) -> Double {
        tripSeconds > 0 ? model.bandHalfWidth(tripSeconds: tripSeconds) / tripSeconds : 0
    }

    /// The model's band when the model priced the trip's slow time (a `.totals` trip without
    /// `cruise_kmh`, or `.segments` with ``FareRequest/modelSlowTime``); `nil`: physical bounds.
    func modelBand(_ request: FareRequest, segments: [TripSegment], meter: Meter) -> Double? {
        guard let model = meter.slowTime else { return nil }
        switch request.trip {
        case .totals: if request.cruiseKmh != nil { return nil }
        case .segments: if !request.modelSlowTime { return nil }
        case .stops: return nil
        }
        var duration = 0.0
        for s in segments { duration += s.durationSeconds }
        return Self.bandPerSecond(model, tripSeconds: duration)
    }

    /// The three meter runs (estimate, low, high) and the payment rounding.
    /// - Parameter band: the slow-time model's band (``bandPerSecond(_:tripSeconds:)``), or
    ///   `nil` for the physical bounds.
    /// - Parameter f: set field by field (no figures value is built and copied in).
    func figures(_ request: FareRequest, meter: Meter, segments: UnsafeBufferPointer<TripSegment>, flats: [FareQuote.FlatItem]?, band: Double?,
                 into f: inout FareFigures) {
        let (reading, lowReading, highReading) = meter.runScenarios(buffer: segments, bandSecondsPerSecond: band, spread: request.routeSpread)
        var flatTotal: Int64 = 0
        if meter.hasFlatSurcharges {
            for f in flats ?? flatSurcharges(meter.version, request: request, clock: meter.clock) { flatTotal += f.amount }
        }
        let extras = flatTotal + request.tolls + request.callFee
        let step = meter.roundingStep
        let total = Meter.roundHalfUp(reading.amount + extras, divisor: 1, step: step)
        let low = Meter.roundHalfUp(lowReading.amount + extras, divisor: 1, step: step)
        let high = Meter.roundHalfUp(highReading.amount + extras, divisor: 1, step: step)
        var distance = 0.0, duration = 0.0, slow = 0.0
        for s in segments {
            distance += s.distanceMeters
            duration += s.durationSeconds
            slow += s.slowSeconds ?? 0
        }
        f.reading = reading
        f.distanceMeters = distance
        f.durationSeconds = duration
        f.slowSeconds = slow
        f.surcharges = flatTotal
        f.tolls = request.tolls
        f.callFee = request.callFee
        f.total = total
        f.low = min(low, total)
        f.high = max(high, total)
        f.splitUnit = request.splitUnit ?? meter.defaultSplitUnit
        f.tariffBasis = .sourced
        if f.assumption != nil { f.assumption = nil }
    }

    /// The quote around computed figures: shares and the breakdown.
    func quote(_ request: FareRequest, figures f: FareFigures, meter: Meter, segments: [TripSegment], flats: [FareQuote.FlatItem]) throws(GeoFareError) -> FareQuote {
        let unit = f.splitUnit
        let step = meter.roundingStep
        let fareShare = f.total - request.tolls - request.callFee
        var shares: [Int64]
        switch request.split {
        case .equal:
            shares = try FareSplit.equal(total: fareShare, riders: request.partySize, unit: unit)
        case .proportional, .shapley:
            let drops = try dropoffs(request, segments: segments)
            let meters = drops.map { meter.run(Self.prefix(segments, meters: $0)).amount }
            if request.split == .proportional {
                let solo = meters.map { Meter.roundHalfUp($0 + f.surcharges, divisor: 1, step: step) }
                shares = try FareSplit.proportional(total: fareShare, soloFares: solo, unit: unit)
            } else {
                shares = try FareSplit.shapleyOrderedDropoffs(total: fareShare, meterAtDropoff: meters, unit: unit)
            }
        }
        // Tolls and call fees are their own line items, each split equally.
        if request.tolls > 0 {
            let part = try FareSplit.equal(total: request.tolls, riders: request.partySize, unit: unit)
            for i in shares.indices { shares[i] += part[i] }
        }
        if request.callFee > 0 {
            let part = try FareSplit.equal(total: request.callFee, riders: request.partySize, unit: unit)
            for i in shares.indices { shares[i] += part[i] }
        }
        let reading = f.reading
        let extras = f.surcharges + request.tolls + request.callFee
        return FareQuote(
            tariff: meter.tariffID, tariffVersion: meter.versionLabel, currency: meter.currency,
            distanceMeters: f.distanceMeters, durationSeconds: f.durationSeconds, slowSeconds: f.slowSeconds,
            meter: reading.amount, surcharges: f.surcharges, tolls: request.tolls, callFee: request.callFee,
            total: f.total, low: f.low, high: f.high, perPerson: shares, split: request.split,
            breakdown: .init(
                base: reading.baseFare, baseSurcharge: reading.baseSurcharge, units: reading.units,
                distanceUnits: reading.distanceUnits, timeUnits: reading.timeUnits, unitPrice: meter.version.unitPrice,
                unitsAmount: reading.unitsAmount, unitSurcharges: reading.unitSurcharges,
                flatSurcharges: flats, tolls: request.tolls, callFee: request.callFee,
                rounding: f.total - reading.amount - extras, counterMeters: reading.counterMeters
            )
        )
    }

    /// The one segment of a `.totals` trip, validated, with its slow time from the slow-time
    /// model, or from the cruise speed when the request gives one (or the catalog has no model).
    func totalsSegment(_ request: FareRequest, distance: Double, duration: Double, meter: Meter) throws(GeoFareError) -> TripSegment {
        let model = request.cruiseKmh == nil ? meter.slowTime : nil
        let cruiseKmh = request.cruiseKmh ?? meter.defaultCruiseKmh
        try Self.checkCruise(cruiseKmh)
        var segment = TripSegment(distanceMeters: distance, durationSeconds: duration, start: request.departure)
        segment.slowSeconds = 0
        do { try segment.validate() } catch { throw error }
        if let model {
            segment.slowSeconds = model.slowSeconds(distanceMeters: distance, durationSeconds: duration, cruise: model.cruise(tripSeconds: duration),
                                                    changeoverSpeed: meter.changeoverSpeed, mode: meter.mode)
        } else {
            segment.slowSeconds = Self.cruiseSlowSeconds(distance: distance, duration: duration, cruiseKmh: cruiseKmh)
        }
        return segment
    }

    /// A cruise speed (`cruise_kmh`) checked: finite, above 0, at most 200 km/h.
    /// - Throws: ``GeoFareError`` `out_of_range`, field `cruise_kmh`.
    static func checkCruise(_ kmh: Double) throws(GeoFareError) {
        guard kmh.isFinite, kmh > 0, kmh <= 200 else { throw .outOfRange("cruise_kmh", kmh, 0...200) }
    }

    /// The cruise rule's slow seconds: the time not needed to drive `distance` metres at
    /// `cruiseKmh`, `max(0, T − D / cruise)`.
    static func cruiseSlowSeconds(distance: Double, duration: Double, cruiseKmh: Double) -> Double {
        max(0, duration - distance / (cruiseKmh / 3.6))
    }

    /// Sets every segment's `slowSeconds` from the slow-time model for the meter's changeover
    /// speed and mode (T_trip = the segments' total duration). No-op without a model.
    func applyModel(to segments: inout [TripSegment], meter: Meter) {
        guard let model = meter.slowTime else { return }
        var trip = 0.0
        for s in segments { trip += s.durationSeconds }
        let c = model.cruise(tripSeconds: trip)
        for i in segments.indices {
            segments[i].slowSeconds = model.slowSeconds(distanceMeters: segments[i].distanceMeters, durationSeconds: segments[i].durationSeconds,
                                                        cruise: c, changeoverSpeed: meter.changeoverSpeed, mode: meter.mode)
        }
    }

    /// The segments the meter runs over, validated: a `.totals` trip's one segment, or the
    /// given ones.
    func tripSegments(_ request: FareRequest, meter: Meter) throws(GeoFareError) -> [TripSegment] {
        switch request.trip {
        case let .totals(distance, duration):
            return [try totalsSegment(request, distance: distance, duration: duration, meter: meter)]
        case .stops:
            throw .routeRequired()
        case let .segments(list):
            guard !list.isEmpty else { throw .noSegments() }
            guard list.count <= 10_000 else { throw .tooManySegments(list.count) }
            for (i, s) in list.enumerated() {
                do { try s.validate() } catch { throw error.prefixed("segments[\(i)]") }
            }
            if meter.version.outOfZoneRatePercent == nil, let i = list.firstIndex(where: \.outsideZone) {
                throw .unknownOutOfZoneRate(meter, segment: i)
            }
            if request.modelSlowTime && !request.segmentsModelled && meter.slowTime != nil {
                var modelled = list
                applyModel(to: &modelled, meter: meter)
                return modelled
            }
            return list
        }
    }

    func dropoffs(_ request: FareRequest, segments: [TripSegment]) throws(GeoFareError) -> [Double] {
        let length = segments.reduce(0) { $0 + $1.distanceMeters }
        guard let drops = request.dropoffDistances else { return Array(repeating: length, count: request.partySize) }
        guard drops.count == request.partySize else {
            throw .dropoffCountMismatch(drops.count, partySize: request.partySize)
        }
        for (i, d) in drops.enumerated() where !(d.isFinite && d >= 0 && d <= length + 0.5) {
            throw .dropoffOutOfRange(i, d, length: length)
        }
        return drops
    }

    /// The first `meters` of a trip: whole segments, then the matching share of the next one.
    static func prefix(_ segments: [TripSegment], meters: Double) -> [TripSegment] {
        var out: [TripSegment] = []
        var left = meters
        for s in segments {
            if s.distanceMeters <= left + 1e-9 {
                out.append(s)
                left -= s.distanceMeters
                continue
            }
            if left > 0, s.distanceMeters > 0 {
                let k = left / s.distanceMeters
                var part = s
                part.distanceMeters = left
                part.durationSeconds = s.durationSeconds * k
                part.slowSeconds = s.slowSeconds.map { $0 * k }
                out.append(part)
            }
            break
        }
        return out
    }

    /// The flat surcharges that apply at boarding.
    func flatSurcharges(_ version: TariffVersion, request: FareRequest, clock: LocalClock) -> [FareQuote.FlatItem] {
        guard !version.flatSurcharges.isEmpty else { return [] }
        let local = clock.localSeconds(request.departure.timeIntervalSince1970)
        let second = Int(LocalClock.secondOfDay(local))
        let weekday = LocalClock.isoWeekday(local)
        return version.flatSurcharges.compactMap { f in
            if let a = f.fromSecond, let b = f.toSecond, !TariffFile.window(a, b, contains: second) { return nil }
            if let days = f.weekdays, !days.contains(weekday) { return nil }
            if let zone = f.zone {
                guard let polygon = catalog.zones.zone(zone)?.polygon else { return nil }
                let ends = [request.origin, request.destination].compactMap { $0 }
                guard ends.contains(where: polygon.contains) else { return nil }
            }
            return FareQuote.FlatItem(name: f.name, amount: f.amount)
        }
    }
}
