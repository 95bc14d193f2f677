import Foundation
import GeoFareCore
import GeoFareData

/// Every tariff and tariff zone GeoFare knows: the embedded ones plus a user data directory's.
///
/// Immutable once loaded and safe to share across threads. Meters are built once per tariff
/// version here, so pricing does no set-up work. A class, so that handing the catalog around
/// (every quote does) costs one reference count, not a retain of each of its tables.
public final class TariffCatalog: Sendable {
    /// The tariffs, sorted by id.
    public let tariffs: [Tariff]
    /// Tariff regions and business zones.
    public let zones: ZoneSet
    /// The slow-time model (`fare/slow-time.json`) that turns distance and duration into the
    /// meter's slow seconds for every tariff; `nil` (a catalog built without one): the tariffs'
    /// cruise speeds are used, `slow = max(0, T − D / cruise)`.
    public let slowTime: SlowTimeModel?
    /// The named slow-time models the tariffs ask for (`slow_time_model`: `kr` for Korea's,
    /// fitted on real Korean rides), by name; a tariff that names none uses ``slowTime``.
    public let slowTimeModels: [String: SlowTimeModel]
    /// Road tolls (`tolls/*.json`): crossings to areas reached only over them, and the
    /// expressway estimate of long trips (``TollTable``).
    public let tolls: [TollTable]
    /// Each toll table's area polygons (``TollTable/areaIDs``), resolved once.
    let tollAreas: [[GeoPolygon]]
    /// The box holding every toll area, and the shortest straight distance of any expressway
    /// estimate (∞: none): ``mayHaveTolls(_:_:)``'s screen, plain values a trip reads without
    /// retaining a table, a polygon or an array.
    let tollBox: (west: Double, south: Double, east: Double, north: Double)
    let tollMinStraightMeters: Double
    private let index: [String: Int]
    private let meters: [[Meter]]
    /// Each tariff's version starts, flat (``VersionTable``): the lookup every priced row makes,
    /// without touching the `TariffVersion` structs.
    private let versionTables: [VersionTable]
    /// Each tariff's business-zone polygon, resolved once (routes need it per request).
    private let businessZones: [GeoPolygon?]
    /// Per tariff, the zones that are the business zone of an origin inside them (`business_zones`).
    private let originBusinessZones: [[GeoPolygon]]
    /// Each zone whose origins pick a tariff (a tariff's region or one of its `also_regions`):
    /// its size (its box, square degrees: where regions nest, as a province's city group inside
    /// the province, the smaller one is the more specific) and the tariffs it picks.
    /// By position in `zones.zones` (`nil`: a zone no origin picks a tariff by).
    private let originZonesByIndex: [(size: Double, tariffs: [Int])?]
    /// Each zone a tariff places for some of its versions only (``Tariff/placedForVersions``):
    /// its size (as above) and each such tariff with the positions of those versions. By
    /// position in `zones.zones` (`nil` for every other zone).
    private let placedZonesByIndex: [(size: Double, placements: [(tariff: Int, versions: [Int])])?]
    /// Whether each tariff is its region's "regular" class (the id ends in `/regular`).
    private let isRegular: [Bool]
    /// Provinces whose city groups have tariffs but which have none of their own (no
    /// province-wide default): zone id → the ids of the group tariffs inside it.
    private let groupOnlyProvinces: [String: [String]]
    /// Group-only provinces whose data names the tariff an unplaced origin is priced on
    /// (a tariff file's `assumed_for`): zone id → that tariff and how it is named.
    private let assumedByProvince: [String: (tariff: Int, entry: Tariff.AssumedFor)]
    /// By currency: the highest out-of-zone (시계외) rate any version of any tariff in that
    /// currency gives, and the tariffs giving it (sorted ids): the top of the band where a
    /// version gives none (``assumedOutOfZoneRate(_:)``).
    let highestOutOfZoneRate: [String: (percent: Int, tariffs: [String])]

