import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFarePlaces
import GeoFareText

/// `geofare places build|info|search|reverse`: the offline places index (docs/places.md).
struct PlacesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Build a places index from an OpenStreetMap extract; search it, look up a point, or describe it.",
        subcommands: [PlacesBuildCommand.self, PlacesInfoCommand.self, PlacesSearchCommand.self, PlacesReverseCommand.self]
    )

    /// Opens an index, or exits 65 with the error on standard error.
    static func open(_ path: String) throws -> PlacesIndex {
        do { return try PlacesIndex(path: path) } catch {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw GeoFareExit.dataError
        }
    }

    /// The bytes of the command-line argument that Swift decoded to `text` (the last such), as
    /// the process received them: `nil` if none did.
    static func rawArgument(decodingTo text: String) -> [UInt8]? {
        var found: [UInt8]?
        for i in 1..<Int(CommandLine.argc) {
            guard let p = CommandLine.unsafeArgv[i] else { continue }
            let raw = Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
            if String(decoding: raw, as: UTF8.self) == text { found = raw }
        }
        return found
    }

    /// Runs `body`, printing a ``GeoFareError`` as the CLI does and exiting 65.
    static func reporting<T>(_ body: () throws(GeoFareError) -> T) throws -> T {
        do { return try body() } catch {
            Diagnostics.print("geofare: \(error.description) [\(error.code)]")
            throw GeoFareExit.dataError
        }
    }
}

/// `geofare places build REGION.osm.pbf -o REGION.places`.
struct PlacesBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Read the named places of an OSM PBF extract and write one places index file.",
        discussion: """
        Example: geofare places build seoul.osm.pbf -o seoul.places
        Keeps named stations, subway entrances, bus stops, areas, landmarks, amenities, shops, buildings and
        streets (one entry per street name and stretch). The file carries the ODbL attribution.
        """
    )

    @Argument(help: "The OpenStreetMap extract (.osm.pbf).") var input: String
    @Option(name: .shortAndLong, help: "The places file to write.") var output: String
    @Flag(help: "No counts on stderr.") var quiet = false

    func run() throws {
        let report = try PlacesCommand.reporting { () throws(GeoFareError) in
            try PlacesIndexBuilder.build(pbfAt: URL(fileURLWithPath: input), to: output)
        }
        if !quiet {
            Diagnostics.print("geofare places build: read \(report.nodesRead) nodes, \(report.waysRead) ways from \(input)")
            Diagnostics.print("  \(report.places) places (\(report.streets) streets from \(report.streetWays) ways, \(report.addresses) with a house number, \(report.mergedStations) stations from stop positions), \(report.keys) search keys")
            Diagnostics.print("  wrote \(output): \(report.fileBytes) bytes (\(report.fileBytes / max(report.places, 1)) per place) in \(report.milliseconds) ms")
        }
    }
}

/// `geofare places info FILE`.
struct PlacesInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Describe a places file: where it came from, its box and its counts.")

    @Argument(help: "The places file.") var file: String
    @Flag(help: "Print JSON.") var json = false

    func run() throws {
        let index = try PlacesCommand.open(file)
        let m = index.metadata
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(m), as: UTF8.self))
            return
        }
        let kinds = m.kinds.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("""
        \(file)
          source       \(m.source)
          OSM data     \(m.osmTimestamp.isEmpty ? "timestamp unknown" : m.osmTimestamp)
          built        \(m.buildTime) in \(m.buildMilliseconds) ms
          box          \(m.west),\(m.south),\(m.east),\(m.north) (W,S,E,N)
          places       \(m.placeCount): \(kinds)
          keys         \(m.keyCount)
          size         \(index.byteCount) bytes, \(index.byteCount / max(m.placeCount, 1)) per place
          attribution  \(m.attribution)
        """)
    }
}

