import Foundation
import GeoFareCore
import GeoFareFile
import GeoFareOSM

/// Builds a places index file from an OSM PBF extract: `geofare places build`.
public enum PlacesIndexBuilder {
    /// What a build read and wrote.
    public struct Report: Sendable {
        public var nodesRead = 0, waysRead = 0
        public var places = 0, keys = 0
        /// Ways merged into ``streets``.
        public var streetWays = 0, streets = 0
        /// Places read from multipolygon relations.
        public var relations = 0
        /// Places with a house number; stations made of stop positions and platforms.
        public var addresses = 0, mergedStations = 0
        public var fileBytes = 0
        public var milliseconds = 0
    }

    /// Reads `pbf` and writes its places index to `path` (atomically).
    /// - Throws: ``GeoFareError``: the PBF reader's errors (`pbf_*`), `places_io` when the file
    ///   cannot be written.
    @discardableResult
    public static func build(pbfAt pbf: URL, to path: String) throws(GeoFareError) -> Report {
        let start = DispatchTime.now().uptimeNanoseconds
        let (places, counts) = try PlaceExtractor.extract(pbfAt: pbf)
        var report = Report()
        report.nodesRead = counts.nodesRead
        report.waysRead = counts.waysRead
        report.places = places.count
        report.streetWays = counts.streetWays
        report.streets = counts.streets
        report.relations = counts.relationPlaces
        report.mergedStations = counts.mergedStations
        report.addresses = places.count { $0.hasAddress }
        let categories = PlaceCategories.embedded
        var sections = sectionsOf(places, categoryCount: categories.categories.count)
        report.keys = sections.keys
        let stamp = counts.osmTimestampSeconds > 0
            ? ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(counts.osmTimestampSeconds))) : ""
        var kinds: [String: Int] = [:]
        for p in places { kinds[p.kind.description, default: 0] += 1 }
        let lats = places.map(\.latitudeE7), lons = places.map(\.longitudeE7)
        let elapsed = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        let meta = PlacesMetadata(source: pbf.lastPathComponent, osmTimestamp: stamp, buildTime: ISO8601DateFormatter().string(from: Date()),
                                  buildMilliseconds: elapsed, placeCount: places.count, keyCount: sections.keys, kinds: kinds,
                                  west: Double(lons.min() ?? 0) / 1e7, south: Double(lats.min() ?? 0) / 1e7,
                                  east: Double(lons.max() ?? 0) / 1e7, north: Double(lats.max() ?? 0) / 1e7,
                                  categories: categories.categories.map(\.id), addressCount: report.addresses,
                                  attribution: PlacesMetadata.attributionText)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(meta) else {
            throw GeoFareError(code: .placesIo, message: "could not encode the metadata", field: "metadata")
        }
        sections.list.insert((PlacesFileLayout.Section.metadata, Array(json)), at: 0)
        do {
            try SectionFileWriter.write(sections.list, to: path, version: PlacesFileLayout.currentVersion, magic: PlacesFileLayout.magic)
        } catch {
            throw GeoFareError(code: .placesIo, message: error.message, field: error.field)
        }
        report.fileBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        report.milliseconds = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        return report
    }

    /// One search key before sorting.
    struct Key {
        var bytes: [UInt8]
        var place: UInt32
        var flags: UInt8
        var name: UInt8
    }

    /// The sections of `places` (all but the metadata) and the number of search keys.
    static func sectionsOf(_ places: [PlaceRecord], categoryCount: Int) -> (list: [(id: UInt32, bytes: [UInt8])], keys: Int) {
        typealias S = PlacesFileLayout.Section
        var list: [(id: UInt32, bytes: [UInt8])] = []
        func add<T: BitwiseCopyable>(_ id: UInt32, _ a: [T]) { list.append((id, a.withUnsafeBytes { Array($0) })) }
        add(S.latitudes, places.map(\.latitudeE7))
        add(S.longitudes, places.map(\.longitudeE7))
        add(S.kinds, places.map(\.kind.rawValue))
        typealias F = PlacesFileLayout.PlaceFlags
        add(S.placeFlags, places.map { p -> UInt8 in (p.named ? F.named : 0) | (p.hasAddress ? F.address : 0) | (p.outline ? F.outline : 0) })
        // Records.
        var textStart: [UInt32] = [0], text: [UInt8] = []
        func clean(_ s: String) -> String { String(s.unicodeScalars.filter { $0.value >= 0x20 }.map(Character.init)) }
        for p in places {
            text += Array(p.osmID.utf8)
            text.append(0x1D)
            text += Array(p.names.map { clean($0.key) + "\u{1E}" + clean($0.value) }.joined(separator: "\u{1F}").utf8)
            text.append(0x1D)
            text += Array(p.address.map { clean($0.key) + "\u{1E}" + clean($0.value) }.joined(separator: "\u{1F}").utf8)
            textStart.append(UInt32(text.count))
        }
        add(S.textStart, textStart)
        add(S.text, text)
        // Search keys.
        var keys: [Key] = []
        for (i, p) in places.enumerated() {
            var seen: [[UInt8]: Int] = [:]
            func put(_ bytes: [UInt8]?, fromStart: Bool, origin: PlacesFileLayout.KeyOrigin, name: Int) {
                guard let bytes, !bytes.isEmpty, bytes.count <= 255 else { return }
                let flags = (fromStart ? 1 : 0) | origin.rawValue << 1
                if let at = seen[bytes] {
                    if fromStart && keys[at].flags & 1 == 0 { keys[at].flags = flags; keys[at].name = UInt8(name) }
                    return
                }
                seen[bytes] = keys.count
                keys.append(Key(bytes: bytes, place: UInt32(i), flags: flags, name: UInt8(name)))
            }
            for (n, name) in p.names.enumerated() {
                put(SearchText.key(name.value), fromStart: true, origin: .name, name: n)
                put(SearchText.initialsKey(name.value), fromStart: true, origin: .initials, name: n)
                let letters = SearchText.romanizedKey(name.value)
                put(letters, fromStart: true, origin: .romanized, name: n)
                // (nil without a Hangul syllable, as the letters are: not computed again)
                if letters != nil { put(SearchText.revisedRomanizationKey(name.value), fromStart: true, origin: .romanized, name: n) }
                if p.kind == .station {
                    for extra in StationSuffix.keys(of: name.value) { put(extra.bytes, fromStart: true, origin: extra.origin, name: n) }
                }
                // the name's other forms (abbreviations written out, a branch without its region: QueryWords)
                for form in QueryWords.nameForms(name.value) {
                    put(SearchText.key(form), fromStart: true, origin: .name, name: n)
                    for rest in SearchText.laterWords(form) { put(SearchText.key(rest), fromStart: false, origin: .name, name: n) }
                }
                // a name in another language than the name keys' is searched whole
                guard PlaceTags.nameKeys.contains(name.key) || !PlaceTags.isLanguageName(name.key) else { continue }
                for rest in SearchText.laterWords(name.value) {
                    put(SearchText.key(rest), fromStart: false, origin: .name, name: n)
                    put(SearchText.initialsKey(rest), fromStart: false, origin: .initials, name: n)
                }
                // the short names inside a long Korean name of a park, market, hospital or campus
                if p.kind == .landmark || p.kind == .amenity || p.kind == .area || p.kind == .station || p.kind == .shop {
                    for inner in QueryWords.areaSuffixes(name.value) { put(SearchText.key(inner), fromStart: false, origin: .name, name: n) }
                }
            }
        }
        keys.sort { a, b in
            a.bytes.lexicographicallyPrecedes(b.bytes) || (a.bytes == b.bytes && a.place < b.place)
        }
        var keyStart: [UInt32] = [0], keyBytes: [UInt8] = []
        keyBytes.reserveCapacity(keys.reduce(0) { $0 + $1.bytes.count })
        for k in keys { keyBytes += k.bytes; keyStart.append(UInt32(keyBytes.count)) }
        add(S.keyStart, keyStart)
        add(S.keyBytes, keyBytes)
        add(S.keyPlace, keys.map(\.place))
        add(S.keyFlags, keys.map(\.flags))
        add(S.keyName, keys.map(\.name))
        // Street keys: streets by each name, addresses by street and house number.
        var streetKeys: [(bytes: [UInt8], place: UInt32, number: Int32)] = []
        for (i, p) in places.enumerated() {
            if p.kind == .street {
                var seen = Set<[UInt8]>()
                for n in p.names {
                    let k = StreetText.streetKey(n.value)
                    if !k.isEmpty, seen.insert(k).inserted { streetKeys.append((k, UInt32(i), -1)) }
                }
            }
            if let number = p.address.first(where: { $0.key == "housenumber" })?.value, let house = StreetText.houseKey(number) {
                var seen = Set<[UInt8]>()
                for key in ["street", "place"] {
                    guard let street = p.address.first(where: { $0.key == key })?.value else { continue }
                    let k = StreetText.streetKey(street)
                    if !k.isEmpty, seen.insert(k).inserted { streetKeys.append((k + [0] + house, UInt32(i), StreetText.houseValue(house))) }
                }
            }
        }
        streetKeys.sort { a, b in a.bytes.lexicographicallyPrecedes(b.bytes) || (a.bytes == b.bytes && a.place < b.place) }
        var streetKeyStart: [UInt32] = [0], streetKeyBytes: [UInt8] = []
        for k in streetKeys { streetKeyBytes += k.bytes; streetKeyStart.append(UInt32(streetKeyBytes.count)) }
        add(S.streetKeyStart, streetKeyStart)
        add(S.streetKeyBytes, streetKeyBytes)
        add(S.streetKeyPlace, streetKeys.map(\.place))
        add(S.streetKeyNumber, streetKeys.map(\.number))
        // Categories.
        var members = [[UInt32]](repeating: [], count: categoryCount)
        for (i, p) in places.enumerated() { for c in p.categories where c < categoryCount { members[c].append(UInt32(i)) } }
        var categoryStart: [UInt32] = [0], categoryItems: [UInt32] = []
        for m in members { categoryItems += m; categoryStart.append(UInt32(categoryItems.count)) }
        add(S.categoryStart, categoryStart)
        add(S.categoryItems, categoryItems)
        // Streets' shapes and buildings' outlines, and the reverse grid.
        var shapeStart: [UInt32] = [0], shapeLat: [Int32] = [], shapeLon: [Int32] = []
        var cells: [UInt64: [UInt32]] = [:]
        for (i, p) in places.enumerated() {
            if p.shape.isEmpty || p.outline {
                cells[PlacesFileLayout.cellKey(row: PlacesFileLayout.cell(p.latitudeE7), column: PlacesFileLayout.cell(p.longitudeE7)), default: []].append(UInt32(i))
            }
            if !p.shape.isEmpty {
                var touched = Set<UInt64>()
                for (w, way) in p.shape.enumerated() {
                    if w > 0 { shapeLat.append(.min); shapeLon.append(.min) }
                    for (j, pt) in way.enumerated() {
                        shapeLat.append(pt.0); shapeLon.append(pt.1)
                        let prev = j > 0 ? way[j - 1] : pt
                        // Every cell the segment crosses: sampled at a quarter cell.
                        let steps = Int(max(abs(Int64(pt.0) - Int64(prev.0)), abs(Int64(pt.1) - Int64(prev.1))) / Int64(PlacesFileLayout.cellE7 / 4)) + 1
                        for s in 0...steps {
                            let f = Double(s) / Double(steps)
                            let lat = Int32(Double(prev.0) + (Double(pt.0) - Double(prev.0)) * f)
                            let lon = Int32(Double(prev.1) + (Double(pt.1) - Double(prev.1)) * f)
                            touched.insert(PlacesFileLayout.cellKey(row: PlacesFileLayout.cell(lat), column: PlacesFileLayout.cell(lon)))
                        }
                    }
                }
                if !p.outline { for c in touched { cells[c, default: []].append(UInt32(i)) } }
            }
            shapeStart.append(UInt32(shapeLat.count))
        }
        add(S.shapeStart, shapeStart)
        add(S.shapeLatitudes, shapeLat)
        add(S.shapeLongitudes, shapeLon)
        let cellKeys = cells.keys.sorted()
        var cellStart: [UInt32] = [0], cellItems: [UInt32] = []
        for c in cellKeys { cellItems += cells[c]!.sorted(); cellStart.append(UInt32(cellItems.count)) }
        add(S.cellKeys, cellKeys)
        add(S.cellStart, cellStart)
        add(S.cellItems, cellItems)
        return (list, keys.count)
    }
}
