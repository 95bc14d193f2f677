import Foundation
import GeoFareCore
import GeoFareText

/// `geofare pool`'s files: ride requests in, one row per request out.
///
/// Input columns (a header row; `fare-csv`'s names, renamable with a map):
/// `id,depart_at,origin_lat,origin_lon,dest_lat,dest_lon,seats` (`seats` optional, default 1).
/// Output: `id,group,stops,pickup_at,dropoff_at,delay_s,share,solo_fare,group_total,currency,
/// solo_distance_m,solo_duration_s,error`, in input order, one row per data row (a broken row
/// too: its error, nothing else).
public enum PoolCSV {
    /// The input's logical columns.
    public static let columns = ["id", "depart_at", "origin_lat", "origin_lon", "dest_lat", "dest_lon", "seats"]
    /// The output header.
    public static let outputHeader = "id,group,stops,pickup_at,dropoff_at,delay_s,share,solo_fare,group_total,currency,solo_distance_m,solo_duration_s,error"

    /// One data row: its request, or why it is not one.
    public struct Row: Sendable {
        public var line: Int
        public var id: String
        public var request: RideRequest?
        /// The request time's UTC offset as written (seconds), for the output's times.
        public var offsetSeconds: Int
        public var error: GeoFareError?
    }

    /// Reads a whole input file.
    /// - Parameter map: logical column → header name (`origin_lat` → `pickup_lat`).
    /// - Throws: ``GeoFareError`` `missing_column` (naming it), `empty_input`, `csv_unterminated_quote`.
    public static func read(_ data: Data, map: [String: String] = [:]) throws(GeoFareError) -> [Row] {
        let records = try CSVReader.records(of: data)
        guard let header = records.first else { throw .emptyPoolInput() }
        let at = try CSVReader.columns(of: header, required: columns.filter { $0 != "seats" }, optional: ["seats"], map: map)
        return records.dropFirst().map { record in
            var row = Row(line: record.line, id: "", request: nil, offsetSeconds: 0, error: nil)
            func field(_ name: String) -> String? {
                guard let i = at[name] else { return nil }
                return i < record.fields.count ? record.fields[i].trimmingCharacters(in: .whitespaces) : nil
            }
            row.id = field("id") ?? ""
            do throws(GeoFareError) {
                func number(_ name: String) throws(GeoFareError) -> Double {
                    guard let text = field(name), let v = Double(text), v.isFinite else {
                        throw .notANumber(line: record.line, name, got: field(name) ?? "")
                    }
                    return v
                }
                guard !row.id.isEmpty else { throw .emptyID(line: record.line) }
                let text = field("depart_at") ?? ""
                guard let when = ISO8601.parse(text) else {
                    throw .invalidDepartAt(line: record.line, text)
                }
                row.offsetSeconds = offset(of: text)
                let origin: Coordinate, destination: Coordinate
                let (oLat, oLon, dLat, dLon) = (try number("origin_lat"), try number("origin_lon"), try number("dest_lat"), try number("dest_lon"))
                do throws(GeoFareError) { origin = try Coordinate(latitude: oLat, longitude: oLon) } catch {
                    throw .invalidCoordinate(line: record.line, "origin", error, field: "origin_lat")
                }
                do throws(GeoFareError) { destination = try Coordinate(latitude: dLat, longitude: dLon) } catch {
                    throw .invalidCoordinate(line: record.line, "destination", error, field: "dest_lat")
                }
                var seats = 1
                if let s = field("seats"), !s.isEmpty {
                    guard let v = Int(s), v >= 1 else {
                        throw .invalidSeats(line: record.line, s)
                    }
                    seats = v
                }
                row.request = RideRequest(id: row.id, departure: when, origin: origin, destination: destination, seats: seats)
            } catch {
                row.error = error
            }
            return row
        }
    }

    /// The UTC offset an ISO 8601 time is written in (`Z` or none: 0).
    static func offset(of text: String) -> Int {
        let t = text.trimmingCharacters(in: .whitespaces)
        guard t.count >= 6, let sign = t.dropLast(5).last, sign == "+" || sign == "-" else { return 0 }
        let tail = t.suffix(5)
        let parts = tail.split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]) else { return 0 }
        return (sign == "-" ? -1 : 1) * (h * 3600 + m * 60)
    }

    /// The output file: the header and one line per row of `rows`; `plan` answers the rows with
    /// a request, in order (``PoolPlanner/plan(_:options:progress:)`` of those requests).
    public static func write(rows: [Row], plan: PoolPlan) -> String {
        var out = Array((outputHeader + "\n").utf8)
        var k = 0
        var stopsOf: [Int: String] = [:]
        for group in plan.groups {
            let ids = group.members.map { plan.requestIDs[$0] }
            stopsOf[group.members[0]] = group.ride.stops.map { ($0.pickup ? "+" : "-") + ids[$0.rider] }.joined(separator: ";")
        }
        var groupStops: [Int: String] = [:]
        for group in plan.groups { if let s = stopsOf[group.members[0]] { for m in group.members { groupStops[m] = s } } }
        for row in rows {
            var fields = [row.id]
            // Row errors as fare-csv writes them: `line N: field: message [code]`.
            if let e = row.error {
                fields += Array(repeating: "", count: 11) + ["\(e.onLine(row.line)) [\(e.code.rawValue)]"]
            } else {
                let r = plan.riders[k]
                if let e = r.error {
                    fields += Array(repeating: "", count: 11) + ["\(e.onLine(row.line)) [\(e.code.rawValue)]"]
                } else {
                    fields += [r.group.map(String.init) ?? "", groupStops[k] ?? "",
                               time(r.pickupTime, offset: row.offsetSeconds), time(r.dropoffTime, offset: row.offsetSeconds),
                               String(Int(r.delaySeconds.rounded())), String(r.share), String(r.soloFare), String(r.groupTotal), r.currency,
                               DecimalFormat.string(r.soloMeters, decimals: 1), DecimalFormat.string(r.soloSeconds, decimals: 1), ""]
                }
                k += 1
            }
            CSVWriter.appendRecord(fields, to: &out)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `2013-01-01T01:05:09-05:00`: whole seconds, in the request's own offset.
    static func time(_ epoch: Double, offset: Int) -> String {
        ISO8601.string(epochSeconds: epoch, offsetSeconds: offset)
    }
}
