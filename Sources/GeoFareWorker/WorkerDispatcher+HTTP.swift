import GeoFareCore
import GeoFareText

/// The HTTP form of a request (`geofare serve`'s `POST /v1/{op}`): the op named by the path, its
/// fields as the JSON body. Answered by the same code as a worker line, so the `result` or
/// `error` object is byte for byte the worker's.
extension WorkerDispatcher {
    /// An answer in the HTTP form: the worker's response object without its `id`
    /// (`{"ok":true,"result":…}` or `{"ok":false,"error":…}`), and the error's code when it failed.
    public struct Answer: Sendable {
        public var body: [UInt8]
        public var error: ErrorCode?

        public init(body: [UInt8], error: ErrorCode?) { (self.body, self.error) = (body, error) }
    }

    /// Answers op `name` with the JSON object `body` as its fields: what the worker answers the
    /// line `{"op": name, …body}`. An `id` in the body is accepted and not echoed; an `op` in the
    /// body must name the same op. Party ops must be called in order on one thread, as the
    /// worker's loop does (``WorkerOp/runsInOrder``); the others on any thread.
    /// - Returns: the answer; its `error` is `nil` for a success.
    public func respond(op name: String, body: UnsafeRawBufferPointer) -> Answer {
        // The fast path's reading of a plain two-point fare, answered by the worker's fast answer.
        if name == "fare", let fast = FastFareRequest.decode(body, names: lane(0).tariffNames, body: true) {
            var w = ByteWriter(capacity: fast.call.includeRoute ? 1400 : 700)
            defer { w.deallocate() }
            let error = respond(to: fast, lane: 0, into: &w)
            countFastPath(1)
            if error == nil { countSuccesses(1) }
            return Answer(body: Self.withoutID(Array(w.bytes)), error: error)
        }
        do {
            let parsed = try JSONParser.parse(body)
            guard case var .object(o) = parsed else { throw GeoFareError.requestNotObject(parsed) }
            if let given = o["op"], given != .string(name) { throw GeoFareError.opDiffersFromPath(given, path: name) }
            o["op"] = .string(name)
            o["id"] = nil
            let op = try WorkerOp.named(name)
            try RequestSchema.check(o, op: op)
            return Answer(body: Self.withoutID(response(id: .null, result: try run(op, RequestFields(o)))), error: nil)
        } catch {
            let coded = error as? GeoFareError ?? .internalError(error)
            return Answer(body: Self.withoutID(response(id: .null, error: coded)), error: coded.code)
        }
    }

    /// A response line for `"id": null` as an object without the id and without its newline.
    static func withoutID(_ line: [UInt8]) -> [UInt8] {
        let prefix = Array(#"{"id":null,"#.utf8)
        var out = line
        if out.last == UInt8(ascii: "\n") { out.removeLast() }
        guard out.starts(with: prefix) else { return out }
        return [UInt8(ascii: "{")] + out[prefix.count...]
    }
}
