import Foundation
import GeoFareCore
import GeoFareData

/// Road tolls as data (`Data/tolls/*.json`, format in `Data/tolls/README.md`): the tolled
/// crossings to an area reached only over them (Yeongjong-do, where Incheon Airport is) and an
/// estimate of the expressway toll of a long trip, each with versions by date like tariffs. A
/// taxi passes tolls on to its riders at cost (class 1, no discount), so a fare carries them.
///
/// Loaded by ``TariffCatalog/load(from:)``; immutable and `Sendable`. A class, so that the
/// pricer's look-up on every request retains one reference, not each of its tables.
public final class TollTable: Sendable {
    /// The data directory toll files are read from.
    public static let directory = "tolls/"

    /// ISO 4217 currency of every amount; a trip priced in another currency gets none of these.
    public let currency: String
    public let crossings: [Crossing]
    public let expressway: Expressway?
    /// Where the table was loaded from, for errors.
    public let origin: String
    /// The distinct areas of the crossings, in order of first use, and each crossing's position
    /// in it: the catalog resolves the areas' polygons once (``tolls(from:to:routeMeters:departure:areas:)``).
    public let areaIDs: [String]
    private let crossingArea: [Int]

    /// A tolled crossing into ``area`` (a zone id): a trip with one end inside the area and the
    /// other outside takes the crossing that makes the shortest straight-line way
    /// (origin → ``mainland`` → ``island`` → destination, or the reverse), the one a driver takes.
    public struct Crossing: Sendable {
        public let id: String
        public let name: String
        public let area: String
        /// Where the trip joins the tolled road on the mainland, and where it lands inside the area.
        public let mainland: Coordinate
        public let island: Coordinate
        /// The toll (minor units) from each date, sorted; before the first the crossing is not open.
        public let versions: [(from: Date, amount: Int64)]

        /// The toll in force at `date`, or `nil` before the crossing's first version.
        public func amount(at date: Date) -> Int64? {
            versions.last { $0.from <= date }?.amount
        }
    }

    /// The closed-system expressway toll of a long trip, estimated from its road distance: base
    /// plus a per-km rate on the distance less the access roads at both ends, rounded half-up to
    /// 100 (the operator's rounding).
    public struct Expressway: Sendable {
        /// Trips whose ends are closer than this (straight line, metres) get no estimate: in the
        /// capital region they mostly use toll-free urban expressways.
        public let minStraightMeters: Double
        /// Metres of ordinary road at each end of the trip.
        public let accessMeters: Double
        public let versions: [Version]

        /// One version of the rates: integer minor units, per-km rates in tenths of a unit.
        public struct Version: Sendable {
            public let from: Date
            public let base: Int64
            /// The 4-lane rate (the low end of the band, with twice the access roads).
            public let perKmTenths: Int64
            /// The estimate's rate: the mix of 4- and 6-lane roads of a real long trip.
            public let typicalPerKmTenths: Int64
            /// The 6-lane rate on the whole distance (the high end).
            public let highPerKmTenths: Int64
        }

        /// The version in force at `date` (the first one before it: an estimate either way).
        public func version(at date: Date) -> Version {
            versions.last { $0.from <= date } ?? versions[0]
        }
    }

    private struct File: Decodable {
        struct Point: Decodable { let lat: Double; let lon: Double }
        struct CrossingVersion: Decodable { let effective_from: String; let amount: Int64; let sources: [String] }
        struct CrossingFile: Decodable {
            let id: String; let name: String; let area: String
            let mainland: Point; let island: Point
            let versions: [CrossingVersion]
        }
        struct ExpresswayVersion: Decodable {
            let effective_from: String
            let base, per_km_tenths, typical_per_km_tenths, high_per_km_tenths: Int64
            let sources: [String]
        }
        struct ExpresswayFile: Decodable { let min_straight_km: Double; let access_km: Double; let versions: [ExpresswayVersion] }
        let currency: String
        let crossings: [CrossingFile]
        let expressway: ExpresswayFile?
    }

