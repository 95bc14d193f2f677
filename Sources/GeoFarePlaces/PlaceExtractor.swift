import Foundation
import GeoFareCore
import GeoFareOSM

/// A place as read from OSM, before it is written to the index.
struct PlaceRecord: Sendable {
    var osmID: String
    var kind: PlaceKind
    var latitudeE7: Int32
    var longitudeE7: Int32
    var names: [(key: String, value: String)]
    var address: [(key: String, value: String)]
    /// A street's ways, each its node positions (1e-7 degrees, latitude then longitude); an
    /// addressed building's outline (``outline``); empty for other places.
    var shape: [[(Int32, Int32)]] = []
    /// OSM names it (``PlaceTags/nameKeys``); else it is kept for its address or category.
    var named = true
    /// Its categories (positions in ``PlaceCategories/categories``).
    var categories: [Int] = []
    /// ``shape`` is the outline of an addressed building.
    var outline = false

    /// Whether it has a house number and a street (or place) to look it up by.
    var hasAddress: Bool { StreetText.addressLine(address) != nil }
}

/// Reads the named places of an OSM PBF file with the graph's ``PBFReader``: named nodes, and
/// named ways at their representative point, streets merged to one entry per name and stretch.
///
/// Three passes: named multipolygon relations (their outer ways), the ways (the places among
/// them, the relations' ways, and the nodes they need), then the nodes. A relation's point is
/// the node of its outer ways nearest their nodes' centroid.
struct PlaceExtractor {
    /// Pieces of a street with the same name join when their boxes come closer than this, metres.
    static let streetJoinMeters = 150.0
    /// The most names a merged street keeps (a search key names its name in one byte).
    static let maxNames = 64
    /// Stop positions and platforms of one station name merge within this distance, metres; a
    /// station node of that name this close makes them unneeded.
    static let stationJoinMeters = 600.0
    /// The named nodes of one junction (서면교차로 is four signals, one per corner) merge within this
    /// distance, metres.
    static let junctionJoinMeters = 200.0

    struct Counts: Sendable {
        var nodesRead = 0, waysRead = 0
        var nodePlaces = 0, wayPlaces = 0, relationPlaces = 0, streetWays = 0, streets = 0
        /// Stations made of stop positions and platforms without a station node of their name.
        var mergedStations = 0
        /// Junctions, one per name and stretch, from their named nodes.
        var junctions = 0
        var osmTimestampSeconds: Int64 = 0
    }

    /// The places of the file at `url`, and what was read.
    /// - Throws: ``GeoFareError`` from the PBF reader (`pbf_unreadable`, `pbf_corrupt`, ...).
    static func extract(pbfAt url: URL) throws(GeoFareError) -> (places: [PlaceRecord], counts: Counts) {
        let reader = try PBFReader(contentsOf: url)
        let categories = PlaceCategories.embedded
        var relations = RelationPass(categories: categories)
        var stamp = try reader.visit(&relations, kinds: .relations)
        var ways = WayPass(wanted: relations.wantedWays, categories: categories)
        stamp = max(stamp, try reader.visit(&ways, kinds: .ways))
        var nodes = NodePass(needed: ways.needed, categories: categories)
        stamp = max(stamp, try reader.visit(&nodes, kinds: .nodes))
        var counts = Counts()
        counts.nodesRead = nodes.read
        counts.waysRead = ways.read
        counts.osmTimestampSeconds = max(stamp, reader.header.replicationTimestampSeconds ?? 0)
        var places = nodes.places
        counts.nodePlaces = places.count
        var streetPieces: [(way: WayCandidate, points: [(Int32, Int32)])] = []
        var stationParts = nodes.stationParts
        for way in ways.candidates {
            let points = way.refs.compactMap { nodes.positions[$0] }
            guard !points.isEmpty else { continue }
            if way.kind == .street && !way.stationPart { streetPieces.append((way, points)); continue }
            let closed = points.count > 3 && way.refs.first == way.refs.last && points.count == way.refs.count
            let ring = points.count > 2 && way.refs.first == way.refs.last ? Array(points.dropLast()) : points
            let (lat, lon) = representative(ring)
            var record = PlaceRecord(osmID: "w\(way.id)", kind: way.kind, latitudeE7: lat, longitudeE7: lon, names: way.names, address: way.address,
                                     named: way.named, categories: way.categories)
            if way.stationPart { stationParts.append(record); continue }
            if closed && record.hasAddress { record.shape = [points]; record.outline = true }
            places.append(record)
            counts.wayPlaces += 1
        }
        for relation in relations.candidates {
            let points = relation.wayIDs.flatMap { ways.memberRefs[$0] ?? [] }.compactMap { nodes.positions[$0] }
            guard !points.isEmpty else { continue }
            let (lat, lon) = representative(points)
            places.append(PlaceRecord(osmID: "r\(relation.id)", kind: relation.kind, latitudeE7: lat, longitudeE7: lon,
                                      names: relation.names, address: relation.address, named: relation.named, categories: relation.categories))
            counts.relationPlaces += 1
        }
        let stations = mergeParts(stationParts, into: .station, joinMeters: stationJoinMeters, besides: places)
        counts.mergedStations = stations.count
        places += stations
        let junctions = mergeParts(nodes.junctionParts, into: .junction, joinMeters: junctionJoinMeters, besides: [])
        counts.junctions = junctions.count
        places += junctions
        counts.streetWays = streetPieces.count
        let streets = mergeStreets(streetPieces)
        counts.streets = streets.count
        places += streets
        return (places, counts)
    }

