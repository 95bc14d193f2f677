import CProj
import GeoFareCore

/// Owns one PROJ transformation (`PJ*`) between two CRSs, normalised to
/// (longitude/easting, latitude/northing) axis order.
///
/// Bound to the context (and so the thread) it was made on; not `Sendable`. It keeps its
/// context alive, so the context always outlives the `PJ*` made from it.
@_spi(Benchmark) public final class ProjTransformer {
    let context: ProjContext
    let pj: OpaquePointer
    let source: CRS
    let target: CRS
    /// Whether the pipeline shifts the datum (Helmert, Molodensky-Badekas, towgs84). PROJ runs
    /// those steps backwards with a linearised inverse that misses the exact inverse by a few
    /// millimetres, so the inverse direction is refined (see ``CoordinateTransformer``).
    let hasDatumShift: Bool

    @_spi(Benchmark) public init(context: ProjContext, source: CRS, target: CRS) throws(GeoFareError) {
        self.context = context
        self.source = source
        self.target = target
        // proj_create_crs_to_crs returns NULL when no operation links the two CRSs.
        guard let raw = proj_create_crs_to_crs(context.raw, source.definition, target.definition, nil) else {
            throw GeoFareError(
                code: .transformUnavailable,
                message: "PROJ finds no transformation from \(source.name) to \(target.name)" + (context.takeError().map { ": \($0)" } ?? ""),
                field: "to"
            )
        }
        // Official axis order (EPSG:4326 is lat,lon; Korean grids are northing-first) becomes
        // lon,lat / easting,northing. Returns NULL only on failure; the input is kept and freed.
        guard let normalized = proj_normalize_for_visualization(context.raw, raw) else {
            proj_destroy(raw)
            throw .axisOrderUnavailable(source.name, target.name)
        }
        proj_destroy(raw)
        pj = normalized
        let definition = proj_pj_info(normalized).definition.map { String(cString: $0) } ?? ""
        hasDatumShift = ["helmert", "molobadekas", "towgs84"].contains { definition.contains($0) }
    }

    deinit {
        proj_destroy(pj)
    }

    /// Converts the points in place with one `proj_trans_generic` call.
    ///
    /// PROJ writes `HUGE_VAL` (infinity) into the coordinates of a point it cannot convert and
    /// goes on with the rest, so callers check `isFinite` afterwards.
    func transformInPlace(_ points: UnsafeMutableBufferPointer<XYPoint>, direction: PJ_DIRECTION = PJ_FWD) {
        guard let base = points.baseAddress, !points.isEmpty else { return }
        proj_errno_reset(pj)
        let stride = MemoryLayout<XYPoint>.stride
        base.withMemoryRebound(to: Double.self, capacity: points.count * 2) { doubles in
            _ = proj_trans_generic(pj, direction, doubles, stride, points.count, doubles + 1, stride, points.count, nil, 0, 0, nil, 0, 0)
        }
    }

    /// ``transformInPlace(_:direction:)`` forward: the one `proj_trans_generic` call that
    /// `geofare bench transform` times as its baseline.
    @_spi(Benchmark) public func transformForward(_ points: UnsafeMutableBufferPointer<XYPoint>) {
        transformInPlace(points)
    }
}

@available(*, unavailable)
extension ProjTransformer: Sendable {}