    /// Decodes and validates a toll file.
    /// - Throws: ``GeoFareError`` `invalid_tariff` naming the file and the JSON path: a missing
    ///   or mistyped field, a bad date, an amount outside 0...1,000,000,000, versions out of
    ///   order or without a source, a point off the globe, a duplicate crossing id.
    public init(json data: Data, origin: String) throws(GeoFareError) {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: data) } catch let error as DecodingError {
            throw .invalidTariff(origin, TariffFile.path(of: error), TariffFile.describe(error))
        } catch {
            throw .invalidTariff(origin, "$", "\(error)")
        }
        func fail(_ path: String, _ message: String) -> GeoFareError { .invalidTariff(origin, path, message) }
        guard file.currency.count == 3, file.currency == file.currency.uppercased() else {
            throw fail("currency", "must be an ISO 4217 code, got '\(file.currency)'")
        }
        func date(_ text: String, _ path: String) throws(GeoFareError) -> Date {
            guard let d = ISO8601.parse(text) else { throw fail(path, "must be ISO 8601 with an offset, got '\(text)'") }
            return d
        }
        func amount(_ value: Int64, _ path: String) throws(GeoFareError) -> Int64 {
            guard (0...TariffFile.maxAmount).contains(value) else { throw fail(path, "must be within 0...\(TariffFile.maxAmount), got \(value)") }
            return value
        }
        func point(_ p: File.Point, _ path: String) throws(GeoFareError) -> Coordinate {
            do { return try Coordinate(latitude: p.lat, longitude: p.lon) } catch { throw fail(path, error.message) }
        }
        var ids = Set<String>()
        var crossings: [Crossing] = []
        for (i, c) in file.crossings.enumerated() {
            let at = "crossings[\(i)]"
            guard !c.id.isEmpty, ids.insert(c.id).inserted else { throw fail("\(at).id", "must be a non-empty id used once, got '\(c.id)'") }
            guard !c.versions.isEmpty else { throw fail("\(at).versions", "needs at least one version") }
            var versions: [(from: Date, amount: Int64)] = []
            for (k, v) in c.versions.enumerated() {
                let vat = "\(at).versions[\(k)]"
                let from = try date(v.effective_from, "\(vat).effective_from")
                if let last = versions.last, last.from >= from { throw fail("\(vat).effective_from", "versions must be in order of date") }
                guard !v.sources.isEmpty else { throw fail("\(vat).sources", "needs at least one source") }
                versions.append((from, try amount(v.amount, "\(vat).amount")))
            }
            crossings.append(Crossing(id: c.id, name: c.name, area: c.area, mainland: try point(c.mainland, "\(at).mainland"),
                                      island: try point(c.island, "\(at).island"), versions: versions))
        }
        var expressway: Expressway?
        if let e = file.expressway {
            guard e.min_straight_km.isFinite, (0...5_000).contains(e.min_straight_km) else { throw fail("expressway.min_straight_km", "must be within 0...5000") }
            guard e.access_km.isFinite, (0...500).contains(e.access_km) else { throw fail("expressway.access_km", "must be within 0...500") }
            guard !e.versions.isEmpty else { throw fail("expressway.versions", "needs at least one version") }
            var versions: [Expressway.Version] = []
            for (k, v) in e.versions.enumerated() {
                let vat = "expressway.versions[\(k)]"
                let from = try date(v.effective_from, "\(vat).effective_from")
                if let last = versions.last, last.from >= from { throw fail("\(vat).effective_from", "versions must be in order of date") }
                guard !v.sources.isEmpty else { throw fail("\(vat).sources", "needs at least one source") }
                let low = try amount(v.per_km_tenths, "\(vat).per_km_tenths"), typical = try amount(v.typical_per_km_tenths, "\(vat).typical_per_km_tenths")
                let high = try amount(v.high_per_km_tenths, "\(vat).high_per_km_tenths")
                guard low <= typical, typical <= high, high <= 100_000 else {
                    throw fail(vat, "needs per_km_tenths ≤ typical_per_km_tenths ≤ high_per_km_tenths ≤ 100000")
                }
                versions.append(.init(from: from, base: try amount(v.base, "\(vat).base"), perKmTenths: low, typicalPerKmTenths: typical, highPerKmTenths: high))
            }
            expressway = Expressway(minStraightMeters: e.min_straight_km * 1_000, accessMeters: e.access_km * 1_000, versions: versions)
        }
        self.currency = file.currency
        self.crossings = crossings
        self.expressway = expressway
        self.origin = origin
        var areaIDs: [String] = []
        var crossingArea: [Int] = []
        for c in crossings {
            if let i = areaIDs.firstIndex(of: c.area) { crossingArea.append(i) } else {
                crossingArea.append(areaIDs.count)
                areaIDs.append(c.area)
            }
        }
        self.areaIDs = areaIDs
        self.crossingArea = crossingArea
    }

    /// Every toll file of a data catalog (`tolls/*.json`; a user data directory's file of the
    /// same name wins over the embedded one).
    /// - Throws: ``GeoFareError`` as ``init(json:origin:)``, or the catalog's read error.
    public static func load(from data: DataCatalog) throws(GeoFareError) -> [TollTable] {
        var tables: [TollTable] = []
        do {
            for path in try data.paths(under: directory, extensions: ["json"]) {
                let (bytes, origin) = try data.file(path)
                tables.append(try TollTable(json: bytes, origin: origin))
            }
        } catch let error as GeoFareError {
            throw error
        } catch {
            throw .invalidTariff(error, field: directory)
        }
        return tables
    }

    /// The tolls of a trip from `origin` to `destination` over `routeMeters` of road, departing
    /// at `departure`: a crossing's toll (`sourced`) when exactly one end is inside its area, and
    /// the expressway estimate (`estimated`, with its band) when the ends are at least
    /// ``Expressway/minStraightMeters`` apart.
    /// Allocates nothing for a trip with no toll (most city rides): two point-in-polygon tests
    /// per area (a box test first) and one distance.
    /// - Parameter areas: the polygons of ``areaIDs``, in that order (the catalog's).
    public func tolls(from origin: Coordinate, to destination: Coordinate, routeMeters: Double, departure: Date,
                      areas: [GeoPolygon]) -> [TollItem] {
        var items: [TollItem] = []
        for a in areas.indices {
            // `contains` tests the polygon's box first: a city ride elsewhere costs two compares.
            let inOrigin = areas[a].contains(origin), inDestination = areas[a].contains(destination)
            guard inOrigin != inDestination else { continue }
            var best: (crossing: Crossing, amount: Int64, way: Double)?
            for (k, c) in crossings.enumerated() where crossingArea[k] == a {
                guard let amount = c.amount(at: departure) else { continue }
                let way = inDestination
                    ? FastDistance.haversineMeters(origin, c.mainland) + FastDistance.haversineMeters(c.island, destination)
                    : FastDistance.haversineMeters(origin, c.island) + FastDistance.haversineMeters(c.mainland, destination)
                if best == nil || way < best!.way { best = (c, amount, way) }
            }
            if let b = best { items.append(TollItem(name: b.crossing.name, amount: b.amount, low: b.amount, high: b.amount, basis: .sourced)) }
        }
        if let e = expressway, routeMeters.isFinite, Self.atLeast(e.minStraightMeters, from: origin, to: destination) {
            let v = e.version(at: departure)
            func toll(_ tenthsPerKm: Int64, _ meters: Double) -> Int64 {
                let m = Int64(max(0, min(meters, 1e9)).rounded())
                return Meter.roundHalfUp(v.base * 10_000 + tenthsPerKm * m, divisor: 10_000, step: 100)
            }
            let item = TollItem(name: "Expressway tolls (한국도로공사 closed system, estimated from the road distance)",
                                amount: toll(v.typicalPerKmTenths, routeMeters - 2 * e.accessMeters),
                                low: toll(v.perKmTenths, routeMeters - 4 * e.accessMeters),
                                high: toll(v.highPerKmTenths, routeMeters), basis: .estimated)
            items.append(item)
        }
        return items
    }
}

