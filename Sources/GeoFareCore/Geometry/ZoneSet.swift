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

    public init() {}

    /// The zone with an id, if loaded.
    public func zone(_ id: String) -> Zone? { byID[id].map { zones[$0] } }

    /// The ids of the zones that contain a coordinate, in load order.
    public func zones(containing c: Coordinate) -> [String] {
        zones.filter { $0.polygon.contains(c) }.map(\.id)
    }

    /// Adds the features of a GeoJSON FeatureCollection; a later feature with the same id
    /// replaces the earlier one.
    /// - Parameter origin: the file's name, used in error messages.
    /// - Throws: ``InvalidInput`` `invalid_geojson` naming the file and feature.
    public mutating func load(geoJSON data: Data, origin: String) throws(InvalidInput) {
        let root: Any
        do { root = try JSONSerialization.jsonObject(with: data) } catch {
            throw InvalidInput(code: .invalidGeojson, message: "not JSON: \(error.localizedDescription)", field: origin)
        }
        guard let object = root as? [String: Any], let features = object["features"] as? [[String: Any]] else {
            throw InvalidInput(code: .invalidGeojson, message: "expected a FeatureCollection with features", field: origin)
        }
        for (i, feature) in features.enumerated() {
            let at = "\(origin): features[\(i)]"
            guard let props = feature["properties"] as? [String: Any], let id = props["id"] as? String, !id.isEmpty else {
                throw InvalidInput(code: .invalidGeojson, message: "a feature needs properties.id", field: at)
            }
            guard let geometry = feature["geometry"] as? [String: Any], let type = geometry["type"] as? String,
                  let coordinates = geometry["coordinates"] as? [Any] else {
                throw InvalidInput(code: .invalidGeojson, message: "feature '\(id)' has no geometry", field: at)
            }
            let polygons: [Any]
            switch type {
            case "Polygon": polygons = [coordinates]
            case "MultiPolygon": polygons = coordinates
            default: throw InvalidInput(code: .invalidGeojson, message: "feature '\(id)': geometry \(type) is not a Polygon or MultiPolygon", field: at)
            }
            var rings: [[XYPoint]] = []
            for polygon in polygons {
                guard let ringList = polygon as? [[[Double]]] else {
                    throw InvalidInput(code: .invalidGeojson, message: "feature '\(id)': rings must be arrays of [lon, lat] numbers", field: at)
                }
                for ring in ringList {
                    var points: [XYPoint] = []
                    points.reserveCapacity(ring.count)
                    for pair in ring {
                        guard pair.count >= 2, (-180...180).contains(pair[0]), (-90...90).contains(pair[1]) else {
                            throw InvalidInput(code: .invalidGeojson, message: "feature '\(id)': bad position \(pair)", field: at)
                        }
                        points.append(XYPoint(x: pair[0], y: pair[1]))
                    }
                    rings.append(points)
                }
            }
            let zone = Zone(id: id, name: props["name"] as? String ?? id, parent: props["parent"] as? String, polygon: GeoPolygon(rings: rings))
            if let existing = byID[id] { zones[existing] = zone } else {
                byID[id] = zones.count
                zones.append(zone)
            }
        }
    }
}
