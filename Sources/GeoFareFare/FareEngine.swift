import Foundation
import GeoFareCore

/// Prices trips: tariff selection, the meter, flat surcharges, payment rounding and splits.
///
/// Immutable and `Sendable`: one engine serves every thread.
///
/// ```swift
/// let engine = try FareEngine()
/// var request = FareRequest(trip: .totals(distanceMeters: 5_000, durationSeconds: 900),
///                           departure: ISO8601.parse("2024-05-01T14:00:00+09:00")!, tariff: "kr-seoul/regular")
/// request.partySize = 3
/// let quote = try engine.quote(request)   // quote.total, quote.perPerson
/// ```
public struct FareEngine: Sendable {
    public let catalog: TariffCatalog

    /// An engine over the embedded tariffs (or a catalog of your own).
    public init(catalog: TariffCatalog? = nil) throws(FareError) {
        if let catalog { self.catalog = catalog } else { self.catalog = try TariffCatalog.load() }
    }

    /// Prices a trip.
    /// - Throws: ``FareError``: `unknown_tariff`, `no_tariff_version`, `no_tariff_for_location`,
    ///   `invalid_party_size` (field `party_size`), `invalid_split`, or an input code with the
    ///   field (`distance_m`, `segments[2].duration_s`, `cruise_kmh`, `tolls`, ...).
    public func quote(_ request: FareRequest) throws(FareError) -> FareQuote {
        guard (1...20).contains(request.partySize) else {
            throw FareError(code: "invalid_party_size", message: "must be within 1...20, got \(request.partySize)", field: "party_size")
        }
        guard request.tolls >= 0 else { throw FareError(code: "negative_value", message: "must not be negative, got \(request.tolls)", field: "tolls") }
        guard request.callFee >= 0 else { throw FareError(code: "negative_value", message: "must not be negative, got \(request.callFee)", field: "call_fee") }
        let tariffID: String
        if let id = request.tariff { tariffID = id } else if let origin = request.origin {
            tariffID = try catalog.tariff(forOrigin: origin).id
        } else {
            throw FareError(code: "missing_field", message: "name a tariff or give the origin", field: "tariff")
        }
        let meter = try catalog.meter(tariff: tariffID, at: request.departure)
        let tariff = meter.tariff
        let segments = try segments(of: request, cruiseKmh: request.cruiseKmh ?? tariff.defaultCruiseKmh)
        let reading = meter.run(segments)
        let flats = flatSurcharges(meter.version, tariff: tariff, request: request, clock: meter.clock)
        let flatTotal = flats.reduce(0) { $0 + $1.amount }
        let extras = flatTotal + request.tolls + request.callFee
        let step = meter.version.roundingStep
        let total = Meter.roundHalfUp(reading.amount + extras, divisor: 1, step: step)
        let low = Meter.roundHalfUp(meter.run(segments, scenario: .low).amount + extras, divisor: 1, step: step)
        let high = Meter.roundHalfUp(meter.run(segments, scenario: .high).amount + extras, divisor: 1, step: step)

        let unit = request.splitUnit ?? (tariff.currency == "KRW" ? 100 : 1)
        let fareShare = total - request.tolls - request.callFee
        var shares: [Int64]
        switch request.split {
        case .equal:
            shares = try FareSplit.equal(total: fareShare, riders: request.partySize, unit: unit)
        case .proportional, .shapley:
            let drops = try dropoffs(request, segments: segments)
            let meters = drops.map { meter.run(Self.prefix(segments, meters: $0)).amount }
            if request.split == .proportional {
                let solo = meters.map { Meter.roundHalfUp($0 + flatTotal, divisor: 1, step: step) }
                shares = try FareSplit.proportional(total: fareShare, soloFares: solo, unit: unit)
            } else {
                shares = try FareSplit.shapleyOrderedDropoffs(total: fareShare, meterAtDropoff: meters, unit: unit)
            }
        }
        // Tolls and call fees are their own line items, each split equally.
        for extra in [request.tolls, request.callFee] where extra > 0 {
            let part = try FareSplit.equal(total: extra, riders: request.partySize, unit: unit)
            for i in shares.indices { shares[i] += part[i] }
        }

        return FareQuote(
            tariff: tariff.id, tariffVersion: meter.version.label, currency: tariff.currency,
            distanceMeters: segments.reduce(0) { $0 + $1.distanceMeters },
            durationSeconds: segments.reduce(0) { $0 + $1.durationSeconds },
            meter: reading.amount, surcharges: flatTotal, tolls: request.tolls, callFee: request.callFee,
            total: total, low: min(low, total), high: max(high, total), perPerson: shares, split: request.split,
            breakdown: .init(
                base: reading.baseFare, baseSurcharge: reading.baseSurcharge, units: reading.units,
                distanceUnits: reading.distanceUnits, timeUnits: reading.timeUnits, unitPrice: meter.version.unitPrice,
                unitsAmount: reading.unitsAmount, unitSurcharges: reading.unitSurcharges,
                flatSurcharges: flats, tolls: request.tolls, callFee: request.callFee,
                rounding: total - reading.amount - extras, counterMeters: reading.counterMeters
            )
        )
    }

    /// The segments the meter runs over, validated.
    func segments(of request: FareRequest, cruiseKmh: Double) throws(FareError) -> [TripSegment] {
        switch request.trip {
        case let .totals(distance, duration):
            guard cruiseKmh.isFinite, cruiseKmh > 0, cruiseKmh <= 200 else {
                throw FareError(.outOfRange("cruise_kmh", cruiseKmh, 0...200))
            }
            var segment = TripSegment(distanceMeters: distance, durationSeconds: duration, start: request.departure)
            segment.slowSeconds = 0
            do { try segment.validate() } catch { throw FareError(error) }
            segment.slowSeconds = max(0, duration - distance / (cruiseKmh / 3.6))
            return [segment]
        case let .segments(list):
            guard !list.isEmpty else { throw FareError(code: "missing_field", message: "a trip needs at least one segment", field: "segments") }
            guard list.count <= 10_000 else { throw FareError(code: "too_many_segments", message: "at most 10,000 segments, got \(list.count)", field: "segments") }
            for (i, s) in list.enumerated() {
                do { try s.validate() } catch { throw FareError(error.prefixed("segments[\(i)]")) }
            }
            return list
        }
    }

    func dropoffs(_ request: FareRequest, segments: [TripSegment]) throws(FareError) -> [Double] {
        let length = segments.reduce(0) { $0 + $1.distanceMeters }
        guard let drops = request.dropoffDistances else { return Array(repeating: length, count: request.partySize) }
        guard drops.count == request.partySize else {
            throw FareError(code: "invalid_split", message: "\(drops.count) drop-offs for a party of \(request.partySize)", field: "dropoffs")
        }
        for (i, d) in drops.enumerated() where !(d.isFinite && d >= 0 && d <= length + 0.5) {
            throw FareError(code: "out_of_range", message: "a drop-off must be within 0...\(length) m along the trip, got \(d)", field: "dropoffs[\(i)]")
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
    func flatSurcharges(_ version: TariffVersion, tariff: Tariff, request: FareRequest, clock: LocalClock) -> [FareQuote.FlatItem] {
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