    /// Loads `tariffs/*.json`, `zones/*.geojson` and the slow-time model
    /// (``SlowTimeModel/path``) from a data catalog.
    /// - Throws: ``GeoFareError`` `invalid_tariff` naming the file and field (a tariff or the
    ///   slow-time model), or for a zone file `invalid_zone`; a duplicate tariff id or alias is
    ///   an error too.
    public static func load(from data: DataCatalog = .embedded) throws(GeoFareError) -> TariffCatalog {
        var tariffs: [Tariff] = []
        do {
            for path in try data.paths(under: "tariffs/", extensions: ["json"]) {
                let (bytes, origin) = try data.file(path)
                tariffs.append(try TariffFile.load(bytes, origin: origin))
            }
        } catch let error as GeoFareError {
            throw error
        } catch {
            throw .invalidTariff(error)
        }
        var zones = ZoneSet()
        do {
            for path in try data.paths(under: "zones/", extensions: ["geojson"]) {
                let (bytes, origin) = try data.file(path)
                try zones.load(geoJSON: bytes, origin: origin)
            }
        } catch let error as GeoFareError {
            // A data file that cannot be found or read keeps its code; a zone file that does not
            // parse or validate is `invalid_zone`.
            if [.dataFileMissing, .dataFileUnreadable, .dataDirectoryUnreadable].contains(error.code) { throw error }
            throw .invalidZone(error)
        } catch {
            throw .invalidZone(describing: error)
        }
        var named: [String: SlowTimeModel] = [:]
        for name in Set(tariffs.compactMap(\.slowTimeModel)) {
            named[name] = try SlowTimeModel.load(from: data, named: name)
        }
        return try TariffCatalog(tariffs: tariffs, zones: zones, slowTime: try SlowTimeModel.load(from: data), slowTimeModels: named,
                                 tolls: try TollTable.load(from: data))
    }

