import GeoFareCore
import Testing

/// The map projection clusters are gridded in.
struct WebMercatorTests {
    @Test("Web Mercator world fractions invert")
    func webMercator() {
        for lat in stride(from: -85.0, through: 85.0, by: 5.0) {
            #expect(abs(WebMercator.latitude(unitY: WebMercator.unitY(latitude: lat)) - lat) < 1e-9)
        }
        #expect(WebMercator.unitX(longitude: -180) == 0 && WebMercator.unitX(longitude: 180) == 1)
        #expect(WebMercator.unitY(latitude: 0) == 0.5)
    }
}
