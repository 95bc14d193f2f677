/// One place a search may start or end: a node and a weight already spent (a source: from the
/// snapped point to the node, the rest of its arc) or still to spend (a target: from the node to
/// the snapped point, the start of its arc). Weights in the metric's unit (ms or cm).
public struct RouteEndpoint: Sendable, Hashable {
    /// A node of the ``RoadNetwork``.
    public var node: UInt32
    /// The offset weight in the metric's unit.
    public var offset: UInt32

    public init(node: UInt32, offset: UInt32 = 0) {
        self.node = node
        self.offset = offset
    }
}

/// The answer of a search between endpoints: the weight (metric units, offsets included), which
/// source and which target it joins (indexes into the arrays passed), and the network arcs between
/// them when a path was asked for.
public struct SearchResult: Sendable, Hashable {
    /// Total weight: source offset + arcs + target offset.
    public var weight: UInt64
    public var sourceIndex: Int
    public var targetIndex: Int
    /// Network arc indexes from the source's node to the target's node (empty when they coincide or when no path was asked for).
    public var arcs: [UInt32]
}