/// `geofare places search FILE QUERY`.
struct PlacesSearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search a places file by name (Korean-aware: 초성, partial syllables, spacing; Latin with one typo).",
        discussion: "Example: geofare places search mapo.places 공덕 --near 37.544,126.951")

    @Argument(help: "The places file.") var file: String
    @Argument(help: "The query.") var query: String
    @Option(help: ArgumentHelp("Rank equal matches by distance from LAT,LON and report it.", valueName: "lat,lon")) var near: String?
    @Option(help: "Results, 1 to 100.") var limit = 10
    @Flag(help: "Print the worker's JSON result.") var json = false

    func run() throws {
        let index = try PlacesCommand.open(file)
        let point = try near.map { try coordinate($0, field: "near") }
        // The raw bytes of the query as the shell passed them: Swift's arguments replace a byte
        // that is not UTF-8 with U+FFFD, which a key drops, so the library must see the bytes
        // to answer invalid_utf8 as it does for the worker.
        let bytes = PlacesCommand.rawArgument(decodingTo: query) ?? Array(query.utf8)
        let found = try PlacesCommand.reporting { () throws(GeoFareError) in try index.find(utf8: bytes, near: point, limit: limit) }
        let matches = found.matches
        if json { print(JSONWriter.string(PlacesJSON.search(matches, ignoredWords: found.ignoredWords))); return }
        if !found.ignoredWords.isEmpty { print("(searched without: \(found.ignoredWords.joined(separator: " ")))") }
        for m in matches {
            let distance = m.distanceMeters.map { " \(Int($0.rounded())) m" } ?? ""
            let name = m.junction.map { "\(m.place.name) & \($0.street.name)" } ?? m.place.name
            let line = m.place.addressLine.map { "\t\($0)" } ?? ""
            print("\(name)\t\(m.place.kind)\t\(m.junction?.coordinate ?? m.place.coordinate)\t\(m.quality) (\(m.matchedName), \(m.matchedForm))\(distance)\(line)")
        }
    }
}

/// `geofare places reverse FILE --at LAT,LON`.
struct PlacesReverseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reverse", abstract: "The nearest named place and street to a point, with its region and city from the zones.",
        discussion: "Example: geofare places reverse mapo.places --at 37.5445,126.9515")

    @Argument(help: "The places file.") var file: String
    @Option(help: ArgumentHelp("The point.", valueName: "lat,lon")) var at: String
    @Option(help: "Search radius in metres (at most 5,000).") var radius = 200.0
    @OptionGroup var data: DataOptions
    @Flag(help: "Print the worker's JSON result.") var json = false

    func run() throws {
        let index = try PlacesCommand.open(file)
        let point = try coordinate(at, field: "at")
        let result = try PlacesCommand.reporting { () throws(GeoFareError) in try index.reverse(point, radiusMeters: radius) }
        let catalog = try PlacesCommand.reporting { () throws(GeoFareError) in try TariffCatalog.load(from: data.catalog) }
        let area = PlaceArea(of: point, in: catalog.zones)
        if json { print(JSONWriter.string(PlacesJSON.reverse(result, area: area))); return }
        func line(_ label: String, _ x: (place: Place, distanceMeters: Double)?) -> String {
            guard let x else { return "\(label)\tnone within \(Int(radius)) m" }
            return "\(label)\t\(x.place.name)\t\(x.place.kind)\t\(Int(x.distanceMeters.rounded())) m"
        }
        print(line("place", result.place))
        print(line("street", result.street))
        if let a = result.address {
            print("address\t\(a.place.addressLine ?? "")\t\(a.place.name)\t\(Int(a.distanceMeters.rounded())) m")
        } else {
            print("address\tnone under the point or within \(Int(PlacesIndex.addressReachMeters)) m")
        }
        print("area\t\(area.region.map { "\($0.name) (\($0.id))" } ?? "none")\t\(area.city.map { "\($0.name) (\($0.id))" } ?? "")")
    }
}
