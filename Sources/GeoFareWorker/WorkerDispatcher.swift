import Foundation
import GeoFareCore
import GeoFareParties
import GeoFarePooling
import GeoFareFare
import GeoFareGraph
import GeoFarePlaces
import GeoFareProj
import GeoFareRoute
import GeoFareText

/// Answers one protocol request: `{"id", "op", ...}` in, `{"id", "ok", "result" | "error"}` out.
///
/// Pure request-in, response-out for every op but the party ones (which go to the
/// ``LivePartyIndex``); the line loop (``WorkerLoop``) owns the I/O. The stateless ops are safe to
/// run on several threads at once; the party ops must run in request order on one thread.
public final class WorkerDispatcher: @unchecked Sendable {
    /// The protocol version reported by `version`; bumped on incompatible changes.
    /// 2: a `fare` result carries its `route` only when the request says `"route": true`.
    public static let protocolVersion = 3
    /// The GeoFare release.
    public static let packageVersion = "0.1.0"

    public let pricer: TripPricer
    public let parties: LivePartyIndex?
    /// The parties' own trips `match` has computed (kept between requests).
    let partyTrips = PartyTripCache()
    /// The places index `places.search` and `places.reverse` read (`--places FILE`), or `nil`.
    public let places: PlacesIndex?
    private let started = Date()
    private let statsLock = NSLock()
    private var requests: Int64 = 0
    /// Requests the loop decoded with ``FastFareRequest`` (the byte-level fare path).
    private var fastPathRequests: Int64 = 0
    private var errorsByCode: [String: Int64] = [:]

    /// What one lane of the worker loop prices with: its own pricer (its own catalog, meters
    /// and zones, so reference counts never bounce between cores) and its tariff names as
    /// bytes and `String` (so ``FastFareRequest`` reuses them instead of allocating).
    struct Lane: Sendable {
        let pricer: TripPricer
        let tariffNames: [(bytes: [UInt8], string: String)]
        init(pricer: TripPricer) {
            self.pricer = pricer
            tariffNames = pricer.catalog.tariffs.flatMap { [$0.id] + $0.aliases }.map { (Array($0.utf8), $0) }
        }
    }
    let lanes: [Lane]

    /// - Parameter threadPricers: one pricer per loop thread (``TripPricer/threadCopy()``); without them
    ///   every lane shares `pricer`.
    /// - Parameter places: the places index of `places.*` (without one they answer `places_not_loaded`).
    public init(pricer: TripPricer, parties: LivePartyIndex?, threadPricers: [TripPricer] = [], places: PlacesIndex? = nil) {
        self.pricer = pricer
        self.parties = parties
        self.places = places
        lanes = (threadPricers.isEmpty ? [pricer] : threadPricers).map(Lane.init)
    }

    /// The lane for a loop thread.
    func lane(_ i: Int) -> Lane { lanes[i % lanes.count] }

    /// Counts `n` successful answers at once (the loop's lanes count their own and report
    /// once per batch, instead of taking the stats lock per request).
    /// Counts requests the loop answers through the fast fare path (`stats.fast_path`).
    func countFastPath(_ n: Int) {
        guard n > 0 else { return }
        statsLock.lock()
        fastPathRequests += Int64(n)
        statsLock.unlock()
    }

    func countSuccesses(_ n: Int) {
        guard n > 0 else { return }
        statsLock.lock()
        requests += Int64(n)
        statsLock.unlock()
    }

    /// Answers one line: parses it, runs it, and returns the response line (with `\n`).
    public func respond(toLine line: UnsafeRawBufferPointer) -> [UInt8] {
        let parsed: JSONValue
        do { parsed = try JSONParser.parse(line) } catch {
            return response(to: error, line: line)
        }
        return respond(to: parsed)
    }

    /// The answer to a line that does not parse: `invalid_json`, or `invalid_utf8` with the id
    /// echoed when the rest of the line was a request with a scalar id.
    func response(to error: GeoFareError, line: UnsafeRawBufferPointer) -> [UInt8] {
        let recovered = error.code == .invalidUtf8 ? JSONParser.parseReplacingInvalidUTF8(line) : nil
        let id = recovered?.object?["id"].flatMap { $0.isScalar ? $0 : nil } ?? .null
        return response(id: id, error: error)
    }

