import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFarePlaces

/// `geofare bench places --pbf FILE`: the places index's build, size, search and reverse latency.
struct PlacesBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Build a places index from an extract, then time searches (p50/p99) against a scan of every key, and reverse look-ups.",
        discussion: """
        Queries are drawn from the index's own names (seeded): whole names, prefixes of half the name,
        초성 of Korean names, names without their spaces, Latin names with one letter changed, and
        (one in eight each) addresses (number and street, in the US or Korean order), intersections
        of two streets that meet ("A & B") and category words (Data/places/categories.json);
        timed apart, Korean names of three or more syllables with one vowel changed (a Hangul typo).
        The baseline is the same search by looking at every key in turn (PlacesIndex.searchByScan:
        same answers, no binary search; typo queries excluded from it). Reverse look-ups at random
        points in the places' box, radius 200 m. Per figure: the median of --rounds rounds and its range.
        """
    )

    @OptionGroup var options: BenchOptions
    @Option(help: "The OpenStreetMap extract (.osm.pbf).") var pbf: String
    @Option(help: "Search queries per round.") var queries = 2_000
    @Option(help: "Reverse look-ups per round.") var reverses = 2_000
    @Option(help: "A country extract's size in MB, to estimate its index size and build time from this extract's ratios (an estimate, not a measurement).") var countryPbfMb = 250.0

    struct Report: Encodable {
        let benchmark = "places"
        let pbf: String
        let pbf_bytes: Int
        let places: Int
        let keys: Int
        let index_bytes: Int
        let bytes_per_place: Double
        let build_ms: Double
        let queries: Int
        let rounds: Int
        let machine: MachineInfo
        /// Search latency in microseconds (p50, p99 over a round's queries; medians of rounds).
        let search_p50_us: Double
        let search_p99_us: Double
        /// The same figures per kind of query (`name` includes the Latin typos), medians of rounds.
        let by_kind: [String: KindFigures]
        /// The scan baseline on the same queries without typos, and the indexed search on them.
        let scan_p50_us: Double
        let indexed_p50_us: Double
        let speedup_p50: Double
        /// Queries whose indexed answer differed from the scan's (must be 0).
        let scan_mismatches: Int
        let reverse_p50_us: Double
        let reverse_p99_us: Double
        /// Korean names of three or more syllables with one vowel changed (absent without any).
        let hangul_typo_queries: Int
        let hangul_typo_p50_us: Double?
        let hangul_typo_p99_us: Double?
        let country_pbf_mb: Double
        let country_index_mb_estimate: Double
        let country_build_s_estimate: Double
        let ranges: [String: [Double]]
    }

    struct KindFigures: Encodable {
        let queries: Int
        let p50_us: Double
        let p99_us: Double
    }

    func run() throws {
        let pbfURL = URL(fileURLWithPath: pbf)
        let pbfBytes = (try? FileManager.default.attributesOfItem(atPath: pbf)[.size] as? Int) ?? 0
        let path = NSTemporaryDirectory() + "geofare-bench-\(getpid()).places"
        defer { unlink(path) }
        var buildMs: [Double] = []
        var p50: [Double] = [], p99: [Double] = [], scan: [Double] = [], indexed: [Double] = [], r50: [Double] = [], r99: [Double] = []
        var mismatches = 0
        var index: PlacesIndex!
        var queryCount = 0
        var h50: [Double] = [], h99: [Double] = [], hangulCount = 0
        var kindP50: [String: [Double]] = [:], kindP99: [String: [Double]] = [:], kindCount: [String: Int] = [:]
        for round in 0..<options.roundCount {
            index = nil
            var failure: GeoFareError?
            let seconds = Stopwatch.seconds {
                do throws(GeoFareError) { try PlacesIndexBuilder.build(pbfAt: pbfURL, to: path) } catch { failure = error }
            }
            if let failure {
                Diagnostics.print("geofare: \(failure.description) [\(failure.code)]")
                throw GeoFareExit.dataError
            }
            buildMs.append(seconds * 1000)
            do { index = try PlacesIndex(path: path) } catch {
                Diagnostics.print("geofare: \(error.description) [\(error.code)]")
                throw GeoFareExit.dataError
            }
            guard index.count > 0 else { throw ValidationError("\(pbf) has no named places") }
            var rng = SeededGenerator(seed: options.seed &+ UInt64(round))
            let drawn = Self.queries(index, count: queries, using: &rng)
            queryCount = drawn.count
            let m = index.metadata
            var times: [Double] = []
            times.reserveCapacity(drawn.count)
            var timesByKind: [String: [Double]] = [:]
            for q in drawn {
                let near = Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng))
                let t = Stopwatch.seconds { _ = try? index.search(q.text, near: near, limit: 10) } * 1e6
                times.append(t)
                timesByKind[q.kind, default: []].append(t)
            }
            p50.append(Statistics.percentile(times, 0.5))
            p99.append(Statistics.percentile(times, 0.99))
            for (kind, t) in timesByKind {
                kindP50[kind, default: []].append(Statistics.percentile(t, 0.5))
                kindP99[kind, default: []].append(Statistics.percentile(t, 0.99))
                kindCount[kind] = t.count
            }
            var scanTimes: [Double] = [], indexedTimes: [Double] = []
            for q in drawn where !q.typo {
                var a: [PlaceMatch] = [], b: [PlaceMatch] = []
                indexedTimes.append(Stopwatch.seconds { a = (try? index.search(q.text, limit: 10, typos: false)) ?? [] } * 1e6)
                scanTimes.append(Stopwatch.seconds { b = (try? index.searchByScan(q.text, limit: 10)) ?? [] } * 1e6)
                if round == 0, a.map(\.place.index) != b.map(\.place.index) { mismatches += 1 }
            }
            scan.append(Statistics.percentile(scanTimes, 0.5))
            indexed.append(Statistics.percentile(indexedTimes, 0.5))
            // the same Hangul typos every round (a name set this small would vary from round to round)
            var typoRng = SeededGenerator(seed: options.seed &+ 0x4A)
            let hangul = Self.hangulTypos(index, count: queries / 5, using: &typoRng)
            hangulCount = hangul.count
            if !hangul.isEmpty {
                var hangulTimes: [Double] = []
                for q in hangul {
                    let near = Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng))
                    hangulTimes.append(Stopwatch.seconds { _ = try? index.search(q, near: near, limit: 10) } * 1e6)
                }
                h50.append(Statistics.percentile(hangulTimes, 0.5))
                h99.append(Statistics.percentile(hangulTimes, 0.99))
            }
            var reverseTimes: [Double] = []
            for _ in 0..<reverses {
                let at = Coordinate(uncheckedLatitude: .random(in: m.south...m.north, using: &rng), longitude: .random(in: m.west...m.east, using: &rng))
                reverseTimes.append(Stopwatch.seconds { _ = try? index.reverse(at, radiusMeters: 200) } * 1e6)
            }
            r50.append(Statistics.percentile(reverseTimes, 0.5))
            r99.append(Statistics.percentile(reverseTimes, 0.99))
        }
        let build = Statistics.Rounds(buildMs), s50 = Statistics.Rounds(p50), s99 = Statistics.Rounds(p99)
        let sc = Statistics.Rounds(scan), ix = Statistics.Rounds(indexed), rv50 = Statistics.Rounds(r50), rv99 = Statistics.Rounds(r99)
        let bytes = index.byteCount
        let scale = countryPbfMb * 1_000_000 / Double(max(pbfBytes, 1))
        let report = Report(
            pbf: pbfURL.lastPathComponent, pbf_bytes: pbfBytes, places: index.count, keys: index.keyCount, index_bytes: bytes,
            bytes_per_place: Double(bytes) / Double(index.count), build_ms: build.median, queries: queryCount, rounds: options.roundCount,
            machine: .current, search_p50_us: s50.median, search_p99_us: s99.median,
            by_kind: kindCount.keys.reduce(into: [:]) { out, k in
                out[k] = KindFigures(queries: kindCount[k]!, p50_us: Statistics.Rounds(kindP50[k]!).median, p99_us: Statistics.Rounds(kindP99[k]!).median)
            }, scan_p50_us: sc.median, indexed_p50_us: ix.median,
            speedup_p50: sc.median / max(ix.median, 1e-9), scan_mismatches: mismatches, reverse_p50_us: rv50.median, reverse_p99_us: rv99.median,
            hangul_typo_queries: hangulCount, hangul_typo_p50_us: h50.isEmpty ? nil : Statistics.Rounds(h50).median,
            hangul_typo_p99_us: h99.isEmpty ? nil : Statistics.Rounds(h99).median,
            country_pbf_mb: countryPbfMb, country_index_mb_estimate: Double(bytes) * scale / 1e6, country_build_s_estimate: build.median * scale / 1000,
            ranges: ["build_ms": build.range, "search_p50_us": s50.range, "search_p99_us": s99.range, "scan_p50_us": sc.range,
                     "indexed_p50_us": ix.range, "reverse_p50_us": rv50.range, "reverse_p99_us": rv99.range])
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        let f1 = { (v: Double) in String(format: "%.1f", v) }
        print("geofare bench places: \(report.pbf) (\(pbfBytes) bytes), median of \(options.roundCount) rounds, one thread, \(report.machine.cores) cores (\(report.machine.cpu))")
        print("  index      \(report.places) places, \(report.keys) keys, \(bytes) bytes (\(f1(report.bytes_per_place)) per place); build \(f1(build.median)) ms \(build.rangeText(f1))")
        print("  search     p50 \(f1(s50.median)) µs \(s50.rangeText(f1)), p99 \(f1(s99.median)) µs \(s99.rangeText(f1)) over \(queryCount) queries")
        let kinds = report.by_kind.keys.sorted().map { k in
            let f = report.by_kind[k]!
            return "\(k) \(f1(f.p50_us))/\(f1(f.p99_us))"
        }
        print("  by kind    p50/p99 µs: \(kinds.joined(separator: ", "))")
        print("  baseline   scan of every key p50 \(f1(sc.median)) µs vs indexed \(f1(ix.median)) µs: ×\(f1(report.speedup_p50)); answers differing: \(mismatches)")
        print("  reverse    p50 \(f1(rv50.median)) µs, p99 \(f1(rv99.median)) µs (radius 200 m)")
        if !h50.isEmpty {
            let t50 = Statistics.Rounds(h50), t99 = Statistics.Rounds(h99)
            print("  hangul typo p50 \(f1(t50.median)) µs \(t50.rangeText(f1)), p99 \(f1(t99.median)) µs \(t99.rangeText(f1)) over \(hangulCount) queries (one vowel changed; ×\(f1(t50.median / max(s50.median, 1e-9))) the search p50)")
        }
        print("  country    a \(f1(countryPbfMb)) MB extract, scaled from this one: ~\(f1(report.country_index_mb_estimate)) MB index, ~\(f1(report.country_build_s_estimate)) s build (estimate)")
    }

    struct Query {
        var text: String
        var typo: Bool
        /// `name`, `address`, `intersection` or `category`: the by-kind figures.
        var kind = "name"
    }

    /// Korean names of three or more syllables (Hangul only) with one syllable's simple vowel
    /// replaced by another simple vowel: one jamo wrong.
    static func hangulTypos(_ index: PlacesIndex, count: Int, using rng: inout SeededGenerator) -> [String] {
        let simple = [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 17, 18, 20]
        var out: [String] = []
        for _ in 0..<(count * 20) where out.count < count {
            let place = index.place(at: Int.random(in: 0..<index.count, using: &rng))
            guard let name = place.names.randomElement(using: &rng)?.value, name.unicodeScalars.count >= 3,
                  name.unicodeScalars.allSatisfy({ (0xAC00...0xD7A3).contains($0.value) }) else { continue }
            var scalars = Array(name.unicodeScalars)
            let at = Int.random(in: 0..<scalars.count, using: &rng)
            let i = Int(scalars[at].value - 0xAC00)
            let vowel = (i % 588) / 28
            guard simple.contains(vowel), let other = simple.filter({ $0 != vowel }).randomElement(using: &rng) else { continue }
            let code = 0xAC00 + (i / 588) * 588 + other * 28 + i % 28
            scalars[at] = Unicode.Scalar(UInt32(code))!
            out.append(String(String.UnicodeScalarView(scalars)))
        }
        return out
    }

    /// Queries drawn from the index's names: whole, half, 초성, without spaces, one Latin typo.
    static func queries(_ index: PlacesIndex, count: Int, using rng: inout SeededGenerator) -> [Query] {
        var out: [Query] = []
        out.reserveCapacity(count)
        let pairs = index.meetingStreets(limit: 2_000)
        let words = PlaceCategories.embedded.categories.flatMap(\.words)
        var misses = 0
        while out.count < count {
            switch out.count % 8 {
            case 5 where misses < 10_000:
                let place = index.place(at: Int.random(in: 0..<index.count, using: &rng))
                guard let n = place.address.first(where: { $0.key == "housenumber" })?.value,
                      let street = place.address.first(where: { $0.key == "street" })?.value else { misses += 1; continue }
                out.append(Query(text: street.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } ? "\(street) \(n)" : "\(n) \(street)", typo: false, kind: "address"))
                continue
            case 6 where !pairs.isEmpty:
                let pair = pairs.randomElement(using: &rng)!
                out.append(Query(text: "\(pair.0.name) & \(pair.1.name)", typo: false, kind: "intersection"))
                continue
            case 7:
                out.append(Query(text: words.randomElement(using: &rng)!, typo: false, kind: "category"))
                continue
            default: break
            }
            let place = index.place(at: Int.random(in: 0..<index.count, using: &rng))
            guard let name = place.names.randomElement(using: &rng)?.value else { continue }
            switch out.count % 8 {
            case 0: out.append(Query(text: name, typo: false))
            case 1: out.append(Query(text: String(name.prefix(max(1, name.count / 2))), typo: false))
            case 2:
                if let initials = SearchText.initialsKey(name) { out.append(Query(text: String(decoding: initials, as: UTF8.self), typo: false)) }
                else { out.append(Query(text: name, typo: false)) }
            case 3: out.append(Query(text: name.filter { !$0.isWhitespace }, typo: false))
            default:
                let key = SearchText.key(name)
                guard SearchText.isLatin(key), key.count >= 4 else { out.append(Query(text: name, typo: false)); continue }
                var typo = key
                let at = Int.random(in: 1..<key.count, using: &rng)
                typo[at] = typo[at] == UInt8(ascii: "x") ? UInt8(ascii: "q") : UInt8(ascii: "x")
                out.append(Query(text: String(decoding: typo, as: UTF8.self), typo: true))
            }
        }
        return out
    }
}
