import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFarePlaces
#if PostgreSQL
import GeoFarePostgres
#endif
import GeoFareParties
import GeoFareSQLite
import GeoFareWorker

/// Options of every command that opens the party store.
struct StoreOptions: ParsableArguments {
    @Option(help: "The SQLite party store (created if missing); :memory: for a private in-memory one.")
    var db = "geofare.db"

    @Option(help: ArgumentHelp(
        "The party store as a URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (shared by workers on several hosts; ?host=/dir for a Unix socket; sslmode=, sslrootcert=, connect_timeout=SECONDS, statement_timeout=SECONDS as in docs/storage.md; PGPASSWORD when the URL has no password), or a SQLite path as --db takes.",
        valueName: "url"))
    var store: String?

    @Flag(help: "fsync every commit (survives an OS crash, not only a process crash). SQLite only: PostgreSQL's own settings decide.")
    var syncFull = false

    /// Where the store is, for messages: the path, or the URL without its password.
    var location: String {
        guard let store else { return db }
        return PostgresLocation.isPostgresURL(store) ? PostgresLocation.redact(store) : store
    }

    func validate() throws {
        if store != nil && db != "geofare.db" { throw ValidationError("give --store or --db, not both") }
    }

    /// Opens the store: exit 74 with the error (never the password) on standard error when it
    /// cannot be opened, 64 for a malformed URL (or a postgres:// URL in a build without the
    /// PostgreSQL trait).
    func open() throws -> any PartyStore {
        do throws(GeoFareError) {
            if let store, PostgresLocation.isPostgresURL(store) {
                #if PostgreSQL
                return try PostgresPartyStore(url: store)
                #else
                throw .postgresNotBuilt(PostgresLocation.redact(store))
                #endif
            }
            return try SQLitePartyStore(path: store ?? db, durability: syncFull ? .full : .normal)
        } catch {
            Diagnostics.print("geofare: \(error.message) [\(error.code)]")
            throw ExitCode(error.code == .invalidValue ? 64 : 74)
        }
    }

    func service() throws -> LivePartyIndex {
        let store = try open()
        // Catch-up reloads are reported on standard error (never stdout: it carries responses).
        do { return try LivePartyIndex(store: store, log: { Diagnostics.print("geofare worker: \($0)") }) } catch {
            Diagnostics.print("geofare: \(error)")
            throw ExitCode(74)
        }
    }
}

/// `geofare worker`: the JSON-lines worker a backend spawns.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Answer JSON requests, one per line, on stdin/stdout (protocol: docs/protocol.md).",
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
    @Option(help: ArgumentHelp("A places index (geofare places build) for places.search and places.reverse.", valueName: "file")) var places: String?

    func run() throws {
        let pricer = try data.pricer()
        let parties = try store.service()
        let lanes = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
        // One pricer per loop thread with its own meters (TripPricer.threadCopy()): shared meters would
        // have their reference counts bounce between the cores on every request.
        let threadPricers = lanes > 1 ? (0..<lanes).map { _ in pricer.threadCopy() } : []
        var placesIndex: PlacesIndex?
        if let places {
            do { placesIndex = try PlacesIndex(path: places) } catch {
                Diagnostics.print("geofare: \(error.description) [\(error.code)]")
                throw GeoFareExit.dataError
            }
        }
        let dispatcher = WorkerDispatcher(pricer: pricer, parties: parties, threadPricers: threadPricers, places: placesIndex)
        WorkerLoop.installSignalHandlers()
        Diagnostics.print("geofare worker: protocol \(WorkerDispatcher.protocolVersion), \(parties.count) parties in \(parties.store.location), ready")
        // GEOFARE_FAST_PATH=off: every line through the general path (the same answers; for
        // agreement tests and before/after benchmarks).
        let fastPath = ProcessInfo.processInfo.environment["GEOFARE_FAST_PATH"] != "off"
        let loop = WorkerLoop(dispatcher: dispatcher, maxLineBytes: max(64, maxLineBytes), threads: lanes, fastPath: fastPath)
        let status = loop.run()
        if status != 0 { throw ExitCode(status) }
    }
}
