import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareData
import GeoFareGraph
import GeoFareGraphBuild
import GeoFareOSM

/// `geofare graph build|info`: road graphs from OpenStreetMap.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Build a road graph from an OpenStreetMap extract, or describe one.",
        subcommands: [GraphBuildCommand.self, GraphInfoCommand.self]
    )
}

/// `geofare graph build REGION.osm.pbf -o REGION.graph`.
struct GraphBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Read an OSM PBF extract with a road profile, contract it for both metrics and write one graph file.",
        discussion: """
        Example: geofare graph build seoul.osm.pbf -o seoul.graph
        Keeps the roads the profile drives (Data/route/profiles/<id>.json), the largest strongly connected
        part, and contraction hierarchies for the fastest and shortest metrics. Prints counts and timings.
        The file carries the ODbL attribution of the OpenStreetMap data.
        """
    )

    @Argument(help: "The OpenStreetMap extract (.osm.pbf).") var input: String?
    @Option(help: "Instead of an extract: a synthetic city grid of SIDE × SIDE nodes (316 gives about 100,000), for speed benchmarks at sizes no shared extract has.")
    var syntheticCity: Int?
    @Option(name: .shortAndLong, help: "The graph file to write.") var output: String
    @Option(help: ArgumentHelp("Leave an uncontracted core once the remaining graph has more arcs (in + out) per node than this (0: contract every node).",
                               valueName: "ARCS")) var coreDegree = ContractionHierarchy.coreMeanDegree
    @Option(help: "The road profile id (Data/route/profiles/<id>.json) or a profile JSON file.") var profile = "car"
    @OptionGroup var data: DataOptions
    @Flag(help: "No progress or counts on stderr.") var quiet = false

    func validate() throws {
        guard (input == nil) != (syntheticCity == nil) else { throw ValidationError("give an extract or --synthetic-city, not both") }
        if let side = syntheticCity, !(2...4000).contains(side) { throw ValidationError("--synthetic-city takes a side of 2 to 4000 nodes") }
        guard coreDegree >= 0 else { throw ValidationError("--core-degree takes 0 (no core) or more arcs per node") }
    }

    func run() throws {
        let roadProfile: RoadProfile
        do {
            if profile.hasSuffix(".json") {
                roadProfile = try RoadProfile(json: Array(try Data(contentsOf: URL(fileURLWithPath: profile))))
            } else {
                roadProfile = try RoadProfile.named(profile, catalog: data.catalog)
            }
        } catch let error as GeoFareError {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw GeoFareExit.dataError
        } catch {
            Diagnostics.print("geofare: cannot read the profile '\(profile)': \(error.localizedDescription) [\(ErrorCode.invalidProfile.rawValue)]")
            throw GeoFareExit.dataError
        }
        do {
            try build(with: roadProfile)
        } catch let error as GeoFareError {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw GeoFareExit.dataError
        }
    }

    func say(_ line: String) {
        if !quiet { Diagnostics.print(line) }
    }

    func build(with roadProfile: RoadProfile) throws {
        let start = Date()
        let bar = BuildProgress(enabled: !quiet)
        do {
            let network: RoadNetwork, report: ImportReport
            if let side = syntheticCity {
                say("geofare graph build: a synthetic \(side) × \(side) city grid")
                network = SyntheticNetworks.city(seed: 1, side: side)
                report = ImportReport()
                say("  network: \(network.nodeCount) nodes, \(network.arcCount) arcs (synthetic)")
            } else {
                let input = input ?? ""
                say("geofare graph build: reading \(input) with profile \(roadProfile.id)")
                (network, report) = try OSMRoadNetworkBuilder(profile: roadProfile).build(pbfAt: URL(fileURLWithPath: input)) { phase, done, total in
                    bar.show(total > 0 ? "import: reading the PBF (\(phase)): \(100 * done / total) % (\(done) of \(total) blocks)" : "import: \(phase) …",
                             force: done == 0)
                }
                bar.finish()
                say("  read \(report.nodesRead) nodes, \(report.waysRead) ways, \(report.relationsRead) relations; kept \(report.waysKept) ways")
                say("  network: \(report.nodes) nodes, \(report.arcs) arcs (largest strongly connected part of \(report.nodesBeforeComponent) nodes); \(report.loopsSplit) closed loops kept (split at their middle node)")
                say("  turn restrictions: \(GraphBuildCommand.restrictionLine(report))")
                for p in report.phaseMilliseconds { say("  \(p.name): \(Int(p.milliseconds)) ms") }
            }
            // the two metrics are independent: one thread each, and the one still running when the
            // other finishes spreads its witness searches over the core that frees (ContractionLanes)
            let metrics = GraphMetric.allCases
            let tally = ContractionProgress(total: network.nodeCount, metrics: metrics.map(\.rawValue), bar: bar, quiet: quiet)
            let built = try ContractionHierarchy.contractConcurrently(network: network, metrics: metrics,
                                                                  coreDegree: coreDegree > 0 ? coreDegree : Int.max, progress: tally.update)
            bar.finish()
            var hierarchies: [GraphMetric: ContractionHierarchy] = [:]
            for (k, ch) in built.enumerated() {
                hierarchies[metrics[k]] = ch
                let perArc = Double(ch.edgeCount) / Double(max(network.arcCount, 1))
                let ms = Int(((tally.finished(k) ?? Date()).timeIntervalSince(tally.started)) * 1000)
                say("  contraction (\(metrics[k].rawValue)): \(ms) ms (its own thread, and the cores the others leave); \(ch.edgeCount) hierarchy arcs, \(String(format: "%.2f", perArc)) per network arc; core \(ch.coreNodeCount) nodes")
            }
            let stamp = report.osmTimestampSeconds > 0
                ? ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(report.osmTimestampSeconds))) : ""
            var meta = GraphMetadata(profileID: roadProfile.id, profileFingerprint: roadProfile.fingerprint, osmTimestamp: stamp,
                                     buildTime: ISO8601DateFormatter().string(from: Date()))
            meta.signalPenaltySeconds = roadProfile.trafficSignalPenaltySeconds
            if syntheticCity == nil {
                meta.turnRestrictionsApplied = report.restrictionsApplied
                meta.turnRestrictionsViaWay = report.restrictionsAppliedViaWay
                meta.conditionalRestrictionsLeftOut = report.restrictionsConditional
            }
            try GraphFileWriter.write(network: network, hierarchies: hierarchies, metadata: meta, to: output)
            let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
            say("  wrote \(output): \(size) bytes in \(Int(Date().timeIntervalSince(start) * 1000)) ms in all; peak RSS \(GraphBuildCommand.peakRSSMiB()) MiB")
        }
    }

    /// What happened to the turn restrictions: applied (via way among them), conditional ones
    /// left out, the others skipped by reason.
    static func restrictionLine(_ report: ImportReport) -> String {
        let skipped = report.restrictionsSkipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return "\(report.restrictionsApplied) applied (\(report.restrictionsAppliedViaWay) via ways, \(report.restrictionNodeCopies) node copies); "
            + "\(report.restrictionsConditional) conditional (time-dependent) left out"
            + (skipped.isEmpty ? "" : "; skipped: \(skipped)")
    }

    /// The process's peak resident memory (VmHWM), MiB.
    static func peakRSSMiB() -> Int {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in s.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return (line.split(separator: " ").compactMap { Int($0) }.first ?? 0) / 1024
        }
        return 0
    }
}

