import GeoFareCore
import GeoFareFare
import GeoFareText

/// `split`: a total shared among riders in whole units.
extension WorkerDispatcher {
    func split(_ f: RequestFields) throws -> JSONValue {
        let total = try f.int("total", range: 0...Int64(1e15))
        let unit = try f.optionalInt("unit", range: 1...1_000_000) ?? 1
        let method = try f.optionalString("method") ?? "equal"
        let shares: [Int64]
        switch method {
        case "equal":
            let n = try f.int("party_size", range: 1...20)
            shares = try FareSplit.equal(total: total, riders: Int(n), unit: unit)
        case "proportional", "shapley":
            let weights = try f.array("weights", maxCount: 20).enumerated().map { i, v throws(GeoFareError) -> Int64 in
                guard let w = v.int64, w >= 0 else { throw .invalidWeight(i) }
                return w
            }
            guard !weights.isEmpty else { throw GeoFareError.noWeights() }
            shares = method == "proportional"
                ? try FareSplit.proportional(total: total, soloFares: weights, unit: unit)
                : try FareSplit.shapleyOrderedDropoffs(total: total, meterAtDropoff: weights, unit: unit)
        default:
            throw GeoFareError.notOneOf("method", "equal, proportional or shapley", got: method)
        }
        return .object(["shares": .array(shares.map(JSONValue.int)), "total": .int(total), "unit": .int(unit), "method": .string(method)])
    }
}
