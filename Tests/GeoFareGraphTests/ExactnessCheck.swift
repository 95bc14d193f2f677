import GeoFareCore
@testable import GeoFareGraph
@testable import GeoFareGraphBuild

/// Compares contraction-hierarchy answers with plain Dijkstra on `pairs` seeded random queries
/// per metric, and checks each CH path: a connected chain of network arcs from the chosen source's
/// node to the chosen target's node whose weights plus the offsets sum to the answer.
/// Reusable on real extracts: pass the importer's network.
/// - Parameter hierarchies: prebuilt hierarchies per metric (built here when `nil`).
/// - Returns: a description of each disagreement (empty when all agree).
func checkExactness(network: RoadNetwork, pairs: Int, seed: UInt64,
                    hierarchies: [GraphMetric: ContractionHierarchy]? = nil, maxEndpoints: Int = 3) throws -> [String] {
    var problems: [String] = []
    var rng = SeededGenerator(seed: seed)
    let n = network.nodeCount
    guard n > 0 else { return [] }
    for metric in GraphMetric.allCases {
        let weights = metric.weights(of: network)
        let ch = try hierarchies?[metric] ?? ContractionHierarchy(network: network, metric: metric)
        let chQuery = ContractionHierarchyQuery(hierarchy: ch)
        let dijkstra = DijkstraQuery(graph: ArcGraph(network: network, metric: metric))
        var arcs: [UInt32] = []
        for q in 0..<pairs {
            func endpoints() -> [RouteEndpoint] {
                let k = Int.random(in: 1...maxEndpoints, using: &rng)
                return (0..<k).map { i in
                    RouteEndpoint(node: UInt32.random(in: 0..<UInt32(n), using: &rng),
                                  offset: i == 0 && k == 1 && Bool.random(using: &rng) ? 0 : UInt32.random(in: 0...2000, using: &rng))
                }
            }
            let sources = endpoints(), targets = endpoints()
            let context = "\(metric) query \(q) sources \(sources) targets \(targets)"
            let reference = dijkstra.bidirectional(sources: sources, targets: targets)
            let oneWay = q % 4 == 0 ? dijkstra.oneToOne(sources: sources, targets: targets) : reference
            if reference?.weight != oneWay?.weight {
                problems.append("\(context): bidirectional Dijkstra \(String(describing: reference?.weight)) != one-directional \(String(describing: oneWay?.weight))")
            }
            let answer = chQuery.search(sources: sources, targets: targets)
            if answer?.weight != reference?.weight {
                problems.append("\(context): CH \(String(describing: answer?.weight)) != Dijkstra \(String(describing: reference?.weight))")
                continue
            }
            guard let answer else { continue }
            arcs.removeAll(keepingCapacity: true)
            chQuery.path(into: &arcs)
            let s = sources[answer.sourceIndex], t = targets[answer.targetIndex]
            var sum = UInt64(s.offset) + UInt64(t.offset)
            var at = s.node
            for a in arcs {
                if network.arcTail[Int(a)] != at { problems.append("\(context): path breaks at arc \(a)"); break }
                at = network.arcHead[Int(a)]
                sum += UInt64(weights[Int(a)])
            }
            if at != t.node { problems.append("\(context): path ends at \(at), not at target node \(t.node)") }
            if sum != answer.weight { problems.append("\(context): path sums to \(sum), answer \(answer.weight)") }
            if problems.count > 20 { return problems }
        }
    }
    return problems
}
