import Foundation
import GeoFareCore
import GeoFareText

/// A finished ride as a taxi-sharing backend logs it: when and where it started and ended and,
/// where known, the metered distance and fare.
public struct CompletedRide: Sendable, Hashable {
    /// The CSV line it came from (1 = the header).
    public var line: Int
    public var pickup: Date, dropoff: Date
    public var origin: Coordinate, destination: Coordinate
    /// Metres, as metered (`nil`: not given).
    public var distanceMeters: Double?
    /// The fare paid for the meter, in the currency's minor units (`nil`: not given).
    public var fare: Int64?
    /// Seconds from pickup to drop-off.
    public var durationSeconds: Double { dropoff.timeIntervalSince(pickup) }
}

/// `geofare calibrate`'s input: completed rides, one per row under a header.
///
/// Columns `pickup_at,dropoff_at,origin_lat,origin_lon,dest_lat,dest_lon` and optionally
/// `distance_m` (metres) and `fare` (minor units: won, cents); times ISO 8601 with their offset.
/// A map renames a file's own headers (`pickup_at=tpep_pickup_datetime`), as `pool`'s does.
/// A row that is not a usable ride is skipped and counted by its reason, never dropped silently.
public enum CompletedRidesCSV {
    /// The logical columns, required first.
    public static let required = ["pickup_at", "dropoff_at", "origin_lat", "origin_lon", "dest_lat", "dest_lon"]
    public static let optional = ["distance_m", "fare"]

    /// Why a row is not a ride the fit can use.
    public enum SkipReason: String, Sendable, CaseIterable, Comparable {
        case badTime = "bad_time"
        case badCoordinate = "bad_coordinate"
        case badDistance = "bad_distance"
        case badFare = "bad_fare"
        /// Drop-off not after pickup, under a minute, or over six hours.
        case implausibleDuration = "implausible_duration"
        /// Ends under 100 m apart: no trip to learn a speed from.
        case sameEnds = "same_ends"
        /// Straight-line speed above 130 km/h: a clock or a position is wrong.
        case implausibleSpeed = "implausible_speed"
        /// The ride could not be routed (e.g. no profile, no road).
        case noRoute = "no_route"
        /// The ride takes another speed profile than the one fitted (that of most rides).
        case otherProfile = "other_profile"

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// The rides read and the rows skipped, by reason (with the first line of each reason).
    public struct Result: Sendable {
        public var rides: [CompletedRide] = []
        public var skipped: [SkipReason: (count: Int, firstLine: Int)] = [:]
        public var rows = 0

        public mutating func skip(_ reason: SkipReason, line: Int) {
            let seen = skipped[reason]
            skipped[reason] = ((seen?.count ?? 0) + 1, seen?.firstLine ?? line)
        }
    }

    /// Reads a whole file.
    /// - Parameter map: logical column → the file's header name.
    /// - Throws: ``GeoFareError`` `missing_column` (naming it), `csv_unterminated_quote`, or
    ///   `empty_input` for a file without a header.
    public static func read(_ data: Data, map: [String: String] = [:]) throws(GeoFareError) -> Result {
        let records = try CSVReader.records(of: data)
        guard let header = records.first else { throw .emptyRides() }
        let at = try CSVReader.columns(of: header, required: required, optional: optional, map: map)
        var out = Result()
        for record in records.dropFirst() {
            if record.fields.count == 1 && record.fields[0].trimmingCharacters(in: .whitespaces).isEmpty { continue }
            out.rows += 1
            func field(_ name: String) -> String? {
                guard let i = at[name], i < record.fields.count else { return nil }
                let t = record.fields[i].trimmingCharacters(in: .whitespaces)
                return t.isEmpty ? nil : t
            }
            guard let pickup = field("pickup_at").flatMap(ISO8601.parse), let dropoff = field("dropoff_at").flatMap(ISO8601.parse) else {
                out.skip(.badTime, line: record.line); continue
            }
            guard let oLat = field("origin_lat").flatMap(Double.init), let oLon = field("origin_lon").flatMap(Double.init),
                  let dLat = field("dest_lat").flatMap(Double.init), let dLon = field("dest_lon").flatMap(Double.init),
                  let origin = try? Coordinate(latitude: oLat, longitude: oLon), let destination = try? Coordinate(latitude: dLat, longitude: dLon),
                  !(oLat == 0 && oLon == 0), !(dLat == 0 && dLon == 0) else {
                out.skip(.badCoordinate, line: record.line); continue
            }
            var ride = CompletedRide(line: record.line, pickup: pickup, dropoff: dropoff, origin: origin, destination: destination)
            if let text = field("distance_m") {
                guard let d = Double(text), d.isFinite, d > 0, d < 2_000_000 else { out.skip(.badDistance, line: record.line); continue }
                ride.distanceMeters = d
            }
            if let text = field("fare") {
                guard let f = Int64(text), f > 0 else { out.skip(.badFare, line: record.line); continue }
                ride.fare = f
            }
            let seconds = ride.durationSeconds
            guard seconds >= 60, seconds <= 6 * 3600 else { out.skip(.implausibleDuration, line: record.line); continue }
            let straight = FastDistance.haversineMeters(origin, destination)
            guard straight >= 100 else { out.skip(.sameEnds, line: record.line); continue }
            guard straight / seconds * 3.6 <= 130 else { out.skip(.implausibleSpeed, line: record.line); continue }
            out.rides.append(ride)
        }
        return out
    }
}
