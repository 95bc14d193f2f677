import GeoFareCore

/// What building a road graph throws besides what it reads (`GeoFareOSM`'s PBF and profile
/// errors): `graph_invalid_network` (through GeoFareGraph's ``GeoFareError/invalidNetwork(_:_:)``:
/// a network without a hierarchy, a shortcut too heavy for 32 bits) and `graph_io` (the file
/// cannot be encoded or written).
extension GeoFareError {
    /// The graph file's metadata cannot be encoded as JSON (`graph_io`, field `metadata`).
    static func metadataNotEncodable() -> GeoFareError {
        GeoFareError(code: .graphIo, message: "could not encode the metadata", field: "metadata")
    }
}
