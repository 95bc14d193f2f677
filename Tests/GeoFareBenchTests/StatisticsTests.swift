import Testing
@testable import GeoFareBench

/// The one statistics helper every benchmark reports through.
struct StatisticsTests {
    @Test("Median of odd and even counts, order-independent; NaN for none")
    func median() {
        #expect(Statistics.median([3, 1, 2]) == 2)
        #expect(Statistics.median([4, 1, 3, 2]) == 2.5)
        #expect(Statistics.median([7]) == 7)
        #expect(Statistics.median([]).isNaN)
    }

    @Test("Percentiles by nearest rank: the smallest sample with at least q of the samples at or below it")
    func percentile() {
        let hundred = (1...100).map(Double.init).shuffled()
        #expect(Statistics.percentile(hundred, 0.5) == 50)
        #expect(Statistics.percentile(hundred, 0.99) == 99)
        #expect(Statistics.percentile(hundred, 1) == 100)
        #expect(Statistics.percentile(hundred, 0) == 1)
        #expect(Statistics.percentile([5, 1, 9, 3], 0.5) == 3)
        #expect(Statistics.percentile([5, 1, 9, 3], 0.75) == 5)
        #expect(Statistics.percentile([2], 0.99) == 2)
        #expect(Statistics.percentile([], 0.5).isNaN)
    }

    @Test("Rounds: the median is the figure, low and high its range, in measured order")
    func rounds() {
        let seconds = Statistics.Rounds([0.5, 0.25, 2, 1, 0.4])
        let rates = seconds.map { 1_000 / $0 }
        #expect(rates.values == [2_000, 4_000, 500, 1_000, 2_500])
        #expect(rates.median == 2_000)
        #expect(rates.low == 500 && rates.high == 4_000)
        #expect(rates.range == [500, 4_000])
        #expect(rates.rangeText { String(Int($0)) } == " (range 500–4000)")
        #expect(Statistics.Rounds([3]).rangeText { "\($0)" } == "")
        #expect(Statistics.Rounds([1.4, 2.6]).range == [1.4, 2.6])
        #expect(Statistics.Rounds([1.4, 2.6, 2.2]).rounded().values == [1, 3, 2])
    }
}
