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
    public var nodesBeforeComponent = 0, arcsBeforeComponent = 0
    /// Stretches of way from a routing node back to itself (a closed way touching the network at
    /// its first/last node only), split into two arcs at the node halfway along.
    public var loopsSplit = 0
    /// Stretches of way from a node straight back to itself (the same node twice in a row: no length), dropped.
    public var selfLoopsDropped = 0
    /// Turn restrictions that changed the graph (via node and via way).
    public var restrictionsApplied = 0
    /// Of ``restrictionsApplied``, those via one or more ways.
    public var restrictionsAppliedViaWay = 0
    /// Restrictions not applied, by reason: `conditional` (only a `…:conditional` value),
    /// `excepted` (`except` names the vehicle: taxi, psv, motorcar...), `unknown_value`,
    /// `no_restriction_tag`, `incomplete_members`, `via_not_routable`, `way_not_routable`,
    /// `not_at_via` (no kept from/to arc meets the via node or the end of the via path),
    /// `via_way_members` (a via way with several from/to ways, or a via node too),
    /// `via_way_not_connected` (the from, via and to ways do not chain), `via_way_loop` (a via
    /// way that closes or a path through a node twice), `via_way_not_drivable` (no arcs along the
    /// via ways in the path's direction after the from way: one-way, or forbidden by a via-node restriction).
    public var restrictionsSkipped: [String: Int] = [:]
    /// `type=restriction` relations with a conditional key (`restriction:conditional`,
    /// `restriction:motorcar:conditional`, ...; the profile's restriction keys + `:conditional`).
    /// Time-dependent rules are left out: the conditional part is never applied (a plain value
    /// beside it still is; without one the relation is also counted in `restrictionsSkipped["conditional"]`).
    public var restrictionsConditional = 0
    /// Nodes added as copies for turn restrictions (restricted via nodes, via-way paths).
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
