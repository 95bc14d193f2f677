import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare

/// The look-ups every CSV row makes, taken apart from the data they answer for: the
/// catalog's flat copy of the version starts, the one-lookup meter resolution, and the origin's
/// tariff found through zone positions and the candidate grid must answer exactly as the direct
/// computation does, for every tariff, around every version boundary and at random places.
struct CatalogLookupTests {
    /// Dates around every version's start and uncertain month (to the second and to the next
    /// representable instant), and random ones from 2010 to 2030.
    static func dates(_ tariff: Tariff, rng: inout SeededGenerator) -> [Date] {
        var out: [Date] = []
        for v in tariff.versions {
            for edge in [v.effectiveFrom, v.uncertainFrom].compactMap({ $0 }) {
                let t = edge.timeIntervalSinceReferenceDate
                out += [t, t.nextDown, t.nextUp, t - 1, t + 1, t - 86_400].map(Date.init(timeIntervalSinceReferenceDate:))
            }
        }
        for _ in 0..<300 { out.append(Date(timeIntervalSince1970: Double.random(in: 1_262_304_000...1_893_456_000, using: &rng))) }
        return out
    }

    @Test("The flat version table answers as Tariff.versionLookup, and one lookup resolves the meter as the two-step API")
    func versionLookupAgrees() throws {
        let catalog = sharedCatalog
        var rng = SeededGenerator(seed: 2211)
        var checked = 0, assumed = 0, refused = 0
        for (i, tariff) in catalog.tariffs.enumerated() {
            for date in Self.dates(tariff, rng: &rng) {
                #expect(catalog.versionLookup(tariffAt: i, at: date) == tariff.versionLookup(at: date), "\(tariff.id) at \(date)")
                // Not strict: the assumed meter where no version is in force, else the one in force.
                let one = try catalog.meterOrAssumed(tariffAt: i, at: date, strict: false)
                if let a = catalog.assumedMeter(tariffAt: i, at: date) {
                    assumed += 1
                    #expect(one.meter === a.meter && one.why == a.why && one.others.map(ObjectIdentifier.init) == a.others.map(ObjectIdentifier.init))
                } else {
                    #expect(one.meter === (try catalog.meter(tariffAt: i, at: date)) && one.why == nil && one.others.isEmpty)
                }
                // Strict: the meter in force, or the same error.
                do {
                    let m = try catalog.meter(tariffAt: i, at: date)
                    #expect(try catalog.meterOrAssumed(tariffAt: i, at: date, strict: true).meter === m)
                } catch {
                    refused += 1
                    let e = try #require(throws: GeoFareError.self) { try catalog.meterOrAssumed(tariffAt: i, at: date, strict: true) }
                    #expect(e == error, "\(tariff.id) at \(date)")
                }
                checked += 1
            }
        }
        #expect(checked > 5_000)
        #expect(assumed > 50 && refused > 50)  // the dates do reach the cases without a version in force
    }

    /// The origin's tariff by the rule `tariffIndex(forOrigin:)` documents, from the public
    /// zone and tariff data alone: every zone holding the point (each polygon tested), the
    /// tariffs whose region or `also_regions` is one of them, the smallest zone box first, then
    /// a region's "regular" class, then id order.
    /// A point no zone holds takes the region nearest to it (the first, in load order, of
    /// every region's distance) when it lies within ``TariffCatalog/regionSnapMeters``.
    static func direct(_ catalog: TariffCatalog, _ c: Coordinate) -> Int? {
        var holding = Set(catalog.zones.zones.filter { $0.polygon.contains(c) }.map(\.id))
        if holding.isEmpty {
            let regions = catalog.zones.zones.filter { z in catalog.tariffs.contains { $0.region == z.id || $0.alsoRegions.contains(z.id) } }
            if let (id, d) = regions.map({ ($0.id, $0.polygon.distanceMeters(to: c)) }).min(by: { $0.1 < $1.1 }), d <= TariffCatalog.regionSnapMeters {
                holding = [id]
            }
        }
        var best: (size: Double, regular: Bool, index: Int)?
        for (i, t) in catalog.tariffs.enumerated() {
            for id in [t.region].compactMap({ $0 }) + t.alsoRegions where holding.contains(id) {
                let b = catalog.zones.zone(id)!.polygon.bounds
                let key = (size: (b.east - b.west) * (b.north - b.south), regular: t.id.hasSuffix("/regular"), index: i)
                if let x = best, (x.size, x.regular ? 0 : 1, x.index) <= (key.size, key.regular ? 0 : 1, key.index) { continue }
                best = key
            }
        }
        return best?.index
    }

    @Test("The origin's tariff, through zone positions, the grid and the snap's box filter, is the direct rule's at random places")
    func originLookupAgrees() throws {
        let catalog = sharedCatalog
        var rng = SeededGenerator(seed: 22)
        var placed = 0, groups = 0, snapped = 0
        let boxes: [(ClosedRange<Double>, ClosedRange<Double>, Int)] = [
            (33...38.7, 124.5...131, 4_000),        // all of South Korea and its seas
            (37.1...37.8, 126.5...127.4, 2_000),     // Seoul, Incheon and the Gyeonggi groups
            (40.45...40.95, -74.3 ... -73.65, 1_000) // New York
        ]
        for (lat, lon, n) in boxes {
            for _ in 0..<n {
                let c = Coordinate(uncheckedLatitude: Double.random(in: lat, using: &rng), longitude: Double.random(in: lon, using: &rng))
                let expected = Self.direct(catalog, c)
                do {
                    let got = try catalog.tariffIndex(forOrigin: c)
                    #expect(got == expected, "\(c)")
                    placed += 1
                    if catalog.zones.zones(containing: c).isEmpty { snapped += 1 }
                } catch {
                    #expect(expected == nil, "\(c): \(error)")
                    if error.code == .unknownTariffGroup { groups += 1 }
                }
            }
        }
        #expect(placed > 1_000 && groups > 500 && snapped > 10, "placed \(placed) (\(snapped) snapped to a region), unknown groups \(groups)")
    }
}