    /// Builds a catalog from tariffs already loaded.
    /// - Parameter slowTime: the slow-time model; `nil` prices with the tariffs' cruise speeds.
    /// - Parameter slowTimeModels: the named models tariffs ask for (`slow_time_model`); with a
    ///   `slowTime`, every name a tariff gives must be here.
    /// - Parameter tolls: road tolls; every crossing's area must be a loaded zone.
    /// - Throws: ``GeoFareError`` `invalid_tariff` for a duplicate id or alias, a zone a tariff
    ///   names that is not loaded, or a slow-time model a tariff names that is not given.
    public init(tariffs: [Tariff], zones: ZoneSet, slowTime: SlowTimeModel? = nil, slowTimeModels: [String: SlowTimeModel] = [:],
                tolls: [TollTable] = []) throws(GeoFareError) {
        let sorted = tariffs.sorted { $0.id < $1.id }
        var index: [String: Int] = [:]
        for (i, t) in sorted.enumerated() {
            for name in [t.id] + t.aliases {
                if let other = index[name] {
                    throw .duplicateTariffID(name, first: sorted[other].origin, second: t.origin)
                }
                index[name] = i
            }
            for zone in [t.region, t.businessZone].compactMap({ $0 }) + t.alsoRegions + t.businessZonesByOrigin where zones.zone(zone) == nil {
                throw .unknownZone(zone, field: "\(t.origin): region/also_regions/business_zone(s)")
            }
        }
        self.tariffs = sorted
        self.zones = zones
        self.slowTime = slowTime
        self.slowTimeModels = slowTimeModels
        var tollAreas: [[GeoPolygon]] = []
        for table in tolls {
            for (i, c) in table.crossings.enumerated() where zones.zone(c.area) == nil {
                throw .unknownZone(c.area, field: "\(table.origin): crossings[\(i)].area")
            }
            tollAreas.append(table.areaIDs.map { zones.zone($0)!.polygon })
        }
        self.tolls = tolls
        self.tollAreas = tollAreas
        var box = (west: Double.infinity, south: Double.infinity, east: -Double.infinity, north: -Double.infinity)
        for p in tollAreas.joined() {
            box = (min(box.west, p.bounds.west), min(box.south, p.bounds.south), max(box.east, p.bounds.east), max(box.north, p.bounds.north))
        }
        tollBox = box
        tollMinStraightMeters = tolls.compactMap(\.expressway?.minStraightMeters).min() ?? .infinity
        for t in sorted {
            if slowTime != nil, let name = t.slowTimeModel, slowTimeModels[name] == nil {
                throw .invalidTariff(t.origin, "slow_time_model", "names '\(name)', but no \(SlowTimeModel.path(named: name)) is loaded")
            }
        }
        self.index = index
        self.businessZones = sorted.map { t in t.businessZone.flatMap { zones.zone($0)?.polygon } }
        self.originBusinessZones = sorted.map { t in t.businessZonesByOrigin.compactMap { zones.zone($0)?.polygon } }
        var originZones: [String: (size: Double, tariffs: [Int])] = [:]
        for (i, t) in sorted.enumerated() {
            for id in [t.region].compactMap({ $0 }) + t.alsoRegions {
                let b = zones.zone(id)!.polygon.bounds
                originZones[id, default: ((b.east - b.west) * (b.north - b.south), [])].tariffs.append(i)
            }
        }
        self.originZonesByIndex = zones.zones.map { originZones[$0.id] }
        var placedZones: [String: (size: Double, placements: [(tariff: Int, versions: [Int])])] = [:]
        for (i, t) in sorted.enumerated() {
            for (k, p) in t.placedForVersions.enumerated() {
                let field = "\(t.origin): placed_for_versions[\(k)].zone"
                guard let zone = zones.zone(p.zone) else {
                    throw .unknownZone(p.zone, field: field)
                }
                // One rule per zone: always placed (a region) or placed by version, never both.
                guard originZones[p.zone] == nil else {
                    throw .placedZoneIsRegion(p.zone, field: field)
                }
                // Under the other versions its origins are unplaced: they need a province that knows it.
                guard zone.parent != nil else {
                    throw .placedZoneWithoutProvince(p.zone, field: field)
                }
                let b = zone.polygon.bounds
                placedZones[p.zone, default: ((b.east - b.west) * (b.north - b.south), [])].placements.append((i, p.versions))
            }
        }
        self.placedZonesByIndex = zones.zones.map { placedZones[$0.id] }
        self.isRegular = sorted.map { $0.id.hasSuffix("/regular") }
        let groupOnlyProvinces = Self.groupOnlyProvinces(tariffs: sorted, zones: zones)
        self.groupOnlyProvinces = groupOnlyProvinces
        var assumed: [String: (tariff: Int, entry: Tariff.AssumedFor)] = [:]
        for (i, t) in sorted.enumerated() {
            for (k, a) in t.assumedFor.enumerated() {
                let field = "\(t.origin): assumed_for[\(k)].zone"
                guard zones.zone(a.zone) != nil else {
                    throw .unknownZone(a.zone, field: field)
                }
                guard groupOnlyProvinces[a.zone] != nil else {
                    throw .assumedZoneNotGroupOnly(a.zone, field: field)
                }
                if let other = assumed[a.zone] {
                    throw .assumedZoneTwice(a.zone, first: sorted[other.tariff].origin, second: t.origin, field: field)
                }
                assumed[a.zone] = (i, a)
            }
        }
        self.assumedByProvince = assumed
        for t in sorted {
            for (i, v) in t.versions.enumerated() {
                for (j, rule) in v.outOfZoneByDestination.enumerated() {
                    for (k, zone) in rule.zones.enumerated() where zones.zone(zone) == nil {
                        throw .unknownZone(zone, field: "\(t.origin): versions[\(i)].out_of_zone_by_destination[\(j)].zones[\(k)]")
                    }
                }
            }
        }
        var highest: [String: (percent: Int, tariffs: [String])] = [:]
        for t in sorted {
            guard let rate = t.versions.flatMap({ [$0.outOfZoneRatePercent].compactMap { $0 } + $0.outOfZoneByDestination.map(\.ratePercent) }).max() else { continue }
            let h = highest[t.currency]
            if h == nil || rate > h!.percent { highest[t.currency] = (rate, [t.id]) } else if rate == h!.percent { highest[t.currency]!.tariffs.append(t.id) }
        }
        self.highestOutOfZoneRate = highest
        self.meters = sorted.map { t in
            let clock = LocalClock(timeZone: t.timeZone)
            let model = slowTime == nil ? nil : t.slowTimeModel.flatMap { slowTimeModels[$0] } ?? slowTime
            return t.versions.map { Meter(tariff: t, version: $0, clock: clock, slowTime: model) }
        }
        self.versionTables = sorted.map(VersionTable.init)
    }

