import Foundation

/// Named zones (tariff regions, business zones) read from GeoJSON feature collections.
///
/// Each feature needs a `properties.id` and a Polygon or MultiPolygon geometry in WGS84
/// longitude/latitude. Look-ups test zones in the order they were loaded, so where two regions'
/// simplified borders overlap by a sliver, the earlier file wins.
public struct ZoneSet: Sendable {
    /// One zone.
    public struct Zone: Sendable, Hashable {
        public let id: String
        public let name: String
        /// The id of the zone this one lies in (`properties.parent`: a province's city group
        /// names its province), or `nil`.
        public let parent: String?
        public let polygon: GeoPolygon
    }

    /// The zones in load order.
    public private(set) var zones: [Zone] = []
    private var byID: [String: Int] = [:]
    /// Candidate zones per grid cell (``cellKey(_:_:)``), ascending: those whose bounding box
    /// meets the cell. An exact prefilter of ``GeoPolygon/contains(_:)``'s own box test.
    private var cells: [Int: [Int32]] = [:]
    /// Zones whose box spans more than ``maxCellsPerZone`` cells, ascending: tested everywhere.
    private var wide: [Int32] = []

    public init() {}

    /// The zone with an id, if loaded.
    public func zone(_ id: String) -> Zone? { byID[id].map { zones[$0] } }

    /// The ids of the zones that contain a coordinate, in load order.
    public func zones(containing c: Coordinate) -> [String] {
        var ids: [String] = []
        forEachZoneIndex(containing: c) { ids.append(zones[$0].id) }
        return ids
    }

    /// The position in ``zones`` of every zone that contains a coordinate, in load order,
    /// handed to `body` (the same zones as ``zones(containing:)``, without building arrays or
    /// copying a zone: what a batch that places every row's origin calls).
    /// - Complexity: one dictionary look-up of the point's ⅛° grid cell, then the
    ///   point-in-polygon test of the zones whose bounding box meets that cell (and of any zone
    ///   too wide for the grid). The grid only skips zones whose box cannot hold the point, so
    ///   the answer is exactly that of testing every zone.
    public func forEachZoneIndex(containing c: Coordinate, _ body: (Int) -> Void) {
        let x = c.longitude, y = c.latitude
        guard abs(x) <= 180, abs(y) <= 90 else {
            // Off the grid (an unchecked coordinate): every zone, as ``zones(containing:)``.
            for i in zones.indices where zones[i].polygon.contains(longitude: x, latitude: y) { body(i) }
            return
        }
        // Only the zones whose box meets the point's grid cell can hold it (``cells``), plus
        // the few too wide to register cell by cell; both lists ascend, merged in load order.
        let local = cells[Self.cellKey(x, y)] ?? []
        let wide = self.wide
        zones.withUnsafeBufferPointer { zones in
            var a = 0, b = 0
            while a < local.count || b < wide.count {
                let i: Int
                if b == wide.count || (a < local.count && Int(local[a]) < Int(wide[b])) {
                    i = Int(local[a]); a += 1
                } else {
                    i = Int(wide[b]); b += 1
                }
                if zones[i].polygon.contains(longitude: x, latitude: y) { body(i) }
            }
        }
    }

    /// Cells of the candidate grid per degree (a power of two, so `floor(x · 8)` is exact and
    /// monotone: a point inside a box lies in a cell between the cells of the box's corners).
    static let cellsPerDegree = 8.0
    /// A zone whose box spans more cells than this is tested for every point instead.
    static let maxCellsPerZone = 4_096

    /// The grid cell of a point: ⌊lon · 8⌋ and ⌊lat · 8⌋ packed in one integer.
    @inline(__always)
    static func cellKey(_ x: Double, _ y: Double) -> Int {
        let ix = Int((x * cellsPerDegree).rounded(.down)), iy = Int((y * cellsPerDegree).rounded(.down))
        return (ix + 2_048) << 16 | (iy + 2_048)
    }

    /// Registers every zone in the cells its bounding box meets (after each load).
    private mutating func indexCells() {
        var cells: [Int: [Int32]] = [:]
        var wide: [Int32] = []
        for (i, zone) in zones.enumerated() {
            let b = zone.polygon.bounds
            let x0 = Int((b.west * Self.cellsPerDegree).rounded(.down)), x1 = Int((b.east * Self.cellsPerDegree).rounded(.down))
            let y0 = Int((b.south * Self.cellsPerDegree).rounded(.down)), y1 = Int((b.north * Self.cellsPerDegree).rounded(.down))
            guard (x1 - x0 + 1) * (y1 - y0 + 1) <= Self.maxCellsPerZone else { wide.append(Int32(i)); continue }
            for ix in x0...x1 {
                for iy in y0...y1 { cells[(ix + 2_048) << 16 | (iy + 2_048), default: []].append(Int32(i)) }
            }
        }
        self.cells = cells
        self.wide = wide
    }

