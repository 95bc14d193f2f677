import GeoFareCore
import GeoFareRoute
import GeoFareText

/// The protocol's JSON of a ``FareQuote`` (the `fare` result): keys sorted, integer money, then
/// `tariff_basis` and, when assumed, `assumption` and `toll_basis` after the sorted keys (so that
/// every earlier byte of a sourced result is as it was before they existed). The one encoder,
/// used by the worker's both paths and by `geofare fare --json`.
public enum FareJSON {
    /// A `fare` result as one line of JSON, with the route's totals and legs when given.
    public static func string(_ quote: FareQuote, route: Route?) -> String {
        var w = ByteWriter(capacity: 1400)
        defer { w.deallocate() }
        write(quote, route: route, into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// The fare result written straight to bytes, keys sorted, then `tariff_basis` and, when
    /// assumed, `assumption` (the hot path of the worker).
    public static func write(_ q: FareQuote, route: Route?, into w: inout ByteWriter) {
        let b = q.breakdown
        w.append(#"{"breakdown":{"base":"#); w.appendDecimal(b.base)
        w.append(#","base_surcharge":"#); w.appendDecimal(b.baseSurcharge)
        w.append(#","call_fee":"#); w.appendDecimal(b.callFee)
        w.append(#","counter_m":"#); w.jsonDouble(b.counterMeters)
        w.append(#","distance_units":"#); w.appendDecimal(b.distanceUnits)
        w.append(#","flat_surcharges":"#)
        w.jsonArray(b.flatSurcharges) { w, f in
            w.append(#"{"amount":"#); w.appendDecimal(f.amount)
            w.append(#","name":"#); w.jsonString(f.name)
            w.append(UInt8(ascii: "}"))
        }
        w.append(#","rounding":"#); w.appendDecimal(b.rounding)
        w.append(#","time_units":"#); w.appendDecimal(b.timeUnits)
        if !q.tollItems.isEmpty {
            w.append(#","toll_items":"#)
            w.jsonArray(q.tollItems) { w, t in
                w.append(#"{"amount":"#); w.appendDecimal(t.amount)
                w.append(#","basis":"#); w.jsonString(t.basis.rawValue)
                w.append(#","high":"#); w.appendDecimal(t.high)
                w.append(#","low":"#); w.appendDecimal(t.low)
                w.append(#","name":"#); w.jsonString(t.name)
                w.append(UInt8(ascii: "}"))
            }
        }
        w.append(#","tolls":"#); w.appendDecimal(b.tolls)
        w.append(#","unit_price":"#); w.appendDecimal(b.unitPrice)
        w.append(#","unit_surcharges":"#); w.appendDecimal(b.unitSurcharges)
        w.append(#","units":"#); w.appendDecimal(b.units)
        w.append(#","units_amount":"#); w.appendDecimal(b.unitsAmount)
        w.append(#"},"call_fee":"#); w.appendDecimal(q.callFee)
        w.append(#","currency":"#); w.jsonString(q.currency)
        w.append(#","distance_m":"#); w.jsonDouble(q.distanceMeters)
        if let low = q.durationLowSeconds, let high = q.durationHighSeconds {
            w.append(#","duration_high_s":"#); w.jsonDouble(high)
            w.append(#","duration_low_s":"#); w.jsonDouble(low)
        }
        w.append(#","duration_s":"#); w.jsonDouble(q.durationSeconds)
        w.append(#","high":"#); w.appendDecimal(q.high)
        w.append(#","low":"#); w.appendDecimal(q.low)
        w.append(#","meter":"#); w.appendDecimal(q.meter)
        w.append(#","per_person":"#); w.jsonArray(q.perPerson) { $0.appendDecimal($1) }
        if let route {
            w.append(#","route":"#)
            RouteJSON.write(route, segments: false, into: &w)
        }
        w.append(#","slow_s":"#); w.jsonDouble(q.slowSeconds)
        w.append(#","split":"#); w.jsonString(q.split.rawValue)
        w.append(#","surcharges":"#); w.appendDecimal(q.surcharges)
        w.append(#","tariff":"#); w.jsonString(q.tariff)
        w.append(#","tariff_version":"#); w.jsonString(q.tariffVersion)
        w.append(#","tolls":"#); w.appendDecimal(q.tolls)
        w.append(#","total":"#); w.appendDecimal(q.total)
        w.append(#","tariff_basis":"#); w.jsonString(q.tariffBasis.rawValue)
        if let assumption = q.assumption {
            w.append(#","assumption":"#); w.jsonString(assumption)
        }
        if let basis = q.tollBasis {
            w.append(#","toll_basis":"#); w.jsonString(basis.rawValue)
        }
        w.append(UInt8(ascii: "}"))
    }
}