    /// The point of `points` nearest their centroid (1e-7 degrees).
    static func representative(_ points: [(Int32, Int32)]) -> (Int32, Int32) {
        var sLat = 0.0, sLon = 0.0
        for p in points { sLat += Double(p.0); sLon += Double(p.1) }
        let cLat = sLat / Double(points.count), cLon = sLon / Double(points.count)
        let k = cos(cLat / 1e7 * .pi / 180)
        var best = points[0], bestD = Double.infinity
        for p in points {
            let dy = Double(p.0) - cLat, dx = (Double(p.1) - cLon) * k
            let d = dx * dx + dy * dy
            if d < bestD { bestD = d; best = p }
        }
        return best
    }

    /// One entry per street name and stretch: pieces with the same `name` whose boxes lie within
    /// ``streetJoinMeters`` of each other (transitively) are one street.
    static func mergeStreets(_ pieces: [(way: WayCandidate, points: [(Int32, Int32)])]) -> [PlaceRecord] {
        var byName: [String: [Int]] = [:]
        for (i, p) in pieces.enumerated() { byName[p.way.names[0].value, default: []].append(i) }
        var out: [PlaceRecord] = []
        for name in byName.keys.sorted() {
            let group = byName[name]!
            let boxes = group.map { box(pieces[$0].points) }
            var parent = Array(0..<group.count)
            func find(_ x: Int) -> Int { var x = x; while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }; return x }
            for a in 0..<group.count {
                for b in (a + 1)..<group.count where near(boxes[a], boxes[b]) {
                    let ra = find(a), rb = find(b)
                    if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
                }
            }
            var members: [Int: [Int]] = [:]
            for i in 0..<group.count { members[find(i), default: []].append(group[i]) }
            for root in members.keys.sorted() {
                let ids = members[root]!.sorted { pieces[$0].way.id < pieces[$1].way.id }
                // Every distinct value of every name tag (a key may come more than once: the FDR
                // Drive's ways carry two alt_names), in name-key order, then in way order.
                var names: [(key: String, value: String)] = []
                for i in ids {
                    for n in pieces[i].way.names where names.count < maxNames && !names.contains(where: { $0.key == n.key && $0.value == n.value }) {
                        names.append(n)
                    }
                }
                names = names.enumerated().sorted { a, b in
                    let ka = PlaceTags.order(of: a.element.key), kb = PlaceTags.order(of: b.element.key)
                    return ka != kb ? ka < kb : a.offset < b.offset
                }.map(\.element)
                let shape = ids.map { pieces[$0].points }
                let (lat, lon) = representative(shape.flatMap { $0 })
                out.append(PlaceRecord(osmID: "w\(pieces[ids[0]].way.id)", kind: .street, latitudeE7: lat, longitudeE7: lon,
                                       names: names, address: [], shape: shape))
            }
        }
        return out
    }

    typealias Box = (south: Int32, west: Int32, north: Int32, east: Int32)

    static func box(_ points: [(Int32, Int32)]) -> Box {
        var b: Box = (.max, .max, .min, .min)
        for p in points { b = (min(b.0, p.0), min(b.1, p.1), max(b.2, p.0), max(b.3, p.1)) }
        return b
    }

    /// Whether two boxes come within ``streetJoinMeters`` of each other.
    static func near(_ a: Box, _ b: Box) -> Bool {
        let padLat = streetJoinMeters / 111_195 * 1e7
        let k = max(cos(Double(a.south) / 1e7 * .pi / 180), 0.01)
        let padLon = padLat / k
        return Double(a.south) - padLat <= Double(b.north) && Double(b.south) - padLat <= Double(a.north)
            && Double(a.west) - padLon <= Double(b.east) && Double(b.west) - padLon <= Double(a.east)
    }

    /// The places that parts of one place (the stop positions and platforms of a station, the
    /// named nodes of a junction) make, of `kind`: one per name (without a part in parentheses,
    /// and for a station without a trailing 역) and stretch of `joinMeters`, unless a place of
    /// `kind` and that name in `places` lies that close already.
    /// OSM Korea maps 애오개 only as `railway=stop` + `public_transport=stop_position` nodes.
    static func mergeParts(_ parts: [PlaceRecord], into kind: PlaceKind, joinMeters: Double, besides places: [PlaceRecord]) -> [PlaceRecord] {
        func stationKey(_ name: String) -> [UInt8] {
            var k = SearchText.key(StreetText.withoutParentheses(name))
            guard kind == .station else { return k }
            let yeok = SearchText.key(StationSuffix.korean)
            if k.count > yeok.count, k.suffix(yeok.count).elementsEqual(yeok) { k.removeLast(yeok.count) }
            return k
        }
        func meters(_ a: (Int32, Int32), _ b: (Int32, Int32)) -> Double {
            let k = cos(Double(a.0) / 1e7 * .pi / 180)
            let dy = Double(a.0 - b.0) / 1e7 * 111_195, dx = Double(a.1 - b.1) / 1e7 * 111_195 * k
            return (dx * dx + dy * dy).squareRoot()
        }
        var existing: [[UInt8]: [(Int32, Int32)]] = [:]
        for p in places where p.kind == kind {
            for n in p.names { existing[stationKey(n.value), default: []].append((p.latitudeE7, p.longitudeE7)) }
        }
        var byKey: [[UInt8]: [Int]] = [:]
        for (i, p) in parts.enumerated() {
            guard let name = p.names.first(where: { $0.key == "name" }) ?? p.names.first else { continue }
            let k = stationKey(name.value)
            if !k.isEmpty { byKey[k, default: []].append(i) }
        }
        var out: [PlaceRecord] = []
        for key in byKey.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let group = byKey[key]!
            var parent = Array(0..<group.count)
            func find(_ x: Int) -> Int { var x = x; while parent[x] != x { parent[x] = parent[parent[x]]; x = parent[x] }; return x }
            for a in 0..<group.count {
                for b in (a + 1)..<group.count {
                    let pa = parts[group[a]], pb = parts[group[b]]
                    if meters((pa.latitudeE7, pa.longitudeE7), (pb.latitudeE7, pb.longitudeE7)) <= joinMeters {
                        let ra = find(a), rb = find(b)
                        if ra != rb { parent[max(ra, rb)] = min(ra, rb) }
                    }
                }
            }
            var members: [Int: [Int]] = [:]
            for i in 0..<group.count { members[find(i), default: []].append(group[i]) }
            for root in members.keys.sorted() {
                let ids = members[root]!.sorted()
                let point = representative(ids.map { (parts[$0].latitudeE7, parts[$0].longitudeE7) })
                if existing[key]?.contains(where: { meters($0, point) <= joinMeters }) == true { continue }
                var names: [(key: String, value: String)] = []
                for i in ids {
                    for n in parts[i].names {
                        let v = StreetText.withoutParentheses(n.value).trimmingCharacters(in: .whitespaces)
                        if !v.isEmpty, names.count < maxNames, !names.contains(where: { $0.key == n.key && $0.value == v }) { names.append((n.key, v)) }
                    }
                }
                names = names.enumerated().sorted { a, b in
                    let ka = PlaceTags.order(of: a.element.key), kb = PlaceTags.order(of: b.element.key)
                    return ka != kb ? ka < kb : a.offset < b.offset
                }.map(\.element)
                // the first address a stop position or platform carries (충정로: 서소문로 17)
                let address = ids.lazy.map { parts[$0].address }.first { !$0.isEmpty } ?? []
                out.append(PlaceRecord(osmID: parts[ids[0]].osmID, kind: kind, latitudeE7: point.0, longitudeE7: point.1, names: names, address: address))
            }
        }
        return out
    }

    /// Whether an element is a rail stop position or platform (subway, train, light rail).
    static func isStationPart(_ tag: (String) -> String?) -> Bool {
        let rail = tag("subway") == "yes" || tag("train") == "yes" || tag("light_rail") == "yes" || tag("monorail") == "yes"
        let railway = tag("railway"), pt = tag("public_transport")
        return railway == "stop" || railway == "platform" || (rail && (pt == "stop_position" || pt == "platform"))
    }

    /// Whether a named node of no other kind is a road junction: `junction=yes`,
    /// `highway=traffic_signals`, or a name ending in a junction word (교차로, 사거리, ...).
    static func isJunction(_ tag: (String) -> String?, names: [(key: String, value: String)]) -> Bool {
        if tag("junction") == "yes" || tag("highway") == "traffic_signals" { return true }
        return names.contains { n in StreetText.words.korean_junction_words.contains { n.value.hasSuffix($0) } }
    }

    /// What the index keeps of an element's tags.
    struct Tagged {
        var names: [(key: String, value: String)]
        var address: [(key: String, value: String)]
        var all: [String: String]
        var named: Bool
        /// It has a house number and a street (or place).
        var numbered: Bool
        var categories: [Int]
    }

    /// The names, address tags and categories of an element, or `nil` when it has no name, no
    /// house number and no category. A value with several names (`A;B`, OSM's separator) gives
    /// each; a named place also gets its other `name:xx`, its `brand` and its branch names
    /// (``PlaceTags``), at most ``maxNames``.
    static func readTags(_ tags: PBFTags, _ strings: PBFStringTable, categories: PlaceCategories) -> Tagged? {
        guard tags.count > 0 else { return nil }
        var all: [String: String] = [:]
        for i in 0..<tags.count { all[strings.string(Int(tags.keys[i]))] = strings.string(Int(tags.values[i])) }
        StationSuffix.nameExitFromDescription(&all)
        let named = PlaceTags.nameKeys.contains { !(all[$0]?.trimmingCharacters(in: .whitespaces).isEmpty ?? true) }
        let cats = categories.of { all[$0] }
        let numbered = all["addr:housenumber"] != nil && (all["addr:street"] != nil || all["addr:place"] != nil)
        guard named || numbered || !cats.isEmpty else { return nil }
        var names: [(key: String, value: String)] = []
        func add(_ key: String, _ value: String) {
            for part in value.split(separator: ";") {
                let v = part.trimmingCharacters(in: .whitespaces)
                if !v.isEmpty, names.count < maxNames, !names.contains(where: { $0.key == key && $0.value == v }) { names.append((key, v)) }
            }
        }
        for key in PlaceTags.nameKeys { if let v = all[key] { add(key, v) } }
        if named {
            for (k, v) in all.sorted(by: { $0.key < $1.key }) where PlaceTags.isLanguageName(k) && !PlaceTags.nameKeys.contains(k) { add(k, v) }
            let main = all["name"] ?? names.first?.value ?? ""
            if let brand = all["brand"], SearchText.key(brand) != SearchText.key(main) { add("brand", brand) }
            if let branch = all["branch"]?.trimmingCharacters(in: .whitespaces), !branch.isEmpty {
                add("name+branch", main + " " + branch)
                if let brand = all["brand"], SearchText.key(brand) != SearchText.key(main) { add("brand+branch", brand + " " + branch) }
                // A Korean brand's Korean name with the branch (`Homeplus` is 홈플러스 to riders).
                if let brand = all["brand:ko"], SearchText.key(brand) != SearchText.key(main), SearchText.key(brand) != SearchText.key(all["brand"] ?? "") {
                    add("brand:ko+branch", brand + " " + branch)
                }
            }
        }
        let address = all.filter { $0.key.hasPrefix(PlaceTags.addressPrefix) }
            .map { (key: String($0.key.dropFirst(PlaceTags.addressPrefix.count)), value: $0.value) }
            .sorted { $0.key < $1.key }
        return Tagged(names: names, address: address, all: all, named: named, numbered: numbered, categories: cats)
    }
}

