import GeoFareCore
/// How a shared fare is divided among riders.
public enum SplitMethod: String, Sendable, Codable, CaseIterable {
    /// Everyone pays the same, to the split unit; the riders listed first pay any extra unit.
    case equal
    /// In proportion to the fare each rider would have paid alone.
    case proportional
    /// Shapley value: each leg's meter increment is shared equally by the riders aboard.
    case shapley
}

/// Divides integer amounts among riders so the shares always sum exactly to the total.
///
/// Every method computes exact rational entitlements (weights), then allocates with the
/// largest-remainder method to a unit (e.g. 10 or 100 KRW): each share is first floored to the
/// unit, then the units left over go one each to the largest remainders. Ties go to the rider
/// listed first, so results are deterministic. If the total is not a multiple of the unit, the
/// last part smaller than a unit goes to the rider first in that same order.
public enum FareSplit {
    /// Splits `total` among riders in proportion to non-negative `weights`.
    /// - Throws: ``GeoFareError`` `invalid_split` when there are no riders, a weight is negative, or
    ///   the unit is not positive. All-zero weights split equally.
    /// - Complexity: O(n log n); exact (128-bit integer arithmetic).
    public static func allocate(total: Int64, weights: [Int64], unit: Int64) throws(GeoFareError) -> [Int64] {
        guard !weights.isEmpty else { throw .noRidersToSplit() }
        guard unit > 0 else { throw .splitUnitNotPositive(unit) }
        guard total >= 0 else { throw .negativeSplitTotal(total) }
        guard weights.allSatisfy({ $0 >= 0 }) else { throw .negativeSplitWeight() }
        if weights.allSatisfy({ $0 == weights[0] }) { return equalShares(total: total, riders: weights.count, unit: unit) }
        let w = weights.allSatisfy({ $0 == 0 }) ? Array(repeating: Int64(1), count: weights.count) : weights
        let sum = w.reduce(Int128(0)) { $0 + Int128($1) }
        let t = Int128(total), u = Int128(unit)
        var shares = [Int64](repeating: 0, count: w.count)
        var assigned: Int128 = 0
        // Scratch space for the exact remainders, on the stack: no [Int128] array (whose generic
        // metadata Swift would look up at run time on every call).
        return withUnsafeTemporaryAllocation(of: Int128.self, capacity: w.count) { remainders in
            for i in w.indices {
                // quota = total·wᵢ/Σw; share = ⌊quota/unit⌋·unit; remainder kept as an exact numerator over Σw.
                let numerator = t * Int128(w[i])
                let units = numerator / (u * sum)
                shares[i] = Int64(units * u)
                remainders[i] = numerator - units * u * sum
                assigned += units * u
            }
            var left = t - assigned
            let order = w.indices.sorted { remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1 }
            var k = 0
            while left >= u {
                shares[order[k % order.count]] += unit
                left -= u
                k += 1
            }
            if left > 0 { shares[order[k % order.count]] += Int64(left) }
            return shares
        }
    }

    /// Equal weights in closed form: every remainder ties, so the extra units go to the first
    /// riders and a last part smaller than a unit to the rider after them — exactly what the
    /// general method gives.
    static func equalShares(total: Int64, riders n: Int, unit: Int64) -> [Int64] {
        let shares = EqualShares(total: total, riders: n, unit: unit)
        return (0..<n).map { shares[$0] }
    }

    /// ``equal(total:riders:unit:)``'s shares without building the array: everyone pays
    /// ⌊total/(n·unit)⌋·unit, the first riders one unit more each, and the rider after them the
    /// last part smaller than a unit. The division is done once; each share is read by index.
    /// The caller checks the inputs.
    public struct EqualShares {
        public let each: Int64
        public let extraUnits: Int
        public let lastPart: Int64
        public let unit: Int64

        @inlinable
        public init(total: Int64, riders n: Int, unit: Int64) {
            each = total / (Int64(n) * unit) * unit
            let left = total - each * Int64(n)
            extraUnits = Int(left / unit)
            lastPart = left % unit
            self.unit = unit
        }

