import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import GeoFareText

/// `fare`: a trip by coordinates (read as `route` reads it), or a known trip (`trip` totals or
/// `segments`, with or without its ends), priced by the lane's ``TripPricer``; and the fast
/// path's answer, through the same pricing and encoder.
extension WorkerDispatcher {
    /// Answers a request read by the fast path (``FastFareRequest``): the same pricing and the
    /// same bytes as the general `fare` op, appended to `w`, priced by the given lane.
    /// - Returns: `nil` for a success, which the caller counts (``countSuccesses(_:)``), else
    ///   the error's code (errors are counted here).
    func respond(to fast: FastFareRequest, lane: Int, into w: inout ByteWriter) -> ErrorCode? {
        do {
            let (quote, route) = try self.lane(lane).pricer.quote(try fast.call.workOrder(now: Date()))
            w.append(#"{"id":"#)
            w.append(fast.idToken)
            w.append(#","ok":true,"result":"#)
            FareJSON.write(quote, route: fast.call.includeRoute ? route : nil, into: &w)
            w.append("}\n")
            return nil
        } catch {
            var parsed: JSONValue = .null
            if let v = try? fast.idToken.withUnsafeBytes({ try JSONParser.parse($0) }) { parsed = v }
            w.append(response(id: parsed, error: error))
            return error.code
        }
    }

    /// ``respond(to:into:)`` as a new array.
    func respond(to fast: FastFareRequest) -> [UInt8] {
        var w = ByteWriter(capacity: fast.call.includeRoute ? 1400 : 700)
        defer { w.deallocate() }
        if respond(to: fast, lane: 0, into: &w) == nil { countSuccesses(1) }
        return Array(w.bytes)
    }

    /// `fare`: the call read (``FareCall``), its work order priced by the dispatcher's pricer.
    func fare(_ f: RequestFields) throws -> JSONValue {
        let call = try FareCall(reading: f)
        let (quote, route) = try pricer.quote(try call.workOrder(now: Date()))
        let includeRoute = call.includeRoute
        return JSONValue.raw(capacity: includeRoute ? 1400 : 900) { FareJSON.write(quote, route: includeRoute ? route : nil, into: &$0) }
    }
}
