import Foundation
import GeoFareCore
import GeoFareOSM
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// Reverse look-ups at random points against a brute force over the extract itself.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct ReverseTests {
    /// Read straight from the PBF, independently of the index: named nodes with tags that make a
    /// place under every rule, and named streets as polylines.
    struct Brute: PBFVisitor {
        var nodes: [(id: Int64, lat: Double, lon: Double)] = []
        var positions: [Int64: (Double, Double)] = [:]
        var streetWays: [[Int64]] = []
        var needed = Set<Int64>()
        static let placeKeys: Set<String> = ["amenity", "shop", "tourism", "place", "historic", "leisure", "office", "healthcare"]
        static let streets: Set<String> = ["motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street",
                                           "service", "pedestrian", "road", "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link"]

        static func tags(_ t: PBFTags, _ s: PBFStringTable) -> [String: String] {
            var d: [String: String] = [:]
            for i in 0..<t.count { d[s.string(Int(t.keys[i]))] = s.string(Int(t.values[i])) }
            return d
        }

        mutating func node(id: Int64, latitude: Int32, longitude: Int32, tags: PBFTags, strings: PBFStringTable) {
            if needed.contains(id) { positions[id] = (Double(latitude) / 1e7, Double(longitude) / 1e7) }
            guard tags.count > 0 else { return }
            let t = Self.tags(tags, strings)
            guard let name = t["name"], !name.trimmingCharacters(in: .whitespaces).isEmpty else { return }
            let railway = t["railway"] ?? ""
            if !Self.placeKeys.isDisjoint(with: t.keys) || ["station", "halt", "subway_entrance"].contains(railway) || t["highway"] == "bus_stop" {
                nodes.append((id, Double(latitude) / 1e7, Double(longitude) / 1e7))
            }
        }

        mutating func way(id: Int64, refs: [Int64], tags: PBFTags, strings: PBFStringTable) {
            let t = Self.tags(tags, strings)
            guard let h = t["highway"], Self.streets.contains(h),
                  PlaceTags.nameKeys.contains(where: { !(t[$0] ?? "").trimmingCharacters(in: .whitespaces).isEmpty }) else { return }
            // the same precedence as the index: a named road with a place tag is that place, not a street
            guard Self.placeKeys.isDisjoint(with: t.keys), !["station", "halt", "subway_entrance", "train_station_entrance"].contains(t["railway"] ?? ""),
                  t["public_transport"] != "station", !(t["public_transport"] == "platform" && t["bus"] == "yes"),
                  !["tower", "bridge", "lighthouse"].contains(t["man_made"] ?? "") else { return }
            streetWays.append(refs)
            needed.formUnion(refs)
        }
    }

    static func distanceToPolyline(_ at: Coordinate, _ points: [(Double, Double)]) -> Double {
        let ruler = CheapRuler(latitude: at.latitude)
        let kx = ruler.metersPerDegreeLongitude, ky = ruler.metersPerDegreeLatitude
        var best = Double.infinity
        for (i, p) in points.enumerated() {
            let b = ((p.1 - at.longitude) * kx, (p.0 - at.latitude) * ky)
            let a = i > 0 ? ((points[i - 1].1 - at.longitude) * kx, (points[i - 1].0 - at.latitude) * ky) : b
            let dx = b.0 - a.0, dy = b.1 - a.1, len2 = dx * dx + dy * dy
            let t = len2 > 0 ? max(0, min(1, -(a.0 * dx + a.1 * dy) / len2)) : 0
            best = min(best, ((a.0 + t * dx) * (a.0 + t * dx) + (a.1 + t * dy) * (a.1 + t * dy)).squareRoot())
        }
        return best
    }

    /// The nearest place equals the brute-force nearest over the index, is never farther than the
    /// nearest named node of the PBF, and the nearest street equals the brute force over the PBF's
    /// named roads.
    @Test("Reverse look-up: nearest place and nearest street equal brute force, never farther than the PBF's nearest named node", arguments: PlacesData.extracts)
    func randomPoints(_ extract: String) throws {
        let index = try PlacesData.index(extract)
        let reader = try PBFReader(contentsOf: PlacesData.pbf(extract))
        var brute = Brute()
        try reader.visit(&brute, kinds: .ways)
        try reader.visit(&brute, kinds: .nodes)
        #expect(brute.nodes.count > 100 && brute.streetWays.count > 50)
        let streets = brute.streetWays.map { $0.compactMap { brute.positions[$0] } }
        let all = (0..<index.count).map { index.place(at: $0) }
        // points where the extract has its streets (stations far outside the cut, read from
        // stop positions, widen the places' box)
        let streetPoints = all.filter { $0.kind == .street }.map(\.coordinate)
        let m = (south: streetPoints.map(\.latitude).min()!, north: streetPoints.map(\.latitude).max()!,
                 west: streetPoints.map(\.longitude).min()!, east: streetPoints.map(\.longitude).max()!)
        var rng = SeededGenerator(seed: 99)
        var hits = 0, streetHits = 0
        for round in 0..<200 {
            let radius = [50.0, 150, 400][round % 3]
            let at = Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng))
            let r = try index.reverse(at, radiusMeters: radius)
            func d(_ lat: Double, _ lon: Double) -> Double {
                WGS84Geodesic.distanceMeters(latitude1: at.latitude, longitude1: at.longitude, latitude2: lat, longitude2: lon)
            }
            // over the index
            let nearest = all.filter { $0.kind != .street && $0.isNamed }.map { ($0, d($0.coordinate.latitude, $0.coordinate.longitude)) }.min { $0.1 < $1.1 }
            // a station within PlacesIndex.stationReachMeters is the place, wherever the nearest is (issue 45)
            let station = all.filter { $0.kind == .station && $0.isNamed }.map { ($0, d($0.coordinate.latitude, $0.coordinate.longitude)) }
                .filter { $0.1 <= min(PlacesIndex.stationReachMeters, radius) }.min { $0.1 < $1.1 }
            if let station {
                let got = try #require(r.place, "\(extract) \(at): nothing, but \(station.0.name) at \(station.1) m")
                #expect(got.place.kind == .station && abs(got.distanceMeters - station.1) < 1e-6, "\(extract) \(at): \(got.place.name), station \(station.0.name) at \(station.1) m")
                hits += 1
            } else if let nearest, nearest.1 <= radius {
                let got = try #require(r.place, "\(extract) \(at): nothing within \(radius) m; brute force: \(nearest.0.name) at \(nearest.1) m")
                #expect(abs(got.distanceMeters - nearest.1) < 1e-6, "\(extract) \(at): \(got.place.name) at \(got.distanceMeters) m, brute force \(nearest.0.name) at \(nearest.1) m")
                hits += 1
            } else {
                #expect(r.place == nil)
            }
            // over the PBF's named nodes
            if station == nil, let node = brute.nodes.map({ d($0.lat, $0.lon) }).min(), node <= radius {
                #expect((r.place?.distanceMeters ?? .infinity) <= node + 1e-6, "\(extract) \(at): a named node at \(node) m, reverse says \(String(describing: r.place?.distanceMeters))")
            }
            // streets over the PBF
            let street = streets.map { Self.distanceToPolyline(at, $0) }.min() ?? .infinity
            if street <= radius {
                let got = try #require(r.street, "\(extract) \(at): no street within \(radius) m; brute force \(street) m")
                #expect(abs(got.distanceMeters - street) < 0.01, "\(extract) \(at): street \(got.place.name) at \(got.distanceMeters) m, brute force \(street) m")
                streetHits += 1
            } else {
                #expect(r.street == nil, "\(extract) \(at): street \(r.street?.place.name ?? "") beyond the radius")
            }
        }
        #expect(hits >= 20 && streetHits >= 20, "\(extract): \(hits) place and \(streetHits) street hits of 200")
    }

    @Test("The area of a point comes from the zones: Mapo lies in Seoul, Gwangmyeong in Gyeonggi")
    func area() throws {
        var zones = ZoneSet()
        for file in ["kr-regions", "kr-seoul-business-zone", "kr-tariff-groups"] {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Data/zones/\(file).geojson")
            try zones.load(geoJSON: try Data(contentsOf: url), origin: file)
        }
        let mapo = PlaceArea(of: try Coordinate(latitude: 37.5445, longitude: 126.9515), in: zones)
        #expect(mapo.region?.id == "kr-seoul" && mapo.city == nil)
        let gwangmyeong = PlaceArea(of: try Coordinate(latitude: 37.4786, longitude: 126.8646), in: zones)
        #expect(gwangmyeong.city?.id == "kr-gyeonggi-gwangmyeong" && gwangmyeong.region?.id == "kr-gyeonggi")
        let sea = PlaceArea(of: try Coordinate(latitude: 33.0, longitude: 124.0), in: zones)
        #expect(sea.region == nil && sea.city == nil)
    }
}
