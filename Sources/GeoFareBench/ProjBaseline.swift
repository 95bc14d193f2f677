import GeoFareCore
@_spi(Benchmark) import GeoFareProj

/// A bare PROJ call with no GeoFare code around it: the baseline `geofare bench transform`
/// measures the Swift batch path against, in the same process and on the same array.
///
/// It builds its own context and normalised transformer exactly as ``CoordinateTransformer``
/// does, then each ``run(_:)`` is one `proj_trans_generic` call and nothing else (no input
/// checks, no failure scan): `GeoFareProj`'s own wrapper of that call, reached through its
/// `Benchmark` SPI so that only `GeoFareProj` imports PROJ.
public final class ProjBaseline {
    private let context: ProjContext
    private let transformer: ProjTransformer

    /// - Throws: ``GeoFareError`` as ``CoordinateTransformer/init(from:to:)``.
    public init(from source: CRS, to target: CRS) throws(GeoFareError) {
        context = ProjContext()
        transformer = try ProjTransformer(context: context, source: source, target: target)
    }

    /// Converts in place with a single direct `proj_trans_generic` call (no validation).
    public func run(_ points: UnsafeMutableBufferPointer<XYPoint>) {
        transformer.transformForward(points)
    }
}
