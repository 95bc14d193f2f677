import Foundation
import GeoFareParties
import GeoFareCore
#if canImport(Glibc)
import Glibc
#endif

/// The clustering benchmark behind `geofare bench cluster`: builds a ``PartyIndex`` of
/// synthetic parties and times its queries and updates.
///
/// Measured with a monotonic clock (`CLOCK_MONOTONIC`), one sample per call:
/// - **build**: ``PartyIndex/upsert(contentsOf:)`` of all parties into an empty index (bulk).
/// - **rss**: resident memory after the build, from `/proc/self/statm`, once the input
///   array is freed; also before anything was generated (`rss_before_bytes`).
/// - **seoul viewports**: ``PartyIndex/clusters(bbox:zoom:filter:idsLimit:)`` (ids limit 10)
///   on a 390×844 px phone viewport centred on central Seoul (37.5665, 126.9780), jittered by
///   up to half a viewport, 300 per zoom 10...18.
/// - **world viewports**: the same viewport centred anywhere in the world (uniform longitude,
///   latitude ±80°; at zooms 0–1 it shows the whole world), 200 per zoom 0...16.
/// - **filtered**: the same two sets (30 resp. 20 per zoom) with a filter: a 3-hour
///   departure window, at least 1 free seat, status open.
/// - **updates**: 200,000 operations: 60 % moves of an existing party (re-upsert with a new
///   origin), 20 % inserts, 20 % removes, parties prepared in advance.
/// - **nearby**: 2,000 ``PartyIndex/nearby(center:radiusMeters:limit:filter:)`` calls, 2 km
///   radius, limit 50, no filter, centred within 200 m of a random party.
public enum ClusterBenchmark {
    /// Where the synthetic parties are.
    public typealias Distribution = SyntheticParties.Distribution

    /// The results; times in seconds or microseconds, memory in bytes.
    public struct Report: Sendable, Codable, Hashable {
        /// Parties loaded.
        public var points: Int
        /// Where they are.
        public var distribution: Distribution
        /// Seconds for the bulk ``PartyIndex/upsert(contentsOf:)``.
        public var buildSeconds: Double
        /// Resident memory after the build, bytes (`/proc/self/statm`).
        public var rssBytes: Int
        /// Resident memory when ``ClusterBenchmark/run(points:distribution:seed:csvPoints:)``
        /// started (runtime, libraries, caller's data): `rss_bytes − rss_before_bytes` is what
        /// the index holds.
        public var rssBeforeBytes: Int
        /// ``PartyIndex/estimatedBytes`` after the build.
        public var indexBytesEstimate: Int
        /// Unfiltered viewport queries, Seoul and world sets together: median, µs.
        public var viewportP50Us: Double
        /// Unfiltered viewport queries, both sets: 99th percentile, µs.
        public var viewportP99Us: Double
        /// Seoul viewports, zooms 10...18: median, µs.
        public var seoulViewportP50Us: Double
        /// Seoul viewports: 99th percentile, µs.
        public var seoulViewportP99Us: Double
        /// World viewports, zooms 0...16: median, µs.
        public var worldP50Us: Double
        /// World viewports: 99th percentile, µs.
        public var worldP99Us: Double
        /// Filtered viewport queries (both sets): median, µs.
        public var filteredP50Us: Double
        /// Filtered viewport queries: 99th percentile, µs.
        public var filteredP99Us: Double
        /// Moves, inserts and removes per second, one thread.
        public var updatesPerSecond: Double
        /// ``PartyIndex/nearby(center:radiusMeters:limit:filter:)``: median, µs.
        public var nearbyP50Us: Double
        /// Nearby queries: 99th percentile, µs.
        public var nearbyP99Us: Double

        private enum CodingKeys: String, CodingKey {
            case points, distribution, buildSeconds = "build_seconds", rssBytes = "rss_bytes", rssBeforeBytes = "rss_before_bytes", indexBytesEstimate = "index_bytes_estimate"
            case viewportP50Us = "viewport_p50_us", viewportP99Us = "viewport_p99_us"
            case seoulViewportP50Us = "seoul_viewport_p50_us", seoulViewportP99Us = "seoul_viewport_p99_us"
            case worldP50Us = "world_p50_us", worldP99Us = "world_p99_us"
            case filteredP50Us = "filtered_p50_us", filteredP99Us = "filtered_p99_us"
            case updatesPerSecond = "updates_per_second", nearbyP50Us = "nearby_p50_us", nearbyP99Us = "nearby_p99_us"
        }
    }

