import ArgumentParser
import Dispatch
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFareGraph
import GeoFareParties
import GeoFarePlaces
import GeoFareRoute
import GeoFareServer
import GeoFareWorker
import Logging

/// `geofare serve`: the worker's protocol over HTTP, with metrics, a health check and a map page.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the protocol over HTTP: POST /v1/{op}, /v1/batch, /healthz, /metrics and a map page at / (docs/http.md).",
        discussion: """
        Every POST /v1/{op} takes the op's JSON request as its body and answers the worker's result or
        error object (200, 400, 404, 413, 415, 503). Loads the data, opens the store, then listens;
        SIGTERM/SIGINT: stop accepting, answer what is in flight, close the store, exit 0.
        Example: geofare serve --port 8080 --graph manhattan.graph
        """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var data: DataOptions
    @Option(help: "The address to listen on (0.0.0.0 for every interface).") var host = "127.0.0.1"
    @Option(help: "The TCP port (0: a free one; the port is printed once listening).") var port = 8080
    @Option(help: ArgumentHelp("A places index (geofare places build) for places.search and places.reverse.", valueName: "file")) var places: String?
    @Option(help: "The largest request body, bytes (larger: 413).") var maxBodyBytes = 1 << 20
    @Option(help: "Seconds a request may wait for its answer (longer: 503 request_timeout).") var requestTimeout = 30.0
    @Option(help: "Connections open at once (more wait to be accepted).") var maxConnections = 1024
    @Option(help: "Seconds a graceful stop may take to answer what is in flight.") var shutdownGrace = 8.0
    @Option(help: "Log level on stderr: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port is 0...65535, got \(port)") }
        guard maxBodyBytes >= 1024 else { throw ValidationError("--max-body-bytes is at least 1024") }
        guard requestTimeout > 0, requestTimeout.isFinite else { throw ValidationError("--request-timeout is a positive number of seconds") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections is at least 1") }
        guard shutdownGrace > 0, shutdownGrace.isFinite else { throw ValidationError("--shutdown-grace is a positive number of seconds") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level is trace, debug, info, notice, warning, error or critical") }
    }

    func run() throws {
        let pricer = try data.pricer()
        let parties = try store.service()
        var placesIndex: PlacesIndex?
        if let places {
            do { placesIndex = try PlacesIndex(path: places) } catch {
                Diagnostics.print("geofare: \(error.description) [\(error.code)]")
                throw GeoFareExit.dataError
            }
        }
        let threadPricers = (0..<max(1, ProcessInfo.processInfo.activeProcessorCount)).map { _ in pricer.threadCopy() }
        let dispatcher = WorkerDispatcher(pricer: pricer, parties: parties, threadPricers: threadPricers, places: placesIndex)
        let graphs = ((pricer.estimator as? GraphRouteEstimator)?.graphs ?? []).map(\.graph)
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "geofare.serve")
        var options = HTTPServerOptions()
        (options.host, options.port, options.maxBodyBytes) = (host, port, maxBodyBytes)
        (options.requestTimeoutSeconds, options.maxConnections, options.shutdownGraceSeconds) = (requestTimeout, maxConnections, shutdownGrace)
        let location = store.location, count = parties.count, host = self.host

        // The server runs on Swift concurrency; this (main) thread, which is not one of its pool's,
        // waits for it to stop.
        let done = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Task.detached {
            do {
                try await GeoFareHTTPServer.run(dispatcher: dispatcher, graphs: graphs, options: options, logger: logger) { port in
                    Diagnostics.print("geofare serve: listening on http://\(host):\(port) (protocol \(WorkerDispatcher.protocolVersion), \(count) parties in \(location), \(graphs.count) graphs)")
                }
            } catch {
                let coded = error as? GeoFareError ?? GeoFareError(code: .internalError, message: "\(error)")
                outcome.fail("\(coded.message) [\(coded.code)]")
            }
            done.signal()
        }
        done.wait()
        if let failure = outcome.failure {
            Diagnostics.print("geofare: serve: \(failure)")
            throw GeoFareExit.dataError
        }
        Diagnostics.print("geofare serve: stopped; \(parties.count) parties in \(location)")
    }
}

/// The server task's failure, read by the main thread after it stopped.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var message: String?
    func fail(_ text: String) { lock.withLock { message = text } }
    var failure: String? { lock.withLock { message } }
}
