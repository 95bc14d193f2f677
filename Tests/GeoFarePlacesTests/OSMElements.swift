import Foundation
import GeoFareCore
import GeoFareOSM
import GeoFarePlaces

/// A shared extract's tagged elements read straight from the PBF, apart from the index: what a
/// test checks the index's answers against.
struct OSMElements: PBFVisitor {
    struct Element {
        var id: String
        var tags: [String: String]
        /// A node's position, or a way's nodes (latitude, longitude in degrees).
        var points: [(Double, Double)]
        var refs: [Int64]
    }

    var nodes: [Element] = []
    var ways: [Element] = []
    var positions: [Int64: (Double, Double)] = [:]

    static func tags(_ t: PBFTags, _ s: PBFStringTable) -> [String: String] {
        var d: [String: String] = [:]
        for i in 0..<t.count { d[s.string(Int(t.keys[i]))] = s.string(Int(t.values[i])) }
        return d
    }

    mutating func node(id: Int64, latitude: Int32, longitude: Int32, tags: PBFTags, strings: PBFStringTable) {
        let p = (Double(latitude) / 1e7, Double(longitude) / 1e7)
        positions[id] = p
        if tags.count > 0 { nodes.append(Element(id: "n\(id)", tags: Self.tags(tags, strings), points: [p], refs: [id])) }
    }

    mutating func way(id: Int64, refs: [Int64], tags: PBFTags, strings: PBFStringTable) {
        guard tags.count > 0 else { return }
        ways.append(Element(id: "w\(id)", tags: Self.tags(tags, strings), points: [], refs: refs))
    }

    /// The elements of `extract` (ways with their points), read once per run.
    static func of(_ extract: String) throws -> OSMElements {
        lock.lock(); defer { lock.unlock() }
        if let e = cache[extract] { return e }
        let reader = try PBFReader(contentsOf: PlacesData.pbf(extract))
        var e = OSMElements()
        try reader.visit(&e, kinds: .ways)
        try reader.visit(&e, kinds: .nodes)
        for i in e.ways.indices { e.ways[i].points = e.ways[i].refs.compactMap { e.positions[$0] } }
        cache[extract] = e
        return e
    }
    private static let lock = NSLock()
    nonisolated(unsafe) private static var cache: [String: OSMElements] = [:]

    /// The element with OSM id `id` (`n123`, `w456`).
    func element(_ id: String) -> Element? { nodes.first { $0.id == id } ?? ways.first { $0.id == id } }

    /// Metres between two points (WGS84 ellipsoid).
    static func meters(_ a: (Double, Double), _ b: Coordinate) -> Double {
        WGS84Geodesic.distanceMeters(latitude1: a.0, longitude1: a.1, latitude2: b.latitude, longitude2: b.longitude)
    }
}
