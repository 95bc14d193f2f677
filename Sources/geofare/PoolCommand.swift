import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFarePooling

/// `geofare pool`: groups a CSV file of ride requests into shared taxis.
struct PoolCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pool",
        abstract: "Group a CSV file of ride requests into shared taxis (shareability network, maximum matching).",
        discussion: """
        Columns: id,depart_at,origin_lat,origin_lon,dest_lat,dest_lon, optional seats (rename with
        --map). Output, one row per request in input order: \(PoolCSV.outputHeader)
        (group empty for a rider left alone; stops the group's order as +id/-id joined by ';';
        money in integer minor units). A group is feasible under --delay when some order of its
        stops, driven at route durations, picks every rider up by request + delay and brings them
        in by request + solo duration + delay (docs/pooling.md). A summary goes to stderr; the
        exit status is 65 when any row failed.
        """
    )

    @Argument(help: "Input CSV file.") var input: String
    @Option(name: .shortAndLong, help: "Output file, or - for standard output.") var output = "-"
    @Option(help: "The most a rider may be delayed, seconds.") var delay: Double = 300
    @Option(help: "Riders per taxi: 2 or 3.") var maxRiders: Int = 2
    @Option(help: "Persons per taxi.") var capacity: Int = SharedRide.defaultCapacity
    @Option(help: ArgumentHelp("Rename a column: logical=header (repeatable), e.g. origin_lat=pickup_lat.", valueName: "col=header")) var map: [String] = []
    @Option(help: "Threads testing pairs (default: the number of cores; the output is the same for any).") var threads: Int?
    @Flag(help: "No progress or summary on stderr.") var quiet = false
    @Option(help: ArgumentHelp("Also draw the groups on a map as an SVG picture into this file (each group's stops joined in order; riders alone as grey dots).", valueName: "file")) var svg: String?
    @OptionGroup var data: DataOptions

    func run() throws {
        let columnMap = try parseColumnMap(map)
        let options = PoolOptions(delaySeconds: delay, maxRiders: maxRiders, capacity: capacity,
                                  threads: threads ?? ProcessInfo.processInfo.activeProcessorCount)
        do { try options.validate() } catch { throw ValidationError("--\(error.field?.replacingOccurrences(of: "_", with: "-") ?? "delay"): \(error.message)") }
        guard let bytes = FileManager.default.contents(atPath: input) else {
            Diagnostics.print("geofare: cannot read '\(input)'")
            throw GeoFareExit.noInput
        }
        let rows: [PoolCSV.Row]
        do { rows = try PoolCSV.read(bytes, map: columnMap) } catch {
            Diagnostics.print("geofare: \(error) [\(error.code)]")
            throw GeoFareExit.dataError
        }
        let planner = PoolPlanner(pricer: try data.pricer())
        let requests = rows.compactMap(\.request)
        let start = Date()
        let quiet = self.quiet
        let plan: PoolPlan
        do {
            plan = try planner.plan(requests, options: options) { done, all in
                if !quiet { Diagnostics.print("pool: pairs tested for \(done) of \(all) requests, \(Int(Date().timeIntervalSince(start))) s") }
            }
        } catch {
            Diagnostics.print("geofare: \(error.message) [\(error.code)]")
            throw GeoFareExit.dataError
        }
        let text = PoolCSV.write(rows: rows, plan: plan)
        if output == "-" { FileHandle.standardOutput.write(Data(text.utf8)) } else {
            guard let h = openForWriting(output) else {
                Diagnostics.print("geofare: cannot write '\(output)'")
                throw ExitCode(73)
            }
            h.write(Data(text.utf8))
        }
        if let svg {
            do { try Self.draw(plan, requests: requests, to: svg) } catch {
                Diagnostics.print("geofare: cannot write '\(svg)': \(error)")
                throw ExitCode(73)
            }
        }
        let failed = rows.filter { $0.error != nil }.count + plan.riders.filter { $0.error != nil }.count
        if !quiet {
            let s = plan.summary
            // In the currency's units ($8.00, 8,000 KRW), not minor units.
            let money = s.soloFares.keys.sorted().map { c in
                "\(MinorUnits.text(s.soloFares[c]! - s.pooledFares[c, default: 0], currency: c)) of \(MinorUnits.text(s.soloFares[c]!, currency: c))"
            }.joined(separator: ", ")
            Diagnostics.print(String(format: "pool: %d requests, %d pooled in %d taxis (%.1f %%), %d failed; %d feasible pairs of %d tried; vehicle-km %.1f → %.1f (%.1f saved), vehicle-hours %.2f → %.2f; money saved by the pooled: %@; %.1f s",
                                       rows.count, s.pooledRiders, s.groups, rows.isEmpty ? 0 : 100 * Double(s.pooledRiders) / Double(rows.count), failed,
                                       s.feasiblePairs, s.triedPairs, s.soloMeters / 1000, s.pooledMeters / 1000, (s.soloMeters - s.pooledMeters) / 1000,
                                       s.soloSeconds / 3600, s.pooledSeconds / 3600, money.isEmpty ? "none" : money, Date().timeIntervalSince(start)))
        }
        if failed > 0 { throw GeoFareExit.dataError }
    }

    /// The groups on a map: each group's stops joined in driving order (a colour per group,
    /// pickups as larger dots than drop-offs), every rider alone as a small grey dot.
    static func draw(_ plan: PoolPlan, requests: [RideRequest], to path: String) throws {
        guard !requests.isEmpty else { return }
        var map = SVGMap.around(requests.flatMap { [$0.origin, $0.destination] }, pad: 0.03, width: 900)
        let palette = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324", "#800000", "#469990"]
        for (i, r) in requests.enumerated() where plan.riders[i].group == nil {
            map.circle(r.origin, radius: 1.5, fill: "#bbbbbb", label: nil, title: "\(r.id) alone", cssClass: "alone")
        }
        for (g, group) in plan.groups.enumerated() {
            let colour = palette[g % palette.count]
            let points = group.ride.stops.map { stop in
                stop.pickup ? requests[group.members[stop.rider]].origin : requests[group.members[stop.rider]].destination
            }
            let ids = group.members.map { requests[$0].id }
            map.line(points, color: colour, widthPx: 1.5, title: "group \(g + 1): " + group.ride.stops.map { ($0.pickup ? "+" : "-") + ids[$0.rider] }.joined(separator: ";"), cssClass: "group")
            for (stop, point) in zip(group.ride.stops, points) {
                map.circle(point, radius: stop.pickup ? 3 : 1.8, fill: colour, label: nil,
                           title: (stop.pickup ? "pickup " : "drop-off ") + ids[stop.rider], cssClass: stop.pickup ? "pickup" : "dropoff")
            }
        }
        let s = plan.summary
        try map.write(to: path, caption: "geofare pool: \(s.requests) requests, \(s.pooledRiders) pooled in \(s.groups) taxis; vehicle-km \(Int(s.soloMeters / 1000)) → \(Int(s.pooledMeters / 1000))")
    }
}