    /// The epoch of the synthetic departures (2026-01-01T00:00Z).
    static let epoch = Date(timeIntervalSince1970: 1_767_225_600)
    static let seoul = (lat: 37.5665, lon: 126.9780)

    /// Runs the benchmark.
    /// - Parameters:
    ///   - points: how many parties (ignored when `csvPoints` is given).
    ///   - distribution: where to put them (ignored when `csvPoints` is given, but still
    ///     reported).
    ///   - seed: for every random choice, so runs repeat exactly.
    ///   - csvPoints: real positions to use instead (ids must be 1...128 bytes; duplicates:
    ///     the last wins).
    public static func run(points: Int, distribution: Distribution, seed: UInt64,
                           csvPoints: [(id: String, lon: Double, lat: Double)]? = nil) -> Report {
        var rng = SeededGenerator(seed: seed)
        let rssBefore = residentBytes()
        var parties: [Party] = []
        if let csvPoints {
            parties.reserveCapacity(csvPoints.count)
            for p in csvPoints {
                parties.append(makeParty(id: p.id, lon: p.lon, lat: p.lat, distribution: distribution, rng: &rng))
            }
        } else {
            parties.reserveCapacity(points)
            for i in 0..<points {
                let (lon, lat) = SyntheticParties.position(distribution, rng: &rng)
                parties.append(makeParty(id: "p\(i)", lon: lon, lat: lat, distribution: distribution, rng: &rng))
            }
        }
        let n = parties.count
        let index = try! PartyIndex()

        let t0 = now()
        index.upsert(contentsOf: parties)
        let buildSeconds = Double(now() - t0) / 1e9

        // Free the input, then measure memory; ids for the update phase are re-derived later.
        let sampleOrigins = (0..<2_000).map { _ in parties[Int.random(in: 0..<max(n, 1), using: &rng)].origin }
        parties = []
        let rss = residentBytes()
        let estimate = index.estimatedBytes
        var ids: [String] = csvPoints.map { $0.map(\.id) } ?? (0..<n).map { "p\($0)" }

        // Viewports.
        var seoulBoxes: [(BoundingBox, Int)] = []
        for z in 10...18 {
            for _ in 0..<300 { seoulBoxes.append((SyntheticParties.viewport(lat: seoul.lat, lon: seoul.lon, zoom: z, jitter: true, rng: &rng), z)) }
        }
        var worldBoxes: [(BoundingBox, Int)] = []
        for z in 0...16 {
            for _ in 0..<200 {
                let lat = Double.random(in: -80...80, using: &rng), lon = Double.random(in: -180..<180, using: &rng)
                worldBoxes.append((SyntheticParties.viewport(lat: lat, lon: lon, zoom: z, jitter: false, rng: &rng), z))
            }
        }
        for (box, z) in seoulBoxes.prefix(50) { _ = try! index.clusters(bbox: box, zoom: z) }  // warm up
        let seoulTimes = seoulBoxes.map { box, z in time { _ = try! index.clusters(bbox: box, zoom: z) } }
        let worldTimes = worldBoxes.map { box, z in time { _ = try! index.clusters(bbox: box, zoom: z) } }

        var filteredTimes: [Double] = []
        for (k, (box, z)) in seoulBoxes.enumerated() where k % 10 == 0 {
            let f = filter(rng: &rng)
            filteredTimes.append(time { _ = try! index.clusters(bbox: box, zoom: z, filter: f) })
        }
        for (k, (box, z)) in worldBoxes.enumerated() where k % 10 == 0 {
            let f = filter(rng: &rng)
            filteredTimes.append(time { _ = try! index.clusters(bbox: box, zoom: z, filter: f) })
        }

        // Nearby.
        let nearbyTimes = sampleOrigins.map { o in
            let c = Coordinate(uncheckedLatitude: min(max(o.latitude + Double.random(in: -0.0018...0.0018, using: &rng), -90), 90),
                               longitude: min(max(o.longitude + Double.random(in: -0.0018...0.0018, using: &rng), -180), 180))
            return time { _ = try! index.nearby(center: c, radiusMeters: 2_000, limit: 50, filter: .none) }
        }

        // Updates, prepared in advance.
        enum Op { case upsert(Party), remove(String) }
        var ops: [Op] = []
        ops.reserveCapacity(200_000)
        var nextID = n
        for _ in 0..<200_000 {
            let r = Double.random(in: 0..<1, using: &rng)
            if r < 0.6, !ids.isEmpty {
                let id = ids[Int.random(in: 0..<ids.count, using: &rng)]
                let (lon, lat) = SyntheticParties.position(distribution, rng: &rng)
                ops.append(.upsert(makeParty(id: id, lon: lon, lat: lat, distribution: distribution, rng: &rng)))
            } else if r < 0.8 || ids.isEmpty {
                let (lon, lat) = SyntheticParties.position(distribution, rng: &rng)
                let id = "p\(nextID)"
                nextID += 1
                ids.append(id)
                ops.append(.upsert(makeParty(id: id, lon: lon, lat: lat, distribution: distribution, rng: &rng)))
            } else {
                let k = Int.random(in: 0..<ids.count, using: &rng)
                ops.append(.remove(ids[k]))
                ids.swapAt(k, ids.count - 1)
                ids.removeLast()
            }
        }
        let t1 = now()
        for op in ops {
            switch op {
            case .upsert(let p): index.upsert(p)
            case .remove(let id): index.remove(id: id)
            }
        }
        let updateSeconds = Double(now() - t1) / 1e9

        let all = seoulTimes + worldTimes
        return Report(
            points: n, distribution: distribution, buildSeconds: buildSeconds, rssBytes: rss, rssBeforeBytes: rssBefore,
            indexBytesEstimate: estimate,
            viewportP50Us: Statistics.percentile(all, 0.5), viewportP99Us: Statistics.percentile(all, 0.99),
            seoulViewportP50Us: Statistics.percentile(seoulTimes, 0.5), seoulViewportP99Us: Statistics.percentile(seoulTimes, 0.99),
            worldP50Us: Statistics.percentile(worldTimes, 0.5), worldP99Us: Statistics.percentile(worldTimes, 0.99),
            filteredP50Us: Statistics.percentile(filteredTimes, 0.5), filteredP99Us: Statistics.percentile(filteredTimes, 0.99),
            updatesPerSecond: Double(ops.count) / updateSeconds,
            nearbyP50Us: Statistics.percentile(nearbyTimes, 0.5), nearbyP99Us: Statistics.percentile(nearbyTimes, 0.99)
        )
    }

