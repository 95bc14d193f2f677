import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import GeoFareText

/// Turns library results into the protocol's JSON objects (snake_case keys, integer money, keys
/// sorted, instants as ISO 8601 UTC; a fare result ends with `tariff_basis` and, when assumed,
/// `assumption`, after its sorted keys, so that every earlier byte of a sourced result is as it
/// was before they existed): the one encoder of each wire shape, used by the worker and
/// by every `--json` of the command line.
public enum ResultEncoding {
    /// A `fare` result as one line of JSON, with the route's totals and legs when given.
    public static func fareJSON(_ quote: FareQuote, route: Route?) -> String {
        var w = ByteWriter(capacity: 1400)
        defer { w.deallocate() }
        writeQuote(quote, route: route, into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A `route` result (with its meter segments) as one line of JSON.
    public static func routeJSON(_ route: Route) -> String {
        var w = ByteWriter(capacity: 2048)
        defer { w.deallocate() }
        writeRoute(route, segments: true, into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A `matrix` result, keys sorted: `distance_m` and `duration_s` tables (rows sources,
    /// columns targets, `null` where no road path joins a pair), `estimator`, `profiles` (per
    /// source), and `source_snap_m`/`target_snap_m` when a road graph answered.
    public static func writeMatrix(_ m: RouteMatrix, into w: inout ByteWriter) {
        func table(_ rows: [[Double?]], _ w: inout ByteWriter) {
            w.append(UInt8(ascii: "["))
            for (i, row) in rows.enumerated() {
                if i > 0 { w.append(UInt8(ascii: ",")) }
                w.append(UInt8(ascii: "["))
                for (j, v) in row.enumerated() {
                    if j > 0 { w.append(UInt8(ascii: ",")) }
                    if let v { w.jsonDouble(v) } else { w.append("null") }
                }
                w.append(UInt8(ascii: "]"))
            }
            w.append(UInt8(ascii: "]"))
        }
        func list(_ v: [Double], _ w: inout ByteWriter) {
            w.append(UInt8(ascii: "["))
            for (i, x) in v.enumerated() {
                if i > 0 { w.append(UInt8(ascii: ",")) }
                w.jsonDouble(x)
            }
            w.append(UInt8(ascii: "]"))
        }
        w.append(UInt8(ascii: "{"))
        w.jsonKey("distance_m", first: true); table(m.distanceMeters, &w)
        w.jsonKey("duration_s"); table(m.durationSeconds, &w)
        w.jsonKey("estimator"); w.jsonString(m.estimator)
        w.jsonKey("profiles"); w.append(UInt8(ascii: "["))
        for (i, p) in m.profiles.enumerated() {
            if i > 0 { w.append(UInt8(ascii: ",")) }
            w.jsonString(p)
        }
        w.append(UInt8(ascii: "]"))
        if let s = m.sourceSnapMeters { w.jsonKey("source_snap_m"); list(s, &w) }
        if let t = m.targetSnapMeters { w.jsonKey("target_snap_m"); list(t, &w) }
        w.append(UInt8(ascii: "}"))
    }

    /// The `matrix` result as a JSON string (what `geofare matrix --json` prints).
    public static func matrixJSON(_ m: RouteMatrix) -> String {
        var w = ByteWriter(capacity: 4096)
        defer { w.deallocate() }
        writeMatrix(m, into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A result written by `body` into a fresh buffer, as raw JSON.
    static func raw(capacity: Int, _ body: (inout ByteWriter) -> Void) -> JSONValue {
        var w = ByteWriter(capacity: capacity)
        defer { w.deallocate() }
        body(&w)
        return .raw(Array(w.bytes))
    }

    static func coordinate(_ c: Coordinate) -> JSONValue {
        .object(["lat": .double(c.latitude), "lon": .double(c.longitude)])
    }

    /// The fare result written straight to bytes, keys sorted, then `tariff_basis` and, when
    /// assumed, `assumption` (the hot path of the worker).
    static func writeQuote(_ q: FareQuote, route: Route?, into w: inout ByteWriter) {
        let b = q.breakdown
        w.append(#"{"breakdown":{"base":"#); w.appendDecimal(b.base)
        w.append(#","base_surcharge":"#); w.appendDecimal(b.baseSurcharge)
        w.append(#","call_fee":"#); w.appendDecimal(b.callFee)
        w.append(#","counter_m":"#); w.jsonDouble(b.counterMeters)
        w.append(#","distance_units":"#); w.appendDecimal(b.distanceUnits)
        w.append(#","flat_surcharges":["#)
        for (k, f) in b.flatSurcharges.enumerated() {
            if k > 0 { w.append(UInt8(ascii: ",")) }
            w.append(UInt8(ascii: "{"))
            w.append(#""amount":"#); w.appendDecimal(f.amount)
            w.append(#","name":"#); w.jsonString(f.name)
            w.append(UInt8(ascii: "}"))
        }
        w.append(UInt8(ascii: "]"))
        w.append(#","rounding":"#); w.appendDecimal(b.rounding)
        w.append(#","time_units":"#); w.appendDecimal(b.timeUnits)
        if !q.tollItems.isEmpty {
            w.append(#","toll_items":["#)
            for (k, t) in q.tollItems.enumerated() {
                if k > 0 { w.append(UInt8(ascii: ",")) }
                w.append(#"{"amount":"#); w.appendDecimal(t.amount)
                w.append(#","basis":"#); w.jsonString(t.basis.rawValue)
                w.append(#","high":"#); w.appendDecimal(t.high)
                w.append(#","low":"#); w.appendDecimal(t.low)
                w.append(#","name":"#); w.jsonString(t.name)
                w.append(UInt8(ascii: "}"))
            }
            w.append(UInt8(ascii: "]"))
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
        w.append(#","per_person":["#)
        for (k, p) in q.perPerson.enumerated() {
            if k > 0 { w.append(UInt8(ascii: ",")) }
            w.appendDecimal(p)
        }
        w.append(UInt8(ascii: "]"))
        if let route {
            w.append(#","route":"#)
            writeRoute(route, segments: false, into: &w)
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


    /// A route written straight to bytes, keys sorted: the `route` op's result (with the
    /// meter segments) and the `route` member of a fare result (without them).
    static func writeRoute(_ route: Route, segments: Bool, into w: inout ByteWriter) {
        w.append(UInt8(ascii: "{"))
        w.jsonKey("distance_high_m", first: true); w.jsonDouble(route.distanceHighMeters)
        w.jsonKey("distance_low_m"); w.jsonDouble(route.distanceLowMeters)
        w.jsonKey("distance_m"); w.jsonDouble(route.distanceMeters)
        if let low = route.durationLowSeconds, let high = route.durationHighSeconds {
            w.jsonKey("duration_high_s"); w.jsonDouble(high)
            w.jsonKey("duration_low_s"); w.jsonDouble(low)
        }
        w.jsonKey("duration_s"); w.jsonDouble(route.durationSeconds)
        w.jsonKey("estimator"); w.jsonString(route.estimator)
        if let geometry = route.geometry {
            w.jsonKey("geometry"); w.append(UInt8(ascii: "["))
            for (k, c) in geometry.enumerated() {
                if k > 0 { w.append(UInt8(ascii: ",")) }
                w.append(UInt8(ascii: "[")); w.jsonDouble(c.longitude); w.append(UInt8(ascii: ",")); w.jsonDouble(c.latitude); w.append(UInt8(ascii: "]"))
            }
            w.append(UInt8(ascii: "]"))
        }
        w.jsonKey("legs"); w.append(UInt8(ascii: "["))
        for (k, l) in route.legs.enumerated() {
            if k > 0 { w.append(UInt8(ascii: ",")) }
            w.append(UInt8(ascii: "{"))
            w.jsonKey("distance_high_m", first: true); w.jsonDouble(l.distanceHighMeters)
            w.jsonKey("distance_low_m"); w.jsonDouble(l.distanceLowMeters)
            w.jsonKey("distance_m"); w.jsonDouble(l.distanceMeters)
            w.jsonKey("duration_s"); w.jsonDouble(l.durationSeconds)
            w.jsonKey("from"); writeEndpoint(l.from, snapMeters: l.fromSnapMeters, into: &w)
            w.jsonKey("straight_m"); w.jsonDouble(l.straightMeters)
            w.jsonKey("to"); writeEndpoint(l.to, snapMeters: l.toSnapMeters, into: &w)
            w.append(UInt8(ascii: "}"))
        }
        w.append(UInt8(ascii: "]"))
        w.jsonKey("profile"); w.jsonString(route.profile)
        if segments {
            w.jsonKey("segments"); w.append(UInt8(ascii: "["))
            for (k, s) in route.segments.enumerated() {
                if k > 0 { w.append(UInt8(ascii: ",")) }
                w.append(UInt8(ascii: "{"))
                w.jsonKey("distance_m", first: true); w.jsonDouble(s.distanceMeters)
                w.jsonKey("duration_s"); w.jsonDouble(s.durationSeconds)
                w.jsonKey("outside"); w.jsonBool(s.outsideZone)
                w.jsonKey("slow_s"); w.jsonDouble(s.slowSeconds ?? 0)
                w.jsonKey("start"); w.jsonString(isoString(s.start))
                w.append(UInt8(ascii: "}"))
            }
            w.append(UInt8(ascii: "]"))
        }
        w.append(UInt8(ascii: "}"))
    }

    /// A leg's end: its request coordinate and, where a road graph snapped it, `snap_m` (metres
    /// from the point to the road the leg starts or ends on).
    static func writeEndpoint(_ c: Coordinate, snapMeters: Double?, into w: inout ByteWriter) {
        w.append(UInt8(ascii: "{"))
        w.jsonKey("lat", first: true); w.jsonDouble(c.latitude)
        w.jsonKey("lon"); w.jsonDouble(c.longitude)
        if let snapMeters { w.jsonKey("snap_m"); w.jsonDouble(snapMeters) }
        w.append(UInt8(ascii: "}"))
    }

    static func writeCoordinate(_ c: Coordinate, into w: inout ByteWriter) {
        w.append(UInt8(ascii: "{"))
        w.jsonKey("lat", first: true); w.jsonDouble(c.latitude)
        w.jsonKey("lon"); w.jsonDouble(c.longitude)
        w.append(UInt8(ascii: "}"))
    }

    /// ``isoString(_:)`` as a JSON string, straight to bytes (the same bytes as
    /// `jsonString(isoString(date))` for years 0...9999; others take that path).
    static func writeISO(_ date: Date, into w: inout ByteWriter) {
        let t = date.timeIntervalSince1970
        guard t.isFinite, t >= -62_135_596_800, t < 253_402_300_800 else { w.jsonString(isoString(date)); return }
        let (whole, y, m, d, secs) = civil(t)
        guard y >= 1000 else { w.jsonString(isoString(date)); return }
        var b: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)
            = (0x22, 0, 0, 0, 0, 0x2D, 0, 0, 0x2D, 0, 0, 0x54, 0, 0, 0x3A, 0, 0, 0x3A, 0, 0, 0)
        withUnsafeMutableBytes(of: &b) { p in
            func put(_ v: Int, at i: Int, digits: Int) {
                var v = v
                for k in stride(from: digits - 1, through: 0, by: -1) { p[i + k] = UInt8(48 + v % 10); v /= 10 }
            }
            put(y, at: 1, digits: 4); put(m, at: 6, digits: 2); put(d, at: 9, digits: 2)
            put(secs / 3600, at: 12, digits: 2); put(secs % 3600 / 60, at: 15, digits: 2); put(secs % 60, at: 18, digits: 2)
            w.append(UnsafeBufferPointer(start: p.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 20))
        }
        let frac = t - whole
        if frac > 0.0005 {
            let ms = Int((frac * 1000).rounded())
            if ms >= 1000 { w.append(".000") } else {
                w.append(UInt8(ascii: "."))
                w.append(UInt8(48 + ms / 100)); w.append(UInt8(48 + ms / 10 % 10)); w.append(UInt8(48 + ms % 10))
            }
        }
        w.append("Z\"")
    }

    /// Seconds since 1970 (UTC) as the whole second, the civil year, month and day, and the
    /// second of that day, for both ISO writers (``ISO8601/civil(_:)``).
    private static func civil(_ t: Double) -> (whole: Double, year: Int, month: Int, day: Int, second: Int) {
        let whole = t.rounded(.down)
        let c = ISO8601.civil(Int(whole))
        return (whole, c.year, c.month, c.day, c.second)
    }

    /// An instant as ISO 8601 UTC with seconds (`2024-05-15T13:30:00Z`), fractional when needed.
    static func isoString(_ date: Date) -> String {
        let t = date.timeIntervalSince1970
        let (whole, y, m, d, secs) = civil(t)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var s = "\(y)-\(two(m))-\(two(d))T\(two(secs / 3600)):\(two(secs % 3600 / 60)):\(two(secs % 60))"
        let frac = t - whole
        if frac > 0.0005 { s += "." + String(String(Int((frac * 1000).rounded()) + 1000).dropFirst()) }
        return s + "Z"
    }
}
