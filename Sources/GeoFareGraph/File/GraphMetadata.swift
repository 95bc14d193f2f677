/// What a graph file says about itself: where it came from and what it holds (JSON in the file).
public struct GraphMetadata: Sendable, Hashable, Codable {
    /// The ODbL attribution every product built from the file must show.
    public static let attributionText = "© OpenStreetMap contributors, ODbL 1.0 (https://www.openstreetmap.org/copyright)"

    /// The road profile's id (e.g. `car`).
    public var profileID: String
    /// A fingerprint of the profile's rules, so a file built with other rules is recognised.
    public var profileFingerprint: String
    /// The OSM data's replication timestamp, ISO 8601 UTC, or empty when unknown.
    public var osmTimestamp: String
    /// When the file was built, ISO 8601 UTC.
    public var buildTime: String
    /// The nodes' bounding box in degrees (west, south, east, north).
    public var west: Double, south: Double, east: Double, north: Double
    public var nodeCount: Int
    public var arcCount: Int
    /// ``attributionText``.
    public var attribution: String
    /// The profile's wait at a traffic signal, seconds (included in the time of arcs ending at
    /// one; a route counts it as slow time). `nil`: not recorded.
    public var signalPenaltySeconds: Double? = nil
    /// Turn restrictions applied to the network (via node and via way), of them via way(s), and
    /// the restriction relations with a conditional (time-dependent) key, which are left out.
    /// `nil`: not recorded (files built before these were, or networks not read from OSM). Plain
    /// optional JSON fields: files without them read as before, no format version change.
    public var turnRestrictionsApplied: Int? = nil
    public var turnRestrictionsViaWay: Int? = nil
    public var conditionalRestrictionsLeftOut: Int? = nil

    public init(profileID: String, profileFingerprint: String, osmTimestamp: String, buildTime: String,
                west: Double = 0, south: Double = 0, east: Double = 0, north: Double = 0, nodeCount: Int = 0, arcCount: Int = 0,
                attribution: String = GraphMetadata.attributionText) {
        self.profileID = profileID
        self.profileFingerprint = profileFingerprint
        self.osmTimestamp = osmTimestamp
        self.buildTime = buildTime
        self.west = west; self.south = south; self.east = east; self.north = north
        self.nodeCount = nodeCount
        self.arcCount = arcCount
        self.attribution = attribution
    }

    /// This metadata with the node and arc counts and the nodes' bounding box of `network`.
    public func describing(_ network: RoadNetwork) -> GraphMetadata {
        var meta = self
        meta.nodeCount = network.nodeCount
        meta.arcCount = network.arcCount
        if let s = network.nodeLatitudes.min(), let n = network.nodeLatitudes.max(),
           let w = network.nodeLongitudes.min(), let e = network.nodeLongitudes.max() {
            meta.south = Double(s) / 1e7
            meta.north = Double(n) / 1e7
            meta.west = Double(w) / 1e7
            meta.east = Double(e) / 1e7
        }
        return meta
    }
}