    // MARK: Data

    /// A synthetic party at a position: 2–6 seats, a departure within a day of 2026-01-01,
    /// mostly open, its destination drawn from the same distribution.
    public static func makeParty(id: String, lon: Double, lat: Double, distribution: Distribution, rng: inout SeededGenerator) -> Party {
        let seats = Int.random(in: 2...6, using: &rng)
        let taken = Int.random(in: 0...seats, using: &rng)
        let r = Double.random(in: 0..<1, using: &rng)
        let status: PartyStatus = taken == seats ? .full : (r < 0.85 ? .open : .closed)
        let (dLon, dLat) = SyntheticParties.position(distribution, rng: &rng)
        return Party(
            id: id, origin: Coordinate(uncheckedLatitude: lat, longitude: lon), destination: Coordinate(uncheckedLatitude: dLat, longitude: dLon),
            departure: epoch.addingTimeInterval(Double(Int.random(in: 0..<86_400, using: &rng))), seatsTotal: seats, seatsTaken: taken,
            status: status, attributesJSON: nil, updatedAt: epoch.addingTimeInterval(-Double(Int.random(in: 0..<3_600, using: &rng))),
            version: Int64.random(in: 1...5, using: &rng)
        )
    }

    /// The benchmark's filter: a random 3-hour departure window of that day, at least one
    /// free seat, status open.
    public static func filter(rng: inout SeededGenerator) -> PartyFilter {
        let from = epoch.addingTimeInterval(Double(Int.random(in: 0..<75_600, using: &rng)))
        return PartyFilter(departFrom: from, departUntil: from.addingTimeInterval(3 * 3_600), minFreeSeats: 1, statuses: [.open])
    }

    // MARK: Measuring

    /// Nanoseconds on the monotonic clock.
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// Microseconds one call of `body` takes (monotonic clock).
    @inline(never)
    public static func time(_ body: () -> Void) -> Double {
        let t = now()
        body()
        return Double(now() - t) / 1_000
    }

    /// Resident set size from `/proc/self/statm` (0 where there is none).
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