/// `geofare graph info FILE`.
struct GraphInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Describe a graph file: where it came from, its box and its counts.")

    @Argument(help: "The graph file.") var file: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let graph: RoadGraph
        do { graph = try RoadGraph(path: file) } catch {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw GeoFareExit.dataError
        }
        let m = graph.metadata
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(m), as: UTF8.self))
            return
        }
        print("""
        \(file)
          profile      \(m.profileID) (\(m.profileFingerprint))
          OSM data     \(m.osmTimestamp.isEmpty ? "timestamp unknown" : m.osmTimestamp)
          built        \(m.buildTime)
          box          \(m.west),\(m.south),\(m.east),\(m.north) (W,S,E,N)
          nodes        \(m.nodeCount)
          arcs         \(m.arcCount)
          hierarchies  \(GraphMetric.allCases.map { let h = graph.hierarchySize($0); return "\($0.rawValue) \(h.arcs) arcs, core \(h.coreNodes) nodes" }.joined(separator: "; "))
          restrictions \(GraphInfoCommand.restrictionLine(m))
          attribution  \(m.attribution)
        """)
    }
}

extension GraphInfoCommand {
    static func restrictionLine(_ m: GraphMetadata) -> String {
        guard let applied = m.turnRestrictionsApplied else { return "not recorded (a file built before restrictions were counted)" }
        return "\(applied) turn restrictions applied (\(m.turnRestrictionsViaWay ?? 0) via ways); "
            + "\(m.conditionalRestrictionsLeftOut ?? 0) conditional (time-dependent) left out"
    }
}

