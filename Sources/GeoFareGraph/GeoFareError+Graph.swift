import GeoFareCore

/// What road graphs throw when queried or checked: `no_road_nearby` (a point with no road within
/// the snap distance, field `from`/`to`/...), `invalid_snap_distance`, `no_route` (no road path
/// joins the snapped points), `graph_invalid_network` (arrays that do not agree, naming the
/// first at fault), `graph_corrupt` (a hierarchy read from a file that is inconsistent).
extension GeoFareError {
    /// A road network whose arrays do not agree (`graph_invalid_network`, field: the array at fault).
    public static func invalidNetwork(_ field: String, _ message: String) -> GeoFareError {
        GeoFareError(code: .graphInvalidNetwork, message: message, field: field)
    }

    /// A hierarchy of `metric` that fails a structural check: `what` (`graph_corrupt`, field `ch.<metric>`).
    static func inconsistentHierarchy(_ metric: GraphMetric, _ what: String) -> GeoFareError {
        GeoFareError(code: .graphCorrupt, message: "the \(metric.rawValue) hierarchy is inconsistent: \(what)",
                     field: "ch.\(metric.rawValue)")
    }

    /// A snap distance outside (0, 100000] m (`invalid_snap_distance`, field `max_snap_distance`).
    static func invalidSnapDistance(_ meters: Double) -> GeoFareError {
        GeoFareError(code: .invalidSnapDistance,
                     message: "the maximum snap distance must be a number of metres in (0, 100000], got \(meters)",
                     field: "max_snap_distance")
    }

    /// A point to snap that is not finite (`no_road_nearby`).
    static func pointNotFinite(_ point: Coordinate, field: String) -> GeoFareError {
        GeoFareError(code: .noRoadNearby, message: "\(point) is not a finite coordinate", field: field)
    }

    /// No road within `meters` of `point` (`no_road_nearby`).
    static func noRoadNearby(_ point: Coordinate, within meters: Double, field: String) -> GeoFareError {
        GeoFareError(code: .noRoadNearby, message: "no road within \(meters) m of \(point)", field: field)
    }

    /// No road path joins the snapped points (`no_route`, field `to`).
    static func noRoadPath(from a: Coordinate, to b: Coordinate) -> GeoFareError {
        GeoFareError(code: .noRoute, message: "no road path joins \(a) to \(b)", field: "to")
    }
}
