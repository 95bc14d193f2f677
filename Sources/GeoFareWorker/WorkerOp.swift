import GeoFareCore
import GeoFareText

/// Every op of the worker protocol: the one list that drives dispatch, decides which ops run in
/// request order on the loop's thread, and words the `unknown_op` error.
public enum WorkerOp: String, CaseIterable, Sendable {
    case ping, version, transform, distance, route, matrix, fare, split
    case partyUpsert = "party.upsert"
    case partyRemove = "party.remove"
    case partyGet = "party.get"
    case nearby, clusters, match
    case clusterLeaves = "cluster.leaves"
    case stats
    case placesSearch = "places.search"
    case placesReverse = "places.reverse"

    /// Ops that touch the party store (or report on it) run in request order on the loop's
    /// thread; the rest are stateless and may run on every core.
    public var runsInOrder: Bool {
        switch self {
        case .partyUpsert, .partyRemove, .partyGet, .nearby, .clusters, .clusterLeaves, .match, .stats: true
        case .ping, .version, .transform, .distance, .route, .matrix, .fare, .split, .placesSearch, .placesReverse: false
        }
    }

    /// The party writes, which the loop commits in groups (one transaction for those that
    /// arrive together).
    public var isPartyWrite: Bool { self == .partyUpsert || self == .partyRemove }

    /// Ops answered by the party store (`unavailable` without one).
    public var needsPartyStore: Bool { runsInOrder && self != .stats }

    /// The op a request names, or `nil` when it names none or an unknown one.
    public init?(request: JSONValue) {
        guard let name = request.object?["op"]?.string else { return nil }
        self.init(rawValue: name)
    }

    /// The op named `name`.
    /// - Throws: ``GeoFareError`` `unknown_op`, listing every op.
    public static func named(_ name: String) throws(GeoFareError) -> WorkerOp {
        guard let op = WorkerOp(rawValue: name) else {
            throw .unknownOp(name, ops: allCases.map(\.rawValue))
        }
        return op
    }
}