/// A named way that is a place, waiting for its nodes' positions.
struct WayCandidate: Sendable {
    var id: Int64
    var kind: PlaceKind
    var refs: [Int64]
    var names: [(key: String, value: String)]
    var address: [(key: String, value: String)]
    var named = true
    var categories: [Int] = []
    /// A named rail platform (``PlaceExtractor/isStationPart(_:)``), merged into a station.
    var stationPart = false
}

/// A named multipolygon relation that is a place, waiting for its outer ways.
struct RelationCandidate: Sendable {
    var id: Int64
    var kind: PlaceKind
    var wayIDs: [Int64]
    var names: [(key: String, value: String)]
    var address: [(key: String, value: String)]
    var named = true
    var categories: [Int] = []
}

/// The first pass: named `type=multipolygon` relations that are places, and their outer ways.
struct RelationPass: PBFVisitor {
    let categories: PlaceCategories
    var candidates: [RelationCandidate] = []
    var wantedWays = Set<Int64>()

    mutating func relation(id: Int64, members: PBFMembers, tags: PBFTags, strings: PBFStringTable) {
        guard let t = PlaceExtractor.readTags(tags, strings, categories: categories), t.all["type"] == "multipolygon",
              let kind = PlaceKind.classify(isWay: false, tag: { t.all[$0] }) ?? (t.named && !t.numbered ? nil : .building) else { return }
        var ways: [Int64] = []
        for i in 0..<members.count where members.types[i] == .way {
            let role = strings.string(Int(members.roles[i]))
            if role == "outer" || role.isEmpty { ways.append(members.ids[i]) }
        }
        guard !ways.isEmpty else { return }
        candidates.append(RelationCandidate(id: id, kind: kind, wayIDs: ways, names: t.names, address: t.address, named: t.named, categories: t.categories))
        wantedWays.formUnion(ways)
    }
}

