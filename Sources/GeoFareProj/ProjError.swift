import GeoFareCore

/// A coordinate-system failure: an unknown CRS, a point PROJ cannot convert, bad input.
///
/// Codes: `unknown_crs` (a name PROJ and the alias table do not know, or an object that is not
/// a 2D coordinate reference system), `transform_unavailable` (PROJ knows both systems but finds
/// no way between them), `transform_failed` (this point cannot be converted, e.g. far outside
/// the projection's area), and the ``InvalidInput`` codes (`not_finite`, `latitude_out_of_range`,
/// `longitude_out_of_range`) for the input values.
public struct ProjError: CodedError, Hashable {
    public var code: String
    public var message: String
    public var field: String?

    /// An error with one of ``ErrorCode``'s codes.
    public init(code: ErrorCode, message: String, field: String?) {
        self.init(code: code.rawValue, message: message, field: field)
    }

    public init(code: String, message: String, field: String?) {
        self.code = code
        self.message = message
        self.field = field
    }

    init(_ invalid: InvalidInput) {
        self.init(code: invalid.code, message: invalid.message, field: invalid.field)
    }

    static func unknownCRS(_ name: String, detail: String?) -> ProjError {
        ProjError(code: .unknownCrs, message: "unknown coordinate reference system '\(name)'" + (detail.map { ": \($0)" } ?? ""), field: "crs")
    }
}
