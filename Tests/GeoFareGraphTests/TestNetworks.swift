import GeoFareCore
@testable import GeoFareGraph

/// Seeded synthetic road networks of odd shapes for the graph tests. Coordinates sit around
/// Seoul (37.5 N, 127.0 E) in 1e-7 degrees; arc distances come from the polyline's length
/// (equirectangular, rounded to cm, at least 1) and times from a speed per arc.
enum TestNetworks {
    static let baseLat = SyntheticNetworks.baseLat, baseLon = SyntheticNetworks.baseLon
    static let metersPerDegreeLat = SyntheticNetworks.metersPerDegreeLat
    typealias Builder = SyntheticNetworks.Builder

    /// Random arcs between random nodes: parallel arcs, self-loops, one-ways, tied weights,
    /// and (with few arcs) disconnected parts. Weights are random, not geometric.
    static func random(seed: UInt64, nodes: Int, arcs: Int, maxWeight: UInt32 = 1000) -> RoadNetwork {
        var rng = SeededGenerator(seed: seed)
        var b = Builder()
        for _ in 0..<nodes { _ = b.node(xMeters: Double.random(in: 0...5000, using: &rng), yMeters: Double.random(in: 0...5000, using: &rng)) }
        for _ in 0..<arcs {
            let u = UInt32.random(in: 0..<UInt32(nodes), using: &rng)
            let v = Bool.random(using: &rng) && nodes > 1 ? UInt32.random(in: 0..<UInt32(nodes), using: &rng) : (u + 1) % UInt32(nodes)
            b.arc(u, v, distance: UInt32.random(in: 1...maxWeight, using: &rng), time: UInt32.random(in: 1...maxWeight, using: &rng))
            if Int.random(in: 0..<3, using: &rng) == 0 {  // often two-way
                b.arc(v, u, distance: UInt32.random(in: 1...maxWeight, using: &rng), time: UInt32.random(in: 1...maxWeight, using: &rng))
            }
        }
        return b.net
    }

    /// A `width × height` grid of streets `spacing` metres apart: most two-way, some one-way
    /// (`oneWayFraction`), some missing (`missingFraction`), arterials every `arterialEvery`
    /// lines at a higher speed, and a bent shape point on some arcs.
    static func grid(seed: UInt64, width: Int, height: Int, spacing: Double = 120, oneWayFraction: Double = 0.15,
                     missingFraction: Double = 0.08, arterialEvery: Int = 8) -> RoadNetwork {
        var rng = SeededGenerator(seed: seed)
        var b = Builder()
        b.net.nodeLatitudes.reserveCapacity(width * height)
        for y in 0..<height {
            for x in 0..<width {
                _ = b.node(xMeters: Double(x) * spacing + Double.random(in: -20...20, using: &rng),
                           yMeters: Double(y) * spacing + Double.random(in: -20...20, using: &rng))
            }
        }
        func link(_ u: UInt32, _ v: UInt32, arterial: Bool, rng: inout SeededGenerator) {
            if Double.random(in: 0..<1, using: &rng) < missingFraction { return }
            let speed = arterial ? 60.0 : Double.random(in: 20...40, using: &rng)
            var shape: [(Int32, Int32)] = []
            if Int.random(in: 0..<4, using: &rng) == 0 {
                let la = (b.net.nodeLatitudes[Int(u)] / 2 + b.net.nodeLatitudes[Int(v)] / 2) + Int32.random(in: -150...150, using: &rng)
                let lo = (b.net.nodeLongitudes[Int(u)] / 2 + b.net.nodeLongitudes[Int(v)] / 2) + Int32.random(in: -150...150, using: &rng)
                shape = [(la, lo)]
            }
            let r = Double.random(in: 0..<1, using: &rng)
            if r < oneWayFraction / 2 {
                b.arc(u, v, speedKmh: speed, shape: shape)
            } else if r < oneWayFraction {
                b.arc(v, u, speedKmh: speed, shape: shape.reversed())
            } else {
                b.arc(u, v, speedKmh: speed, shape: shape)
                b.arc(v, u, speedKmh: speed, shape: shape.reversed())
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                let u = UInt32(y * width + x)
                if x + 1 < width { link(u, u + 1, arterial: y % arterialEvery == 0, rng: &rng) }
                if y + 1 < height { link(u, u + UInt32(width), arterial: x % arterialEvery == 0, rng: &rng) }
            }
        }
        return b.net
    }

    /// A one-way chain of `count` nodes, then a separate two-way chain: long paths, a part
    /// unreachable from the other.
    static func chains(count: Int) -> RoadNetwork {
        var b = Builder()
        for i in 0..<count { _ = b.node(xMeters: Double(i) * 50, yMeters: 0) }
        for i in 0..<(count - 1) { b.arc(UInt32(i), UInt32(i + 1)) }
        let base = UInt32(count)
        for i in 0..<count { _ = b.node(xMeters: Double(i) * 50, yMeters: 500) }
        for i in 0..<(count - 1) {
            b.arc(base + UInt32(i), base + UInt32(i + 1))
            b.arc(base + UInt32(i + 1), base + UInt32(i))
        }
        return b.net
    }
}

import Foundation
