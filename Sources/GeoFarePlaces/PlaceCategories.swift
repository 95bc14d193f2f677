import Foundation
import GeoFareCore
import GeoFareData

/// The kinds of place riders search for by a word (약국, pharmacy, 편의점, gas station, ...): the
/// rule is data, `Data/places/categories.json` (its README states the sources).
///
/// The index builder gives each place the categories whose tags it carries; a search whose whole
/// query is one of a category's words (compared as ``SearchText`` keys) answers that category's
/// places, nearest to `near` first.
public struct PlaceCategories: Sendable {
    /// One category: its stable `id` (stored in an index), the words that name it, its OSM tags.
    public struct Category: Sendable, Hashable, Codable {
        public var id: String
        public var words: [String]
        /// `key=value` pairs; a place with any of them is of the category.
        public var tags: [String]
    }

    public let categories: [Category]
    /// The keys of the words that ask for the nearest (`근처`, `near me`, `nearest`), longest first:
    /// `약국 근처` and `pharmacy near me` name the category of `약국` and `pharmacy`.
    let nearWords: [[UInt8]]
    /// Word key → positions in ``categories``.
    private let byWord: [[UInt8]: [Int]]
    /// Tag key → value → positions in ``categories``.
    private let byTag: [String: [String: [Int]]]

    /// The categories of `Data/places/categories.json` as embedded in the binary.
    public static let embedded: PlaceCategories = {
        do { return try load(DataCatalog.embedded) } catch { fatalError("the embedded Data/places/categories.json: \(error)") }
    }()

    /// The categories file of `catalog` (a `--data` directory's copy wins over the embedded one).
    /// - Throws: ``GeoFareError`` `data_file_missing`, `data_file_unreadable` (not the schema:
    ///   the message says what), with the path as field.
    public static func load(_ catalog: DataCatalog) throws(GeoFareError) -> PlaceCategories {
        let path = "places/categories.json"
        let bytes: Data
        do { bytes = try catalog.file(path).bytes } catch let e as GeoFareError { throw e } catch {
            throw GeoFareError(code: .dataFileUnreadable, message: "\(error)", field: path)
        }
        struct File: Decodable { var categories: [Category]; var near_words: [String]? }
        guard let file = try? JSONDecoder().decode(File.self, from: bytes) else {
            throw GeoFareError(code: .dataFileUnreadable, message: "not a categories file: {categories: [{id, words, tags}]}", field: path)
        }
        for (i, c) in file.categories.enumerated() {
            for t in c.tags where t.split(separator: "=").count != 2 {
                throw GeoFareError(code: .dataFileUnreadable, message: "tag '\(t)' of category '\(c.id)' is not key=value", field: "\(path): categories[\(i)].tags")
            }
        }
        return PlaceCategories(file.categories, nearWords: file.near_words ?? [])
    }

    init(_ categories: [Category], nearWords: [String] = []) {
        self.categories = categories
        self.nearWords = Set(nearWords.map(SearchText.key).filter { !$0.isEmpty }).sorted { $0.count != $1.count ? $0.count > $1.count : $0.lexicographicallyPrecedes($1) }
        var words: [[UInt8]: [Int]] = [:], tags: [String: [String: [Int]]] = [:]
        for (i, c) in categories.enumerated() {
            for w in c.words { let k = SearchText.key(w); if !k.isEmpty, !(words[k]?.contains(i) ?? false) { words[k, default: []].append(i) } }
            for t in c.tags {
                let kv = t.split(separator: "=", maxSplits: 1).map(String.init)
                tags[kv[0], default: [:]][kv[1], default: []].append(i)
            }
        }
        byWord = words
        byTag = tags
    }

    /// The categories (positions in ``categories``) of an element with these tags, ascending.
    /// - Complexity: one dictionary look-up per tag key of the categories (a few).
    func of(tag: (String) -> String?) -> [Int] {
        var out: [Int] = []
        for (key, values) in byTag {
            if let v = tag(key), let cs = values[v] { out += cs }
        }
        return Array(Set(out)).sorted()
    }

    /// The category ids the query names, when its whole key is a category word, or a category
    /// word with a near word before or after it (`약국 근처`, `nearest pharmacy`); else empty.
    public func named(byQueryKey key: [UInt8]) -> [String] {
        if let hit = byWord[key] { return hit.map { categories[$0].id } }
        for w in nearWords where key.count > w.count {
            if key.starts(with: w), let hit = byWord[Array(key.dropFirst(w.count))] { return hit.map { categories[$0].id } }
            if key.suffix(w.count).elementsEqual(w), let hit = byWord[Array(key.dropLast(w.count))] { return hit.map { categories[$0].id } }
        }
        return []
    }
}
