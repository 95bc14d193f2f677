import GeoFareGraph
import GeoFareOSM

/// Pass 1 of the extraction: keeps the ways a ``RoadProfile`` drives (with direction, speed,
/// class and flags), the ids of traffic-signal nodes and the turn restrictions.
struct WayCollector: PBFVisitor {
    /// One turn restriction as tagged (before it is matched to arcs): via one node, or via one
    /// or more ways (`viaWays` not empty, `via` unused).
    struct Restriction {
        var relationId: Int64
        var isOnly: Bool
        var from: [Int64]
        var via: Int64
        var to: [Int64]
        var viaWays: [Int64] = []
    }

    let profile: RoadProfile

    // kept ways, columnar
    var wayIds: [Int64] = []
    var wayRefStart: [Int] = [0]
    var refs: [Int64] = []
    var wayClass: [UInt8] = []
    var wayForward: [Bool] = [], wayBackward: [Bool] = []
    var waySpeedForwardKmh: [Double] = [], waySpeedBackwardKmh: [Double] = []
    var wayFlags: [ArcFlags] = []

    var signalNodeIds: [Int64] = []
    var restrictions: [Restriction] = []
    var restrictionsSkipped: [String: Int] = [:]
    /// `type=restriction` relations carrying a conditional key (`restriction:conditional`,
    /// `restriction:motorcar:conditional`, ...): their time-dependent part is never applied.
    var restrictionsConditional = 0

    var nodesRead = 0
    var waysRead = 0
    var relationsRead = 0

    // per-block key codes (index into `interestingKeys`, or -1)
    private var keyCode: [Int16] = []
    // per-way: the string index of each interesting key's value, or -1 (reused, no allocation per way)
    private var found: [Int] = []
    private let keyIndex: [String: Int16]
    private let highwayClass: [String: UInt8]

    private enum Key: Int16 {
        case highway = 0, oneway, junction, area, service, maxspeed, maxspeedForward, maxspeedBackward, type, except, restrictionConditional
    }
    private static let fixedKeys = ["highway", "oneway", "junction", "area", "service", "maxspeed", "maxspeed:forward", "maxspeed:backward", "type", "except", "restriction:conditional"]
    private let accessBase: Int16
    private let onewayBase: Int16
    private let restrictionBase: Int16

    init(profile: RoadProfile) {
        self.profile = profile
        var index: [String: Int16] = [:]
        for (i, k) in Self.fixedKeys.enumerated() { index[k] = Int16(i) }
        accessBase = Int16(Self.fixedKeys.count)
        for (i, k) in profile.accessTags.enumerated() where index[k] == nil { index[k] = accessBase + Int16(i) }
        onewayBase = accessBase + Int16(profile.accessTags.count)
        for (i, k) in profile.onewayKeys.enumerated() where index[k] == nil { index[k] = onewayBase + Int16(i) }
        restrictionBase = onewayBase + Int16(profile.onewayKeys.count)
        for (i, k) in profile.restrictionKeys.enumerated() where index[k] == nil { index[k] = restrictionBase + Int16(i) }
        // the conditional variant of every restriction key is recognised (counted, never applied)
        for k in profile.restrictionKeys where index[k + ":conditional"] == nil { index[k + ":conditional"] = Key.restrictionConditional.rawValue }
        keyIndex = index
        var classes: [String: UInt8] = [:]
        for (i, c) in profile.roadClasses.enumerated() { classes[c.highway] = UInt8(i) }
        highwayClass = classes
        found = [Int](repeating: -1, count: Int(restrictionBase))
    }

    mutating func beginBlock(strings: PBFStringTable) {
        keyCode.removeAll(keepingCapacity: true)
        for i in 0..<strings.count {
            let b = strings.bytes(i)
            // keys of interest are short ASCII; skip building a String for anything else
            if b.count == 0 || b.count > 48 { keyCode.append(-1); continue }
            keyCode.append(keyIndex[String(decoding: b, as: UTF8.self)] ?? -1)
        }
    }

