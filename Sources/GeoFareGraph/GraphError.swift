import GeoFareCore

/// An error of the road graph: a graph file that cannot be read, a network that cannot be
/// contracted, or a point that cannot be snapped onto a road.
///
/// Codes are ``ErrorCode`` cases; `field` names the offending input when one applies
/// (`from`, `to`, a file path, a section name).
public struct GraphError: CodedError, Hashable {
    public var code: String
    public var message: String
    public var field: String?

    public init(code: String, message: String, field: String?) {
        self.code = code
        self.message = message
        self.field = field
    }

    /// An error with one of ``ErrorCode``'s codes.
    public init(code: ErrorCode, message: String, field: String?) {
        self.init(code: code.rawValue, message: message, field: field)
    }
}
