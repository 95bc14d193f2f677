import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute

/// Turns library results into the protocol's JSON objects (snake_case keys, integer money).
enum ResultEncoding {
    static func coordinate(_ c: Coordinate) -> JSONValue {
        .object(["lat": .double(c.latitude), "lon": .double(c.longitude)])
    }

    /// The fare result written straight to bytes, keys sorted (the hot path of the worker).
    static func writeQuote(_ q: FareQuote, route: Route?, into w: inout JSONStreamWriter) {
        let b = q.breakdown
        w.beginObject()
        w.key("breakdown"); w.beginObject()
        w.key("base"); w.int(b.base)
        w.key("base_surcharge"); w.int(b.baseSurcharge)
        w.key("call_fee"); w.int(b.callFee)
        w.key("counter_m"); w.double(b.counterMeters)
        w.key("distance_units"); w.int(b.distanceUnits)
        w.key("flat_surcharges"); w.beginArray()
        for f in b.flatSurcharges {
            w.beginObject(); w.key("amount"); w.int(f.amount); w.key("name"); w.string(f.name); w.endObject()
        }
        w.endArray()
        w.key("rounding"); w.int(b.rounding)
        w.key("time_units"); w.int(b.timeUnits)
        w.key("tolls"); w.int(b.tolls)
        w.key("unit_price"); w.int(b.unitPrice)
        w.key("unit_surcharges"); w.int(b.unitSurcharges)
        w.key("units"); w.int(b.units)
        w.key("units_amount"); w.int(b.unitsAmount)
        w.endObject()
        w.key("call_fee"); w.int(q.callFee)
        w.key("currency"); w.string(q.currency)
        w.key("distance_m"); w.double(q.distanceMeters)
        w.key("duration_s"); w.double(q.durationSeconds)
        w.key("high"); w.int(q.high)
        w.key("low"); w.int(q.low)
        w.key("meter"); w.int(q.meter)
        w.key("per_person"); w.beginArray()
        for p in q.perPerson { w.int(p) }
        w.endArray()
        if let route {
            w.key("route")
            writeRoute(route, segments: false, into: &w)
        }
        w.key("split"); w.string(q.split.rawValue)
        w.key("surcharges"); w.int(q.surcharges)
        w.key("tariff"); w.string(q.tariff)
        w.key("tariff_version"); w.string(q.tariffVersion)
        w.key("tolls"); w.int(q.tolls)
        w.key("total"); w.int(q.total)
        w.endObject()
    }

    /// A route written straight to bytes, keys sorted: the `route` op's result (with the
    /// meter segments) and the `route` member of a fare result (without them).
    static func writeRoute(_ route: Route, segments: Bool, into w: inout JSONStreamWriter) {
        w.beginObject()
        w.key("distance_high_m"); w.double(route.distanceHighMeters)
        w.key("distance_low_m"); w.double(route.distanceLowMeters)
        w.key("distance_m"); w.double(route.distanceMeters)
        w.key("duration_s"); w.double(route.durationSeconds)
        w.key("estimator"); w.string(route.estimator)
        w.key("legs"); w.beginArray()
        for l in route.legs {
            w.beginObject()
            w.key("distance_high_m"); w.double(l.distanceHighMeters)
            w.key("distance_low_m"); w.double(l.distanceLowMeters)
            w.key("distance_m"); w.double(l.distanceMeters)
            w.key("duration_s"); w.double(l.durationSeconds)
            w.key("from"); writeCoordinate(l.from, into: &w)
            w.key("straight_m"); w.double(l.straightMeters)
            w.key("to"); writeCoordinate(l.to, into: &w)
            w.endObject()
        }
        w.endArray()
        w.key("profile"); w.string(route.profile)
        if segments {
            w.key("segments"); w.beginArray()
            for s in route.segments {
                w.beginObject()
                w.key("distance_m"); w.double(s.distanceMeters)
                w.key("duration_s"); w.double(s.durationSeconds)
                w.key("outside"); w.bool(s.outsideZone)
                w.key("slow_s"); w.double(s.slowSeconds ?? 0)
                w.key("start"); w.string(isoString(s.start))
                w.endObject()
            }
            w.endArray()
        }
        w.endObject()
    }

    static func writeCoordinate(_ c: Coordinate, into w: inout JSONStreamWriter) {
        w.beginObject(); w.key("lat"); w.double(c.latitude); w.key("lon"); w.double(c.longitude); w.endObject()
    }

    /// An instant as ISO 8601 UTC with seconds (`2024-05-15T13:30:00Z`), fractional when needed.
    static func isoString(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        let whole = t.rounded(.down)
        let days = Int((whole / 86_400).rounded(.down))
        let secs = Int(whole) - days * 86_400
        // Civil from days (Howard Hinnant).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var s = "\(y)-\(two(m))-\(two(d))T\(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60))"
        let frac = t - whole
        if frac > 0.0005 { s += "." + String(String(Int((frac * 1000).rounded()) + 1000).dropFirst()) }
        return s + "Z"
    }
}
