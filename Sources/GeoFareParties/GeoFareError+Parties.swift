import GeoFareCore

/// What parties, their filters and the party index throw: `invalid_value` (an id, attributes
/// or cell size out of bounds; field `store` for a bad `postgres://` URL), `out_of_range`,
/// `too_large` (attributes), `invalid_range` and `missing_value` (a filter), `unknown_cluster`,
/// `invalid_bbox`, with the field they concern.
extension GeoFareError {
    // MARK: Parties

    /// A party id of `bytes` UTF-8 bytes, outside 1...``Party/maxIDBytes`` (`invalid_value`, field `id`).
    static func invalidPartyID(byteCount bytes: Int) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "must be 1...\(Party.maxIDBytes) bytes of UTF-8, got \(bytes)", field: "id")
    }

    /// A count or version that is negative (`out_of_range`).
    static func mustNotBeNegative(_ field: String, _ value: Int64) -> GeoFareError {
        GeoFareError(code: .outOfRange, message: "must not be negative, got \(value)", field: field)
    }

    /// Attributes of `bytes` bytes, over 16 KiB (`too_large`, field `attributes`).
    static func attributesTooLarge(byteCount bytes: Int) -> GeoFareError {
        GeoFareError(code: .tooLarge, message: "attributes are limited to 16 KiB of JSON, got \(bytes) bytes", field: "attributes")
    }

    /// Attributes that are not the text of a JSON object (`invalid_value`, field `attributes`).
    static func attributesNotObject() -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "must be the text of a JSON object ({...})", field: "attributes")
    }

    // MARK: Filters and the index

    /// A filter whose `depart_until` is before its `depart_from` (`invalid_range`).
    static func departUntilBeforeFrom() -> GeoFareError {
        GeoFareError(code: .invalidRange, message: "depart_until must not be before depart_from", field: "depart_until")
    }

    /// A destination filter without a radius (`missing_value`, field `destination.radius_m`).
    static func destinationWithoutRadius() -> GeoFareError {
        GeoFareError(code: .missingValue, message: "a destination needs a radius", field: "destination.radius_m")
    }

    /// A destination radius without a centre (`missing_value`, field `destination.center`).
    static func radiusWithoutCenter() -> GeoFareError {
        GeoFareError(code: .missingValue, message: "a destination radius needs a centre", field: "destination.center")
    }

    /// An index cell size that is not a power of two in 16...256 (`invalid_value`, field `cell_size_pixels`).
    static func invalidCellSize(_ pixels: Int) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "must be a power of two within 16...256, got \(pixels)", field: "cell_size_pixels")
    }

    /// A cluster id whose cell holds no party that passes the filter (`unknown_cluster`, field `cluster_id`).
    static func emptyCluster(_ id: String) -> GeoFareError {
        GeoFareError(code: .unknownCluster, message: "no parties in cluster '\(id)'", field: "cluster_id")
    }

    /// An id that is neither a cluster's nor a party's (`unknown_cluster`, field `cluster_id`).
    static func unknownCluster(_ id: String) -> GeoFareError {
        GeoFareError(code: .unknownCluster, message: "'\(id)' is neither a cluster id nor a party id", field: "cluster_id")
    }

    // MARK: Store URLs

    /// A `postgres://` URL (`redacted`: without its password) that does not parse: `why`
    /// (`invalid_value`, field `store`).
    static func invalidPostgresURL(_ why: String, redacted: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "\(why) in '\(redacted)' (expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE)", field: "store")
    }

    // MARK: Party JSON (PartyJSON)

    /// No party with this id (`not_found`, field `party_id`).
    public static func noParty(_ id: String) -> GeoFareError {
        GeoFareError(code: .notFound, message: "no party '\(id)'", field: "party_id")
    }

    /// A party's `attributes` over 16 KiB of JSON (`too_large`).
    public static func attributesTooLarge(_ field: String) -> GeoFareError {
        GeoFareError(code: .tooLarge, message: "attributes are limited to 16 KiB of JSON", field: field)
    }

    /// A party filter's destination radius outside 0...1000000 m (`out_of_range`, field
    /// `destination.radius_m`).
    public static func destinationRadiusOutOfRange() -> GeoFareError {
        GeoFareError(code: .outOfRange, message: "must be within 0...1000000 m", field: "destination.radius_m")
    }

    /// A party that is not a JSON object (`wrong_type`).
    public static func partyNotObject() -> GeoFareError {
        GeoFareError(code: .wrongType, message: "a party is a JSON object", field: nil)
    }
}