    /// The same tariffs and zones with every meter copied (``Meter/copy()``): for one thread's
    /// hot loop (see ``TripPricer/threadCopy()``).
    func withPrivateMeters() -> TariffCatalog {
        TariffCatalog(copying: self)
    }

    /// Whether a trip between `a` and `b` may pay a toll of the toll tables: an end in a toll
    /// area's box, or ends far enough apart for an expressway estimate. A city ride elsewhere
    /// (nearly every trip) is answered by a few compares.
    @inline(__always)
    func mayHaveTolls(_ a: Coordinate, _ b: Coordinate) -> Bool {
        let box = tollBox
        func inside(_ c: Coordinate) -> Bool {
            c.longitude >= box.west && c.longitude <= box.east && c.latitude >= box.south && c.latitude <= box.north
        }
        return inside(a) || inside(b) || TollTable.atLeast(tollMinStraightMeters, from: a, to: b)
    }

    private init(copying other: TariffCatalog) {
        tariffs = other.tariffs
        zones = other.zones
        slowTime = other.slowTime
        slowTimeModels = other.slowTimeModels
        tolls = other.tolls
        tollAreas = other.tollAreas
        tollBox = other.tollBox
        tollMinStraightMeters = other.tollMinStraightMeters
        index = other.index
        businessZones = other.businessZones
        originBusinessZones = other.originBusinessZones
        originZonesByIndex = other.originZonesByIndex
        placedZonesByIndex = other.placedZonesByIndex
        isRegular = other.isRegular
        groupOnlyProvinces = other.groupOnlyProvinces
        assumedByProvince = other.assumedByProvince
        highestOutOfZoneRate = other.highestOutOfZoneRate
        meters = other.meters.map { $0.map { $0.copy() } }
        versionTables = other.versionTables
    }

    /// A tariff's version starts as plain numbers (seconds since the reference date, exactly
    /// `Date.timeIntervalSinceReferenceDate`), so that ``Tariff/versionLookup(at:)``'s answer
    /// is found with the same comparisons but without reading (and retaining) the versions.
    struct VersionTable: Sendable {
        let effectiveFrom: [Double]
        /// `.infinity` where a version's start day is known.
        let uncertainFrom: [Double]

        init(_ tariff: Tariff) {
            effectiveFrom = tariff.versions.map(\.effectiveFrom.timeIntervalSinceReferenceDate)
            uncertainFrom = tariff.versions.map { $0.uncertainFrom?.timeIntervalSinceReferenceDate ?? .infinity }
        }

        /// ``Tariff/versionLookup(at:)``, equal for every date.
        @inline(__always)
        func lookup(_ date: Date) -> Tariff.VersionLookup {
            let t = date.timeIntervalSinceReferenceDate
            var v = effectiveFrom.count - 1
            while v >= 0 && effectiveFrom[v] > t { v -= 1 }
            if v + 1 < effectiveFrom.count, uncertainFrom[v + 1] <= t { return .uncertainMonth(v + 1) }
            return v >= 0 ? .inForce(v) : .beforeFirst
        }
    }

    /// ``Tariff/versionLookup(at:)`` of the tariff at a position in ``tariffs`` (the catalog's
    /// flat copy of the version starts; the same answer).
    public func versionLookup(tariffAt i: Int, at date: Date) -> Tariff.VersionLookup {
        versionTables[i].lookup(date)
    }

