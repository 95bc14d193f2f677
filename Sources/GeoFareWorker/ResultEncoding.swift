import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute

/// Turns library results into the protocol's JSON objects (snake_case keys, integer money).
enum ResultEncoding {
    static func coordinate(_ c: Coordinate) -> JSONValue {
        .object(["lat": .double(c.latitude), "lon": .double(c.longitude)])
    }

    static func quote(_ q: FareQuote) -> [String: JSONValue] {
        let b = q.breakdown
        return [
            "tariff": .string(q.tariff), "tariff_version": .string(q.tariffVersion), "currency": .string(q.currency),
            "distance_m": .double(q.distanceMeters), "duration_s": .double(q.durationSeconds),
            "meter": .int(q.meter), "surcharges": .int(q.surcharges), "tolls": .int(q.tolls), "call_fee": .int(q.callFee),
            "total": .int(q.total), "low": .int(q.low), "high": .int(q.high),
            "per_person": .array(q.perPerson.map(JSONValue.int)), "split": .string(q.split.rawValue),
            "breakdown": .object([
                "base": .int(b.base), "base_surcharge": .int(b.baseSurcharge), "units": .int(b.units),
                "distance_units": .int(b.distanceUnits), "time_units": .int(b.timeUnits), "unit_price": .int(b.unitPrice),
                "units_amount": .int(b.unitsAmount), "unit_surcharges": .int(b.unitSurcharges),
                "flat_surcharges": .array(b.flatSurcharges.map { .object(["name": .string($0.name), "amount": .int($0.amount)]) }),
                "tolls": .int(b.tolls), "call_fee": .int(b.callFee), "rounding": .int(b.rounding), "counter_m": .double(b.counterMeters),
            ]),
        ]
    }

    static func leg(_ l: Route.Leg) -> JSONValue {
        .object([
            "from": coordinate(l.from), "to": coordinate(l.to), "straight_m": .double(l.straightMeters),
            "distance_m": .double(l.distanceMeters), "duration_s": .double(l.durationSeconds),
            "distance_low_m": .double(l.distanceLowMeters), "distance_high_m": .double(l.distanceHighMeters),
        ])
    }

    static func route(_ r: Route, segments: Bool) -> [String: JSONValue] {
        var o: [String: JSONValue] = [
            "distance_m": .double(r.distanceMeters), "duration_s": .double(r.durationSeconds),
            "distance_low_m": .double(r.distanceLowMeters), "distance_high_m": .double(r.distanceHighMeters),
            "legs": .array(r.legs.map(leg)), "estimator": .string(r.estimator), "profile": .string(r.profile),
        ]
        if segments {
            o["segments"] = .array(r.segments.map { s in
                .object([
                    "distance_m": .double(s.distanceMeters), "duration_s": .double(s.durationSeconds),
                    "slow_s": .double(s.slowSeconds ?? 0), "start": .string(isoString(s.start)), "outside": .bool(s.outsideZone),
                ])
            })
        }
        return o
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