/// The second pass: named ways that are places, the relations' outer ways, and the nodes they need.
struct WayPass: PBFVisitor {
    let wanted: Set<Int64>
    let categories: PlaceCategories
    var candidates: [WayCandidate] = []
    var memberRefs: [Int64: [Int64]] = [:]
    var needed = Set<Int64>()
    var read = 0

    init(wanted: Set<Int64>, categories: PlaceCategories) { self.wanted = wanted; self.categories = categories }

    mutating func way(id: Int64, refs: [Int64], tags: PBFTags, strings: PBFStringTable) {
        read += 1
        if wanted.contains(id) {
            memberRefs[id] = refs
            needed.formUnion(refs)
        }
        guard !refs.isEmpty, let t = PlaceExtractor.readTags(tags, strings, categories: categories) else { return }
        let classified = PlaceKind.classify(isWay: true, tag: { t.all[$0] })
        var candidate: WayCandidate
        if t.named, classified == nil || classified == .street, PlaceExtractor.isStationPart({ t.all[$0] }) {
            candidate = WayCandidate(id: id, kind: .station, refs: refs, names: t.names, address: t.address, stationPart: true)
        } else {
            // an unnamed road is no street; an element of no kind with an address (or unnamed, with a category) is a building
            let kind: PlaceKind
            if classified == .street && !t.named { return }
            if let classified { kind = classified } else if !t.named || t.numbered { kind = .building } else { return }
            candidate = WayCandidate(id: id, kind: kind, refs: refs, names: t.names, address: t.address, named: t.named, categories: t.categories)
        }
        candidates.append(candidate)
        needed.formUnion(refs)
    }
}

