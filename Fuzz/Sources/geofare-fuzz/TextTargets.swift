import Foundation
@testable import GeoFareCore
@testable import GeoFareFare
import GeoFareParties
import GeoFarePlaces
import GeoFareRoute

/// `tariff`: the input is a tariff file (`Data/tariffs/*.json`), validated as the catalog loads
/// one, put in a catalog with the embedded zones, and, when it validates, priced once (a trip of
/// given distance and duration at a fixed time): bad input must be `invalid_tariff`, and a tariff
/// that validates must price without trapping.
enum TariffTarget {
    nonisolated(unsafe) static var base: TripPricer?
    static let target = FuzzTarget(name: "tariff", summary: "tariff file through validation, a catalog, and one fare", setUp: {
        base = SeedCity.pricer
    }, run: run)

    static func run(_ input: UnsafeRawBufferPointer) {
        guard let base else { return }
        let tariff: Tariff
        do { tariff = try TariffFile.load(Data(input), origin: "fuzz.json") } catch {
            check(error.code == .invalidTariff, "a tariff file failed with \(error.code), not invalid_tariff: \(error.message)")
            return
        }
        do {
            let catalog = try TariffCatalog(tariffs: [tariff], zones: base.catalog.zones, slowTime: base.catalog.slowTime, slowTimeModels: base.catalog.slowTimeModels, tolls: base.catalog.tolls)
            let pricer = TripPricer(catalog: catalog, estimator: base.estimator)
            for (meters, seconds, at) in [(8_400.0, 1_320.0, 1_715_779_800.0), (0.0, 0.0, 1_715_810_400.0), (95_000.0, 7_400.0, 1_600_000_000.0)] {
                var request = FareRequest(trip: .totals(distanceMeters: meters, durationSeconds: seconds), departure: Date(timeIntervalSince1970: at), tariff: tariff.id)
                request.options = FareOptions(partySize: 3, split: .proportional)
                _ = try? pricer.quote(request)
            }
        } catch {}
    }
}

/// `zones`: the input is a zone file (`Data/zones/*.geojson`), loaded into a ``ZoneSet`` and
/// asked which zones hold a few points: bad input must be `invalid_geojson`.
enum ZoneTarget {
    static let target = FuzzTarget(name: "zones", summary: "zone GeoJSON through ZoneSet.load and point look-ups", run: run)

    static func run(_ input: UnsafeRawBufferPointer) {
        var zones = ZoneSet()
        do { try zones.load(geoJSON: Data(input), origin: "fuzz.geojson") } catch {
            check(error.code == .invalidGeojson, "a zone file failed with \(error.code), not invalid_geojson: \(error.message)")
            return
        }
        for (lat, lon) in [(37.5665, 126.9780), (0.0, 0.0), (-89.9, 179.9), (35.1, 129.0)] {
            if let c = try? Coordinate(latitude: lat, longitude: lon) { _ = zones.zones(containing: c) }
        }
        for z in zones.zones.prefix(8) {
            let b = z.polygon.bounds
            if let c = try? Coordinate(latitude: (b.south + b.north) / 2, longitude: (b.west + b.east) / 2) {
                _ = zones.zones(containing: c)
                _ = z.polygon.distanceMeters(to: c)
                if let far = try? Coordinate(latitude: 37.5, longitude: 127.0) { _ = z.polygon.crossings(from: c, to: far) }
            }
        }
    }
}

/// `postgres-url`: the input is a `--store postgres://…` URL: parsed or `invalid_value`, and
/// the password never in the redacted form or an error message.
enum PostgresURLTarget {
    static let target = FuzzTarget(name: "postgres-url", summary: "postgres:// URL through PostgresLocation(url:) and redact", run: run)

