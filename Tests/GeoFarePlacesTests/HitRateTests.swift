import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// The issue's six kinds of query (Fixtures/hit-queries.tsv: addresses, intersections,
/// categories, stations, other names, reverse look-ups): a right answer among the first three
/// for at least 90 % of them, and of each kind.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct HitRateTests {
    struct Row {
        var kind: String, extract: String, query: String, near: Coordinate?, expected: String
    }

    static func rows() throws -> [Row] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/hit-queries.tsv")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst(0).compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("kind\t") else { return nil }
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 5 else { throw GeoFareError(code: .invalidValue, message: "not 5 columns: \(line)", field: "hit-queries.tsv") }
            let near = try f[3] == "-" ? nil : Self.point(f[3])
            return Row(kind: f[0], extract: f[1], query: f[2], near: near, expected: f[4])
        }
    }

    static func point(_ s: String) throws -> Coordinate {
        let p = s.split(separator: ",").compactMap { Double($0) }
        return try Coordinate(latitude: p[0], longitude: p[1])
    }

    /// Whether `r` answers `row` rightly.
    static func right(_ m: PlaceMatch, _ expected: String) -> Bool {
        let (how, what) = (expected.prefix { $0 != ":" }, String(expected.drop { $0 != ":" }.dropFirst()))
        let parts = what.split(separator: "|").map(String.init)
        switch how {
        case "id": return m.place.osmID == what
        case "addr": return hasAddress(m.place, parts)
        case "cat": return m.category == what
        case "junction": return m.junction.map { Set([m.place.name, $0.street.name]) == Set(parts) } ?? false
        case "station": return m.place.kind == .station && m.place.name == what
        default: return false
        }
    }

    static func hasAddress(_ p: Place, _ parts: [String]) -> Bool {
        p.address.contains { $0.key == "housenumber" && $0.value == parts[0] } && p.address.contains { $0.key == "street" && $0.value == parts[1] }
    }

    @Test("A right place among the first three for >= 90 % of the queries of each kind")
    func hitRate() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 60)
        var byKind: [String: (hits: Int, total: Int)] = [:]
        for row in rows {
            let index = try PlacesData.index(row.extract)
            let hit: Bool
            if row.kind == "reverse" {
                let r = try index.reverse(try Self.point(row.query), radiusMeters: 200)
                hit = r.address.map { Self.hasAddress($0.place, String(row.expected.dropFirst(5)).split(separator: "|").map(String.init)) } ?? false
            } else if row.expected.hasPrefix("cat:") {
                hit = try index.search(row.query, near: row.near, limit: 3).first.map { Self.right($0, row.expected) } ?? false
            } else {
                hit = try index.search(row.query, near: row.near, limit: 3).contains { Self.right($0, row.expected) }
            }
            if !hit { print("hit-rate miss: \(row.kind) \(row.extract) '\(row.query)' expected \(row.expected)") }
            byKind[row.kind, default: (0, 0)].hits += hit ? 1 : 0
            byKind[row.kind, default: (0, 0)].total += 1
        }
        let hits = byKind.values.map(\.hits).reduce(0, +), total = byKind.values.map(\.total).reduce(0, +)
        print("hit rate: \(hits) of \(total) (\(String(format: "%.1f", 100 * Double(hits) / Double(total))) %); " +
              byKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.hits)/\($0.value.total)" }.joined(separator: ", "))
        #expect(Double(hits) >= 0.9 * Double(total))
        for (kind, v) in byKind { #expect(Double(v.hits) >= 0.9 * Double(v.total), "\(kind): \(v.hits) of \(v.total)") }
        #expect(Set(byKind.keys) == ["address", "intersection", "category", "station", "name", "reverse"])
    }
}