    mutating func node(id: Int64, latitude: Int32, longitude: Int32, tags: PBFTags, strings: PBFStringTable) {
        nodesRead += 1
        for t in 0..<tags.count where keyCode[Int(tags.keys[t])] == Key.highway.rawValue {
            if strings.equals(Int(tags.values[t]), "traffic_signals") { signalNodeIds.append(id) }
        }
    }

    mutating func way(id: Int64, refs wayRefs: [Int64], tags: PBFTags, strings: PBFStringTable) {
        waysRead += 1
        for i in found.indices { found[i] = -1 }
        for t in 0..<tags.count {
            let code = keyCode[Int(tags.keys[t])]
            if code >= 0 && code < restrictionBase { found[Int(code)] = Int(tags.values[t]) }
        }
        let found = self.found
        func value(_ k: Key) -> String? { found[Int(k.rawValue)] >= 0 ? strings.string(found[Int(k.rawValue)]) : nil }
        guard let highway = value(.highway), let cls = highwayClass[highway] else { return }
        if profile.dropAreas, value(.area) == "yes" { return }
        if highway == "service", let s = value(.service), profile.excludedServiceValues.contains(s) { return }
        // the most specific access key present decides (taxi, psv, motorcar, ... access)
        for i in 0..<profile.accessTags.count {
            let code = keyIndex[profile.accessTags[i]]!
            let v = found[Int(code)]
            if v >= 0 {
                if profile.deniedAccessValues.contains(strings.string(v)) { return }
                break
            }
        }
        var forward = true, backward = true
        let junction = value(.junction)
        let isRoundabout = junction.map { profile.roundaboutJunctions.contains($0) } ?? false
        // the most specific oneway key present decides (oneway:taxi, oneway:psv, oneway)
        var onewayValue: String? = nil
        for k in profile.onewayKeys {
            let v = found[Int(keyIndex[k]!)]
            if v >= 0 { onewayValue = strings.string(v); break }
        }
        if let oneway = onewayValue {
            if profile.onewayDropped.contains(oneway) { return }
            if profile.onewayForward.contains(oneway) { backward = false }
            else if profile.onewayBackward.contains(oneway) { forward = false }
            else if profile.onewayBoth.contains(oneway) {}
            else if isRoundabout || profile.impliedOnewayHighways.contains(highway) { backward = false }
        } else if isRoundabout || profile.impliedOnewayHighways.contains(highway) {
            backward = false
        }
        let base = value(.maxspeed).flatMap { profile.speedKmh(maxspeed: $0) } ?? profile.roadClasses[Int(cls)].speedKmh
        let speedForward = value(.maxspeedForward).flatMap { profile.speedKmh(maxspeed: $0) } ?? base
        let speedBackward = value(.maxspeedBackward).flatMap { profile.speedKmh(maxspeed: $0) } ?? base
        // consecutive repeats of a node are zero-length segments: drop them
        let start = refs.count
        for r in wayRefs where refs.count == start || refs[refs.count - 1] != r { refs.append(r) }
        guard refs.count - start >= 2 else { refs.removeSubrange(start...); return }
        var flags: ArcFlags = []
        if isRoundabout { flags.insert(.roundabout) }
        if profile.roadClasses[Int(cls)].isLink { flags.insert(.link) }
        wayIds.append(id)
        wayRefStart.append(refs.count)
        wayClass.append(cls)
        wayForward.append(forward)
        wayBackward.append(backward)
        waySpeedForwardKmh.append(speedForward)
        waySpeedBackwardKmh.append(speedBackward)
        wayFlags.append(flags)
    }

