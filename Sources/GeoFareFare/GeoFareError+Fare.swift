import Foundation
import GeoFareCore

/// What the fare modules throw for a request or tariff file they cannot price with:
/// `unknown_tariff`, `no_tariff_version` (the date is before any version of the tariff),
/// `tariff_version_uncertain` (the date falls in a month in which the tariff changed on a day no
/// source gives), `no_tariff_for_location` (no tariff region contains the origin),
/// `unknown_tariff_group` (the origin is in a province whose modelled city groups do not
/// include it), `invalid_tariff` (a malformed tariff file: the field names the file and the
/// JSON path), `invalid_party_size`, `invalid_split`, `unknown_out_of_zone_rate` (a segment
/// outside the business zone, priced with a tariff version whose out-of-zone rate no source
/// gives), plus the input codes for the numbers of the trip.
extension GeoFareError {
    // MARK: Tariff and zone files

    /// A malformed tariff file at JSON `path` of `file` (`invalid_tariff`).
    static func invalidTariff(_ file: String, _ path: String, _ message: String) -> GeoFareError {
        GeoFareError(code: .invalidTariff, message: message, field: "\(file): \(path)")
    }

    /// A tariff or slow-time file that failed with a non-GeoFare `error` (`invalid_tariff`);
    /// `field` is the file's path where known.
    static func invalidTariff(_ error: any Error, field: String? = nil) -> GeoFareError {
        GeoFareError(code: .invalidTariff, message: "\(error)", field: field)
    }

    /// A zone file that does not parse or validate (`invalid_zone`): `error`'s message and field
    /// under the zone code.
    static func invalidZone(_ error: GeoFareError) -> GeoFareError {
        GeoFareError(code: .invalidZone, message: error.message, field: error.field)
    }

    /// A zone file that failed with a non-GeoFare `error` (`invalid_zone`).
    static func invalidZone(describing error: any Error) -> GeoFareError {
        GeoFareError(code: .invalidZone, message: "\(error)", field: nil)
    }

    /// Two tariff files define the same id or alias `name` (`invalid_tariff`, field: the second file).
    static func duplicateTariffID(_ name: String, first: String, second: String) -> GeoFareError {
        GeoFareError(code: .invalidTariff, message: "tariff id '\(name)' is defined by both \(first) and \(second)", field: second)
    }

    /// A tariff names a zone no zone file defines (`invalid_tariff`).
    /// A request's `business_zone` that names no loaded zone (`invalid_value`, field `business_zone`).
    static func unknownBusinessZone(_ zone: String) -> GeoFareError {
        GeoFareError(code: .invalidValue, message: "'\(zone)' is no zone of the data (a taxi's own zone is a zone id such as kr-sgg-gyeonggi-seongnam or kr-seoul-business-zone)", field: "business_zone")
    }

    static func unknownZone(_ zone: String, field: String) -> GeoFareError {
        GeoFareError(code: .invalidTariff, message: "zone '\(zone)' is not in any zones/*.geojson file", field: field)
    }

    /// A `placed_for_versions` zone that is also some tariff's region (`invalid_tariff`).
    static func placedZoneIsRegion(_ zone: String, field: String) -> GeoFareError {
        GeoFareError(code: .invalidTariff, message: "zone '\(zone)' is a tariff's region or also_regions, so it is placed for every version; a zone placed for some versions only must be no tariff's region", field: field)
    }

    /// A `placed_for_versions` zone with no province to fall back to (`invalid_tariff`).
    static func placedZoneWithoutProvince(_ zone: String, field: String) -> GeoFareError {
        GeoFareError(code: .invalidTariff, message: "zone '\(zone)' has no parent (province): an origin in it under a version no source places it on would have no province to fall back to", field: field)
    }

    /// An `assumed_for` zone that is not a province of city-group tariffs only (`invalid_tariff`).
    static func assumedZoneNotGroupOnly(_ zone: String, field: String) -> GeoFareError {
        GeoFareError(code: .invalidTariff, message: "zone '\(zone)' is not a province whose city groups have tariffs and which has none of its own: no origin there is left unplaced", field: field)
    }

