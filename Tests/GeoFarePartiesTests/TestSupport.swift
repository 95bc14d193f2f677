import Foundation
import GeoFareCore
@testable import GeoFareParties

/// Random parties and brute-force answers for the property tests.
enum TestData {
    static let epoch = Date(timeIntervalSince1970: 1_767_225_600)

    /// A random id of 1...12 bytes (sometimes multi-byte UTF-8).
    static func id(_ i: Int, rng: inout SeededGenerator) -> String {
        let prefixes = ["p", "party-", "é", "파티", "x"]
        return prefixes[Int.random(in: 0..<prefixes.count, using: &rng)] + String(i, radix: 36)
    }

    /// A random origin: clumps (some parties share exact positions), the antimeridian, the
    /// poles' neighbourhood and uniform positions.
    static func position(rng: inout SeededGenerator) -> (lat: Double, lon: Double) {
        let r = Double.random(in: 0..<1, using: &rng)
        switch r {
        case ..<0.45:
            let hubs = [(37.5665, 126.978), (37.4979, 127.0276), (-33.86, 151.21), (51.5, -0.12)]
            let h = hubs[Int.random(in: 0..<hubs.count, using: &rng)]
            let spread = [0.0005, 0.01, 0.2][Int.random(in: 0..<3, using: &rng)]
            return (h.0 + Double.random(in: -spread...spread, using: &rng), h.1 + Double.random(in: -spread...spread, using: &rng))
        case ..<0.55:
            // Exact duplicates.
            return [(37.55, 127.0), (0, 0), (10.5, -20.25)][Int.random(in: 0..<3, using: &rng)]
        case ..<0.65:
            let lon = Bool.random(using: &rng) ? Double.random(in: 178...180, using: &rng) : Double.random(in: -180 ... -178, using: &rng)
            return (Double.random(in: -10...10, using: &rng), lon)
        case ..<0.7:
            return (Double.random(in: 84...90, using: &rng) * (Bool.random(using: &rng) ? 1 : -1), Double.random(in: -180...180, using: &rng))
        default:
            return (Double.random(in: -85...85, using: &rng), Double.random(in: -180...180, using: &rng))
        }
    }

    static func party(id: String, rng: inout SeededGenerator) -> Party {
        let (lat, lon) = position(rng: &rng)
        let seats = Int.random(in: 1...8, using: &rng)
        let taken = Int.random(in: 0...seats, using: &rng)
        let d = position(rng: &rng)
        return Party(
            id: id, origin: Coordinate(uncheckedLatitude: lat, longitude: lon), destination: Coordinate(uncheckedLatitude: d.lat, longitude: d.lon),
            departure: epoch.addingTimeInterval(Double(Int.random(in: 0..<86_400, using: &rng))), seatsTotal: seats, seatsTaken: taken,
            status: PartyStatus.allCases[Int.random(in: 0..<3, using: &rng)],
            attributesJSON: Int.random(in: 0..<10, using: &rng) == 0 ? "{\"n\":\(Int.random(in: 0..<100, using: &rng))}" : nil,
            updatedAt: epoch.addingTimeInterval(-Double(Int.random(in: 0..<1000, using: &rng))), version: Int64.random(in: 1...9, using: &rng)
        )
    }

    static func parties(_ n: Int, seed: UInt64) -> [Party] {
        var rng = SeededGenerator(seed: seed)
        return (0..<n).map { party(id: id($0, rng: &rng), rng: &rng) }
    }

    /// ``parties(_:seed:)`` and an incremental index of them.
    static func indexedParties(_ n: Int, seed: UInt64) throws -> ([Party], PartyIndex) {
        let all = Self.parties(n, seed: seed)
        return (all, try PartyIndex.incremental(all))
    }

    /// A random box: small or large, sometimes crossing the antimeridian, sometimes the world.
    static func bbox(rng: inout SeededGenerator) -> BoundingBox {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return try! BoundingBox(west: -180, south: -90, east: 180, north: 90)
        case 1:
            return try! BoundingBox(west: Double.random(in: 170...179.9, using: &rng), south: Double.random(in: -30...0, using: &rng),
                                    east: Double.random(in: -179.9 ... -170, using: &rng), north: Double.random(in: 0...30, using: &rng))
        case 2:
            let lat = Double.random(in: 37.3...37.7, using: &rng), lon = Double.random(in: 126.8...127.2, using: &rng)
            let h = Double.random(in: 0.001...0.3, using: &rng)
            return try! BoundingBox(west: lon - h, south: lat - h, east: lon + h, north: lat + h)
        default:
            let a = Double.random(in: -90...90, using: &rng), b = Double.random(in: -90...90, using: &rng)
            return try! BoundingBox(west: Double.random(in: -180...180, using: &rng), south: min(a, b),
                                    east: Double.random(in: -180...180, using: &rng), north: max(a, b))
        }
    }

    static func filter(rng: inout SeededGenerator) -> PartyFilter {
        var f = PartyFilter()
        if Bool.random(using: &rng) {
            let from = epoch.addingTimeInterval(Double(Int.random(in: -3_600..<80_000, using: &rng)))
            f.departFrom = from
            if Bool.random(using: &rng) { f.departUntil = from.addingTimeInterval(Double(Int.random(in: 0..<30_000, using: &rng))) }
        }
        if Bool.random(using: &rng) { f.minFreeSeats = Int.random(in: 0...4, using: &rng) }
        if Bool.random(using: &rng) { f.statuses = Set(PartyStatus.allCases.filter { _ in Bool.random(using: &rng) }) }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            let p = position(rng: &rng)
            f.destination = Coordinate(uncheckedLatitude: p.lat, longitude: p.lon)
            f.destinationRadiusMeters = Double.random(in: 0...3_000_000, using: &rng).rounded() / 3
        }
        return f
    }
}

