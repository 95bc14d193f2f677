import GeoFareCore

/// An error of the road graph: a graph file that cannot be read, a network that cannot be
/// contracted, or a point that cannot be snapped onto a road.
///
/// Codes are the constants of ``GraphError/Code``; `field` names the offending input when one applies
/// (`from`, `to`, a file path, a section name).
public struct GraphError: CodedError, Hashable {
    public var code: String
    public var message: String
    public var field: String?

    public init(code: String, message: String, field: String?) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// The stable codes a ``GraphError`` carries.
    public enum Code {
        /// The file does not start with the graph magic (`GEOFAREG`).
        public static let notAGraphFile = "graph_not_a_graph_file"
        /// The file's format version is older or newer than this reader understands.
        public static let versionUnsupported = "graph_version_unsupported"
        /// The file is shorter than its header or section table says.
        public static let truncated = "graph_truncated"
        /// The file's checksum or structure does not match its content.
        public static let corrupt = "graph_corrupt"
        /// The file could not be opened, mapped or written.
        public static let io = "graph_io"
        /// The network is inconsistent (array lengths, node indexes) or a path weight overflows 32 bits.
        public static let invalidNetwork = "graph_invalid_network"
        /// No road arc lies within the maximum snap distance of a point.
        public static let noRoadNearby = "no_road_nearby"
        /// A maximum snap distance that is not a positive number of metres (at most 100 km).
        public static let invalidSnapDistance = "invalid_snap_distance"
        /// The snapped points are not connected by any path in the graph.
        public static let noRoute = "no_route"
    }
}
