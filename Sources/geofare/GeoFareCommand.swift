import ArgumentParser
import GeoFareBench

@main
struct GeoFareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geofare",
        abstract: "Geo and fare computation for taxi-sharing backends.",
        subcommands: [WorkerCommand.self, ServeCommand.self, DemoCommand.self, FareCommand.self, FareCSVCommand.self, RouteCommand.self, MatrixCommand.self, SplitCommand.self, PoolCommand.self, CalibrateCommand.self, ClusterCommand.self, PartiesCommand.self, GraphCommand.self, PlacesCommand.self, TransformCommand.self, DistanceCommand.self, BenchCommand.self]
    )
}
