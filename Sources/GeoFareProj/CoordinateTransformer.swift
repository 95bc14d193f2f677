import CProj
import GeoFareCore

/// Converts coordinates from one CRS to another through PROJ.
///
/// A value type that is safe to share across threads and tasks: each call runs on the calling
/// thread's own PROJ context with a transformer built once per thread and cached (the first
/// build costs milliseconds, later calls nothing). Axis order is always (x = longitude/easting,
/// y = latitude/northing).
///
/// ```swift
/// let toUTMK = try CoordinateTransformer(from: "wgs84", to: "utmk")
/// let p = try toUTMK.transform(XYPoint(x: 126.9780, y: 37.5665))   // (953901.165, 1952032.081)
/// ```
public struct CoordinateTransformer: Sendable {
    /// The system the input points are in.
    public let source: CRS
    /// The system the output points are in.
    public let target: CRS

    /// Resolves both names and builds the transformer on the calling thread, so that an
    /// impossible pair fails here rather than at the first point.
    /// - Throws: ``GeoFareError`` `unknown_crs` (field `from` or `to`) or `transform_unavailable`.
    public init(from source: String, to target: String) throws(GeoFareError) {
        let s: CRS, t: CRS
        do { s = try CRS.resolve(source) } catch { throw error.at("from") }
        do { t = try CRS.resolve(target) } catch { throw error.at("to") }
        try self.init(from: s, to: t)
    }

    /// Builds the transformer between two resolved systems on the calling thread.
    /// - Throws: ``GeoFareError`` `transform_unavailable`.
    public init(from source: CRS, to target: CRS) throws(GeoFareError) {
        self.source = source
        self.target = target
        _ = try ProjThreadState.current.transformer(from: source, to: target)
    }

    /// Converts one point.
    /// - Throws: ``GeoFareError`` for a non-finite or out-of-range input (fields `x`/`y`) or a
    ///   point PROJ cannot convert (`transform_failed`).
    public func transform(_ point: XYPoint) throws(GeoFareError) -> XYPoint {
        var p = point
        let failure = withUnsafeMutablePointer(to: &p) { transformInPlace(UnsafeMutableBufferPointer(start: $0, count: 1)).first }
        if let failure { throw failure.error }
        return p
    }

    /// Converts an array and returns the converted copy.
    /// - Throws: the first point's ``GeoFareError``, its field `points[i]`; nothing is returned then.
    /// - Complexity: O(n), one `proj_trans_generic` call.
    public func transform(_ points: [XYPoint]) throws(GeoFareError) -> [XYPoint] {
        var copy = points
        let failures = copy.withUnsafeMutableBufferPointer { transformInPlace($0) }
        if let first = failures.first { throw first.error }
        return copy
    }

    /// One point of a batch that could not be converted.
    public struct Failure: Sendable, Hashable {
        /// The point's index in the batch.
        public let index: Int
        /// Why, with field `points[index]` (or `points[index].x`/`.y`).
        public let error: GeoFareError
    }

