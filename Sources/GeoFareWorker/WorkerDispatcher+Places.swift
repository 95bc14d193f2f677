import GeoFareCore
import GeoFareFare
import GeoFarePlaces
import GeoFareText

/// `places.search` and `places.reverse`, on the loaded ``PlacesIndex``.
extension WorkerDispatcher {
    /// The loaded places index, or `places_not_loaded`.
    func placesIndex() throws(GeoFareError) -> PlacesIndex {
        guard let places else {
            throw GeoFareError.placesNotLoaded()
        }
        return places
    }

    /// `places.search`: `q`, `near` (optional), `limit` (1–100, default 10).
    func placesSearch(_ f: RequestFields) throws -> JSONValue {
        let index = try placesIndex()
        let q = try f.string("q")
        let near = f.has("near") ? try f.coordinate("near") : nil
        let limit = try f.optionalInt("limit", range: 1...Int64(PlacesIndex.maxLimit)) ?? 10
        let found = try index.find(q, near: near, limit: Int(limit))
        return PlacesJSON.search(found.matches, ignoredWords: found.ignoredWords)
    }

    /// `places.reverse`: `at`, `radius_m` (default 200, at most 5,000).
    func placesReverse(_ f: RequestFields) throws -> JSONValue {
        let index = try placesIndex()
        let at = try f.coordinate("at")
        let radius = try f.optionalDouble("radius_m") ?? 200
        let result = try index.reverse(at, radiusMeters: radius)
        return PlacesJSON.reverse(result, area: PlaceArea(of: at, in: pricer.catalog.zones))
    }
}
