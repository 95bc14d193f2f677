/// The one statistics helper of the benchmarks: medians and percentiles of samples, and the
/// median and range of a figure over `--rounds`.
///
/// Every `geofare bench` figure that comes from rounds is a ``Rounds`` (the median is the
/// figure, the range is how far the rounds spread on this machine); every latency percentile
/// is ``percentile(_:_:)`` of the samples.
public enum Statistics {
    /// The median of `values` (the mean of the two middle values for an even count); NaN for none.
    /// - Complexity: O(n log n).
    public static func median(_ values: [Double]) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    /// The `q` quantile (0...1) of `values` by nearest rank: the smallest sample with at least
    /// `q` of the samples at or below it. NaN for none.
    /// - Complexity: O(n log n).
    public static func percentile(_ values: [Double], _ q: Double) -> Double {
        let s = values.sorted()
        guard !s.isEmpty else { return .nan }
        return s[min(s.count - 1, max(0, Int((q * Double(s.count)).rounded(.up)) - 1))]
    }

    /// One figure measured once per round: its median (the figure reported) and its range.
    public struct Rounds: Sendable, Hashable {
        /// The per-round values, in the order measured.
        public let values: [Double]
        /// The median over rounds.
        public var median: Double { Statistics.median(values) }
        /// The smallest round's value (NaN for none).
        public var low: Double { values.min() ?? .nan }
        /// The largest round's value (NaN for none).
        public var high: Double { values.max() ?? .nan }

        public init(_ values: [Double]) {
            self.values = values
        }

        /// The values transformed round by round (seconds into a rate, for example).
        public func map(_ transform: (Double) -> Double) -> Rounds {
            Rounds(values.map(transform))
        }

        /// Every round's value rounded to a whole unit (rates, so that a report's median and
        /// range are whole numbers and the median lies inside the range).
        public func rounded() -> Rounds {
            map { $0.rounded() }
        }

        /// `[low, high]`, for the `ranges` object of a benchmark's JSON report.
        public var range: [Double] { [low, high] }

        /// `" (range low–high)"` with the values as `format` writes them; empty for one round.
        public func rangeText(_ format: (Double) -> String) -> String {
            values.count > 1 ? " (range \(format(low))–\(format(high)))" : ""
        }
    }
}