    /// Two tariff files assume a tariff for the same zone (`invalid_tariff`).
    static func assumedZoneTwice(_ zone: String, first: String, second: String, field: String) -> GeoFareError {
        GeoFareError(code: .invalidTariff, message: "zone '\(zone)' has an assumed tariff in both \(first) and \(second)", field: field)
    }

    // MARK: Choosing the tariff and its version

    /// No tariff has the id or alias `id` (`unknown_tariff`, field `tariff`), listing the `known` ids.
    static func unknownTariff(_ id: String, known: [String]) -> GeoFareError {
        GeoFareError(code: .unknownTariff, message: "unknown tariff '\(id)'; known: \(known.joined(separator: ", "))", field: "tariff")
    }

    /// A request's tariff index past the catalog's end (`unknown_tariff`, field `tariff`).
    static func noTariffAtIndex(_ i: Int) -> GeoFareError {
        GeoFareError(code: .unknownTariff, message: "no tariff at index \(i)", field: "tariff")
    }

    /// A request that names no tariff and gives no origin (`missing_field`, field `tariff`).
    static func tariffOrOriginRequired() -> GeoFareError {
        GeoFareError(code: .missingField, message: "name a tariff or give the origin", field: "tariff")
    }

    /// `date` is before the first modelled version of tariff `t` (`no_tariff_version`, field `depart_at`).
    static func noTariffVersion(_ t: Tariff, at date: Date) -> GeoFareError {
        let first = t.versions[0]
        if first.startsAtPeriodStart {
            return GeoFareError(code: .noTariffVersion, message: "tariff '\(t.id)' has no version in force at \(date): its modelled period starts at \(first.label.dropFirst("in force on ".count)) 00:00 local time, when the version \(first.label) already applied; that version's own earlier start and any version before it are not modelled (the tariff file's notes say what is known)", field: "depart_at")
        }
        return GeoFareError(code: .noTariffVersion, message: "tariff '\(t.id)' has no version in force at \(date): its first modelled version \(first.uncertainFrom == nil ? "starts" : "took effect on an unknown day of") \(first.label); earlier versions are left out where no source gives their start date or their units (the tariff file's notes say which)", field: "depart_at")
    }

    /// `date` falls in the month in which tariff `t` changed to version `v` on a day no source
    /// gives (`tariff_version_uncertain`, field `depart_at`).
    static func tariffVersionUncertain(_ t: Tariff, version v: Int, at date: Date) -> GeoFareError {
        let version = t.versions[v]
        let before = v > 0 ? "version \(t.versions[v - 1].label) applies until the month begins" : "no earlier version is modelled"
        return GeoFareError(code: .tariffVersionUncertain, message: "tariff '\(t.id)' changed during \(version.label) on a day no source gives, so the version in force at \(date) is unknown: \(before), version \(version.label) from the first day of the next month; a departure inside \(version.label) is not priced rather than guessed", field: "depart_at")
    }

    /// An origin in a province of city-group tariffs whose group no source gives
    /// (`unknown_tariff_group`, field `from`).
    static func unknownTariffGroup(_ message: String) -> GeoFareError {
        GeoFareError(code: .unknownTariffGroup, message: message, field: "from")
    }

    /// No tariff region contains `origin` (`no_tariff_for_location`, field `from`).
    static func noTariffForLocation(_ origin: Coordinate) -> GeoFareError {
        GeoFareError(code: .noTariffForLocation, message: "no tariff region contains \(origin); name a tariff", field: "from")
    }

    // MARK: The trip and its options

    /// A party size outside 1...20 (`invalid_party_size`, field `party_size`).
    static func partySizeOutOfRange(_ n: Int) -> GeoFareError {
        GeoFareError(code: .invalidPartySize, message: "must be within 1...20, got \(n)", field: "party_size")
    }