    /// The meter of the version of the tariff at position `i` in force at `date`, or `nil` when
    /// `i` is no position or no version is known to be in force then (where
    /// ``meterOrAssumed(tariffAt:at:strict:)`` assumes or throws). The batch path's common case:
    /// ``VersionTable/lookup(_:)`` on the table read in place (no copy of it, so no reference
    /// counting per row).
    @inline(__always)
    func meterInForce(tariffAt i: Int, at date: Date) -> Meter? {
        guard i >= 0 && i < versionTables.count else { return nil }
        guard case let .inForce(v) = versionTables.withUnsafeBufferPointer({ $0[i].lookup(date) }) else { return nil }
        return meters[i][v]
    }

    /// The meter a trip departing at `date` is priced on, in one version lookup: the version in
    /// force (`why` is `nil`), or unless `strict` the assumed one of
    /// ``assumedMeter(tariffAt:at:)`` with its other candidates and why.
    /// - Throws: as ``meter(tariffAt:at:)``, only when `strict` and no version is in force.
    func meterOrAssumed(tariffAt i: Int, at date: Date, strict: Bool) throws(GeoFareError) -> (meter: Meter, others: [Meter], why: String?) {
        let lookup = versionTables[i].lookup(date)
        if case let .inForce(v) = lookup { return (meters[i][v], [], nil) }
        if !strict, let a = assumedMeter(tariffAt: i, lookup: lookup) { return (a.meter, a.others, a.why) }
        return (try meter(tariffAt: i, lookup: lookup, at: date), [], nil)
    }

    /// The position in ``tariffs`` of the tariff with an id or alias (cheap to pass around:
    /// no copy of the tariff).
    /// - Throws: ``GeoFareError`` `unknown_tariff` listing the known ids.
    public func tariffIndex(_ id: String) throws(GeoFareError) -> Int {
        guard let i = index[id] else {
            throw .unknownTariff(id, known: tariffs.map(\.id))
        }
        return i
    }

    /// The business zone of the tariff at a position in ``tariffs``, if it has one.
    public func businessZone(ofTariffAt i: Int) -> GeoPolygon? { businessZones[i] }

    /// The business zone of a trip from `origin` on the tariff at a position in ``tariffs``: the
    /// first of its `business_zones` that holds the origin (the 시·군 the taxi belongs to), else
    /// its `business_zone`.
    public func businessZone(ofTariffAt i: Int, origin: Coordinate) -> GeoPolygon? {
        for zone in originBusinessZones[i] where zone.contains(origin) { return zone }
        return businessZones[i]
    }

    /// The tariff with an id or alias.
    /// - Throws: ``GeoFareError`` `unknown_tariff` listing the known ids.
    public func tariff(_ id: String) throws(GeoFareError) -> Tariff {
        tariffs[try tariffIndex(id)]
    }

    /// The meter of the tariff version in force at `date` (its `tariff` and `version` say which).
    /// - Throws: ``GeoFareError`` `unknown_tariff`; `no_tariff_version` when `date` is before
    ///   the tariff's first version; `tariff_version_uncertain` when it falls in a month in
    ///   which the tariff changed on a day no source gives.
    public func meter(tariff id: String, at date: Date) throws(GeoFareError) -> Meter {
        try meter(tariffAt: tariffIndex(id), at: date)
    }

    /// ``meter(tariff:at:)`` for the tariff at a position in ``tariffs``.
    /// - Throws: ``GeoFareError`` `no_tariff_version` or `tariff_version_uncertain`.
    public func meter(tariffAt i: Int, at date: Date) throws(GeoFareError) -> Meter {
        try meter(tariffAt: i, lookup: versionTables[i].lookup(date), at: date)
    }

    /// ``meter(tariffAt:at:)`` once the version is looked up.
    private func meter(tariffAt i: Int, lookup: Tariff.VersionLookup, at date: Date) throws(GeoFareError) -> Meter {
        switch lookup {
        case let .inForce(v):
            return meters[i][v]
        case .beforeFirst:
            throw .noTariffVersion(tariffs[i], at: date)
        case let .uncertainMonth(v):
            throw .tariffVersionUncertain(tariffs[i], version: v, at: date)
        }
    }

