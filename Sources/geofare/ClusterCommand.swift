import ArgumentParser
import Foundation
import GeoFareCluster
import GeoFareCore
import GeoFareWorker

/// `geofare cluster`: the clusters of a viewport, from the party store.
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Print the party clusters of a bounding box at a zoom level.",
        discussion: "Example: geofare cluster --db geofare.db --bbox 126.90,37.50,127.06,37.62 --zoom 12"
    )

    @OptionGroup var store: StoreOptions
    @Option(parsing: .unconditional, help: "West,south,east,north in degrees (west > east crosses the antimeridian).") var bbox: String
    @Option(help: "Zoom level 0-20.") var zoom: Int
    @Option(help: "List party ids of clusters up to this size.") var idsLimit = 10
    @Flag(help: "Print JSON (the worker's clusters result).") var json = false

    func run() throws {
        let parts = bbox.split(separator: ",").compactMap { Double(String($0).trimmingSpaces()) }
        guard parts.count == 4 else { throw ValidationError("--bbox takes west,south,east,north, got '\(bbox)'") }
        let service = try store.service()
        let dispatcher = WorkerDispatcher(pricer: try DataOptions().pricer(), parties: service)
        let request = #"{"id":0,"op":"clusters","bbox":{"west":\#(parts[0]),"south":\#(parts[1]),"east":\#(parts[2]),"north":\#(parts[3])},"zoom":\#(zoom),"ids_limit":\#(idsLimit)}"#
        let response = Array(request.utf8).withUnsafeBytes { dispatcher.respond(toLine: $0) }
        let value = try JSONParser.parse(response)
        guard value.object?["ok"] == .bool(true), let result = value.object?["result"] else {
            let error = value.object?["error"]?.object
            StandardError.print("geofare: \(error?["field"]?.string.map { "\($0): " } ?? "")\(error?["message"]?.string ?? "error") [\(error?["code"]?.string ?? "")]")
            throw GeoFareExit.dataError
        }
        if json { print(JSONWriter.string(result)); return }
        let items = result.object?["items"]?.array ?? []
        print("\(items.count) items at zoom \(zoom) in \(service.count) parties")
        for item in items {
            guard let o = item.object else { continue }
            let c = o["center"]?.object
            let count = o["count"]?.int64 ?? 0
            let ids = o["party_ids"]?.array?.compactMap(\.string).joined(separator: ",") ?? ""
            print("\(o["id"]?.string ?? "")  count \(count)  center \(c?["lat"]?.double ?? 0),\(c?["lon"]?.double ?? 0)  expansion_zoom \(o["expansion_zoom"]?.int64.map(String.init) ?? "-")  \(ids)")
        }
    }
}
