/// What an OSM import read, kept and dropped, and how long each phase took.
public struct ImportReport: Sendable, Hashable {
    /// Nodes, ways and relations decoded from the file.
    public var nodesRead = 0
    public var waysRead = 0
    public var relationsRead = 0
    /// Ways the profile drives.
    public var waysKept = 0
    /// Node references of kept ways whose node is not in the file (a clipped extract); they split their way.
    public var missingNodeReferences = 0
    /// `highway=traffic_signals` nodes on kept ways.
    public var signalNodes = 0
    /// Routing nodes and directed arcs before the strongly connected component was taken
    /// (after turn-restriction node splitting).
    public var nodesBeforeComponent = 0
    public var arcsBeforeComponent = 0
    /// Stretches of way from a routing node back to itself (a closed way touching the network at
    /// its first/last node only), split into two arcs at the node halfway along.
    public var loopsSplit = 0
    /// Stretches of way from a node straight back to itself (the same node twice in a row: no length), dropped.
    public var selfLoopsDropped = 0
    /// Via-node turn restrictions that changed the graph.
    public var restrictionsApplied = 0
    /// Restrictions not applied, by reason: `via_way`, `conditional`, `except_motorcar`,
    /// `unknown_value`, `incomplete_members`, `via_not_routable`, `not_at_via` (no kept from/to arc meets the via node).
    public var restrictionsSkipped: [String: Int] = [:]
    /// Nodes added as copies of restricted via nodes.
    public var restrictionNodeCopies = 0
    /// The network's nodes and arcs: the largest strongly connected component.
    public var nodes = 0
    public var arcs = 0
    /// The bounding box of the network's nodes in 1e-7 degrees (south, west, north, east); zeros when empty.
    public var southE7: Int32 = 0
    public var westE7: Int32 = 0
    public var northE7: Int32 = 0
    public var eastE7: Int32 = 0
    /// The data's timestamp, seconds since 1970: the header's replication timestamp, else the
    /// newest object timestamp (0 when the file has neither).
    public var osmTimestampSeconds: Int64 = 0
    /// Where ``osmTimestampSeconds`` came from: `header`, `objects` or `none`.
    public var osmTimestampSource = "none"
    /// The program that wrote the file, from its header.
    public var writingProgram: String?
    /// Wall time of each phase in milliseconds, in order (`ways`, `nodes`, `arcs`, `restrictions`, `component`, `renumber`).
    public var phaseMilliseconds: [Phase] = []

    /// One timed phase.
    public struct Phase: Sendable, Hashable {
        public var name: String
        public var milliseconds: Double
    }

    public init() {}
}