    /// The meter to price with when no version of a tariff is known to be in force at `date`
    /// (where ``meter(tariffAt:at:)`` throws `no_tariff_version` or `tariff_version_uncertain`),
    /// by the rule in `Data/tariffs/README.md`: before the first modelled version, that version;
    /// inside a month in which the tariff changed on a day no source gives, the version in force
    /// before that month (the first version, when none is modelled before it), with the version
    /// that took effect in it as the other candidate. `nil` when a version is in force.
    /// - Returns: the meter, the other candidates' meters (for the band) and why, for people.
    public func assumedMeter(tariffAt i: Int, at date: Date) -> (meter: Meter, others: [Meter], why: String)? {
        assumedMeter(tariffAt: i, lookup: versionTables[i].lookup(date))
    }

    /// ``assumedMeter(tariffAt:at:)`` once the version is looked up.
    private func assumedMeter(tariffAt i: Int, lookup: Tariff.VersionLookup) -> (meter: Meter, others: [Meter], why: String)? {
        if case .inForce = lookup { return nil }
        let t = tariffs[i]
        switch lookup {
        case .inForce:
            return nil
        case .beforeFirst:
            let first = t.versions[0]
            let start = first.startsAtPeriodStart ? "its modelled period starts at \(first.label.dropFirst("in force on ".count))" : "its first modelled version starts \(first.label)"
            return (meters[i][0], [], "no version of \(t.id) is modelled at the departure (\(start)): priced on its earliest modelled version, \(first.label); fares before it were likely lower")
        case let .uncertainMonth(v):
            let month = t.versions[v].label
            guard v > 0 else {
                return (meters[i][0], [], "\(t.id) took effect during \(month) on a day no source gives and no earlier version is modelled: priced on version \(month)")
            }
            return (meters[i][v - 1], [meters[i][v]], "\(t.id) changed during \(month) on a day no source gives: priced on the version in force before it, \(t.versions[v - 1].label)")
        }
    }

    /// Where no tariff's region holds an origin but it lies in a province whose city groups have
    /// tariffs (where ``tariffIndex(forOrigin:)`` throws `unknown_tariff_group`) and the data
    /// names the tariff such origins take (a tariff file's `assumed_for`): that tariff, how the
    /// data names it, and the province's other group tariffs (the candidates the band covers).
    /// `nil` anywhere else.
    /// - Parameter date: the departure: where a source places the origin's 시·군 for other
    ///   versions only, `placedOtherwise` says so (which versions, and the one in force), found
    ///   in the same walk over the zones that hold the origin.
    public func assumedTariff(forOrigin origin: Coordinate, at date: Date? = nil) -> (tariff: Int, label: String, province: String, others: [Int], placedOtherwise: String?)? {
        guard !assumedByProvince.isEmpty else { return nil }
        var province: (tariff: Int, entry: Tariff.AssumedFor, zone: Int)?
        var placedZones: [Int] = []
        zones.forEachZoneIndex(containing: origin) { z in
            if province == nil, let (tariff, entry) = assumedByProvince[zones.zones[z].id], groupOnlyProvinces[zones.zones[z].id] != nil {
                province = (tariff, entry, z)
            }
            if placedZonesByIndex[z] != nil { placedZones.append(z) }
        }
        guard let (tariff, entry, z) = province, let groups = groupOnlyProvinces[zones.zones[z].id] else { return nil }
        let others = groups.compactMap { index[$0] }.filter { $0 != tariff }
        return (tariff, entry.label, zones.zones[z].name, others, placedZones.isEmpty ? nil : placedOtherwise(inZones: placedZones, at: date))
    }

    /// Every version's meter of a tariff, oldest first (each `meter.version.effectiveFrom`
    /// says from when it applies).
    /// - Throws: ``GeoFareError`` `unknown_tariff`.
    public func meters(tariff id: String) throws(GeoFareError) -> [Meter] {
        meters[try tariffIndex(id)]
    }

