import Foundation
import GeoFareCore

extension PlacesIndex {
    /// The largest reverse radius, metres.
    public static let maxReverseRadiusMeters = 5_000.0
    /// How far from the point a place with a house number may be to give its address when no
    /// addressed building's outline holds the point, metres.
    public static let addressReachMeters = 30.0
    /// How far from the point a station may be for the point to be the station's: a rider there
    /// is at the station, not in the building above it or at the shop beside it, metres.
    public static let stationReachMeters = 30.0
    /// Outlines whose point lies farther than this from the look-up are not tested, metres (a
    /// building's point is on its outline: a building this wide is rare).
    static let outlineReachMeters = 400.0

    /// The nearest named place (not a street) and the nearest named street within `radiusMeters`
    /// of `at`, and the address under it: what a map pin shows.
    ///
    /// The address is the addressed building (`addr:housenumber` on a closed way) whose outline
    /// holds `at` (the smallest outline when several do), else the nearest place with a house
    /// number within ``addressReachMeters`` (an entrance or a shop's node), else none. A station
    /// within ``stationReachMeters`` is the place (a rider at a station's point is at the
    /// station), with its own address or none, never the building above it.
    ///
    /// A place's distance is the WGS84 ellipsoidal distance to its point; a street's is the
    /// distance to the nearest point of its lines (measured flat around `at`, cheap-ruler,
    /// under 0.1 % off at these ranges). Ties go to the lower index.
    /// - Parameter radiusMeters: (0, ``maxReverseRadiusMeters``].
    /// - Throws: ``GeoFareError`` `out_of_range` for the radius.
    /// - Complexity: the grid cells (0.005°) the radius covers and their places.
    public func reverse(_ at: Coordinate, radiusMeters: Double = 200) throws(GeoFareError) -> ReverseResult {
        guard radiusMeters.isFinite, radiusMeters > 0, radiusMeters <= Self.maxReverseRadiusMeters else {
            throw GeoFareError(code: .outOfRange, message: "radius_m \(radiusMeters) is outside (0, \(Int(Self.maxReverseRadiusMeters))]", field: "radius_m")
        }
        typealias L = PlacesFileLayout
        let dLat = radiusMeters / 111_000 * 1.01
        let cosLat = max(cos((abs(at.latitude) + dLat) * .pi / 180), 0.01)
        let dLon = dLat / cosLat
        let latE7 = { (d: Double) in Int32(max(-900_000_000, min(900_000_000, d * 1e7))) }
        let lonE7 = { (d: Double) in Int32(max(-1_800_000_000, min(1_800_000_000, d * 1e7))) }
        let rows = (L.cell(latE7(at.latitude - dLat)) - 1)...(L.cell(latE7(at.latitude + dLat)) + 1)
        let columns = (L.cell(lonE7(at.longitude - dLon)) - 1)...(L.cell(lonE7(at.longitude + dLon)) + 1)
        let ruler = CheapRuler(latitude: at.latitude)
        var bestPlace: (index: Int, d: Double)?, bestStation: (index: Int, d: Double)?
        var bestStreet: (index: Int, d: Double)?
        var streetsSeen: [Int] = []
        var inside: (index: Int, area: Double)?, nearestAddress: (index: Int, d: Double)?
        typealias F = PlacesFileLayout.PlaceFlags
        for row in rows {
            for column in columns {
                guard let c = cell(L.cellKey(row: row, column: column)) else { continue }
                for item in cellItems[Int(cellStart[c])..<Int(cellStart[c + 1])] {
                    let i = Int(item)
                    let flags = placeFlags[i]
                    if flags & F.address != 0 {
                        if flags & F.outline != 0, ruler.distanceMeters(at, coordinate(i)) <= Self.outlineReachMeters,
                           let area = outlineArea(i, holding: at, ruler) {
                            if inside.map({ area < $0.area }) ?? true { inside = (i, area) }
                        } else {
                            let d = ruler.distanceMeters(at, coordinate(i))
                            if d <= min(Self.addressReachMeters, radiusMeters), nearestAddress.map({ d < $0.d }) ?? true { nearestAddress = (i, d) }
                        }
                    }
                    if kinds[i] != PlaceKind.street.rawValue {
                        guard flags & F.named != 0 else { continue }
                        // the cheap-ruler distance (under 0.1 % off here) rules out most places before the ellipsoid
                        let rough = ruler.distanceMeters(at, coordinate(i))
                        let station = kinds[i] == PlaceKind.station.rawValue && rough <= Self.stationReachMeters * 1.002 + 0.01
                        guard rough <= radiusMeters * 1.002 + 0.01, station || rough <= (bestPlace?.d ?? .infinity) * 1.002 + 0.01 else { continue }
                        let d = WGS84Geodesic.distanceMeters(latitude1: at.latitude, longitude1: at.longitude,
                                                             latitude2: Double(latitudes[i]) / 1e7, longitude2: Double(longitudes[i]) / 1e7)
                        if d <= radiusMeters, bestPlace.map({ d < $0.d || (d == $0.d && i < $0.index) }) ?? true { bestPlace = (i, d) }
                        if kinds[i] == PlaceKind.station.rawValue, d <= min(Self.stationReachMeters, radiusMeters),
                           bestStation.map({ d < $0.d || (d == $0.d && i < $0.index) }) ?? true { bestStation = (i, d) }
                    } else {
                        // a street lies in every cell its lines cross: measure it once
                        guard !streetsSeen.contains(i) else { continue }
                        streetsSeen.append(i)
                        let d = streetDistance(i, at, ruler)
                        if d <= radiusMeters, bestStreet.map({ d < $0.d || (d == $0.d && i < $0.index) }) ?? true { bestStreet = (i, d) }
                    }
                }
            }
        }
        var result = ReverseResult(place: bestPlace.map { (place(at: $0.index), $0.d) }, street: bestStreet.map { (place(at: $0.index), $0.d) })
        if let station = bestStation {
            // At a station's point the rider is at the station: it is the place, and the address
            // is its own (a building whose outline holds the point is above it, not where the rider is).
            let p = place(at: station.index)
            result = ReverseResult(place: (p, station.d), street: result.street)
            if placeFlags[station.index] & F.address != 0 { result.address = (p, station.d) }
        } else if let inside {
            result.address = (place(at: inside.index), 0)
        } else if let nearestAddress {
            let p = place(at: nearestAddress.index)
            result.address = (p, WGS84Geodesic.distanceMeters(latitude1: at.latitude, longitude1: at.longitude,
                                                              latitude2: p.coordinate.latitude, longitude2: p.coordinate.longitude))
        }
        return result
    }

