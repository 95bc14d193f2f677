import GeoFareCore
import GeoFareRoute
import GeoFareText

extension RequestFields {
    /// The optional `approach` of a point object (`{"lat", "lon", "approach"}`): `unrestricted`
    /// (the default) or `curb`.
    /// - Throws: `invalid_value` naming `path.approach` for any other value, `wrong_type` for a non-string.
    static func approach(_ v: JSONValue, path: String) throws(GeoFareError) -> RouteApproach {
        guard let o = v.object else { return .unrestricted }
        let f = RequestFields(o, path: path)
        guard let s = try f.optionalString("approach") else { return .unrestricted }
        guard let a = RouteApproach(rawValue: s) else {
            throw .notOneOf("approach", "unrestricted or curb", got: s, field: f.at("approach"))
        }
        return a
    }
}