    /// How far outside every region a point may lie and still take the nearest region's tariff:
    /// simplified borders leave slivers between neighbours and are accurate to a few hundred metres.
    public static let regionSnapMeters = 500.0

    /// The tariff whose region contains a point (the first, in id order), for requests that
    /// name none. A point in no region but within ``regionSnapMeters`` of one takes that one.
    /// - Throws: ``GeoFareError`` `unknown_tariff_group` or `no_tariff_for_location`
    ///   (see ``tariffIndex(forOrigin:)``).
    public func tariff(forOrigin origin: Coordinate, at date: Date? = nil) throws(GeoFareError) -> Tariff {
        tariffs[try tariffIndex(forOrigin: origin, at: date)]
    }

    /// ``tariff(forOrigin:)``'s position in ``tariffs``.
    /// - Parameter date: the departure: an origin in a zone a tariff places for some versions
    ///   only (``Tariff/placedForVersions``) takes that tariff when one of those versions is in
    ///   force then; `nil` (no departure known), or any other version, places nothing there.
    /// - Throws: ``GeoFareError`` `unknown_tariff_group` for an origin in a province whose city
    ///   groups have tariffs but that has no tariff of its own (the message names the province
    ///   and the modelled groups, and where a source places the origin for other versions only,
    ///   says so); `no_tariff_for_location` anywhere else without a tariff.
    public func tariffIndex(forOrigin origin: Coordinate, at date: Date? = nil) throws(GeoFareError) -> Int {
        // The most specific region first (a province's city group before the whole province),
        // then each region's "regular" class when a region has several tariffs, then id order:
        // a strict total order, so the answer does not depend on the order zones are visited.
        func precedes(_ a: (index: Int, size: Double), _ b: (index: Int, size: Double)) -> Bool {
            if a.size != b.size { return a.size < b.size }
            let ra = isRegular[a.index], rb = isRegular[b.index]
            if ra != rb { return ra }
            return a.index < b.index
        }
        // Through the zones that hold the origin (a few), not through every tariff: a tariff
        // matched through several of its zones counts its smallest. By zone position, with no
        // allocation and no string hashing: this runs for every row of a batch that names no
        // tariff.
        var found: (index: Int, size: Double)?
        var inAnyZone = false
        let originZonesByIndex = self.originZonesByIndex, placedZonesByIndex = self.placedZonesByIndex
        zones.forEachZoneIndex(containing: origin) { z in
            inAnyZone = true
            if let date, let entry = placedZonesByIndex[z] {
                for p in entry.placements where placed(p, at: date) && (found.map({ precedes((p.tariff, entry.size), $0) }) ?? true) {
                    found = (p.tariff, entry.size)
                }
            }
            guard let entry = originZonesByIndex[z] else { return }
            for i in entry.tariffs where found.map({ precedes((i, entry.size), $0) }) ?? true {
                found = (i, entry.size)
            }
        }
        if let best = found?.index { return best }
        // No region holds it: a point in no zone but within ``regionSnapMeters`` of a region
        // takes that one; otherwise the error says why.
        var containing: [Int] = []
        if inAnyZone {
            zones.forEachZoneIndex(containing: origin) { containing.append($0) }
        } else {
            // Only zones whose box lies near enough can be within the snap distance: the others
            // cannot be the nearest one when it is near enough, and when it is not the answer is
            // the error either way (a point at sea used to measure its distance to every zone).
            let nearest = zones.zones.indices.filter { originZonesByIndex[$0] != nil && Self.mayLieWithinSnap(origin, of: zones.zones[$0].polygon.bounds) }
                .map { ($0, zones.zones[$0].polygon.distanceMeters(to: origin)) }
                .min { $0.1 < $1.1 }
            if let (z, d) = nearest, d <= Self.regionSnapMeters {
                containing = [z]
                if let entry = originZonesByIndex[z] {
                    for i in entry.tariffs where found.map({ precedes((i, entry.size), $0) }) ?? true {
                        found = (i, entry.size)
                    }
                }
                if let best = found?.index { return best }
            }
        }
        if let province = containing.first(where: { groupOnlyProvinces[zones.zones[$0].id] != nil }).map({ zones.zones[$0] }) {
            let modelled = groupOnlyProvinces[province.id]!.joined(separator: ", ")
            var message = "\(origin) lies in \(province.name) (\(province.id)), whose cities and counties set their own taxi tariffs; no source gives the tariff group of this city or county (modelled: \(modelled)); name a tariff"
            // Appended only where it applies, so every other message is built as before.
            let placed = containing.filter { placedZonesByIndex[$0] != nil }
            if !placed.isEmpty, let note = placedOtherwise(inZones: placed, at: date) { message += ". At this departure: " + note }
            throw .unknownTariffGroup(message)
        }
        throw .noTariffForLocation(origin)
    }

