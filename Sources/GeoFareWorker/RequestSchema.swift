import GeoFareCore
import GeoFareText

/// What each op accepts, by name: its fields and the fields of the objects inside them. The one
/// place the protocol's names are declared (docs/protocol.md is checked against it by a test).
/// ``check(_:op:)`` refuses any other name before the op runs: `unknown_field`, naming the field
/// by its path and the nearest declared name ("did you mean `depart_at`?"). A misspelt
/// `depart_at`, `party_size` or `radius_m` is an error, not a silently different answer.
///
/// The fast paths (``FastFareRequest``, ``FastPartyRequest``) take only names they know and hand
/// any other request to the general path, so this check holds for them too.
public enum RequestSchema {
    /// The shape of a field's value, as far as names go. A class, not an indirect enum: the
    /// declarations are built once and kept in statics, and a class reference is a plain pointer
    /// (LeakSanitizer does not see through an indirect enum's tagged box pointers).
    public final class Shape: Sendable {
        public enum Kind: Sendable {
            /// A number, string, boolean or array of plain values: no names inside.
            case value
            /// Anything (a party's `attributes`: the caller's own JSON).
            case any
            /// An object with ``fields``.
            case object
            /// An array whose items are objects with ``fields`` (or plain values).
            case objects
        }
        public let kind: Kind
        public let fields: [String: Shape]
        init(_ kind: Kind, _ fields: [String: Shape] = [:]) { (self.kind, self.fields) = (kind, fields) }

        public static let value = Shape(.value), any = Shape(.any)
        public static func object(_ fields: [String: Shape]) -> Shape { Shape(.object, fields) }
        public static func objects(_ fields: [String: Shape]) -> Shape { Shape(.objects, fields) }
    }

    /// A point: `{lat, lon}`.
    static let point: Shape = .object(["lat": .value, "lon": .value])
    /// A stop of a route: a point with its `approach`.
    static let stop: Shape = .object(["lat": .value, "lon": .value, "approach": .value])
    /// The fields of a trip by coordinates (`route`, `fare`).
    static let routeFields: [String: Shape] = [
        "from": stop, "to": stop, "via": .objects(["lat": .value, "lon": .value, "approach": .value]), "depart_at": .value,
        "tariff": .value, "metric": .value, "geometry": .value, "strict": .value, "no_road": .value,
    ]
    /// The party filter's fields (`nearby`, `clusters`, `cluster.leaves`).
    static let filterFields: [String: Shape] = [
        "depart_from": .value, "depart_until": .value, "status": .value, "min_free_seats": .value,
        "destination": .object(["center": point, "radius_m": .value]),
    ]

    /// Each op's fields beside `id` and `op`.
    public static func fields(of op: WorkerOp) -> [String: Shape] { declared[op]!.filter { $0.key != "id" && $0.key != "op" } }

    /// Each op's fields with `id` and `op`: built once.
    static let declared: [WorkerOp: [String: Shape]] = Dictionary(uniqueKeysWithValues: WorkerOp.allCases.map { op in
        (op, declaration(of: op).merging(["id": .value, "op": .value]) { a, _ in a })
    })

    static func declaration(of op: WorkerOp) -> [String: Shape] {
        switch op {
        case .ping, .stats: [:]
        case .version: ["catalog": .value]
        case .transform: ["from": .value, "to": .value, "points": .value]
        case .distance: ["from": point, "to": point]
        case .route: routeFields
        case .matrix:
            ["sources": .objects(["lat": .value, "lon": .value, "approach": .value]),
             "targets": .objects(["lat": .value, "lon": .value, "approach": .value]), "depart_at": .value, "metric": .value, "no_road": .value]
        case .fare:
            routeFields.merging([
                "party_size": .value, "split": .value, "split_unit": .value, "tolls": .value, "call_fee": .value, "route": .value,
                "trip": .object(["distance_m": .value, "duration_s": .value]),
                "segments": .objects(["distance_m": .value, "duration_s": .value, "slow_s": .value, "outside": .value]),
                "business_zone": .value, "cruise_kmh": .value, "dropoffs": .value,
            ]) { a, _ in a }
        case .split: ["total": .value, "unit": .value, "method": .value, "party_size": .value, "weights": .value]
        case .partyUpsert:
            ["party": .object(["id": .value, "origin": point, "destination": point, "depart_at": .value, "seats_total": .value,
                               "seats_taken": .value, "status": .value, "attributes": .any])]
        case .partyRemove, .partyGet: ["party_id": .value]
        case .nearby: filterFields.merging(["center": point, "radius_m": .value, "limit": .value]) { a, _ in a }
        case .clusters:
            filterFields.merging(["bbox": .object(["west": .value, "south": .value, "east": .value, "north": .value]),
                                  "zoom": .value, "ids_limit": .value]) { a, _ in a }
        case .clusterLeaves: filterFields.merging(["cluster_id": .value, "limit": .value, "offset": .value]) { a, _ in a }
        case .match:
            ["from": point, "to": point, "depart_at": .value, "seats": .value, "pickup": .value, "walk_m": .value,
             "walk_speed_mps": .value, "max_delay_s": .value, "max_wait_s": .value, "min_saving": .value,
             "min_saving_pct": .value, "radius_m": .value, "limit": .value, "explain": .value]
        case .placesSearch: ["q": .value, "near": point, "limit": .value]
        case .placesReverse: ["at": point, "radius_m": .value]
        }
    }

    /// Refuses a request with a name `op` does not declare, at any depth.
    /// - Throws: ``GeoFareError`` `unknown_field`, field: the name's path (`trip.distanse_m`).
    public static func check(_ request: [String: JSONValue], op: WorkerOp) throws(GeoFareError) {
        try check(request, against: declared[op]!, path: "", op: op)
    }

    static func check(_ object: [String: JSONValue], against declared: [String: Shape], path: String, op: WorkerOp) throws(GeoFareError) {
        // Sorted: the error names the same field whatever order the keys came in.
        for key in object.keys.sorted() {
            let at = path.isEmpty ? key : path + "." + key
            guard let shape = declared[key] else {
                throw GeoFareError.unknownField(at, op: op.rawValue, suggestion: nearest(key, in: declared.keys.filter { $0 != "id" && $0 != "op" }))
            }
            try check(object[key]!, shape: shape, path: at, op: op)
        }
    }

    static func check(_ value: JSONValue, shape: Shape, path: String, op: WorkerOp) throws(GeoFareError) {
        switch shape.kind {
        case .value, .any: return
        case .object:
            // A value of the wrong type is the op's own error to report (`wrong_type`).
            if let o = value.object { try check(o, against: shape.fields, path: path, op: op) }
        case .objects:
            guard let items = value.array else { return }
            for (i, item) in items.enumerated() {
                if let o = item.object { try check(o, against: shape.fields, path: "\(path)[\(i)]", op: op) }
            }
        }
    }

    /// The declared name closest to `name` (edit distance at most a third of its length, at
    /// least 2), or `nil`.
    static func nearest(_ name: String, in names: some Sequence<String>) -> String? {
        let limit = max(2, name.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in names.sorted() {
            let d = editDistance(Array(name.lowercased()), Array(candidate))
            if d <= limit && d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        // A name that contains the other (`departure` for `depart_at`, `party` for `party_size`).
        if best == nil {
            let stem = name.lowercased().prefix(5)
            best = names.sorted().first { $0.hasPrefix(stem) }.map { ($0, 0) }
        }
        return best?.name
    }

    /// Levenshtein distance with adjacent transpositions counted as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { current[j] = min(current[j], previous2[j - 2] + 1) }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
