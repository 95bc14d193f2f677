import GeoFareCore

/// Errors of reading OpenStreetMap: a PBF file that is truncated, corrupt or uses a feature we do
/// not read (`pbf_truncated`, `pbf_corrupt`, `pbf_unsupported`, `pbf_unreadable`), a road profile
/// that does not validate (`invalid_profile`, `profile_not_found`). `field` names where:
/// `blob[12]@345678` (blob index and byte offset of its header) for PBF errors, the JSON path for
/// profile errors. (A graph file that cannot be read, a network that cannot be contracted or a
/// point that cannot be snapped onto a road are `GeoFareGraph`'s and `GeoFareGraphBuild`'s, with
/// the file path, a section name or `from`/`to` as the field; a section file's are `GeoFareFile`'s.)
extension GeoFareError {
    // MARK: PBF files

    /// A PBF file that does not decode (`pbf_corrupt`); ``located(blob:offset:)`` adds where.
    static func corrupt(_ message: String) -> GeoFareError {
        GeoFareError(code: .pbfCorrupt, message: message)
    }

    /// A PBF error with `code` (`pbf_truncated`, `pbf_corrupt`, ...), before it is located.
    static func pbf(_ code: ErrorCode, _ message: String) -> GeoFareError {
        GeoFareError(code: code, message: message)
    }

    /// A PBF file that cannot be read at all (`pbf_unreadable`, field: the path).
    static func pbfUnreadable(_ path: String, _ reason: String) -> GeoFareError {
        GeoFareError(code: .pbfUnreadable, message: "cannot read \(path): \(reason)", field: path)
    }

    /// A PBF file with no blob (`pbf_truncated`, field `blob[0]@0`).
    static func emptyPBF() -> GeoFareError {
        GeoFareError(code: .pbfTruncated, message: "empty file: no OSMHeader blob", field: "blob[0]@0")
    }

    /// A blob compressed with `name` (lzma, bzip2, ...), which we do not inflate
    /// (`pbf_unsupported`); `recompress` says how to convert the file.
    static func unsupportedCompression(_ name: String, recompress: String?) -> GeoFareError {
        GeoFareError(code: .pbfUnsupported, message: "\(name)-compressed blobs are not supported" + (recompress.map { " (recompress with \($0))" } ?? ""))
    }

    /// A required feature of the file's header this reader does not implement (`pbf_unsupported`).
    static func unsupportedFeature(_ feature: String) -> GeoFareError {
        GeoFareError(code: .pbfUnsupported, message: "the file requires the feature '\(feature.prefix(60))', which this reader does not implement")
    }

    // MARK: Road profiles

    static func invalidProfile(_ message: String, field: String?) -> GeoFareError {
        GeoFareError(code: .invalidProfile, message: message, field: field)
    }

    /// No road profile file for `id` at `path` (`profile_not_found`, field `profile`).
    static func profileNotFound(_ id: String, path: String) -> GeoFareError {
        GeoFareError(code: .profileNotFound, message: "no road profile '\(id)' (\(path))", field: "profile")
    }

    /// The same error located at blob `index` whose header starts at byte `offset` of the file.
    func located(blob index: Int, offset: Int) -> GeoFareError {
        var copy = self
        copy.field = "blob[\(index)]@\(offset)"
        copy.message = "\(message) (blob \(index) at byte \(offset))"
        return copy
    }
}
