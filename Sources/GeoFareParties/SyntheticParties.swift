import Foundation
import GeoFareCore

/// Synthetic parties' positions and map viewports, seeded: the data of `geofare bench cluster`
/// and of the index's property tests (as ``SyntheticNetworks`` is for road graphs).
public enum SyntheticParties {
    /// Where the synthetic parties are.
    public enum Distribution: String, Sendable, Codable, CaseIterable {
        /// Uniform longitude −180...180 and latitude −85...85.
        case uniform
        /// Seoul-like: a mixture of Gaussians around central Seoul (37.5665, 126.9780): five
        /// hubs (σ 1.5–2.5 km, 62 %), the city (σ 8 km, 30 %) and the metro area (σ 20 km, 8 %).
        case city
    }

    /// A random position of a distribution: (longitude, latitude) in degrees.
    /// - Complexity: O(1).
    public static func position(_ d: Distribution, rng: inout SeededGenerator) -> (Double, Double) {
        switch d {
        case .uniform:
            return (Double.random(in: -180...180, using: &rng), Double.random(in: -85...85, using: &rng))
        case .city:
            // (lat, lon, sigma km, cumulative weight)
            let hubs: [(Double, Double, Double, Double)] = [
                (37.5665, 126.9780, 2.5, 0.20),  // City Hall / Jongno
                (37.4979, 127.0276, 2.5, 0.38),  // Gangnam
                (37.5219, 126.9245, 1.8, 0.46),  // Yeouido
                (37.5563, 126.9236, 1.5, 0.54),  // Hongdae
                (37.5133, 127.1001, 2.0, 0.62),  // Jamsil
                (37.5400, 126.9900, 8.0, 0.92),  // the city
                (37.5000, 127.0000, 20.0, 1.00),  // the metro area
            ]
            let r = Double.random(in: 0..<1, using: &rng)
            let hub = hubs.first { r < $0.3 } ?? hubs[hubs.count - 1]
            let (north, east) = gaussianPair(rng: &rng)
            let lat = hub.0 + north * hub.2 / 111.32
            let lon = hub.1 + east * hub.2 / (111.32 * cos(hub.0 * .pi / 180))
            return (min(max(lon, -180), 180), min(max(lat, -85), 85))
        }
    }

    /// Two independent standard normal numbers (Box–Muller).
    static func gaussianPair(rng: inout SeededGenerator) -> (Double, Double) {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &rng), v = Double.random(in: 0..<1, using: &rng)
        let r = (-2 * log(u)).squareRoot()
        return (r * cos(2 * .pi * v), r * sin(2 * .pi * v))
    }

    /// A 390×844 px viewport at a zoom around a point (jittered by up to half its size when
    /// `jitter`), as a box that wraps the antimeridian when it crosses it.
    public static func viewport(lat: Double, lon: Double, zoom: Int, jitter: Bool, rng: inout SeededGenerator) -> BoundingBox {
        let world = 256 * Double(1 << zoom)
        var px = WebMercator.unitX(longitude: lon) * world, py = WebMercator.unitY(latitude: lat) * world
        if jitter {
            px += Double.random(in: -195...195, using: &rng)
            py += Double.random(in: -422...422, using: &rng)
        }
        let north = WebMercator.latitude(unitY: max(0, py - 422) / world)
        let south = WebMercator.latitude(unitY: min(world, py + 422) / world)
        var west = -180.0, east = 180.0
        if 390 < world {
            var w = (px - 195) / world, e = (px + 195) / world
            w -= w.rounded(.down)
            e -= e.rounded(.down)
            west = WebMercator.longitude(unitX: w)
            east = WebMercator.longitude(unitX: e)
        }
        return try! BoundingBox(west: west, south: south, east: east, north: north)
    }
}
