import ArgumentParser

@main
struct GeoFareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geofare",
        abstract: "Geo and fare computation for taxi-sharing backends.",
        subcommands: [FareCommand.self, RouteCommand.self, SplitCommand.self, TransformCommand.self, DistanceCommand.self, BenchCommand.self]
    )
}
