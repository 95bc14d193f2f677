import GeoFareCore
import GeoFareProj
import GeoFareText

/// `transform`: points between coordinate systems through PROJ.
extension WorkerDispatcher {
    func transform(_ f: RequestFields) throws -> JSONValue {
        let from = try f.string("from"), to = try f.string("to")
        let list = try f.array("points", maxCount: 100_000)
        var points: [XYPoint] = []
        points.reserveCapacity(list.count)
        for (i, p) in list.enumerated() {
            guard let pair = p.array, pair.count == 2, let x = pair[0].double, let y = pair[1].double else {
                throw GeoFareError.pointNotPair(i)
            }
            points.append(XYPoint(x: x, y: y))
        }
        let transformer = try CoordinateTransformer(from: from, to: to)
        let failures = points.withUnsafeMutableBufferPointer { transformer.transformInPlace($0) }
        if failures.count == points.count, let first = failures.first { throw first.error }
        var failed = Set<Int>()
        for fail in failures { failed.insert(fail.index) }
        return .object([
            "points": .array(points.indices.map { i in failed.contains(i) ? .null : .array([.double(points[i].x), .double(points[i].y)]) }),
            "failures": .array(failures.map { .object(["index": .int(Int64($0.index)), "code": .string($0.error.code.rawValue), "message": .string($0.error.message), "field": .string($0.error.field ?? "")]) }),
            "from": .string(transformer.source.name), "to": .string(transformer.target.name),
        ])
    }
}
