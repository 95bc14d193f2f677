import ArgumentParser
import Foundation
import GeoFareCLI
import GeoFareCore
import GeoFareFare
import GeoFareText

/// `geofare split`: divides an amount among riders.
struct SplitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "split",
        abstract: "Split an amount (minor units) among riders; shares always sum to the total.",
        discussion: """
        equal: --party N. proportional: --weights with each rider's solo fare. shapley: --weights
        with the meter reading when each rider gets off (riders from one pickup, no detour).
        Example: geofare split --total 20900 --method shapley --weights 7900,14000,20900 --unit 10
        """
    )

    @Option(help: "The amount to split, in minor units.") var total: Int64
    @Option(help: "Riders (equal split).") var party: Int?
    @Option(help: "equal, proportional or shapley.") var method: SplitMethod = .equal
    @Option(help: "Comma-separated weights: solo fares (proportional) or meter at drop-off (shapley).") var weights: String?
    @Option(help: "Round shares to this many minor units.") var unit: Int64 = 100
    @Flag(help: "Print JSON.") var json = false

    struct Output: Encodable { let total: Int64; let method: String; let unit: Int64; let shares: [Int64] }

    func run() throws {
        try reportingErrors {
            let shares: [Int64]
            switch method {
            case .equal:
                let n = party ?? weights.map { $0.split(separator: ",").count } ?? 0
                guard (1...20).contains(n) else { throw GeoFareError.outOfRange("party", Double(n), 1...20, code: .invalidPartySize) }
                shares = try FareSplit.equal(total: total, riders: n, unit: unit)
            case .proportional, .shapley:
                guard let weights else { throw GeoFareError.weightsRequired(method.rawValue) }
                let list = try weights.split(separator: ",").enumerated().map { i, w throws(GeoFareError) -> Int64 in
                    guard let v = Int64(w.trimmingCharacters(in: .whitespaces)) else {
                        throw .notAnInteger(String(w), field: "weights[\(i)]")
                    }
                    return v
                }
                guard (1...20).contains(list.count) else { throw GeoFareError.outOfRange("weights", Double(list.count), 1...20, code: .invalidPartySize) }
                shares = method == .proportional
                    ? try FareSplit.proportional(total: total, soloFares: list, unit: unit)
                    : try FareSplit.shapleyOrderedDropoffs(total: total, meterAtDropoff: list, unit: unit)
            }
            if json { print(try jsonLine(Output(total: total, method: method.rawValue, unit: unit, shares: shares))) } else {
                print(shares.map(String.init).joined(separator: " "))
            }
        }
    }
}
