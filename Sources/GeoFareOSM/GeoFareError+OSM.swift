import GeoFareCore

/// Errors of reading OpenStreetMap: a PBF file that is truncated, corrupt or uses a feature we do
/// not read (`pbf_truncated`, `pbf_corrupt`, `pbf_unsupported`, `pbf_unreadable`), a road profile
/// that does not validate (`invalid_profile`, `profile_not_found`). `field` names where:
/// `blob[12]@345678` (blob index and byte offset of its header) for PBF errors, the JSON path for
/// profile errors. (A graph file that cannot be read, a network that cannot be contracted or a
/// point that cannot be snapped onto a road are `GeoFareGraph`'s and `GeoFareGraphBuild`'s, with
/// the file path, a section name or `from`/`to` as the field; a section file's codes are its
/// ``SectionFileFormat``'s.)
extension GeoFareError {
    static func corrupt(_ message: String) -> GeoFareError {
        GeoFareError(code: .pbfCorrupt, message: message)
    }

    static func invalidProfile(_ message: String, field: String?) -> GeoFareError {
        GeoFareError(code: .invalidProfile, message: message, field: field)
    }

    /// The same error located at blob `index` whose header starts at byte `offset` of the file.
    func located(blob index: Int, offset: Int) -> GeoFareError {
        var copy = self
        copy.field = "blob[\(index)]@\(offset)"
        copy.message = "\(message) (blob \(index) at byte \(offset))"
        return copy
    }
}
