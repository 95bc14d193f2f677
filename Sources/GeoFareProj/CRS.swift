import CProj
import Foundation
import GeoFareCore
import GeoFareData

/// A coordinate reference system GeoFare can convert from or to.
///
/// Obtain one with ``CRS/resolve(_:)`` from any `EPSG:nnnn` code PROJ knows, one of the named
/// aliases in `Data/crs/aliases.json` (`wgs84`, `utmk`, `katec`, ...), or a raw PROJ string
/// (`+proj=...`). Whatever the CRS's official axis order, GeoFare always speaks
/// (longitude, latitude) in degrees for geographic systems and (easting, northing) otherwise.
public struct CRS: Hashable, Sendable, CustomStringConvertible {
    /// The name as resolved: the alias in lower case, `EPSG:nnnn`, or the PROJ string.
    public let name: String
    /// The definition handed to PROJ.
    public let definition: String
    /// Whether coordinates are (longitude, latitude) in degrees.
    public let isGeographic: Bool

    public var description: String { name }

    /// WGS84 longitude/latitude (EPSG:4326).
    public static let wgs84 = CRS(name: "wgs84", definition: "EPSG:4326", isGeographic: true)

    init(name: String, definition: String, isGeographic: Bool) {
        self.name = name
        self.definition = definition
        self.isGeographic = isGeographic
    }

    /// Resolves a CRS name: an alias, `EPSG:nnnn` (any case), or a PROJ string.
    ///
    /// The first resolution of a name on a thread asks PROJ's database (about a millisecond);
    /// later ones are a dictionary look-up.
    /// - Throws: ``GeoFareError`` `unknown_crs` naming the text, when PROJ does not know it or it
    ///   is not a horizontal coordinate reference system.
    public static func resolve(_ name: String) throws(GeoFareError) -> CRS {
        try ProjThreadState.current.crs(named: name)
    }

    /// The alias table, parsed once from the embedded `crs/aliases.json`.
    static let aliases: [String: String] = {
        struct File: Decodable {
            struct Alias: Decodable { let names: [String]; let definition: String }
            let aliases: [Alias]
        }
        do {
            let file = try JSONDecoder().decode(File.self, from: try DataCatalog.embedded.file("crs/aliases.json").bytes)
            var table: [String: String] = [:]
            for alias in file.aliases { for n in alias.names { table[n.lowercased()] = alias.definition } }
            return table
        } catch {
            // The file is embedded at build time and covered by tests; a failure is a build defect.
            fatalError("embedded crs/aliases.json is malformed: \(error)")
        }
    }()

    /// Maps user text to (canonical name, PROJ definition) without asking PROJ.
    static func definition(for text: String) -> (name: String, definition: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if let def = aliases[lower] { return (lower, def) }
        if lower.hasPrefix("epsg:") { return ("EPSG:" + trimmed.dropFirst(5), "EPSG:" + trimmed.dropFirst(5)) }
        if trimmed.hasPrefix("+") && !lower.contains("+type=crs") { return (trimmed, trimmed + " +type=crs") }
        return (trimmed, trimmed)
    }

    /// Asks PROJ what `text` is and whether it is a geographic system. Runs once per name and thread.
    static func create(_ text: String, context: ProjContext) throws(GeoFareError) -> CRS {
        let (name, definition) = definition(for: text)
        guard !definition.isEmpty else { throw .unknownCRS(text, detail: "empty name") }
        // Only forms that say what they are reach PROJ: AUTH:CODE, a PROJ string, WKT or a URN.
        // A bare word would otherwise be matched against object names in PROJ's database.
        let looksLikeAuthorityCode = definition.split(separator: ":").count == 2 && !definition.contains(" ")
        guard looksLikeAuthorityCode || definition.hasPrefix("+") || definition.contains("[") || definition.lowercased().hasPrefix("urn:") else {
            throw .unknownCRS(text, detail: "use an alias (\(aliases.keys.sorted().joined(separator: ", "))), EPSG:nnnn or a PROJ string")
        }
        // proj_create returns NULL for text PROJ cannot parse or find; the reason is logged.
        guard let object = proj_create(context.raw, definition) else {
            throw .unknownCRS(text, detail: context.takeError())
        }
        defer { proj_destroy(object) }
        var type = proj_get_type(object)
        if type == PJ_TYPE_BOUND_CRS, let base = proj_get_source_crs(context.raw, object) {
            type = proj_get_type(base)
            proj_destroy(base)
        }
        let geographic: Set<UInt32> = [PJ_TYPE_GEOGRAPHIC_2D_CRS.rawValue, PJ_TYPE_GEOGRAPHIC_3D_CRS.rawValue, PJ_TYPE_GEOGRAPHIC_CRS.rawValue]
        let projected: Set<UInt32> = [PJ_TYPE_PROJECTED_CRS.rawValue, PJ_TYPE_OTHER_CRS.rawValue]
        guard geographic.contains(type.rawValue) || projected.contains(type.rawValue) else {
            throw .unknownCRS(text, detail: "not a horizontal coordinate reference system")
        }
        return CRS(name: name, definition: definition, isGeographic: geographic.contains(type.rawValue))
    }
}
