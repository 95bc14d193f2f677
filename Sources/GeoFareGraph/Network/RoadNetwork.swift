/// A directed road network as a profile extracted it from OpenStreetMap, before contraction:
/// the shared shape that the PBF importer produces and the contraction hierarchy, the graph file
/// and the snapper consume.
///
/// - Nodes are routing nodes (junctions, way ends, and copies that turn restrictions need).
///   Coordinates are OSM's fixed point, 1e-7 degrees.
/// - Arc `i` goes from `arcTail[i]` to `arcHead[i]`. Its integer weights are exact so that a
///   contraction-hierarchy answer can be compared to the unit with plain Dijkstra:
///   `arcDistanceCentimeters` (the WGS84 geodesic length of its polyline, rounded to the nearest
///   centimetre, never 0) and `arcTimeMilliseconds` (free-flow travel time by the profile,
///   including any penalty at its head such as a traffic signal, never 0).
/// - The polyline of arc `i` is its tail, then the shape points
///   `shapeLatitudes[shapeStart[i]..<shapeStart[i + 1]]` (same for longitudes), then its head.
///   `shapeStart` has `arcCount + 1` entries.
/// - `arcRoadClass[i]` indexes the profile's road classes; `arcFlags[i]` holds ``ArcFlags``.
public struct RoadNetwork: Sendable, Equatable {
    public var nodeLatitudes: [Int32]
    public var nodeLongitudes: [Int32]
    public var arcTail: [UInt32]
    public var arcHead: [UInt32]
    public var arcDistanceCentimeters: [UInt32]
    public var arcTimeMilliseconds: [UInt32]
    public var arcRoadClass: [UInt8]
    public var arcFlags: [UInt8]
    public var shapeStart: [UInt32]
    public var shapeLatitudes: [Int32]
    public var shapeLongitudes: [Int32]

    public init(nodeLatitudes: [Int32] = [], nodeLongitudes: [Int32] = [], arcTail: [UInt32] = [], arcHead: [UInt32] = [],
                arcDistanceCentimeters: [UInt32] = [], arcTimeMilliseconds: [UInt32] = [], arcRoadClass: [UInt8] = [],
                arcFlags: [UInt8] = [], shapeStart: [UInt32] = [0], shapeLatitudes: [Int32] = [], shapeLongitudes: [Int32] = []) {
        self.nodeLatitudes = nodeLatitudes
        self.nodeLongitudes = nodeLongitudes
        self.arcTail = arcTail
        self.arcHead = arcHead
        self.arcDistanceCentimeters = arcDistanceCentimeters
        self.arcTimeMilliseconds = arcTimeMilliseconds
        self.arcRoadClass = arcRoadClass
        self.arcFlags = arcFlags
        self.shapeStart = shapeStart
        self.shapeLatitudes = shapeLatitudes
        self.shapeLongitudes = shapeLongitudes
    }

    public var nodeCount: Int { nodeLatitudes.count }
    public var arcCount: Int { arcTail.count }
}

/// Per-arc flags of a ``RoadNetwork``.
public struct ArcFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// A traffic signal stands at the arc's head (its time includes the profile's signal penalty).
    public static let signalAtHead = ArcFlags(rawValue: 1 << 0)
    /// The arc is part of a roundabout.
    public static let roundabout = ArcFlags(rawValue: 1 << 1)
    /// The arc leads to or from a motorway/trunk link.
    public static let link = ArcFlags(rawValue: 1 << 2)
}