    static func run(_ input: UnsafeRawBufferPointer) {
        let text = String(decoding: input, as: UTF8.self)
        let redacted = PostgresLocation.redact(text)
        // The password as written in the URL: between the first ':' after "//" and the last '@' of the authority.
        var secret: Substring?
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                secret = authority[authority.index(after: colon)..<at]
            }
        }
        // Compared as bytes: Foundation's `contains` and `components(separatedBy:)` skip NUL
        // characters, which made a password of "p" and NULs "found" in a redacted form holding
        // only NULs and a "p" (the finding kept as corpus/postgres-url/regression-nul-password.txt).
        let secretBytes = secret.map { Array($0.utf8) } ?? []
        let leaks = { (s: String) -> Bool in
            guard let secret, secretBytes.count >= 6, !secret.contains("*") else { return false }
            // Only a password that appears nowhere else in the URL can be told apart.
            return Array(text.utf8).ranges(of: secretBytes).count == 1 && Array(s.utf8).firstRange(of: secretBytes) != nil
        }
        check(!leaks(redacted), "redact kept the password: \(redacted)")
        do {
            let location = try PostgresLocation(url: text, environment: [:])
            check(location.port > 0 && location.port <= 65_535, "port \(location.port)")
            for t in [location.connectTimeoutSeconds, location.statementTimeoutSeconds] {
                check(t.map { (1...86_400).contains($0) } ?? true, "timeout \(t ?? 0) s")
            }
        } catch {
            check(error.code == .invalidValue, "failed with \(error.code), not invalid_value")
            if let secret, leaks(error.message) {
                // The message's own words may equal a password (`sslmode=... is not one of disable,
                // prefer, require, ...` with the password `require`: the CI pass's false finding).
                // A leak is the password where the same URL with another password of its length has none.
                var other = text
                other.replaceSubrange(secret.startIndex..<secret.endIndex, with: String(repeating: "Q", count: secret.count))
                var otherMessage = ""
                do { _ = try PostgresLocation(url: other, environment: [:]) } catch { otherMessage = error.message }
                check(Array(otherMessage.utf8).firstRange(of: secretBytes) != nil, "the error message has the password: \(error.message)")
            }
        }
    }
}

/// `search-text`: the input is a place-search query: the normaliser's keys (plain, initials,
/// romanised), word splitting and counts, and the query through the seed city's index.
enum SearchTextTarget {
    nonisolated(unsafe) static var index: PlacesIndex?
    static let target = FuzzTarget(name: "search-text", summary: "place-search text normaliser (SearchText) and a search", setUp: {
        index = try? PlacesIndex(path: SeedCity.files.places)
    }, run: run)

    static func run(_ input: UnsafeRawBufferPointer) {
        let text = String(decoding: input, as: UTF8.self)
        let key = SearchText.key(text)
        check(key.count <= max(SearchText.maxQueryBytes * 4, input.count * 4), "key of \(key.count) bytes")
        _ = SearchText.initialsKey(text)
        _ = SearchText.romanizedKey(text)
        _ = SearchText.laterWords(text)
        _ = SearchText.isInitialsOnly(key)
        _ = SearchText.isJamoOnly(key)
        _ = SearchText.isLatin(key)
        _ = SearchText.syllableCount(text)
        if let index {
            _ = try? index.search(utf8: Array(input), limit: 5)
            _ = try? index.search(text, limit: 3, typos: true)
        }
    }
}

/// `iso8601`: the input is a time as the worker and `fare-csv` read it. The fixed-shape fast
/// reader must agree with the general parser bit for bit wherever it answers, and a parsed
/// time must be finite.
enum ISO8601Target {
    static let target = FuzzTarget(name: "iso8601", summary: "ISO 8601 parser: fixed-shape reader = general parser", run: run)

    static func run(_ input: UnsafeRawBufferPointer) {
        let u = input.bindMemory(to: UInt8.self)
        let general = ISO8601.parseGeneral(u)
        if let fixed = ISO8601.parseFixedShape(u) {
            check(general.map { $0.timeIntervalSinceReferenceDate.bitPattern == fixed.timeIntervalSinceReferenceDate.bitPattern } == true,
                  "fixed shape read \(fixed.timeIntervalSince1970), the general parser \(general.map { "\($0.timeIntervalSince1970)" } ?? "nil")")
        }
        if let d = ISO8601.parse(bytes: u) {
            check(d.timeIntervalSince1970.isFinite, "not finite")
            _ = ISO8601.string(epochSeconds: d.timeIntervalSince1970, offsetSeconds: 9 * 3600)
        }
    }
}
