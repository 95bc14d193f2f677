import Testing
import GeoFareCore
@testable import GeoFareProj

struct TransformErrorTests {
    @Test("Unknown CRS names are rejected with the name and the side", arguments: ["nope", "EPSG:999999", "", "+proj=nonsense", "+proj=merc +type=crs_not"])
    func unknownCRS(name: String) {
        #expect {
            _ = try CoordinateTransformer(from: "wgs84", to: name)
        } throws: { error in
            guard let e = error as? GeoFareError else { return false }
            return e.code == .unknownCrs && e.field == "to"
        }
    }

    @Test("The source side is named too")
    func unknownSource() {
        #expect(throws: GeoFareError.self) { try CoordinateTransformer(from: "bessel-nowhere", to: "wgs84") }
        do { _ = try CoordinateTransformer(from: "bessel-nowhere", to: "wgs84") } catch { #expect(error.field == "from") }
    }

    @Test("NaN, infinity and out-of-range latitudes fail with the point's index, the rest convert")
    func invalidPoints() throws {
        let t = try CoordinateTransformer(from: "wgs84", to: "utmk")
        var points = [XYPoint(x: 126.978, y: 37.5665), XYPoint(x: .nan, y: 37), XYPoint(x: 127, y: 91),
                      XYPoint(x: 127, y: .infinity), XYPoint(x: 181, y: 37), XYPoint(x: 127.0, y: 37.0)]
        let failures = points.withUnsafeMutableBufferPointer { t.transformInPlace($0) }
        #expect(failures.map(\.index) == [1, 2, 3, 4])
        #expect(failures.map(\.error.code.rawValue) == ["not_finite", "latitude_out_of_range", "not_finite", "longitude_out_of_range"])
        #expect(failures[0].error.field == "points[1].x")
        #expect(failures[1].error.field == "points[2].y")
        #expect(failures[1].error.message.contains("91"))
        #expect(abs(points[0].x - 953901.165) < 0.001)
        #expect(points[5].x.isFinite && points[5].y.isFinite)
        #expect(throws: GeoFareError.self) { try t.transform(XYPoint(x: 127, y: -90.5)) }
    }

    @Test("A point PROJ cannot convert is reported as transform_failed, not returned as infinity")
    func unconvertible() throws {
        let t = try CoordinateTransformer(from: "utmk", to: "wgs84")
        var points = [XYPoint(x: 953901.165, y: 1952032.081), XYPoint(x: 1e12, y: 1e12)]
        let failures = points.withUnsafeMutableBufferPointer { t.transformInPlace($0) }
        #expect(failures.map(\.index) == [1])
        #expect(failures.first?.error.code == .transformFailed)
        #expect(failures.first?.error.field == "points[1]")
        #expect(failures.first?.error.message.contains("utmk") == true)
        #expect(abs(points[0].x - 126.978) < 1e-8)
        #expect(throws: GeoFareError.self) { try t.transform(XYPoint(x: 1e12, y: 1e12)) }
        // Projected input is not range-checked as degrees, but must be finite.
        let back = try CoordinateTransformer(from: "utmk", to: "wgs84")
        #expect(throws: GeoFareError.self) { try back.transform(XYPoint(x: .nan, y: 1_952_032)) }
    }

    @Test("PROJ's log never reaches stdout: failures are captured into the error message")
    func logIsCaptured() {
        let error = #expect(throws: GeoFareError.self) { try CoordinateTransformer(from: "wgs84", to: "EPSG:999999") }
        // "proj_create: crs not found" is what PROJ logs; without the captured log the message
        // would end at the name (or carry only the context's generic error text).
        #expect(error?.message.contains("proj_create: crs not found") == true, "\(String(describing: error))")
    }
}
