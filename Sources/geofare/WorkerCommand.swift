import ArgumentParser
import Foundation
import GeoFareFare
import GeoFareStore
import GeoFareWorker

/// Options of every command that opens the party store.
struct StoreOptions: ParsableArguments {
    @Option(help: "The SQLite party store (created if missing); :memory: for a private in-memory one.")
    var db = "geofare.db"

    @Flag(help: "fsync every commit (survives an OS crash, not only a process crash).")
    var syncFull = false

    func open() throws -> PartyStore {
        do { return try PartyStore(path: db, durability: syncFull ? .full : .normal) } catch {
            StandardError.print("geofare: \(error.message) [\(error.code)]")
            throw ExitCode(74)
        }
    }

    func service() throws -> PartyService {
        let store = try open()
        do { return try PartyService(store: store) } catch {
            StandardError.print("geofare: \(error)")
            throw ExitCode(74)
        }
    }
}

/// `geofare worker`: the JSON-lines worker a backend spawns.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Answer JSON requests, one per line, on stdin/stdout (protocol: README.md, The worker protocol).",
        discussion: """
        Every input line gets exactly one response line, in input order; stdout carries nothing
        else, logs go to stderr. End of input: finish, flush, close the database, exit 0.
        SIGTERM/SIGINT: stop reading, answer what was read, exit 0.
        Example: echo '{"id":1,"op":"ping"}' | geofare worker
        """
    )

    @OptionGroup var store: StoreOptions
    @OptionGroup var data: DataOptions
    @Option(help: "A longer line is answered request_too_large and skipped.") var maxLineBytes = 1 << 20
    @Option(help: "Threads for stateless requests (default: the number of cores).") var threads: Int?

    func run() throws {
        let pricer = try data.pricer()
        let parties = try store.service()
        let lanes = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        // One pricer per loop thread with its own meters (TripPricer.lane()): shared meters would
        // have their reference counts bounce between the cores on every request.
        let lanePricers = lanes > 1 ? (0..<lanes).map { _ in pricer.lane() } : []
        let dispatcher = WorkerDispatcher(pricer: pricer, parties: parties, lanePricers: lanePricers)
        WorkerLoop.installSignalHandlers()
        StandardError.print("geofare worker: protocol \(WorkerDispatcher.protocolVersion), \(parties.count) parties in \(store.db), ready")
        let loop = WorkerLoop(dispatcher: dispatcher, maxLineBytes: max(64, maxLineBytes), threads: lanes)
        let status = loop.run()
        if status != 0 { throw ExitCode(status) }
    }
}
