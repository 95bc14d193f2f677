import GeoFareCore

/// An error of the road-graph module: a PBF file that is truncated, corrupt or uses a feature
/// we do not read, or a road profile that does not validate.
///
/// `field` names where: `blob[12]@345678` (blob index and byte offset of its header in the file)
/// for PBF errors, the JSON path (`roadClasses[3].speedKmh`) for profile errors.
public struct GraphError: CodedError, Hashable {
    public var code: String
    public var message: String
    public var field: String?

    public init(code: String, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// The file ends inside a blob header or a blob.
    public static let pbfTruncated = "pbf_truncated"
    /// The bytes do not decode as the PBF format says (bad varint, length out of range, inflate failure, ...).
    public static let pbfCorrupt = "pbf_corrupt"
    /// A valid file that needs a feature we do not implement (lzma/zstd blobs, history files, ...).
    public static let pbfUnsupported = "pbf_unsupported"
    /// The file cannot be opened or read.
    public static let pbfUnreadable = "pbf_unreadable"
    /// A road profile that is not valid JSON or fails validation.
    public static let invalidProfile = "invalid_profile"
    /// No profile of the requested id in the data catalog.
    public static let profileNotFound = "profile_not_found"

    static func corrupt(_ message: String) -> GraphError {
        GraphError(code: pbfCorrupt, message: message)
    }

    static func invalidProfile(_ message: String, field: String?) -> GraphError {
        GraphError(code: invalidProfile, message: message, field: field)
    }

    /// The same error located at blob `index` whose header starts at byte `offset` of the file.
    func located(blob index: Int, offset: Int) -> GraphError {
        var copy = self
        copy.field = "blob[\(index)]@\(offset)"
        copy.message = "\(message) (blob \(index) at byte \(offset))"
        return copy
    }
}