    /// A request taken apart: its id, op and fields, or the error response when it has none.
    enum Unwrapped {
        case request(id: JSONValue, op: WorkerOp, fields: RequestFields)
        case answered([UInt8])
    }

    /// Takes a parsed request apart (``Unwrapped``).
    func unwrap(_ request: JSONValue) -> Unwrapped {
        guard let object = request.object else {
            return .answered(response(id: .null, error: .requestNotObject(request)))
        }
        let id = object["id"] ?? .null
        guard id.isScalar else {
            return .answered(response(id: .null, error: .invalidRequestID()))
        }
        let fields = RequestFields(object)
        do {
            let op = try WorkerOp.named(try fields.string("op"))
            try RequestSchema.check(object, op: op)
            return .request(id: id, op: op, fields: fields)
        } catch {
            return .answered(response(id: id, error: error))
        }
    }

    /// Answers one parsed request.
    public func respond(to request: JSONValue) -> [UInt8] {
        switch unwrap(request) {
        case let .answered(bytes): return bytes
        case let .request(id, op, fields):
            do { return response(id: id, result: try run(op, fields)) } catch { return response(id: id, thrown: error) }
        }
    }

    /// Answers a request read by the fast path (``FastFareRequest``): the same pricing and the
    /// same bytes as the general `fare` op, appended to `w`, priced by the given lane.
    /// - Returns: true for a success, which the caller counts (``countSuccesses(_:)``);
    ///   errors are counted here.
    func respond(to fast: FastFareRequest, lane: Int, into w: inout ByteWriter) -> Bool {
        do {
            let (quote, route) = try self.lane(lane).pricer.quote(fast.request)
            w.append(#"{"id":"#)
            w.append(fast.idToken)
            w.append(#","ok":true,"result":"#)
            ResultEncoding.writeQuote(quote, route: fast.includeRoute ? route : nil, into: &w)
            w.append("}\n")
            return true
        } catch {
            var parsed: JSONValue = .null
            if let v = try? fast.idToken.withUnsafeBytes({ try JSONParser.parse($0) }) { parsed = v }
            w.append(response(id: parsed, error: error))
            return false
        }
    }

    /// ``respond(to:into:)`` as a new array.
    func respond(to fast: FastFareRequest) -> [UInt8] {
        var w = ByteWriter(capacity: fast.includeRoute ? 1400 : 700)
        defer { w.deallocate() }
        if respond(to: fast, lane: 0, into: &w) { countSuccesses(1) }
        return Array(w.bytes)
    }

    func run(_ op: WorkerOp, _ f: RequestFields) throws -> JSONValue {
        if op.needsPartyStore {
            guard let parties else { throw GeoFareError.noPartyStore() }
            return try runPartyOp(op, f, on: parties)
        }
        switch op {
        case .ping: return .object(["pong": .bool(true)])
        case .version: return version()
        case .transform: return try transform(f)
        case .distance: return try distance(f)
        case .route: return try route(f)
        case .matrix: return try matrix(f)
        case .fare: return try fare(f)
        case .split: return try split(f)
        case .placesSearch: return try placesSearch(f)
        case .placesReverse: return try placesReverse(f)
        case .stats:
            // The count reported is the state every other party op sees.
            try parties?.sync()
            return stats()
        case .partyUpsert, .partyRemove, .partyGet, .nearby, .clusters, .clusterLeaves, .match:
            preconditionFailure("party ops are answered above")
        }
    }

    // MARK: - Ops

    func version() -> JSONValue {
        .object([
            "geofare": .string(Self.packageVersion), "protocol": .int(Int64(Self.protocolVersion)), "proj": .string(ProjLibrary.version),
            "tariffs": .array(pricer.catalog.tariffs.map { t in
                .object(["id": .string(t.id), "versions": .array(t.versions.map { .string($0.label) }), "source": .string(t.origin)])
            }),
            "zones": .array(pricer.catalog.zones.zones.map { .string($0.id) }),
            "route_estimator": .string(pricer.estimator.name),
            // The speed profiles in force: each with the calibrations applied (the data's own and
            // `--traffic` files, in order) and its levels by date.
            "traffic": .array((pricer.circuityEstimator?.profiles ?? []).map { p in
                .object(["profile": .string(p.id), "calibrations": .array(p.calibrations.map { .string($0.name) }),
                         "levels_by_date": .array(p.dated.map { .string($0.date) })])
            }),
            "graphs": .array(((pricer.estimator as? GraphRouteEstimator)?.graphs ?? []).map { entry in
                let m = entry.graph.metadata
                return .object(["file": .string(entry.path), "osm_timestamp": .string(m.osmTimestamp), "profile": .string(m.profileID),
                                "bbox": .object(["west": .double(m.west), "south": .double(m.south), "east": .double(m.east), "north": .double(m.north)]),
                                "nodes": .int(Int64(m.nodeCount)), "arcs": .int(Int64(m.arcCount)), "attribution": .string(m.attribution)])
            }),
            "places": places.map { index in
                let m = index.metadata
                return .object(["file": .string(index.path), "osm_timestamp": .string(m.osmTimestamp), "places": .int(Int64(m.placeCount)),
                                "attribution": .string(m.attribution)])
            } ?? .null,
        ])
    }

    func transform(_ f: RequestFields) throws -> JSONValue {
        let from = try f.string("from"), to = try f.string("to")
        let list = try f.array("points", maxCount: 100_000)
        var points: [XYPoint] = []
        points.reserveCapacity(list.count)
        for (i, p) in list.enumerated() {
            guard let pair = p.array, pair.count == 2, let x = pair[0].double, let y = pair[1].double else {
                throw GeoFareError.pointNotPair(i)
            }
            points.append(XYPoint(x: x, y: y))
        }
        let transformer = try CoordinateTransformer(from: from, to: to)
        let failures = points.withUnsafeMutableBufferPointer { transformer.transformInPlace($0) }
        if failures.count == points.count, let first = failures.first { throw first.error }
        var failed = Set<Int>()
        for fail in failures { failed.insert(fail.index) }
        return .object([
            "points": .array(points.indices.map { i in failed.contains(i) ? .null : .array([.double(points[i].x), .double(points[i].y)]) }),
            "failures": .array(failures.map { .object(["index": .int(Int64($0.index)), "code": .string($0.error.code.rawValue), "message": .string($0.error.message), "field": .string($0.error.field ?? "")]) }),
            "from": .string(transformer.source.name), "to": .string(transformer.target.name),
        ])
    }

    func distance(_ f: RequestFields) throws -> JSONValue {
        let r = Geodesic.wgs84.inverse(try f.coordinate("from"), try f.coordinate("to"))
        return .object(["distance_m": .double(r.distanceMeters), "initial_azimuth_deg": .double(r.initialAzimuthDegrees), "final_azimuth_deg": .double(r.finalAzimuthDegrees)])
    }

    func tripRequest(_ f: RequestFields) throws -> FareRequest {
        let origin = try f.coordinate("from"), destination = try f.coordinate("to")
        let departure = try f.time("depart_at") ?? Date()
        var via: [Coordinate] = []
        if f.has("via") {
            via = try f.array("via", maxCount: RouteRequest.maxStops).enumerated().map { i, v throws(GeoFareError) in
                try RequestFields.coordinate(v, path: "via[\(i)]")
            }
        }
        var r = FareRequest(from: origin, via: via, to: destination, departure: departure, tariff: try f.optionalString("tariff"))
        var approaches = [try RequestFields.approach(try f.value("from"), path: "from")]
        if f.has("via") {
            for (i, v) in try f.array("via", maxCount: RouteRequest.maxStops).enumerated() { approaches.append(try RequestFields.approach(v, path: "via[\(i)]")) }
        }
        approaches.append(try RequestFields.approach(try f.value("to"), path: "to"))
        if approaches.contains(.curb) { r.approaches = approaches }
        if let m = try f.optionalString("metric") {
            guard let metric = RouteMetric(rawValue: m) else { throw GeoFareError.notOneOf("metric", "fastest or shortest", got: m) }
            r.metric = metric
        }
        r.includeGeometry = try f.bool("geometry", default: false)
        r.strict = try f.bool("strict", default: false)
        if let n = try f.optionalString("no_road") {
            guard n == "fallback" || n == "error" else { throw GeoFareError.notOneOf("no_road", "fallback or error", got: n) }
            r.fallbackWhenNoRoad = n == "fallback"
        }
        return r
    }

    func route(_ f: RequestFields) throws -> JSONValue {
        let request = try tripRequest(f)
        // Outside every tariff region (and with no tariff named) the route is still estimated, with no zone.
        let route = try pricer.route(request, anywhere: true)
        return ResultEncoding.raw(capacity: 2048) { ResultEncoding.writeRoute(route, segments: true, into: &$0) }
    }

    /// `matrix`: distances and durations from every source to every target (see
    /// ``GraphRouteEstimator/matrix(_:)``), at most ``MatrixRequest/maxCells`` cells.
    func matrix(_ f: RequestFields) throws -> JSONValue {
        let sourceList = try f.array("sources", maxCount: MatrixRequest.maxCells)
        let targetList = try f.array("targets", maxCount: MatrixRequest.maxCells)
        guard sourceList.count * targetList.count <= MatrixRequest.maxCells else {
            throw GeoFareError.matrixTooLarge(sources: sourceList.count, targets: targetList.count, max: MatrixRequest.maxCells)
        }
        let sources = try sourceList.enumerated().map { i, v throws(GeoFareError) in try RequestFields.coordinate(v, path: "sources[\(i)]") }
        let targets = try targetList.enumerated().map { i, v throws(GeoFareError) in try RequestFields.coordinate(v, path: "targets[\(i)]") }
        var r = MatrixRequest(sources: sources, targets: targets, departure: try f.time("depart_at") ?? Date())
        r.sourceApproaches = try sourceList.enumerated().map { i, v throws(GeoFareError) in try RequestFields.approach(v, path: "sources[\(i)]") }
        r.targetApproaches = try targetList.enumerated().map { j, v throws(GeoFareError) in try RequestFields.approach(v, path: "targets[\(j)]") }
        if let m = try f.optionalString("metric") {
            guard let metric = RouteMetric(rawValue: m) else { throw GeoFareError.notOneOf("metric", "fastest or shortest", got: m) }
            r.metric = metric
        }
        if let n = try f.optionalString("no_road") {
            guard n == "fallback" || n == "error" else { throw GeoFareError.notOneOf("no_road", "fallback or error", got: n) }
            r.fallbackWhenNoRoad = n == "fallback"
        }
        let matrix = try pricer.estimator.matrix(r)
        return ResultEncoding.raw(capacity: 64 + matrix.distanceMeters.count * targets.count * 24) { ResultEncoding.writeMatrix(matrix, into: &$0) }
    }

    func fare(_ f: RequestFields) throws -> JSONValue {
        let party = try f.optionalInt("party_size", range: -1_000_000...1_000_000) ?? 1
        let split: SplitMethod
        if let s = try f.optionalString("split") {
            guard let m = SplitMethod(rawValue: s) else { throw GeoFareError.notOneOf("split", "equal, proportional or shapley", got: s) }
            split = m
        } else { split = .equal }
        let options = FareOptions(partySize: Int(party), split: split, splitUnit: try f.optionalInt("split_unit", range: 1...1_000_000),
                                  tolls: try f.optionalInt("tolls", range: 0...100_000_000) ?? 0,
                                  callFee: try f.optionalInt("call_fee", range: 0...100_000_000) ?? 0)
        let includeRoute = try f.bool("route", default: false)
        let known = f.has("trip") || f.has("segments")
        if known {
            // A known trip (what was driven) with or without its ends: nothing to route.
            let given = f.has("trip") ? "trip" : "segments"
            if f.has("trip") && f.has("segments") { throw GeoFareError.fieldsConflict("trip", "segments") }
            for routeOnly in ["via", "metric", "no_road", "geometry"] where f.has(routeOnly) { throw GeoFareError.fieldsConflict(routeOnly, given) }
            if includeRoute { throw GeoFareError.fieldsConflict("route", given) }
            if f.has("from") != f.has("to") { throw GeoFareError.missing(f.has("from") ? "to" : "from") }
        }
        if !known && (f.has("from") || f.has("to")) {
            var r = try tripRequest(f)
            r.businessZone = try f.optionalString("business_zone")
            r.options = options
            r.estimateTolls = !f.has("tolls")
            let (quote, route) = try pricer.quote(r)
            return ResultEncoding.raw(capacity: includeRoute ? 1400 : 640) { ResultEncoding.writeQuote(quote, route: includeRoute ? route : nil, into: &$0) }
        }
        let departure = try f.time("depart_at") ?? Date()
        let trip: FareRequest.Trip
        if f.has("segments") {
            var start = departure
            var list: [TripSegment] = []
            for (i, v) in try f.array("segments", maxCount: 10_000).enumerated() {
                guard let o = v.object else { throw GeoFareError.wrongType("segments[\(i)]", expected: "an object", got: v) }
                let s = RequestFields(o, path: "segments[\(i)]")
                let segment = TripSegment(distanceMeters: try s.double("distance_m"), durationSeconds: try s.double("duration_s"),
                                          slowSeconds: try s.optionalDouble("slow_s"), start: start, outsideZone: try s.bool("outside", default: false))
                list.append(segment)
                start = start.addingTimeInterval(max(0, segment.durationSeconds))
            }
            trip = .segments(list)
        } else if f.has("trip") {
            let t = try f.nested("trip")
            trip = .totals(distanceMeters: try t.double("distance_m"), durationSeconds: try t.double("duration_s"))
        } else {
            throw GeoFareError.tripRequired()
        }
        var r = FareRequest(trip: trip, departure: departure, tariff: try f.optionalString("tariff"))
        if f.has("from") {
            // The ends of a known trip: they pick the tariff (unless named) and its zones.
            r.origin = try f.coordinate("from")
            r.destination = try f.coordinate("to")
        }
        if case .totals = trip, r.tariff == nil, r.origin == nil { throw GeoFareError.missing("tariff") }
        r.businessZone = try f.optionalString("business_zone")
        r.cruiseKmh = try f.optionalDouble("cruise_kmh")
        r.strict = try f.bool("strict", default: false)
        r.options = options
        r.estimateTolls = !f.has("tolls")
        if f.has("dropoffs") {
            r.dropoffDistances = try f.array("dropoffs", maxCount: 20).enumerated().map { i, v throws(GeoFareError) in
                guard let d = v.double else { throw GeoFareError.wrongType("dropoffs[\(i)]", expected: "a number", got: v) }
                return d
            }
        }
        let quote = try pricer.quote(r).quote
        return ResultEncoding.raw(capacity: 900) { ResultEncoding.writeQuote(quote, route: nil, into: &$0) }
    }

    /// The loaded places index, or `places_not_loaded`.
    func placesIndex() throws(GeoFareError) -> PlacesIndex {
        guard let places else {
            throw GeoFareError.placesNotLoaded()
        }
        return places
    }

    /// `places.search`: `q`, `near` (optional), `limit` (1–100, default 10).
    func placesSearch(_ f: RequestFields) throws -> JSONValue {
        let index = try placesIndex()
        let q = try f.string("q")
        let near = f.has("near") ? try f.coordinate("near") : nil
        let limit = try f.optionalInt("limit", range: 1...Int64(PlacesIndex.maxLimit)) ?? 10
        return PlacesJSON.search(try index.search(q, near: near, limit: Int(limit)))
    }

    /// `places.reverse`: `at`, `radius_m` (default 200, at most 5,000).
    func placesReverse(_ f: RequestFields) throws -> JSONValue {
        let index = try placesIndex()
        let at = try f.coordinate("at")
        let radius = try f.optionalDouble("radius_m") ?? 200
        let result = try index.reverse(at, radiusMeters: radius)
        return PlacesJSON.reverse(result, area: PlaceArea(of: at, in: pricer.catalog.zones))
    }

    func split(_ f: RequestFields) throws -> JSONValue {
        let total = try f.int("total", range: 0...Int64(1e15))
        let unit = try f.optionalInt("unit", range: 1...1_000_000) ?? 1
        let method = try f.optionalString("method") ?? "equal"
        let shares: [Int64]
        switch method {
        case "equal":
            let n = try f.int("party_size", range: 1...20)
            shares = try FareSplit.equal(total: total, riders: Int(n), unit: unit)
        case "proportional", "shapley":
            let weights = try f.array("weights", maxCount: 20).enumerated().map { i, v throws(GeoFareError) -> Int64 in
                guard let w = v.int64, w >= 0 else { throw .invalidWeight(i) }
                return w
            }
            guard !weights.isEmpty else { throw GeoFareError.noWeights() }
            shares = method == "proportional"
                ? try FareSplit.proportional(total: total, soloFares: weights, unit: unit)
                : try FareSplit.shapleyOrderedDropoffs(total: total, meterAtDropoff: weights, unit: unit)
        default:
            throw GeoFareError.notOneOf("method", "equal, proportional or shapley", got: method)
        }
        return .object(["shares": .array(shares.map(JSONValue.int)), "total": .int(total), "unit": .int(unit), "method": .string(method)])
    }

    func stats() -> JSONValue {
        statsLock.lock()
        defer { statsLock.unlock() }
        return .object([
            "parties": .int(Int64(parties?.count ?? 0)),
            "uptime_s": .double((Date().timeIntervalSince(started) * 1000).rounded() / 1000),
            "requests": .int(requests),
            "fast_path": .int(fastPathRequests),
            "errors": .object(errorsByCode.mapValues { .int($0) }),
            "party_feed": parties.map { p in
                .object(["seq": .int(p.feedSeq), "idle_catch_ups": .int(Int64(p.idleCatchUps)),
                         "checks": .int(Int64(p.feedChecks)), "checks_shared": .int(Int64(p.feedChecksShared))])
            } ?? .null,
        ])
    }

    // MARK: - Responses

    func response(id: JSONValue, result: JSONValue) -> [UInt8] {
        count(error: nil)
        var out: [UInt8] = []
        out.reserveCapacity(512)
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.append(id, to: &out)
        out.append(contentsOf: #","ok":true,"result":"#.utf8)
        JSONWriter.append(result, to: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// The error response for anything thrown: a ``GeoFareError`` as it is, anything else as
    /// `internal_error`.
    func response(id: JSONValue, thrown error: any Error) -> [UInt8] {
        if let coded = error as? GeoFareError { return response(id: id, error: coded) }
        return response(id: id, error: .internalError(error))
    }

    func response(id: JSONValue, error: GeoFareError) -> [UInt8] {
        count(error: error.code.rawValue)
        var out: [UInt8] = []
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.append(id, to: &out)
        out.append(contentsOf: #","ok":false,"error":"#.utf8)
        JSONWriter.append(.object(["code": .string(error.code.rawValue), "message": .string(error.message), "field": error.field.map(JSONValue.string) ?? .null]), to: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    /// Runs `body` (the answering of one batch of requests read together) with one party-store
    /// check shared by its party ops (``LivePartyIndex/batch(_:)``).
    public func batch<T>(_ body: () throws -> T) rethrows -> T {
        guard let parties else { return try body() }
        return try parties.batch(body)
    }

    /// Called by the loop while it waits for input: a quiet worker catches up with the changes
    /// its store announced (``LivePartyIndex/catchUpIfNoticed()``).
    public func idle() {
        parties?.catchUpIfNoticed()
    }

    /// The response to a line longer than the limit (its id cannot be known).
    public func tooLarge(_ bytes: Int, limit: Int) -> [UInt8] {
        response(id: .null, error: .lineTooLarge(bytes, limit: limit))
    }

    private func count(error code: String?) {
        statsLock.lock()
        requests += 1
        if let code { errorsByCode[code, default: 0] += 1 }
        statsLock.unlock()
    }
}