/// Brute-force clustering, written from the definition and independent of the index's code.
enum BruteForce {
    struct Item: Equatable {
        var id: String
        var count: Int
        var centerLat: Double, centerLon: Double
        var west: Double, south: Double, east: Double, north: Double
        var expansionZoom: Int?
        var memberIDs: [String]
    }

    /// The cell of a position at a quadtree level: floor(world fraction · 2^level), clamped.
    static func cell(_ lat: Double, _ lon: Double, level: Int) -> (Int, Int) {
        let n = Double(1 << level)
        let x = min(Int(WebMercator.unitX(longitude: lon) * n), (1 << level) - 1)
        let y = min(Int(WebMercator.unitY(latitude: lat) * n), (1 << level) - 1)
        return (max(x, 0), max(y, 0))
    }

    /// Whether a cell's extent (in world fractions, edges included) meets the box.
    static func cellMeets(_ c: (Int, Int), level: Int, _ b: BoundingBox) -> Bool {
        let n = Double(1 << level)
        let x0 = Double(c.0) / n, x1 = Double(c.0 + 1) / n, y0 = Double(c.1) / n, y1 = Double(c.1 + 1) / n
        let bn = WebMercator.unitY(latitude: b.north), bs = WebMercator.unitY(latitude: b.south)
        guard y0 <= bs && y1 >= bn else { return false }
        let bw = WebMercator.unitX(longitude: b.west), be = WebMercator.unitX(longitude: b.east)
        if b.west <= b.east { return x0 <= be && x1 >= bw }
        return x1 >= bw || x0 <= be
    }

    static func utf8Less(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    static func clusters(_ parties: [Party], bbox: BoundingBox, zoom: Int, filter: PartyFilter, cellSizePixels: Int) -> [String: Item] {
        let k = cellSizePixels.trailingZeroBitCount
        let level = zoom + 8 - k
        var groups: [[Int]: [Party]] = [:]
        for p in parties where filter.matches(p) {
            let c = cell(p.origin.latitude, p.origin.longitude, level: level)
            guard cellMeets(c, level: level, bbox) else { continue }
            groups[[c.0, c.1], default: []].append(p)
        }
        var result: [String: Item] = [:]
        for (_, members) in groups {
            let ids = members.map(\.id).sorted(by: utf8Less)
            if members.count == 1 {
                let p = members[0]
                result[p.id] = Item(id: p.id, count: 1, centerLat: p.origin.latitude, centerLon: p.origin.longitude,
                                    west: p.origin.longitude, south: p.origin.latitude, east: p.origin.longitude, north: p.origin.latitude,
                                    expansionZoom: nil, memberIDs: ids)
                continue
            }
            // The first zoom past `zoom` where the members use more than one cell.
            var expansion = 21
            for z in (zoom + 1)..<21 {
                let cells = Set(members.map { p -> [Int] in let c = cell(p.origin.latitude, p.origin.longitude, level: z + 8 - k); return [c.0, c.1] })
                if cells.count > 1 { expansion = z; break }
            }
            // The deepest common cell: one level before the split (or the deepest level).
            let common = expansion == 21 ? 28 - k : expansion + 8 - k - 1
            let c = cell(members[0].origin.latitude, members[0].origin.longitude, level: common)
            var code: UInt64 = 0
            for bit in 0..<common {
                code |= UInt64((c.0 >> bit) & 1) << UInt64(2 * bit)
                code |= UInt64((c.1 >> bit) & 1) << UInt64(2 * bit + 1)
            }
            let digits = max(1, (common + 1) / 2)
            var hex = String(code, radix: 16)
            hex = String(repeating: "0", count: digits - hex.count) + hex
            let id = "c\(common)-\(hex)"
            let lats = members.map(\.origin.latitude), lons = members.map(\.origin.longitude)
            result[id] = Item(id: id, count: members.count, centerLat: lats.reduce(0, +) / Double(lats.count),
                              centerLon: lons.reduce(0, +) / Double(lons.count), west: lons.min()!, south: lats.min()!,
                              east: lons.max()!, north: lats.max()!, expansionZoom: expansion, memberIDs: ids)
        }
        return result
    }

    /// Parties within a radius, sorted by (distance, id bytes), at most `limit`.
    static func nearby(_ parties: [Party], center: Coordinate, radius: Double, limit: Int, filter: PartyFilter) -> [(String, Double)] {
        let found = parties.filter(filter.matches).map { ($0.id, FastDistance.haversineMeters(center, $0.origin)) }.filter { $0.1 <= radius }
        return Array(found.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && utf8Less($0.0, $1.0)) }.prefix(limit))
    }
}

/// A model of the index: the parties by id.
struct Model {
    var byID: [String: Party] = [:]
    var parties: [Party] { Array(byID.values) }
}

extension PartyIndex {
    /// Builds an index from parties one upsert at a time.
    static func incremental(_ parties: [Party], cellSizePixels: Int = 64) throws -> PartyIndex {
        let index = try PartyIndex(cellSizePixels: cellSizePixels)
        for p in parties { index.upsert(p) }
        return index
    }
}
