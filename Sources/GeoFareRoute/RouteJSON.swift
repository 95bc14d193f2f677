import Foundation
import GeoFareCore
import GeoFareText

/// The protocol's JSON of a ``Route`` (the `route` result, and the `route` of a fare result) and
/// of a ``RouteMatrix`` (the `matrix` result): keys sorted, straight to bytes. The one encoder
/// of each shape, used by the worker and by `geofare route|matrix --json`.
public enum RouteJSON {
    /// A `route` result (with its meter segments) as one line of JSON.
    public static func string(_ route: Route) -> String {
        var w = ByteWriter(capacity: 2048)
        defer { w.deallocate() }
        write(route, segments: true, into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A `matrix` result, keys sorted: `distance_m` and `duration_s` tables (rows sources,
    /// columns targets, `null` where no road path joins a pair), `estimator`, `profiles` (per
    /// source), and `source_snap_m`/`target_snap_m` when a road graph answered.
    public static func write(_ m: RouteMatrix, into w: inout ByteWriter) {
        func table(_ rows: [[Double?]], _ w: inout ByteWriter) {
            w.jsonArray(rows) { w, row in w.jsonArray(row) { w, v in if let v { w.jsonDouble(v) } else { w.append("null") } } }
        }
        w.append(UInt8(ascii: "{"))
        w.jsonKey("distance_m", first: true); table(m.distanceMeters, &w)
        w.jsonKey("duration_s"); table(m.durationSeconds, &w)
        w.jsonKey("estimator"); w.jsonString(m.estimator)
        w.jsonKey("profiles"); w.jsonArray(m.profiles) { $0.jsonString($1) }
        if let s = m.sourceSnapMeters { w.jsonKey("source_snap_m"); w.jsonArray(s) { $0.jsonDouble($1) } }
        if let t = m.targetSnapMeters { w.jsonKey("target_snap_m"); w.jsonArray(t) { $0.jsonDouble($1) } }
        w.append(UInt8(ascii: "}"))
    }

    /// The `matrix` result as a JSON string (what `geofare matrix --json` prints).
    public static func string(_ m: RouteMatrix) -> String {
        var w = ByteWriter(capacity: 4096)
        defer { w.deallocate() }
        write(m, into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// A route written straight to bytes, keys sorted: the `route` op's result (with the
    /// meter segments) and the `route` member of a fare result (without them).
    public static func write(_ route: Route, segments: Bool, into w: inout ByteWriter) {
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
            w.jsonKey("geometry")
            w.jsonArray(geometry) { w, c in
                w.append(UInt8(ascii: "[")); w.jsonDouble(c.longitude); w.append(UInt8(ascii: ",")); w.jsonDouble(c.latitude); w.append(UInt8(ascii: "]"))
            }
        }
        w.jsonKey("legs")
        w.jsonArray(route.legs) { w, l in
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
        w.jsonKey("profile"); w.jsonString(route.profile)
        if segments {
            w.jsonKey("segments")
            w.jsonArray(route.segments) { w, s in
                w.append(UInt8(ascii: "{"))
                w.jsonKey("distance_m", first: true); w.jsonDouble(s.distanceMeters)
                w.jsonKey("duration_s"); w.jsonDouble(s.durationSeconds)
                w.jsonKey("outside"); w.jsonBool(s.outsideZone)
                w.jsonKey("slow_s"); w.jsonDouble(s.slowSeconds ?? 0)
                w.jsonKey("start"); w.jsonInstant(s.start)
                w.append(UInt8(ascii: "}"))
            }
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
}