    /// The grid cell with key `key`, by binary search.
    private func cell(_ key: UInt64) -> Int? {
        var lo = 0, hi = cellKeys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if cellKeys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < cellKeys.count && cellKeys[lo] == key ? lo : nil
    }

    /// The area (square metres, flat around `at`) of place `i`'s outline when it holds `at`
    /// (even–odd rule), else `nil`.
    func outlineArea(_ i: Int, holding at: Coordinate, _ ruler: CheapRuler) -> Double? {
        let kx = ruler.metersPerDegreeLongitude, ky = ruler.metersPerDegreeLatitude
        let lo = Int(shapeStart[i]), hi = Int(shapeStart[i + 1])
        guard hi - lo >= 3 else { return nil }
        var inside = false, twiceArea = 0.0
        var j = hi - 1
        for k in lo..<hi {
            let xi = (Double(shapeLongitudes[k]) / 1e7 - at.longitude) * kx, yi = (Double(shapeLatitudes[k]) / 1e7 - at.latitude) * ky
            let xj = (Double(shapeLongitudes[j]) / 1e7 - at.longitude) * kx, yj = (Double(shapeLatitudes[j]) / 1e7 - at.latitude) * ky
            if (yi > 0) != (yj > 0), 0 < (xj - xi) * (0 - yi) / (yj - yi) + xi { inside.toggle() }
            twiceArea += xj * yi - xi * yj
            j = k
        }
        return inside ? abs(twiceArea) / 2 : nil
    }

    /// Metres from `at` to the nearest point of street `i`'s lines, flat around `at`.
    func streetDistance(_ i: Int, _ at: Coordinate, _ ruler: CheapRuler) -> Double {
        let kx = ruler.metersPerDegreeLongitude, ky = ruler.metersPerDegreeLatitude
        var best = Double.infinity
        var previous: (Double, Double)?
        for j in Int(shapeStart[i])..<Int(shapeStart[i + 1]) {
            guard shapeLatitudes[j] != .min else { previous = nil; continue }
            let p = ((Double(shapeLongitudes[j]) / 1e7 - at.longitude) * kx, (Double(shapeLatitudes[j]) / 1e7 - at.latitude) * ky)
            let a = previous ?? p
            // the point of segment a–p nearest the origin (where `at` is)
            let dx = p.0 - a.0, dy = p.1 - a.1
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? max(0, min(1, -(a.0 * dx + a.1 * dy) / len2)) : 0
            let x = a.0 + t * dx, y = a.1 + t * dy
            best = min(best, (x * x + y * y).squareRoot())
            previous = p
        }
        return best
    }
}