/// The build's live progress on stderr: one line redrawn in place, only when stderr is a terminal
/// and not `--quiet` (the counts and timings are printed either way). Safe to call from the two
/// contraction threads.
final class BuildProgress: @unchecked Sendable {
    let enabled: Bool
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private var drew = false

    init(enabled: Bool) {
        self.enabled = enabled && isatty(2) == 1
    }

    /// Draws `text` unless the line was drawn less than 0.2 s ago; `force` draws anyway (a new phase).
    func show(_ text: @autoclosure () -> String, force: Bool = false) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        let now = Date()
        guard force || now.timeIntervalSince(lastDraw) >= 0.2 else { return }
        lastDraw = now
        drew = true
        FileHandle.standardError.write(Data("\r\u{1B}[K  \(text())".utf8))
    }

    /// Prints `text` as a line of its own (over the progress line, which the next ``show(_:force:)`` redraws).
    func say(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        if drew { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)); drew = false }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Clears the progress line.
    func finish() {
        lock.lock(); defer { lock.unlock() }
        if drew { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        drew = false
    }
}

/// The contractions' progress, one count per metric, drawn on a ``BuildProgress``; remembers
/// when each metric finished (for its timing line).
final class ContractionProgress: @unchecked Sendable {
    let total: Int
    let metrics: [String]
    let bar: BuildProgress
    let quiet: Bool
    let started = Date()
    private let lock = NSLock()
    private var done: [Int]
    private var finishedAt: [Date?]

    init(total: Int, metrics: [String], bar: BuildProgress, quiet: Bool) {
        self.total = total
        self.quiet = quiet
        self.metrics = metrics
        self.bar = bar
        done = Array(repeating: 0, count: metrics.count)
        finishedAt = Array(repeating: nil, count: metrics.count)
    }

    /// Called after each contracted node of metric `k`; takes the lock once every 1,024 nodes and at
    /// the end, when it says at once that the metric is done (unless quiet): on a large build the
    /// other metric may take much longer.
    func update(_ k: Int, _ count: Int) {
        guard count & 1023 == 0 || count == total else { return }
        lock.lock()
        done[k] = count
        let now = Date()
        if count == total { finishedAt[k] = now }
        let line = zip(metrics, done).map { "\($0) \(100 * $1 / max(total, 1)) %" }.joined(separator: ", ")
        lock.unlock()
        if count == total && !quiet {
            bar.say("  contraction (\(metrics[k])) done after \(Int(now.timeIntervalSince(started) * 1000)) ms")
        }
        bar.show("contraction: \(line) (of \(total) nodes)")
    }

    /// When metric `k` finished, if it has.
    func finished(_ k: Int) -> Date? {
        lock.lock(); defer { lock.unlock() }
        return finishedAt[k]
    }
}
