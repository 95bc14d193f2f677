import GeoFareCore
import GeoFareProj
import GeoFareText

/// `distance`: the geodesic between two points.
extension WorkerDispatcher {
    func distance(_ f: RequestFields) throws -> JSONValue {
        let r = Geodesic.wgs84.inverse(try f.coordinate("from"), try f.coordinate("to"))
        return .object(["distance_m": .double(r.distanceMeters), "initial_azimuth_deg": .double(r.initialAzimuthDegrees), "final_azimuth_deg": .double(r.finalAzimuthDegrees)])
    }
}