extension TollTable {
    /// Whether two points are at least `meters` apart: a city ride is ruled out by its degree
    /// differences alone (an upper bound of the distance: a degree of longitude is at most a
    /// degree of latitude, 111.2 km), without the trigonometry of the great-circle distance.
    @inline(__always)
    static func atLeast(_ meters: Double, from a: Coordinate, to b: Coordinate) -> Bool {
        let dLat = a.latitude - b.latitude, dLon = abs(a.longitude - b.longitude)
        let degrees = dLat * dLat + min(dLon, 360 - dLon) * min(dLon, 360 - dLon)
        let bound = meters / 111_200
        guard degrees >= bound * bound else { return false }
        return FastDistance.haversineMeters(a, b) >= meters
    }
}

/// One toll of a trip: a crossing's (`sourced`), the expressway estimate (`estimated`, with its
/// band), or the caller's own (`given`). Integer minor units.
public struct TollItem: Sendable, Hashable, Codable {
    public var name: String
    public var amount: Int64
    /// The band of an estimate (equal to ``amount`` for a sourced or given toll).
    public var low: Int64, high: Int64
    public var basis: TollBasis
}

/// Where a fare's tolls come from.
public enum TollBasis: String, Sendable, Hashable, Codable {
    /// Every toll is a published toll in force at departure (`Data/tolls`, with its sources).
    case sourced
    /// At least one toll is estimated (the expressway toll of a long trip, from its distance).
    case estimated
    /// The caller gave the tolls (`tolls`): taken as they are.
    case given
}
