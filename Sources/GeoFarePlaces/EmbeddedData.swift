import Foundation
import GeoFareData

/// The word lists of `Data/places/` compiled into the binary, decoded once (``StreetText``,
/// ``QueryWords``): a file missing or not its schema is a build defect, not an input error.
enum EmbeddedData {
    static func decode<T: Decodable>(_ path: String, as type: T.Type) -> T {
        guard let bytes = DataCatalog.embeddedFile(path), let value = try? JSONDecoder().decode(T.self, from: bytes) else {
            fatalError("the embedded Data/\(path) is missing or not its schema")
        }
        return value
    }
}
