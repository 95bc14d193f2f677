import Testing
import GeoFareCore
@testable import GeoFareFare

struct SplitTests {
    @Test("The worked Shapley and proportional example: drop-offs at 5 / 12 / 20 km")
    func workedExample() throws {
        // Solo fares 7,900 / 14,000 / 20,900; the shared cab pays 20,900.
        #expect(try FareSplit.shapleyOrderedDropoffs(total: 20_900, meterAtDropoff: [7_900, 14_000, 20_900], unit: 10) == [2_640, 5_680, 12_580])
        #expect(try FareSplit.proportional(total: 20_900, soloFares: [7_900, 14_000, 20_900], unit: 10) == [3_860, 6_840, 10_200])
        // The same through the engine: the 20 km trip with 30 s of stops per km, riders leaving at 5, 12 and 20 km.
        var r = FareRequest(trip: .totals(distanceMeters: 20_000, durationSeconds: 3_000), departure: at("2024-05-15T14:00:00+09:00"), tariff: "kr-seoul/regular")
        r.cruiseKmh = 30
        r.partySize = 3
        r.dropoffDistances = [5_000, 12_000, 20_000]
        r.splitUnit = 10
        r.split = .shapley
        #expect(try sharedPricer.quote(r).quote.perPerson == [2_640, 5_680, 12_580])
        r.split = .proportional
        #expect(try sharedPricer.quote(r).quote.perPerson == [3_860, 6_840, 10_200])
    }

    @Test("Equal split: largest remainder, the first riders pay the extra unit")
    func equal() throws {
        #expect(try FareSplit.equal(total: 14_200, riders: 3, unit: 100) == [4_800, 4_700, 4_700])
        #expect(try FareSplit.equal(total: 14_200, riders: 3, unit: 10) == [4_740, 4_730, 4_730])
        #expect(try FareSplit.equal(total: 1_001, riders: 2, unit: 1) == [501, 500])
        // A total that is not a multiple of the unit: the odd part goes to the first rider.
        #expect(try FareSplit.equal(total: 1_050, riders: 2, unit: 100) == [550, 500])
    }

    @Test("Shares always sum to the total", arguments: [1, 10, 100])
    func sumProperty(unit: Int64) throws {
        var rng = SeededGenerator(seed: UInt64(unit))
        for _ in 0..<2_000 {
            let total = Int64.random(in: 0...500_000, using: &rng)
            let n = Int.random(in: 1...8, using: &rng)
            let weights = (0..<n).map { _ in Int64.random(in: 0...100_000, using: &rng) }
            let eq = try FareSplit.equal(total: total, riders: n, unit: unit)
            #expect(eq.reduce(0, +) == total)
            #expect(eq.max()! - eq.min()! <= unit + total % unit)
            #expect(try FareSplit.proportional(total: total, soloFares: weights, unit: unit).reduce(0, +) == total)
            let sh = try FareSplit.shapleyOrderedDropoffs(total: total, meterAtDropoff: weights, unit: unit)
            #expect(sh.reduce(0, +) == total)
            #expect(sh.allSatisfy { $0 >= 0 })
        }
    }

    @Test("The subset Shapley formula agrees with the leg-by-leg one when there is no detour")
    func subsetShapley() throws {
        let solo: [Int64] = [7_900, 14_000, 20_900]
        // With drop-offs in order along one route, serving a subset costs the meter at its farthest drop-off.
        let bySubsets = try FareSplit.shapley(total: 20_900, riders: 3, unit: 10) { mask in
            (0..<3).filter { mask & (1 << $0) != 0 }.map { solo[$0] }.max() ?? 0
        }
        #expect(bySubsets == [2_640, 5_680, 12_580])
        #expect(throws: GeoFareError.self) { try FareSplit.shapley(total: 1, riders: 13, unit: 1) { _ in 0 } }
    }

    @Test("Split errors name the field")
    func errors() {
        let cases: [(code: String, field: String, call: () throws -> [Int64])] = [
            ("invalid_party_size", "party_size", { try FareSplit.equal(total: 100, riders: 0, unit: 10) }),
            ("invalid_split", "split_unit", { try FareSplit.equal(total: 100, riders: 2, unit: 0) }),
            ("invalid_split", "total", { try FareSplit.equal(total: -1, riders: 2, unit: 10) }),
            ("invalid_split", "weights", { try FareSplit.allocate(total: 100, weights: [1, -1], unit: 10) }),
            ("invalid_split", "split_unit", { try FareSplit.allocate(total: 100, weights: [1], unit: 0) }),
            ("invalid_split", "party_size", { try FareSplit.allocate(total: 100, weights: [], unit: 10) }),
        ]
        for c in cases {
            let error = #expect(throws: GeoFareError.self) { try c.call() }
            #expect(error?.code.rawValue == c.code && error?.field == c.field, "\(String(describing: error))")
        }
    }
}
