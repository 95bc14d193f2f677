import GeoFareCore

/// What route estimation throws: `too_many_stops` (field `via`), `not_finite` (`depart_at`),
/// `unknown_profile`, `missing_value` and `request_too_large` for a matrix, and
/// `invalid_route_data` for a route data file (speed profiles, the circuity model) that does
/// not validate (field: the file and JSON path).
extension GeoFareError {
    /// A departure time that is NaN or infinite (`not_finite`, field `depart_at`).
    static func departureNotFinite() -> GeoFareError {
        GeoFareError(code: .notFinite, message: "the departure time is not finite", field: "depart_at")
    }

    /// More via points than ``RouteRequest/maxStops`` (`too_many_stops`, field `via`).
    static func tooManyStops(_ count: Int) -> GeoFareError {
        GeoFareError(code: .tooManyStops, message: "at most \(RouteRequest.maxStops) stops, got \(count)", field: "via")
    }

    /// A speed profile id no profile has (`unknown_profile`, field `profile`), listing the `known` ids.
    static func unknownProfile(_ id: String, known: [String]) -> GeoFareError {
        GeoFareError(code: .unknownProfile, message: "unknown speed profile '\(id)'; known: \(known.joined(separator: ", "))", field: "profile")
    }

    /// A matrix without sources (`missing_value`, field `sources`).
    static func noSources() -> GeoFareError {
        GeoFareError(code: .missingValue, message: "give at least one source", field: "sources")
    }

    /// A matrix without targets (`missing_value`, field `targets`).
    static func noTargets() -> GeoFareError {
        GeoFareError(code: .missingValue, message: "give at least one target", field: "targets")
    }

    /// A matrix of more than `max` cells (`request_too_large`, field `targets`).
    public static func matrixTooLarge(sources: Int, targets: Int, max: Int) -> GeoFareError {
        GeoFareError(code: .requestTooLarge,
                     message: "\(sources) sources × \(targets) targets = \(sources * targets) cells; at most \(max) per request",
                     field: "targets")
    }

    /// A route data file that does not validate (`invalid_route_data`); `field` is the file and
    /// the JSON path.
    static func invalidRouteData(_ message: String, field: String) -> GeoFareError {
        GeoFareError(code: .invalidRouteData, message: message, field: field)
    }

    /// A route data file that does not decode: `error` says why (`invalid_route_data`, field: the file).
    static func invalidRouteData(describing error: any Error, field: String) -> GeoFareError {
        GeoFareError(code: .invalidRouteData, message: "\(error)", field: field)
    }
}
