import Testing
import GeoFareCore

struct CoordinateTests {
    @Test("Valid coordinates are kept as given")
    func valid() throws {
        let c = try Coordinate(latitude: 37.5665, longitude: 126.978)
        #expect(c.latitude == 37.5665 && c.longitude == 126.978)
        #expect(try Coordinate(latitude: -90, longitude: 180).latitude == -90)
    }

    @Test("Invalid coordinates say which field and what value", arguments: [
        (Double.nan, 0.0, "not_finite", "lat"), (0.0, Double.infinity, "not_finite", "lon"),
        (90.0001, 0.0, "latitude_out_of_range", "lat"), (0.0, -180.5, "longitude_out_of_range", "lon"),
    ])
    func invalid(lat: Double, lon: Double, code: String, field: String) {
        do {
            _ = try Coordinate(latitude: lat, longitude: lon)
            Issue.record("accepted \(lat),\(lon)")
        } catch {
            #expect(error.code.rawValue == code)
            #expect(error.field == field)
        }
    }

    @Test("LAT,LON text parses, and its errors are prefixed with the field")
    func text() throws {
        let c = try Coordinate(latLonText: " 37.5665 , 126.978", field: "from")
        #expect(c.longitude == 126.978)
        let outOfRange = #expect(throws: GeoFareError.self) { try Coordinate(latLonText: "97,1", field: "from") }
        #expect(outOfRange?.field == "from.lat" && outOfRange?.code == .latitudeOutOfRange)
        let garbage = #expect(throws: GeoFareError.self) { try Coordinate(latLonText: "abc", field: "to") }
        #expect(garbage?.code == .invalidCoordinate && garbage?.field == "to")
    }

    @Test("Bounding boxes validate and handle the antimeridian")
    func bbox() throws {
        let wrap = try BoundingBox(west: 170, south: -10, east: -170, north: 10)
        #expect(wrap.crossesAntimeridian)
        #expect(wrap.contains(try Coordinate(latitude: 0, longitude: 179)))
        #expect(wrap.contains(try Coordinate(latitude: 0, longitude: -175)))
        #expect(!wrap.contains(try Coordinate(latitude: 0, longitude: 0)))
        #expect(throws: GeoFareError.self) { try BoundingBox(west: 0, south: 10, east: 1, north: 5) }
        #expect(throws: GeoFareError.self) { try BoundingBox(west: 0, south: 0, east: 1, north: .nan) }
    }

    @Test("Money is formatted with the currency's minor unit")
    func money() {
        #expect(MinorUnits.format(14_200, currency: "KRW") == "14,200")
        #expect(MinorUnits.format(1_234_567, currency: "KRW") == "1,234,567")
        #expect(MinorUnits.format(1_250, currency: "USD") == "12.50")
        #expect(MinorUnits.format(-5, currency: "USD") == "-0.05")
        #expect(MinorUnits.text(800, currency: "USD") == "$8.00" && MinorUnits.text(-5, currency: "USD") == "-$0.05")
        #expect(MinorUnits.text(8_000, currency: "KRW") == "8,000 KRW")
    }
}
