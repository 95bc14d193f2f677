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
    /// 3: a field an op does not declare is refused (`unknown_field`).
    /// 4: `version` gives `tariff_count` and `zone_count`; its lists only with `"catalog": true`.
    public static let protocolVersion = 4
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

    func run(_ op: WorkerOp, _ f: RequestFields) throws -> JSONValue {
        if op.needsPartyStore {
            guard let parties else { throw GeoFareError.noPartyStore() }
            return try runPartyOp(op, f, on: parties)
        }
        switch op {
        case .ping: return .object(["pong": .bool(true)])
        case .version: return try version(f)
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

    /// `stats`: what this worker answered, and its party feed.
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
