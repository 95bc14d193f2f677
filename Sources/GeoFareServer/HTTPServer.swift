import Foundation
import GeoFareCore
import GeoFareGraph
import GeoFareText
import GeoFareWorker
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// Where `geofare serve` listens and its limits.
public struct HTTPServerOptions: Sendable {
    /// The address to bind (`127.0.0.1`; `0.0.0.0` for every interface).
    public var host = "127.0.0.1"
    /// The TCP port; 0 takes a free one (reported to `onReady`).
    public var port = 8080
    /// The largest request body read, bytes (larger: HTTP 413, `request_too_large`).
    public var maxBodyBytes = 1 << 20
    /// The longest a request waits for its answer, seconds (longer: HTTP 503, `request_timeout`).
    public var requestTimeoutSeconds = 30.0
    /// Connections open at once; more wait to be accepted.
    public var maxConnections = 1024
    /// How long a graceful stop may take to answer what is in flight, seconds.
    public var shutdownGraceSeconds = 8.0

    public init() {}
}

/// `geofare serve`: the worker's protocol over HTTP/1.1 (Hummingbird), with a health check,
/// Prometheus metrics, the roads of the loaded graphs and a map page. See docs/http.md.
///
/// Every `POST /v1/{op}` is answered by the same ``WorkerDispatcher`` code as a worker line, so
/// its `result` or `error` object is the worker's byte for byte; party ops run in arrival order on
/// one queue and are acknowledged only after their commit, as in the worker.
public enum GeoFareHTTPServer {
    /// Serves until SIGTERM or SIGINT, then stops gracefully: stops accepting, answers what is in
    /// flight (within ``HTTPServerOptions/shutdownGraceSeconds``), waits for the party queue, and
    /// returns (the caller then closes the store).
    /// - Parameters:
    ///   - graphs: the road graphs `GET /v1/roads` draws (those the dispatcher routes on).
    ///   - onReady: called once the server listens, with its port.
    /// - Throws: ``GeoFareError`` `unavailable` (field `port`) when the server cannot listen (the
    ///   address in use, a host that is not this machine's) or fails while serving.
    public static func run(dispatcher: WorkerDispatcher, graphs: [RoadGraph], options: HTTPServerOptions, logger: Logger,
                           onReady: @escaping @Sendable (Int) -> Void) async throws(GeoFareError) {
        let runner = RequestRunner(dispatcher: dispatcher)
        let metrics = ServerMetrics()
        let state = ServerState()
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: JSONErrorMiddleware(metrics: metrics))
        let routes = Routes(runner: runner, metrics: metrics, state: state, graphs: graphs, options: options)
        routes.register(on: router)

        let app = Application(
            router: router,
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "geofare",
                                 availableConnectionsDelegate: MaximumAvailableConnections(options.maxConnections)),
            onServerRunning: { channel in
                state.setReady()
                onReady(channel.localAddress?.port ?? options.port)
            },
            logger: logger
        )
        var configuration = ServiceGroupConfiguration(
            // Stopped in reverse order: the watch first (health turns 503), then the server.
            services: [.init(service: app), .init(service: ShutdownWatch(state: state, runner: runner), successTerminationBehavior: .ignore)],
            gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(options.shutdownGraceSeconds)
        do { try await ServiceGroup(configuration: configuration).run() } catch {
            throw GeoFareError(code: .unavailable, message: "cannot serve on \(options.host):\(options.port): \(error)", field: "port")
        }
        await runner.drainParties()
    }
}

/// Whether the server is ready (listening, data loaded) or stopping: what `/healthz` says.
final class ServerState: @unchecked Sendable {
    private let lock = NSLock()
    private var ready = false
    private var stopping = false

    func setReady() { lock.withLock { ready = true } }
    func setStopping() { lock.withLock { stopping = true } }
    var isReady: Bool { lock.withLock { ready && !stopping } }
    var isStopping: Bool { lock.withLock { stopping } }
}

/// Marks the server as stopping when the graceful stop begins (so `/healthz` turns 503 and a load
/// balancer stops sending), and lets a quiet server catch up with a shared store's changes.
struct ShutdownWatch: Service {
    let state: ServerState
    let runner: RequestRunner

    func run() async throws {
        // Every second until the stop: a quiet server still applies other processes' writes.
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            runner.idle()
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .seconds(1)) }
        }
        state.setStopping()
    }
}
