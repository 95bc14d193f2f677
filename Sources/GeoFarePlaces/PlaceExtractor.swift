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
    /// A street's ways, each its node positions (1e-7 degrees, latitude then longitude); empty for other places.
    var shape: [[(Int32, Int32)]] = []
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

    struct Counts: Sendable {
        var nodesRead = 0, waysRead = 0
        var nodePlaces = 0, wayPlaces = 0, relationPlaces = 0, streetWays = 0, streets = 0
        var osmTimestampSeconds: Int64 = 0
    }

    /// The places of the file at `url`, and what was read.
    /// - Throws: ``GeoFareError`` from the PBF reader (`pbf_unreadable`, `pbf_corrupt`, ...).
    static func extract(pbfAt url: URL) throws(GeoFareError) -> (places: [PlaceRecord], counts: Counts) {
        let reader = try PBFReader(contentsOf: url)
        var relations = RelationPass()
        var stamp = try reader.visit(&relations, kinds: .relations)
        var ways = WayPass(wanted: relations.wantedWays)
        stamp = max(stamp, try reader.visit(&ways, kinds: .ways))
        var nodes = NodePass(needed: ways.needed)
        stamp = max(stamp, try reader.visit(&nodes, kinds: .nodes))
        var counts = Counts()
        counts.nodesRead = nodes.read
        counts.waysRead = ways.read
        counts.osmTimestampSeconds = max(stamp, reader.header.replicationTimestampSeconds ?? 0)
        var places = nodes.places
        counts.nodePlaces = places.count
        var streetPieces: [(way: WayCandidate, points: [(Int32, Int32)])] = []
        for way in ways.candidates {
            let points = way.refs.compactMap { nodes.positions[$0] }
            guard !points.isEmpty else { continue }
            if way.kind == .street { streetPieces.append((way, points)); continue }
            let ring = points.count > 2 && way.refs.first == way.refs.last ? Array(points.dropLast()) : points
            let (lat, lon) = representative(ring)
            places.append(PlaceRecord(osmID: "w\(way.id)", kind: way.kind, latitudeE7: lat, longitudeE7: lon, names: way.names, address: way.address))
            counts.wayPlaces += 1
        }
        for relation in relations.candidates {
            let points = relation.wayIDs.flatMap { ways.memberRefs[$0] ?? [] }.compactMap { nodes.positions[$0] }
            guard !points.isEmpty else { continue }
            let (lat, lon) = representative(points)
            places.append(PlaceRecord(osmID: "r\(relation.id)", kind: relation.kind, latitudeE7: lat, longitudeE7: lon,
                                      names: relation.names, address: relation.address))
            counts.relationPlaces += 1
        }
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
                    let ka = PlaceTags.nameKeys.firstIndex(of: a.element.key)!, kb = PlaceTags.nameKeys.firstIndex(of: b.element.key)!
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

    /// The names and address tags of an element, or `nil` when it has no name.
    static func readTags(_ tags: PBFTags, _ strings: PBFStringTable) -> (names: [(key: String, value: String)], address: [(key: String, value: String)], all: [String: String])? {
        var hasName = false
        for i in 0..<tags.count {
            let k = Int(tags.keys[i])
            if strings.equals(k, "name") || strings.equals(k, "name:ko") || strings.equals(k, "name:en") || strings.equals(k, "name:ko-Latn")
                || strings.equals(k, "alt_name") || strings.equals(k, "old_name") || strings.equals(k, "short_name") || strings.equals(k, "official_name") {
                hasName = true
                break
            }
        }
        guard hasName else { return nil }
        var all: [String: String] = [:]
        for i in 0..<tags.count { all[strings.string(Int(tags.keys[i]))] = strings.string(Int(tags.values[i])) }
        var names: [(key: String, value: String)] = []
        for key in PlaceTags.nameKeys {
            if let v = all[key]?.trimmingCharacters(in: .whitespaces), !v.isEmpty { names.append((key, v)) }
        }
        guard !names.isEmpty else { return nil }
        let address = all.filter { $0.key.hasPrefix(PlaceTags.addressPrefix) }
            .map { (key: String($0.key.dropFirst(PlaceTags.addressPrefix.count)), value: $0.value) }
            .sorted { $0.key < $1.key }
        return (names, address, all)
    }
}

/// A named way that is a place, waiting for its nodes' positions.
struct WayCandidate: Sendable {
    var id: Int64
    var kind: PlaceKind
    var refs: [Int64]
    var names: [(key: String, value: String)]
    var address: [(key: String, value: String)]
}

/// A named multipolygon relation that is a place, waiting for its outer ways.
struct RelationCandidate: Sendable {
    var id: Int64
    var kind: PlaceKind
    var wayIDs: [Int64]
    var names: [(key: String, value: String)]
    var address: [(key: String, value: String)]
}

/// The first pass: named `type=multipolygon` relations that are places, and their outer ways.
struct RelationPass: PBFVisitor {
    var candidates: [RelationCandidate] = []
    var wantedWays = Set<Int64>()

    mutating func relation(id: Int64, members: PBFMembers, tags: PBFTags, strings: PBFStringTable) {
        guard let t = PlaceExtractor.readTags(tags, strings), t.all["type"] == "multipolygon",
              let kind = PlaceKind.classify(isWay: false, tag: { t.all[$0] }) else { return }
        var ways: [Int64] = []
        for i in 0..<members.count where members.types[i] == .way {
            let role = strings.string(Int(members.roles[i]))
            if role == "outer" || role.isEmpty { ways.append(members.ids[i]) }
        }
        guard !ways.isEmpty else { return }
        candidates.append(RelationCandidate(id: id, kind: kind, wayIDs: ways, names: t.names, address: t.address))
        wantedWays.formUnion(ways)
    }
}

/// The second pass: named ways that are places, the relations' outer ways, and the nodes they need.
struct WayPass: PBFVisitor {
    let wanted: Set<Int64>
    var candidates: [WayCandidate] = []
    var memberRefs: [Int64: [Int64]] = [:]
    var needed = Set<Int64>()
    var read = 0

    init(wanted: Set<Int64>) { self.wanted = wanted }

    mutating func way(id: Int64, refs: [Int64], tags: PBFTags, strings: PBFStringTable) {
        read += 1
        if wanted.contains(id) {
            memberRefs[id] = refs
            needed.formUnion(refs)
        }
        guard !refs.isEmpty, let t = PlaceExtractor.readTags(tags, strings),
              let kind = PlaceKind.classify(isWay: true, tag: { t.all[$0] }) else { return }
        candidates.append(WayCandidate(id: id, kind: kind, refs: refs, names: t.names, address: t.address))
        needed.formUnion(refs)
    }
}

/// The third pass: named nodes that are places, and the positions of the nodes the ways need.
struct NodePass: PBFVisitor {
    let needed: Set<Int64>
    var positions: [Int64: (Int32, Int32)] = [:]
    var places: [PlaceRecord] = []
    var read = 0

    init(needed: Set<Int64>) { self.needed = needed }

    mutating func node(id: Int64, latitude: Int32, longitude: Int32, tags: PBFTags, strings: PBFStringTable) {
        read += 1
        if needed.contains(id) { positions[id] = (latitude, longitude) }
        guard tags.count > 0, let t = PlaceExtractor.readTags(tags, strings),
              let kind = PlaceKind.classify(isWay: false, tag: { t.all[$0] }) else { return }
        places.append(PlaceRecord(osmID: "n\(id)", kind: kind, latitudeE7: latitude, longitudeE7: longitude, names: t.names, address: t.address))
    }
}
