import GeoFareText

extension JSONValue {
    /// A result written by `body` into a fresh buffer, as raw JSON.
    static func raw(capacity: Int, _ body: (inout ByteWriter) -> Void) -> JSONValue {
        var w = ByteWriter(capacity: capacity)
        defer { w.deallocate() }
        body(&w)
        return .raw(Array(w.bytes))
    }
}
