import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareParties
import GeoFareCore
import GeoFareText

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
    @Option(help: "Also draw the viewport's items as an SVG picture into this file.") var svg: String?

    func run() throws {
        let parts = bbox.split(separator: ",").compactMap { Double(String($0).trimmingSpaces()) }
        guard parts.count == 4 else { throw ValidationError("--bbox takes west,south,east,north, got '\(bbox)'") }
        let bounds: BoundingBox
        do { bounds = try BoundingBox(west: parts[0], south: parts[1], east: parts[2], north: parts[3]) } catch { throw error.prefixed("bbox") }
        guard (0...20).contains(zoom) else { throw ValidationError("--zoom is 0-20, got \(zoom)") }
        guard (0...1_000).contains(idsLimit) else { throw ValidationError("--ids-limit is 0-1000, got \(idsLimit)") }
        let service = try store.service()
        // The `clusters` op's own answer (PartyQuery), so `--json` prints the worker's result byte for byte.
        var w = ByteWriter(capacity: 4096)
        defer { w.deallocate() }
        try PartyQuery.clusters(bbox: bounds, zoom: zoom, idsLimit: idsLimit, filter: .none).answer(from: service.index, into: &w)
        let result = try JSONParser.parse(Array(w.bytes))
        let items = result.object?["items"]?.array ?? []
        if let svg {
            guard parts[0] < parts[2] else { throw ValidationError("--svg draws boxes that do not cross the antimeridian (west < east)") }
            var map = SVGMap(west: parts[0], south: parts[1], east: parts[2], north: parts[3])
            for item in items {
                guard let o = item.object, let c = o["center"]?.object, let lat = c["lat"]?.double, let lon = c["lon"]?.double else { continue }
                let count = o["count"]?.int64 ?? 1
                let id = o["id"]?.string ?? ""
                map.circle(Coordinate(uncheckedLatitude: lat, longitude: lon), radius: 7 + 4 * log2(Double(max(1, count))),
                           fill: count > 1 ? "#f97316" : "#0ea5e9", label: count > 1 ? String(count) : nil,
                           title: count > 1 ? "\(id): \(count) parties" : "party \(id)", cssClass: "item")
            }
            try map.write(to: svg, caption: "\(items.count) items at zoom \(zoom), \(service.count) parties — geofare cluster")
        }
        if json { print(JSONWriter.string(result)); return }
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
