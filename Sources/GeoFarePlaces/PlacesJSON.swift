import GeoFareCore
import GeoFareText

/// The wire shapes of `places.search` and `places.reverse` (keys sorted), used by the worker and
/// by `geofare places search|reverse --json`.
public enum PlacesJSON {
    /// One place: `name`, `kind`, `lat`, `lon`, `osm_id`, `names` (every name tag; a merged street's
    /// several values of one tag joined with `;`, as OSM writes them), `address`
    /// (`addr:*` parts without the prefix, only when tagged).
    public static func place(_ p: Place) -> JSONValue {
        var o: [String: JSONValue] = [
            "name": .string(p.name), "kind": .string(p.kind.description),
            "lat": .double(p.coordinate.latitude), "lon": .double(p.coordinate.longitude), "osm_id": .string(p.osmID),
            "names": .object(Dictionary(p.names.map { ($0.key, $0.value) }, uniquingKeysWith: { a, b in a + ";" + b }).mapValues { JSONValue.string($0) }),
        ]
        if !p.address.isEmpty {
            o["address"] = .object(Dictionary(p.address.map { ($0.key, JSONValue.string($0.value)) }, uniquingKeysWith: { a, _ in a }))
        }
        if let line = p.addressLine { o["address_line"] = .string(line) }
        return .object(o)
    }

    /// A search result list: `results` `[{...place, match, matched_name, matched_form, distance_m?}]`;
    /// a `category` match adds `category` (its id); an `intersection` is the first street with
    /// `kind` `intersection`, `name` `A & B`, the junction's `lat`/`lon` and `streets` (both places).
    /// With `ignoredWords` (the words around the place a search left out: ``PlacesIndex/find(_:near:limit:typos:)``),
    /// `ignored_words` beside `results`; without, the object has `results` alone.
    public static func search(_ matches: [PlaceMatch], ignoredWords: [String] = []) -> JSONValue {
        var o: [String: JSONValue] = ["results": results(matches)]
        if !ignoredWords.isEmpty { o["ignored_words"] = .array(ignoredWords.map(JSONValue.string)) }
        return .object(o)
    }

    static func results(_ matches: [PlaceMatch]) -> JSONValue {
        .array(matches.map { m in
            guard case var .object(o) = place(m.place) else { return .null }
            if let j = m.junction {
                o["streets"] = .array([place(m.place), place(j.street)])
                o["name"] = .string("\(m.place.name) & \(j.street.name)")
                o["kind"] = .string("intersection")
                o["lat"] = .double(j.coordinate.latitude)
                o["lon"] = .double(j.coordinate.longitude)
            }
            if let c = m.category { o["category"] = .string(c) }
            o["match"] = .string(m.quality.description)
            o["matched_name"] = .string(m.matchedName)
            o["matched_form"] = .string(m.matchedForm)
            if let d = m.distanceMeters { o["distance_m"] = .double((d * 10).rounded() / 10) }
            return .object(o)
        })
    }

    /// A reverse result: `place`, `street` and `address` (the addressed building under the point
    /// or the nearest house number within 30 m; each with `distance_m`, or `null` when none) and
    /// `area` `{region, city}` (each `{id, name}` or `null`).
    public static func reverse(_ r: ReverseResult, area: PlaceArea?) -> JSONValue {
        func located(_ x: (place: Place, distanceMeters: Double)?) -> JSONValue {
            guard let x, case var .object(o) = place(x.place) else { return .null }
            o["distance_m"] = .double((x.distanceMeters * 10).rounded() / 10)
            return .object(o)
        }
        func zone(_ z: ZoneSet.Zone?) -> JSONValue {
            z.map { .object(["id": .string($0.id), "name": .string($0.name)]) } ?? .null
        }
        return .object(["place": located(r.place), "street": located(r.street), "address": located(r.address),
                        "area": .object(["region": zone(area?.region), "city": zone(area?.city)])])
    }
}