    /// Whether a placement by version places its zone's origins at `date`: one of its versions
    /// is in force then (not before the first, not in a month whose day of change is unknown).
    @inline(__always)
    private func placed(_ p: (tariff: Int, versions: [Int]), at date: Date) -> Bool {
        guard case let .inForce(v) = versionTables[p.tariff].lookup(date) else { return false }
        return p.versions.contains(v)
    }

    /// Where a source places an origin's 시·군 on a tariff for other versions than the one in
    /// force at `date` (``Tariff/placedForVersions``), for people: "a source places Anyang on
    /// kr-gyeonggi/regular for version 2019-05-04T04:00:00+09:00 only, not the one in force at
    /// departure (2023-07-01T04:00:00+09:00)".
    /// - Parameter found: the zones (positions in `zones.zones`) placed by version that hold the
    ///   origin, found in a walk the caller makes anyway; `nil` when none of them gives a note.
    private func placedOtherwise(inZones found: [Int], at date: Date?) -> String? {
        var notes: [String] = []
        for z in found {
            guard let entry = placedZonesByIndex[z] else { continue }
            for p in entry.placements {
                let t = tariffs[p.tariff]
                let labels = p.versions.map { t.versions[$0].label }
                var note = "a source places \(zones.zones[z].name) on \(t.id) for version\(labels.count == 1 ? "" : "s") \(labels.joined(separator: ", ")) only"
                if let date {
                    if case let .inForce(v) = versionTables[p.tariff].lookup(date) {
                        note += p.versions.contains(v) ? "" : ", not the one in force at departure (\(t.versions[v].label))"
                    } else {
                        note += ", and no version of it is known to be in force at departure"
                    }
                }
                notes.append(note)
            }
        }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }

    /// Whether a point may lie within ``regionSnapMeters`` of a box: false only when it is more
    /// than 0.05° of latitude, or the longitude span of 0.05° of latitude at its latitude, off
    /// the box (over 5 km on the ground, ten times the snap distance). Near the antimeridian
    /// every box may.
    static func mayLieWithinSnap(_ c: Coordinate, of b: (west: Double, south: Double, east: Double, north: Double)) -> Bool {
        if abs(c.longitude) > 179 || b.west < -179 || b.east > 179 { return true }
        let dLat = 0.05
        let dLon = min(360, dLat / max(cos(min(90, abs(c.latitude) + dLat) * .pi / 180), 1e-6))
        return c.latitude >= b.south - dLat && c.latitude <= b.north + dLat && c.longitude >= b.west - dLon && c.longitude <= b.east + dLon
    }

    /// Zones named as `parent` by some tariff's region but not themselves any tariff's region,
    /// with the ids of the tariffs whose regions name them.
    private static func groupOnlyProvinces(tariffs: [Tariff], zones: ZoneSet) -> [String: [String]] {
        let regions = Set(tariffs.compactMap(\.region))
        var out: [String: [String]] = [:]
        for t in tariffs {
            guard let parent = t.region.flatMap({ zones.zone($0)?.parent }), !regions.contains(parent) else { continue }
            out[parent, default: []].append(t.id)
        }
        return out
    }
}
