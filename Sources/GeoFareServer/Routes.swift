import Foundation
import GeoFareCore
import GeoFareGraph
import GeoFareText
import GeoFareWorker
import Hummingbird
import Logging
import NIOCore

/// The endpoints of `geofare serve` (docs/http.md).
struct Routes: Sendable {
    let runner: RequestRunner
    let metrics: ServerMetrics
    let state: ServerState
    let graphs: [RoadGraph]
    let options: HTTPServerOptions

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in Self.page(MapPage.html, type: "text/html; charset=utf-8") }
        router.get("/map.js") { _, _ in Self.page(MapPage.script, type: "text/javascript; charset=utf-8") }
        router.get("/map.css") { _, _ in Self.page(MapPage.style, type: "text/css; charset=utf-8") }
        router.get("/healthz") { _, _ in
            let ready = state.isReady
            return Self.json(ready ? #"{"status":"ready"}"# : #"{"status":"stopping"}"#, status: ready ? .ok : .serviceUnavailable)
        }
        router.get("/metrics") { _, _ in
            let text = metrics.text(partyState: await runner.partyState())
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
        router.get("/v1/roads") { request, _ in try roads(request) }
        router.post("/v1/batch") { request, context in try await batch(request, context: context) }
        router.post("/v1/pool") { request, _ in try await pool(request) }
        router.post("/v1/:op") { request, context in
            try await op(context.parameters.get("op") ?? "", request: request, context: context)
        }
    }

    // MARK: POST /v1/{op}

    func op(_ name: String, request: Request, context: BasicRequestContext) async throws -> Response {
        let body = try await Self.body(of: request, limit: options.maxBodyBytes, allowed: ["application/json"])
        let start = ContinuousClock.now
        metrics.started()
        defer { metrics.finished() }
        let answer = await runner.answer(op: name, body: body, timeoutSeconds: options.requestTimeoutSeconds)
            ?? Self.timeout(name, seconds: options.requestTimeoutSeconds)
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        metrics.record(op: WorkerOp(rawValue: name) != nil ? name : "unknown", error: answer.error, seconds: seconds)
        let status = HTTPStatusMapping.status(for: answer.error)
        if let code = answer.error, status.code >= 500 {
            context.logger.notice("answered \(name) with \(code)", metadata: ["op": .string(name), "code": .string(code.rawValue)])
        }
        return Self.json(answer.body, status: status)
    }

    static func timeout(_ name: String, seconds: Double) -> WorkerDispatcher.Answer {
        let error = GeoFareError(code: .requestTimeout, message: "no answer within \(seconds) s; the server is overloaded or the request too large")
        return WorkerDispatcher.Answer(body: errorBody(error), error: error.code)
    }

    // MARK: POST /v1/batch

    /// JSON lines in (worker requests with their `op` and `id`), JSON lines out, in order.
    func batch(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let body = try await Self.body(of: request, limit: options.maxBodyBytes,
                                       allowed: ["application/json", "application/x-ndjson", "application/jsonl", "text/plain"])
        var out: [UInt8] = []
        out.reserveCapacity(body.count * 2)
        metrics.started()
        defer { metrics.finished() }
        for line in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            let start = ContinuousClock.now
            let (answer, op) = await runner.answer(line: Array(line))
            out += answer
            metrics.record(op: op?.rawValue ?? "unknown", error: Self.errorCode(ofLine: answer), seconds: (ContinuousClock.now - start) / .seconds(1))
        }
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson"], body: .init(byteBuffer: ByteBuffer(bytes: out)))
    }

    /// The error code of a worker response line, or `nil` for a success.
    static func errorCode(ofLine line: [UInt8]) -> ErrorCode? {
        guard line.starts(with: Array(#"{"id":"#.utf8)), let range = line.firstRange(of: Array(#","ok":false,"error":{"code":""#.utf8)) else { return nil }
        let rest = line[range.upperBound...]
        guard let end = rest.firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return ErrorCode(rawValue: String(decoding: rest[..<end], as: UTF8.self))
    }

    // MARK: POST /v1/pool

    /// `POST /v1/pool`: who rides together among up to 500 riders (`riders`: `[{id, from, to,
    /// depart_at, seats?}]`, `delay_s`, `max_riders`), as `geofare pool` plans them
    /// (``PoolPlanner``): the groups with their stops, total and shares, and each rider's outcome.
    func pool(_ request: Request) async throws -> Response {
        let body = try await Self.body(of: request, limit: options.maxBodyBytes, allowed: ["application/json"])
        let start = ContinuousClock.now
        let answer = PoolEndpoint.answer(body, pricer: runner.dispatcher.pricer)
        metrics.record(op: "pool", error: answer.error, seconds: (ContinuousClock.now - start) / .seconds(1))
        return Self.json(answer.body, status: HTTPStatusMapping.status(for: answer.error))
    }

    // MARK: GET /v1/roads

    /// `GET /v1/roads?bbox=W,S,E,N&zoom=Z`: the roads of the loaded graphs in the box, thinned
    /// and simplified for the zoom (``RoadGraph/roads(in:zoom:limit:)``).
    func roads(_ request: Request) throws -> Response {
        let query = request.uri.queryParameters
        let parts = (query.get("bbox") ?? "").split(separator: ",").map { Double($0) }
        guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2], let n = parts[3] else {
            return Self.json(Self.errorBody(GeoFareError(code: .invalidBbox, message: "bbox is west,south,east,north in degrees", field: "bbox")),
                             status: .badRequest)
        }
        guard let zoomText = query.get("zoom"), let zoom = Int(zoomText), (0...22).contains(zoom) else {
            return Self.json(Self.errorBody(GeoFareError(code: .outOfRange, message: "zoom is an integer 0...22", field: "zoom")), status: .badRequest)
        }
        let bbox: BoundingBox
        do { bbox = try BoundingBox(west: w, south: s, east: e, north: n) } catch {
            return Self.json(Self.errorBody(error.prefixed("bbox")), status: .badRequest)
        }
        var w8 = ByteWriter(capacity: 1 << 16)
        defer { w8.deallocate() }
        var truncated = false
        var lines: [RoadLine] = []
        for graph in graphs {
            let found = graph.roads(in: bbox, zoom: zoom, limit: 20_000 - lines.count)
            lines += found.lines
            truncated = truncated || found.truncated
        }
        w8.append(#"{"graphs":"#); w8.appendDecimal(Int64(graphs.count))
        w8.jsonKey("roads")
        w8.jsonArray(lines) { w, line in
            w.append(#"{"class":"#); w.appendDecimal(Int64(line.roadClass))
            w.jsonKey("points")
            w.jsonArray(line.points) { w, c in
                w.append(UInt8(ascii: "[")); w.append(c.longitude, decimals: 6); w.append(UInt8(ascii: ","))
                w.append(c.latitude, decimals: 6); w.append(UInt8(ascii: "]"))
            }
            w.append(UInt8(ascii: "}"))
        }
        w8.jsonKey("truncated"); w8.jsonBool(truncated)
        w8.jsonKey("zoom"); w8.appendDecimal(Int64(zoom))
        w8.append(UInt8(ascii: "}"))
        return Self.json(Array(w8.bytes), status: .ok)
    }

    // MARK: Helpers

    /// The request's body, at most `limit` bytes, after checking its media type.
    /// - Throws: ``HTTPBodyError`` (answered 413 or 415 by ``JSONErrorMiddleware``).
    static func body(of request: Request, limit: Int, allowed: [String]) async throws -> [UInt8] {
        if let type = request.headers[.contentType] {
            let media = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            guard allowed.contains(media) || media.hasSuffix("+json") else { throw HTTPBodyError.unsupportedMediaType(media) }
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit { throw HTTPBodyError.tooLarge(limit: limit) }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Array(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw HTTPBodyError.tooLarge(limit: limit)
        }
    }

    /// `{"ok":false,"error":{"code","message","field"}}`: the worker's error object.
    static func errorBody(_ error: GeoFareError) -> [UInt8] {
        var out = Array(#"{"ok":false,"error":"#.utf8)
        JSONWriter.append(.object(["code": .string(error.code.rawValue), "message": .string(error.message),
                                   "field": error.field.map(JSONValue.string) ?? .null]), to: &out)
        out.append(UInt8(ascii: "}"))
        return out
    }

    static func json(_ text: String, status: HTTPResponse.Status) -> Response { json(Array(text.utf8), status: status) }

    static func json(_ bytes: [UInt8], status: HTTPResponse.Status) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    static func page(_ text: String, type: String) -> Response {
        Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

/// A body refused before it is read to its end.
enum HTTPBodyError: Error {
    case tooLarge(limit: Int)
    case unsupportedMediaType(String)
}
