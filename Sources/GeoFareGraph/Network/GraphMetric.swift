/// The weight a route minimises: both are exact integers per arc so that a contraction-hierarchy
/// answer equals plain Dijkstra's to the unit.
public enum GraphMetric: String, Sendable, Hashable, CaseIterable, Codable {
    /// Travel time, milliseconds per arc (``RoadNetwork/arcTimeMilliseconds``). The default.
    case fastest
    /// Length, centimetres per arc (``RoadNetwork/arcDistanceCentimeters``).
    case shortest

    /// The arc weights of `network` under this metric (milliseconds or centimetres).
    public func weights(of network: RoadNetwork) -> [UInt32] {
        switch self {
        case .fastest: network.arcTimeMilliseconds
        case .shortest: network.arcDistanceCentimeters
        }
    }

    /// A stable small index (0 fastest, 1 shortest), used for per-metric arrays and file sections.
    public var index: Int { self == .fastest ? 0 : 1 }
}

/// A weight that no path reaches: "unreachable" in path sums (path sums are `UInt64`).
let infiniteWeight = UInt64.max
