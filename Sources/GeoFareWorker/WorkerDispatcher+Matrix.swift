import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import GeoFareText

/// `matrix`: every source to every target, as the route of each pair.
extension WorkerDispatcher {
    /// `matrix`: distances and durations from every source to every target (see
    /// ``GraphRouteEstimator/matrix(_:)``), at most ``MatrixRequest/maxCells`` cells.
    func matrix(_ f: RequestFields) throws -> JSONValue {
        let sourceList = try f.array("sources", maxCount: MatrixRequest.maxCells)
        let targetList = try f.array("targets", maxCount: MatrixRequest.maxCells)
        guard sourceList.count * targetList.count <= MatrixRequest.maxCells else {
            throw GeoFareError.matrixTooLarge(sources: sourceList.count, targets: targetList.count, max: MatrixRequest.maxCells)
        }
        let sources = try sourceList.enumerated().map { i, v throws(GeoFareError) in try FareCall.stop(v, path: "sources[\(i)]") }
        let targets = try targetList.enumerated().map { j, v throws(GeoFareError) in try FareCall.stop(v, path: "targets[\(j)]") }
        var r = MatrixRequest(sources: sources.map(\.point), targets: targets.map(\.point), departure: try f.time("depart_at") ?? Date())
        r.sourceApproaches = sources.map(\.approach)
        r.targetApproaches = targets.map(\.approach)
        let options = try FareCall.routeOptions(metric: try f.optionalString("metric"), noRoad: try f.optionalString("no_road"))
        if let metric = options.metric { r.metric = metric }
        if let fallback = options.fallbackWhenNoRoad { r.fallbackWhenNoRoad = fallback }
        let matrix = try pricer.estimator.matrix(r)
        return JSONValue.raw(capacity: 64 + matrix.distanceMeters.count * targets.count * 24) { RouteJSON.write(matrix, into: &$0) }
    }
}
