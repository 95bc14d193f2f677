import Foundation
import GeoFareCore
import Prometheus

/// What `GET /metrics` reports, in Prometheus' text format (swift-prometheus):
/// - `geofare_requests_total{op, code}`: answered requests by op and outcome (`ok` or the error
///   code), HTTP ops and batch lines alike;
/// - `geofare_request_duration_seconds{op}`: a histogram of the time to answer each op;
/// - `geofare_http_responses_total{status}`: responses by HTTP status;
/// - `geofare_in_flight_requests`: requests being answered now;
/// - `geofare_parties`, `geofare_party_feed_seq`, `geofare_store_up` (1 when the store answered its
///   last check): the party store's state, read when scraped.
final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let handles = LockedCache()
    private let inFlight: Gauge
    private let parties: Gauge
    private let feedSeq: Gauge
    private let storeUp: Gauge
    /// Latency buckets, seconds: 50 µs to 10 s.
    static let buckets: [Duration] = [
        .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5),
        .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
        .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(10),
    ]

    static var requests: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "geofare", metricName: "requests", unitName: "total", helpText: "Answered requests by op and outcome (ok or the error code).")
    }
    static var duration: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "geofare", metricName: "request_duration", unitName: "seconds", helpText: "Time to answer a request, by op.")
    }
    static var responses: MetricNameDescriptor {
        MetricNameDescriptor(namespace: "geofare", metricName: "http_responses", unitName: "total", helpText: "HTTP responses by status.")
    }

    init() {
        let registry = self.registry
        func gauge(_ name: String, _ unit: String, _ help: String) -> Gauge {
            registry.makeGauge(descriptor: MetricNameDescriptor(namespace: "geofare", metricName: name, unitName: unit, helpText: help))
        }
        inFlight = gauge("in_flight", "requests", "Requests being answered now.")
        parties = gauge("parties", "", "Parties in the store, as this server's index holds them.")
        feedSeq = gauge("party_feed", "seq", "The last change of the store's feed this server has applied.")
        storeUp = gauge("store", "up", "1 when the party store answered its last check, else 0.")
    }

    /// Counts one answered request of `op` with its outcome (`nil`: ok) and time.
    func record(op: String, error: ErrorCode?, seconds: Double) {
        let code = error?.rawValue ?? "ok"
        // The handles of each (op, code) once: the registry's look-up by name and labels is the
        // larger part of a metric's cost.
        let (counter, histogram) = handles.withLock { cache -> (Counter, DurationHistogram) in
            let key = op + "\u{0}" + code
            if let h = cache[key] { return h }
            let h = (registry.makeCounter(descriptor: Self.requests, labels: [("op", op), ("code", code)]),
                     registry.makeDurationHistogram(descriptor: Self.duration, labels: [("op", op)], buckets: Self.buckets))
            cache[key] = h
            return h
        }
        counter.increment()
        histogram.recordNanoseconds(Int64(seconds * 1e9))
    }

    /// Counts one HTTP response by its status.
    func record(status: Int) {
        registry.makeCounter(descriptor: Self.responses, labels: [("status", String(status))]).increment()
    }

    func started() { inFlight.increment() }
    func finished() { inFlight.decrement() }

    /// The text to serve, after reading the store's state.
    func text(partyState: (parties: Int, feedSeq: Int64, storeUp: Bool)?) -> [UInt8] {
        if let s = partyState {
            parties.set(to: Double(s.parties))
            feedSeq.set(to: Double(s.feedSeq))
            storeUp.set(to: s.storeUp ? 1.0 : 0.0)
        }
        return registry.emitToBuffer()
    }
}

/// The metric handles by (op, code), under a lock.
private final class LockedCache: @unchecked Sendable {
    private let lock = NSLock()
    private var cache: [String: (Counter, DurationHistogram)] = [:]
    func withLock<T>(_ body: (inout [String: (Counter, DurationHistogram)]) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&cache)
    }
}
