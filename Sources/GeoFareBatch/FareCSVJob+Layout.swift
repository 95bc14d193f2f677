import GeoFareCore

extension FareCSVJob {
    /// Which input column holds each logical field.
    struct Layout {
        let width: Int
        let originLat, originLon, destLat, destLon, departAt, partySize: Int?
        let tariff, split, cruise, distance, duration, businessZone: Int?

        init(header: [String], map: [String: String]) throws(GeoFareError) {
            width = header.count
            let names = header.map { String($0.trimmingSpaces()) }
            func col(_ logical: String) throws(GeoFareError) -> Int? {
                let name = map[logical] ?? logical
                if let i = names.firstIndex(of: name) { return i }
                if map[logical] != nil { throw .unusableHeader("--map \(logical)=\(name): the header has no column '\(name)'") }
                return nil
            }
            originLat = try col("origin_lat"); originLon = try col("origin_lon")
            destLat = try col("dest_lat"); destLon = try col("dest_lon")
            departAt = try col("depart_at"); partySize = try col("party_size")
            tariff = try col("tariff"); split = try col("split"); cruise = try col("cruise_kmh")
            distance = try col("distance_m"); duration = try col("duration_s")
            businessZone = try col("business_zone")
            let coords = originLat != nil && originLon != nil && destLat != nil && destLon != nil
            let totals = distance != nil && duration != nil
            guard coords || totals else {
                throw .unusableHeader("the header needs origin_lat,origin_lon,dest_lat,dest_lon or distance_m,duration_s (use --map to rename); it has: \(names.joined(separator: ","))")
            }
            guard departAt != nil else { throw .unusableHeader("the header needs a depart_at column (ISO 8601 with offset)") }
        }
    }
}
