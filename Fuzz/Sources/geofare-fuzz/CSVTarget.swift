import Foundation
import GeoFareBatch
import GeoFareCore
import GeoFareFare
import GeoFareText

/// `fare-csv`: the input is a `geofare fare-csv` file, priced by ``FareCSVJob`` through the block
/// stream in small blocks on one lane and on two lanes (and once in one big block): the same
/// output bytes and the same counts every way, or the same typed error.
enum CSVTarget {
    nonisolated(unsafe) static var jobs: [FareCSVJob] = []

    static let target = FuzzTarget(name: "fare-csv", summary: "fare-csv input through the block stream: 1 lane = 2 lanes = one block",
                                   setUp: setUp, run: run)

    static func setUp() {
        do {
            let pricer = SeedCity.pricer
            for (threads, block) in [(1, 96), (2, 96), (1, 1 << 20)] {
                var o = FareCSVJob.Options()
                o.threads = threads
                o.blockBytes = block
                jobs.append(FareCSVJob(pricer: pricer, options: o))
            }
        } catch { fatalError("geofare-fuzz fare-csv: \(error)") }
    }

    static func run(_ input: UnsafeRawBufferPointer) {
        let path = SeedCity.scratch + "/input.csv"
        write(input, to: path)
        var outcomes: [String] = []
        var outputs: [[UInt8]] = []
        for job in jobs {
            var out: [UInt8] = []
            do {
                let source = try ByteSource(path: path, chunkSize: 256)
                let summary = try job.run(source: source, write: { out.append(contentsOf: $0) })
                check(summary.failed <= summary.rows, "\(summary.failed) failed of \(summary.rows) rows")
                outcomes.append("rows \(summary.rows), failed \(summary.failed)")
            } catch let error as GeoFareError {
                outcomes.append("error \(error.code.rawValue): \(error.message)")
            } catch {
                check(false, "an error that is not a GeoFareError: \(type(of: error)) \(error)")
            }
            outputs.append(out)
        }
        for k in 1..<jobs.count {
            check(outcomes[k] == outcomes[0], "outcome of run \(k): \(outcomes[k]); of run 0: \(outcomes[0])")
            check(outputs[k] == outputs[0], "output of run \(k) differs from run 0's:\n\(String(decoding: outputs[k], as: UTF8.self))\n---\n\(String(decoding: outputs[0], as: UTF8.self))")
        }
    }
}