        /// Rider `i`'s share (0-based).
        @inlinable
        public subscript(_ i: Int) -> Int64 {
            each + (i < extraUnits ? unit : 0) + (i == extraUnits ? lastPart : 0)
        }
    }

    /// Equal shares.
    public static func equal(total: Int64, riders: Int, unit: Int64) throws(GeoFareError) -> [Int64] {
        guard riders >= 1 else { throw .tooFewRiders(riders) }
        guard unit > 0 else { throw .splitUnitNotPositive(unit) }
        guard total >= 0 else { throw .negativeSplitTotal(total) }
        return equalShares(total: total, riders: riders, unit: unit)
    }

    /// Shares in proportion to each rider's solo fare.
    public static func proportional(total: Int64, soloFares: [Int64], unit: Int64) throws(GeoFareError) -> [Int64] {
        try allocate(total: total, weights: soloFares, unit: unit)
    }

    /// Shapley shares for riders who board together and get off one by one along one route
    /// with no detour (Littlechild & Owen 1973): the meter increment of each leg is shared
    /// equally by the riders still aboard.
    /// - Parameter meterAtDropoff: the meter reading when each rider gets off (what they would
    ///   pay riding alone), in the riders' order; need not be sorted.
    public static func shapleyOrderedDropoffs(total: Int64, meterAtDropoff: [Int64], unit: Int64) throws(GeoFareError) -> [Int64] {
        let n = meterAtDropoff.count
        guard n >= 1 else { throw .noRidersToSplit() }
        // Exact weights: scale by lcm(1...n) so every increment/k is an integer.
        var l: Int64 = 1
        for k in 1...Int64(n) { l = l / gcd(l, k) * k }
        let order = meterAtDropoff.indices.sorted { meterAtDropoff[$0] != meterAtDropoff[$1] ? meterAtDropoff[$0] < meterAtDropoff[$1] : $0 < $1 }
        var weights = [Int64](repeating: 0, count: n)
        var previous: Int64 = 0, running: Int64 = 0
        for (position, rider) in order.enumerated() {
            let increment = max(0, meterAtDropoff[rider] - previous)
            running += increment * (l / Int64(n - position))
            weights[rider] = running
            previous = max(previous, meterAtDropoff[rider])
        }
        return try allocate(total: total, weights: weights, unit: unit)
    }

    /// Shapley shares from the cost of every subset of riders (for routes with detours).
    /// - Parameters:
    ///   - riders: 1...12 (the formula visits all 2ⁿ subsets).
    ///   - cost: the fare for serving the riders whose bits are set in the mask (bit i = rider i);
    ///     `cost(0)` should be 0.
    public static func shapley(total: Int64, riders n: Int, unit: Int64, cost: (UInt32) throws(GeoFareError) -> Int64) throws(GeoFareError) -> [Int64] {
        guard (1...12).contains(n) else { throw .tooManyRidersForShapley(n) }
        var costs = [Int64](repeating: 0, count: 1 << n)
        for mask in 1..<(1 << n) { costs[mask] = try cost(UInt32(mask)) }
        // φᵢ·n! = Σ_{S ∌ i} |S|!·(n−|S|−1)!·(c(S∪{i}) − c(S)), all integers.
        var factorial = [Int128](repeating: 1, count: n + 1)
        for k in 1...n { factorial[k] = factorial[k - 1] * Int128(k) }
        var weights = [Int128](repeating: 0, count: n)
        for mask in 0..<(1 << n) {
            let size = mask.nonzeroBitCount
            for i in 0..<n where mask & (1 << i) == 0 {
                weights[i] += factorial[size] * factorial[n - size - 1] * Int128(costs[mask | (1 << i)] - costs[mask])
            }
        }
        // Negative marginal costs (a rider who shortens the route) are clamped to zero weight.
        let maxWeight = weights.max() ?? 1
        let scale = maxWeight > Int128(Int64.max / 4) ? maxWeight / Int128(Int64.max / 4) + 1 : 1
        return try allocate(total: total, weights: weights.map { Int64(max(0, $0) / scale) }, unit: unit)
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }
}