    /// A negative amount (tolls, call fee) (`negative_value`).
    static func negativeAmount(_ field: String, _ value: Int64) -> GeoFareError {
        GeoFareError(code: .negativeValue, message: "must not be negative, got \(value)", field: field)
    }

    /// A trip between coordinates given to the meter without a route (`route_required`, field `trip`).
    static func routeRequired() -> GeoFareError {
        GeoFareError(code: .routeRequired, message: "a trip between coordinates needs a route estimate: price it with TripPricer", field: "trip")
    }

    /// A route asked for a trip that is not between coordinates (`missing_field`, field `from`).
    static func routeEndpointsRequired() -> GeoFareError {
        GeoFareError(code: .missingField, message: "a route needs the trip's from/to coordinates", field: "from")
    }

    /// A segments trip with no segment (`missing_field`, field `segments`).
    static func noSegments() -> GeoFareError {
        GeoFareError(code: .missingField, message: "a trip needs at least one segment", field: "segments")
    }

    /// More than 10,000 segments (`too_many_segments`, field `segments`).
    static func tooManySegments(_ count: Int) -> GeoFareError {
        GeoFareError(code: .tooManySegments, message: "at most 10,000 segments, got \(count)", field: "segments")
    }

    /// Segment `i` runs outside the business zone of a version with no known out-of-zone rate
    /// (`unknown_out_of_zone_rate`, field `segments[i].outside`).
    static func unknownOutOfZoneRate(_ meter: Meter, segment i: Int) -> GeoFareError {
        GeoFareError(code: .unknownOutOfZoneRate, message: "tariff '\(meter.tariff.id)' version \(meter.version.label) has no known out-of-zone (시계외) rate, and segments[\(i)] runs outside its business zone; no source gives the rate", field: "segments[\(i)].outside")
    }

    /// Not one drop-off per rider (`invalid_split`, field `dropoffs`).
    static func dropoffCountMismatch(_ count: Int, partySize: Int) -> GeoFareError {
        GeoFareError(code: .invalidSplit, message: "\(count) drop-offs for a party of \(partySize)", field: "dropoffs")
    }

    /// Drop-off `i` at `d` m, not along the trip of `length` m (`out_of_range`, field `dropoffs[i]`).
    static func dropoffOutOfRange(_ i: Int, _ d: Double, length: Double) -> GeoFareError {
        GeoFareError(code: .outOfRange, message: "a drop-off must be within 0...\(length) m along the trip, got \(d)", field: "dropoffs[\(i)]")
    }

    // MARK: Splitting

    /// A split among no riders (`invalid_split`, field `party_size`).
    static func noRidersToSplit() -> GeoFareError {
        GeoFareError(code: .invalidSplit, message: "no riders to split among", field: "party_size")
    }

    /// A split unit that is not positive (`invalid_split`, field `split_unit`).
    static func splitUnitNotPositive(_ unit: Int64) -> GeoFareError {
        GeoFareError(code: .invalidSplit, message: "the split unit must be positive, got \(unit)", field: "split_unit")
    }

    /// A negative total to split (`invalid_split`, field `total`).
    static func negativeSplitTotal(_ total: Int64) -> GeoFareError {
        GeoFareError(code: .invalidSplit, message: "cannot split a negative total \(total)", field: "total")
    }

    /// A negative split weight (`invalid_split`, field `weights`).
    static func negativeSplitWeight() -> GeoFareError {
        GeoFareError(code: .invalidSplit, message: "weights must not be negative", field: "weights")
    }

    /// Equal shares for fewer than one rider (`invalid_party_size`, field `party_size`).
    static func tooFewRiders(_ riders: Int) -> GeoFareError {
        GeoFareError(code: .invalidPartySize, message: "needs at least one rider, got \(riders)", field: "party_size")
    }

    /// Subset Shapley shares for a party outside 1...12 (`invalid_party_size`, field `party_size`).
    static func tooManyRidersForShapley(_ n: Int) -> GeoFareError {
        GeoFareError(code: .invalidPartySize, message: "the subset Shapley formula takes 1...12 riders, got \(n)", field: "party_size")
    }
}