    /// Converts a contiguous buffer in place with one `proj_trans_generic` call, keeping going
    /// past bad points.
    ///
    /// Inputs are checked first (finite; for a geographic source, latitude within ±90° and
    /// longitude within ±180°). A rejected or unconvertible point is set to `(.infinity,
    /// .infinity)` and reported; every other point is converted.
    /// - Returns: the failures in index order; empty when every point converted.
    /// - Complexity: O(n) with no allocation unless a point fails.
    public func transformInPlace(_ points: UnsafeMutableBufferPointer<XYPoint>) -> [Failure] {
        let transformer: ProjTransformer, direction: PJ_DIRECTION
        do { (transformer, direction) = try ProjThreadState.current.transformer(from: source, to: target) } catch {
            return points.indices.map { Failure(index: $0, error: error) }
        }
        let geographic = source.isGeographic
        // Fast path: one branch-free pass decides whether every input is valid (NaN fails every
        // comparison, infinity fails the range or isFinite test); only a batch with a bad point
        // pays for the detailed pass that names it.
        var failures: [Failure] = []
        if !Self.allValid(UnsafeBufferPointer(points), geographic: geographic) {
            for i in points.indices {
                if let problem = Self.check(points[i], geographic: geographic) {
                    failures.append(Failure(index: i, error: problem.prefixed("points[\(i)]")))
                    points[i] = XYPoint(x: .infinity, y: .infinity)
                }
            }
        }
        transformer.transformInPlace(points, direction: direction)
        if direction == PJ_INV && transformer.hasDatumShift { Self.refineInverse(points, with: transformer) }
        // PROJ marks a point it could not convert with HUGE_VAL; again one cheap pass first.
        guard !Self.allFinite(UnsafeBufferPointer(points)) else { return failures }
        let rejected = Set(failures.map(\.index))
        for i in points.indices where !(points[i].x.isFinite && points[i].y.isFinite) && !rejected.contains(i) {
            failures.append(Failure(index: i, error: GeoFareError(
                code: .transformFailed,
                message: "PROJ cannot convert this point from \(source.name) to \(target.name)" + (transformer.context.takeError().map { ": \($0)" } ?? ""),
                field: "points[\(i)]"
            )))
        }
        failures.sort { $0.index < $1.index }
        return failures
    }

    /// One fixed-point step that turns PROJ's linearised datum-shift inverse `G` into the exact
    /// inverse of the forward pipeline `F`: with `a₀ = G(b)`, `a₁ = a₀ − (G(F(a₀)) − a₀)`.
    /// `G`'s error ε is smooth, so this leaves O(ε²) — nanometres instead of ~5 mm — and
    /// A→B→A round trips close to well under a millimetre. Costs two more PROJ passes.
    static func refineInverse(_ points: UnsafeMutableBufferPointer<XYPoint>, with transformer: ProjTransformer) {
        var probe = Array(points)
        probe.withUnsafeMutableBufferPointer { buffer in
            transformer.transformInPlace(buffer, direction: PJ_FWD)
            transformer.transformInPlace(buffer, direction: PJ_INV)
        }
        for i in points.indices {
            let a0 = points[i], g = probe[i]
            guard a0.x.isFinite, a0.y.isFinite, g.x.isFinite, g.y.isFinite else { continue }
            points[i] = XYPoint(x: a0.x - (g.x - a0.x), y: a0.y - (g.y - a0.y))
        }
    }

    /// Whether every point is finite (and, for degrees, within ±90° latitude and ±180° longitude).
    @inline(__always)
    static func allValid(_ points: UnsafeBufferPointer<XYPoint>, geographic: Bool) -> Bool {
        var ok = true
        if geographic {
            for p in points { ok = ok && (p.y >= -90) && (p.y <= 90) && (p.x >= -180) && (p.x <= 180) }
        } else {
            for p in points { ok = ok && p.x.isFinite && p.y.isFinite }
        }
        return ok
    }

    /// Whether every point is finite.
    @inline(__always)
    static func allFinite(_ points: UnsafeBufferPointer<XYPoint>) -> Bool {
        var ok = true
        for p in points { ok = ok && p.x.isFinite && p.y.isFinite }
        return ok
    }

    @inline(__always)
    static func check(_ p: XYPoint, geographic: Bool) -> GeoFareError? {
        guard p.x.isFinite else { return .notFinite("x", p.x) }
        guard p.y.isFinite else { return .notFinite("y", p.y) }
        if geographic {
            if !(-90.0...90.0).contains(p.y) { return .outOfRange("y", p.y, -90...90, code: .latitudeOutOfRange) }
            if !(-180.0...180.0).contains(p.x) { return .outOfRange("x", p.x, -180...180, code: .longitudeOutOfRange) }
        }
        return nil
    }
}