    mutating func relation(id: Int64, members: PBFMembers, tags: PBFTags, strings: PBFStringTable) {
        relationsRead += 1
        guard profile.turnRestrictions else { return }
        var isRestriction = false
        var restrictionValue: String? = nil
        var restrictionRank = Int.max
        var except: String? = nil
        var conditional = false
        for t in 0..<tags.count {
            let code = keyCode[Int(tags.keys[t])]
            if code == Key.type.rawValue, strings.equals(Int(tags.values[t]), "restriction") { isRestriction = true }
            else if code == Key.except.rawValue { except = strings.string(Int(tags.values[t])) }
            else if code == Key.restrictionConditional.rawValue { conditional = true }
            else if code >= restrictionBase {
                let rank = Int(code - restrictionBase)
                if rank < restrictionRank { restrictionRank = rank; restrictionValue = strings.string(Int(tags.values[t])) }
            }
        }
        guard isRestriction else { return }
        if conditional { restrictionsConditional += 1 }
        guard let value = restrictionValue else {
            restrictionsSkipped[conditional ? "conditional" : "no_restriction_tag", default: 0] += 1
            return
        }
        if let except, except.split(separator: ";").contains(where: { profile.restrictionExceptValues.contains(String($0.trimmingSpaces())) }) {
            restrictionsSkipped["excepted", default: 0] += 1
            return
        }
        let isOnly: Bool
        if value.hasPrefix("no_") { isOnly = false } else if value.hasPrefix("only_") { isOnly = true } else {
            restrictionsSkipped["unknown_value", default: 0] += 1
            return
        }
        var from: [Int64] = [], to: [Int64] = [], via: [Int64] = [], viaWays: [Int64] = []
        for m in 0..<members.count {
            let role = Int(members.roles[m])
            if strings.equals(role, "from"), members.types[m] == .way { from.append(members.ids[m]) }
            else if strings.equals(role, "to"), members.types[m] == .way { to.append(members.ids[m]) }
            else if strings.equals(role, "via") {
                if members.types[m] == .node { via.append(members.ids[m]) } else if members.types[m] == .way { viaWays.append(members.ids[m]) }
            }
        }
        if !viaWays.isEmpty {
            // from → via way(s) → to: one from, one to, no via node, no way twice
            guard via.isEmpty, from.count == 1, to.count == 1, Set(viaWays).count == viaWays.count,
                  !viaWays.contains(from[0]), !viaWays.contains(to[0]) else {
                restrictionsSkipped["via_way_members", default: 0] += 1
                return
            }
            restrictions.append(Restriction(relationId: id, isOnly: isOnly, from: from, via: 0, to: to, viaWays: viaWays))
            return
        }
        guard via.count == 1, !from.isEmpty, !to.isEmpty else {
            restrictionsSkipped["incomplete_members", default: 0] += 1
            return
        }
        if isOnly, from.count != 1 || to.count != 1 {
            restrictionsSkipped["incomplete_members", default: 0] += 1
            return
        }
        restrictions.append(Restriction(relationId: id, isOnly: isOnly, from: from, via: via[0], to: to))
    }
}

/// Pass 2 of the extraction: fills the coordinates of the nodes the kept ways use.
struct NodeLocator: PBFVisitor {
    /// The node ids the ways need, sorted and unique.
    let ids: [Int64]
    var latitudes: [Int32]
    var longitudes: [Int32]
    var present: [Bool]

    init(ids: [Int64]) {
        self.ids = ids
        latitudes = [Int32](repeating: 0, count: ids.count)
        longitudes = [Int32](repeating: 0, count: ids.count)
        present = [Bool](repeating: false, count: ids.count)
    }

    mutating func node(id: Int64, latitude: Int32, longitude: Int32, tags: PBFTags, strings: PBFStringTable) {
        guard let i = ids.sortedIndex(of: id) else { return }
        latitudes[i] = latitude
        longitudes[i] = longitude
        present[i] = true
    }
}

extension Array where Element == Int64 {
    /// The index of `value` in this sorted array, by binary search.
    @inline(__always)
    func sortedIndex(of value: Int64) -> Int? {
        withUnsafeBufferPointer { b in
            var lo = 0, hi = b.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if b[mid] < value { lo = mid + 1 } else { hi = mid }
            }
            return lo < b.count && b[lo] == value ? lo : nil
        }
    }
}
