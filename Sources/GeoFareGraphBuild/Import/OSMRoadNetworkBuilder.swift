import Foundation
import GeoFareCore
import GeoFareGraph
import GeoFareOSM

/// Extracts a drivable ``RoadNetwork`` from an OpenStreetMap PBF file under a ``RoadProfile``.
///
/// 1. **Ways** (pass 1): keeps the ways the profile drives, their direction and speed, the
///    traffic-signal node ids and the turn restrictions. Files need not be sorted.
/// 2. **Nodes** (pass 2): the coordinates of the nodes those ways use (a sorted id array, never
///    an array sized by the largest OSM id).
/// 3. **Arcs**: each way is split at routing nodes (nodes used twice or more, way ends, signal
///    nodes when the profile gives them a penalty, restriction via nodes, neighbours of nodes missing from a clipped extract); other
///    nodes become shape points. Length is the WGS84 geodesic length (``WGS84Geodesic``)
///    rounded to centimetres (min 1); time is length / speed in milliseconds (min 1) plus the
///    signal penalty when the head is a signal. Parallel arcs are all kept.
/// 4. **Restrictions**: each restricted via node gets one copy per incoming arc, with only the
///    outgoing arcs that arc may turn into; then each via-way restriction gets a copy of its via
///    path, entered only from the from way, whose end lacks the forbidden turn
///    (`WorkingGraph+ViaWay.swift`). Conditional restrictions are counted, not applied.
/// 5. **Component**: the largest strongly connected component is kept, its nodes renumbered
///    along a Hilbert curve and the arcs sorted by tail, then head.
public struct OSMRoadNetworkBuilder: Sendable {
    /// The profile the network is extracted for.
    public let profile: RoadProfile

    public init(profile: RoadProfile) {
        self.profile = profile
    }

    /// Where an import is: the phase (named as in ``ImportReport/phaseMilliseconds``) and, while
    /// the PBF is read (`ways`, `nodes`), the data blocks decoded of the file's total; the later
    /// phases report `done == 0, total == 0` once, when they start.
    public typealias Progress = (_ phase: String, _ done: Int, _ total: Int) -> Void

    /// Reads the PBF file at `url` and extracts its road network.
    /// - Parameter progress: called as phases start and after each data block read, on the calling thread.
    /// - Throws: ``GeoFareError`` when the file cannot be read or decoded.
    public func build(pbfAt url: URL, progress: Progress? = nil) throws(GeoFareError) -> (network: RoadNetwork, report: ImportReport) {
        try build(reader: try PBFReader(contentsOf: url), progress: progress)
    }

    /// Extracts the road network of an opened PBF file.
    /// - Parameter progress: called as phases start and after each data block read, on the calling thread.
    /// - Throws: ``GeoFareError`` when a data block does not decode.
    public func build(reader: PBFReader, progress: Progress? = nil) throws(GeoFareError) -> (network: RoadNetwork, report: ImportReport) {
        var report = ImportReport()
        var clock = PhaseClock()
        let blocks = reader.dataBlockCount
        func reading(_ phase: String) -> ((Int) -> Void)? {
            progress.map { p in p(phase, 0, blocks); return { p(phase, $0, blocks) } }
        }
        report.writingProgram = reader.header.writingProgram

        // 1. ways, signals, restrictions
        var ways = WayCollector(profile: profile)
        let newest = try reader.visit(&ways, kinds: .all, progress: reading("ways"))
        report.nodesRead = ways.nodesRead
        report.waysRead = ways.waysRead
        report.relationsRead = ways.relationsRead
        report.waysKept = ways.wayIds.count
        report.restrictionsSkipped = ways.restrictionsSkipped
        report.restrictionsConditional = ways.restrictionsConditional
        if let t = reader.header.replicationTimestampSeconds, t > 0 {
            report.osmTimestampSeconds = t; report.osmTimestampSource = "header"
        } else if newest > 0 {
            report.osmTimestampSeconds = newest; report.osmTimestampSource = "objects"
        }
        clock.lap("ways", into: &report)

        // 2. coordinates of the used nodes
        var ids = ways.refs
        ids.sort()
        var unique = 0
        for i in 0..<ids.count where i == 0 || ids[i] != ids[unique - 1] { ids[unique] = ids[i]; unique += 1 }
        ids.removeSubrange(unique...)
        var nodes = NodeLocator(ids: ids)
        try reader.visit(&nodes, kinds: .nodes, progress: reading("nodes"))
        clock.lap("nodes", into: &report)

        // 3. arcs
        progress?("arcs", 0, 0)
        var graph = ArcSplitter.split(ways: ways, nodes: nodes, profile: profile, report: &report)
        clock.lap("arcs", into: &report)

        // 4. turn restrictions
        progress?("restrictions", 0, 0)
        if profile.turnRestrictions {
            graph.applyRestrictions(ways.restrictions, ways: ways, nodeIds: nodes.ids, report: &report)
        }
        report.nodesBeforeComponent = graph.routingNodeCount
        report.arcsBeforeComponent = graph.liveArcCount
        clock.lap("restrictions", into: &report)

        // 5. largest strongly connected component, renumbered
        progress?("component", 0, 0)
        let keep = graph.largestComponent()
        clock.lap("component", into: &report)
        progress?("renumber", 0, 0)
        let network = graph.network(keeping: keep)
        report.nodes = network.nodeCount
        report.arcs = network.arcCount
        if network.nodeCount > 0 {
            report.southE7 = network.nodeLatitudes.min()!; report.northE7 = network.nodeLatitudes.max()!
            report.westE7 = network.nodeLongitudes.min()!; report.eastE7 = network.nodeLongitudes.max()!
        }
        clock.lap("renumber", into: &report)
        return (network, report)
    }
}

/// Wall time of consecutive phases.
struct PhaseClock {
    private var last = ContinuousClock.now

    mutating func lap(_ name: String, into report: inout ImportReport) {
        let now = ContinuousClock.now
        let d = now - last
        last = now
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        report.phaseMilliseconds.append(ImportReport.Phase(name: name, milliseconds: ms))
    }
}
