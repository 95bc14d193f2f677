import GeoFareCore

/// An error of the road graph: a PBF file that is truncated, corrupt or uses a feature we do not
/// read, a road profile that does not validate, a graph file that cannot be read, a network that
/// cannot be contracted, or a point that cannot be snapped onto a road.
///
/// Codes are ``ErrorCode`` cases. `field` names where: `blob[12]@345678` (blob index and byte
/// offset of its header) for PBF errors, the JSON path for profile errors, `from`/`to`, a file
/// path or a section name for the rest.
public struct GraphError: CodedError, Hashable {
    public var code: String
    public var message: String
    public var field: String?

    public init(code: String, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// An error with one of ``ErrorCode``'s codes.
    public init(code: ErrorCode, message: String, field: String? = nil) {
        self.init(code: code.rawValue, message: message, field: field)
    }

    /// The file ends inside a blob header or a blob.
    public static let pbfTruncated = ErrorCode.pbfTruncated.rawValue
    /// The bytes do not decode as the PBF format says (bad varint, length out of range, inflate failure, ...).
    public static let pbfCorrupt = ErrorCode.pbfCorrupt.rawValue
    /// A valid file that needs a feature we do not implement (lzma/zstd blobs, history files, ...).
    public static let pbfUnsupported = ErrorCode.pbfUnsupported.rawValue
    /// The file cannot be opened or read.
    public static let pbfUnreadable = ErrorCode.pbfUnreadable.rawValue
    /// A road profile that is not valid JSON or fails validation.
    public static let invalidProfile = ErrorCode.invalidProfile.rawValue
    /// No profile of the requested id in the data catalog.
    public static let profileNotFound = ErrorCode.profileNotFound.rawValue

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