/// The third pass: named nodes that are places, and the positions of the nodes the ways need.
struct NodePass: PBFVisitor {
    let needed: Set<Int64>
    let categories: PlaceCategories
    var positions: [Int64: (Int32, Int32)] = [:]
    var places: [PlaceRecord] = []
    /// Named rail stop positions and platforms, merged into stations later.
    var stationParts: [PlaceRecord] = []
    /// Named nodes of road junctions, merged per name and stretch into ``PlaceKind/junction`` places.
    var junctionParts: [PlaceRecord] = []
    var read = 0

    init(needed: Set<Int64>, categories: PlaceCategories) { self.needed = needed; self.categories = categories }

    mutating func node(id: Int64, latitude: Int32, longitude: Int32, tags: PBFTags, strings: PBFStringTable) {
        read += 1
        if needed.contains(id) { positions[id] = (latitude, longitude) }
        guard tags.count > 0, let t = PlaceExtractor.readTags(tags, strings, categories: categories) else { return }
        let classified = PlaceKind.classify(isWay: false, tag: { t.all[$0] })
        if t.named, classified == nil, PlaceExtractor.isStationPart({ t.all[$0] }) {
            stationParts.append(PlaceRecord(osmID: "n\(id)", kind: .station, latitudeE7: latitude, longitudeE7: longitude, names: t.names, address: t.address))
            return
        }
        if t.named, classified == nil, PlaceExtractor.isJunction({ t.all[$0] }, names: t.names) {
            junctionParts.append(PlaceRecord(osmID: "n\(id)", kind: .junction, latitudeE7: latitude, longitudeE7: longitude, names: t.names, address: t.address))
            return
        }
        guard let kind = classified ?? (t.named && !t.numbered ? nil : .building) else { return }
        places.append(PlaceRecord(osmID: "n\(id)", kind: kind, latitudeE7: latitude, longitudeE7: longitude, names: t.names, address: t.address,
                                  named: t.named, categories: t.categories))
    }
}