    /// Adds the features of a GeoJSON FeatureCollection; a later feature with the same id
    /// replaces the earlier one.
    /// - Parameter origin: the file's name, used in error messages.
    /// - Throws: ``GeoFareError`` `invalid_geojson` naming the file and feature.
    public mutating func load(geoJSON data: Data, origin: String) throws(GeoFareError) {
        // Decoded straight into numbers: `JSONSerialization` would box every coordinate of a
        // megabyte of borders (kr-regions) as an object first, some 25 MiB of peak memory in
        // every process that loads the catalog.
        let features: [GeoJSONFeature]
        do { features = try JSONDecoder().decode(GeoJSONFeatureCollection.self, from: data).features } catch {
            if case DecodingError.dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw .invalidGeoJSON("not JSON: \(context.underlyingError.map { "\($0)" } ?? context.debugDescription)", field: origin)
            }
            throw .invalidGeoJSON("expected a FeatureCollection with features", field: origin)
        }
        for (i, feature) in features.enumerated() {
            let at = "\(origin): features[\(i)]"
            guard let id = feature.id, !id.isEmpty else {
                throw .invalidGeoJSON("a feature needs properties.id", field: at)
            }
            guard let type = feature.geometryType, feature.hasCoordinates else {
                throw .invalidGeoJSON("feature '\(id)' has no geometry", field: at)
            }
            guard type == "Polygon" || type == "MultiPolygon" else {
                throw .invalidGeoJSON("feature '\(id)': geometry \(type) is not a Polygon or MultiPolygon", field: at)
            }
            guard let polygons = feature.polygons else {
                throw .invalidGeoJSON("feature '\(id)': rings must be arrays of [lon, lat] numbers", field: at)
            }
            var rings: [[XYPoint]] = []
            for ringList in polygons {
                for ring in ringList {
                    var points: [XYPoint] = []
                    points.reserveCapacity(ring.count)
                    for pair in ring {
                        guard pair.count >= 2, (-180...180).contains(pair[0]), (-90...90).contains(pair[1]) else {
                            throw .invalidGeoJSON("feature '\(id)': bad position \(pair)", field: at)
                        }
                        points.append(XYPoint(x: pair[0], y: pair[1]))
                    }
                    // A linear ring has at least four positions (RFC 7946 3.1.6); fewer made a
                    // degenerate polygon whose look-ups trapped (found by the zones fuzz target).
                    guard ring.count >= 4 else {
                        throw .invalidGeoJSON("feature '\(id)': a ring has \(ring.count) positions, a ring needs at least 4", field: at)
                    }
                    rings.append(points)
                }
            }
            // A Polygon of no ring (`"coordinates": []`) has no bounds: its cells trapped on
            // infinity (found by the zones fuzz target in CI's 20-s pass).
            guard !rings.isEmpty else {
                throw .invalidGeoJSON("feature '\(id)': a \(type) needs at least one ring", field: at)
            }
            let zone = Zone(id: id, name: feature.name ?? id, parent: feature.parent, polygon: GeoPolygon(rings: rings))
            if let existing = byID[id] { zones[existing] = zone } else {
                byID[id] = zones.count
                zones.append(zone)
            }
        }
        indexCells()
    }
}

/// A GeoJSON FeatureCollection as ``ZoneSet`` reads it.
private struct GeoJSONFeatureCollection: Decodable {
    let features: [GeoJSONFeature]
}

/// One feature, read leniently: a field of the wrong type reads as missing, so that
/// ``ZoneSet/load(geoJSON:origin:)`` can say which feature and what is wrong with it.
private struct GeoJSONFeature: Decodable {
    var id, name, parent: String?
    var geometryType: String?
    var hasCoordinates = false
    /// Polygons of rings of positions (a Polygon is one polygon); `nil` when the coordinates
    /// are not arrays of numbers nested as the type says.
    var polygons: [[[[Double]]]]?

    private enum Keys: String, CodingKey { case properties, geometry, id, name, parent, type, coordinates }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        if let p = try? c.nestedContainer(keyedBy: Keys.self, forKey: .properties) {
            id = try? p.decodeIfPresent(String.self, forKey: .id)
            name = try? p.decodeIfPresent(String.self, forKey: .name)
            parent = try? p.decodeIfPresent(String.self, forKey: .parent)
        }
        guard let g = try? c.nestedContainer(keyedBy: Keys.self, forKey: .geometry) else { return }
        geometryType = try? g.decodeIfPresent(String.self, forKey: .type)
        hasCoordinates = (try? g.decodeNil(forKey: .coordinates)) == false
        switch geometryType {
        case "Polygon": polygons = (try? g.decode([[[Double]]].self, forKey: .coordinates)).map { [$0] }
        case "MultiPolygon": polygons = try? g.decode([[[[Double]]]].self, forKey: .coordinates)
        default: break
        }
    }
}
