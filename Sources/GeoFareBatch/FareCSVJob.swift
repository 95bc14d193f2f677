import Dispatch
import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareText

/// Prices a CSV file of trips, streaming: constant memory, every core, rows in input order,
/// and never stopping at a bad row.
///
/// Input: RFC 4180 CSV with a header (quoted fields, embedded commas and newlines, CRLF, a
/// UTF-8 BOM). Columns (renamable with ``Options/columnMap``): `origin_lat, origin_lon,
/// dest_lat, dest_lon, depart_at, party_size`, optional `tariff, split, cruise_kmh`, and
/// `distance_m, duration_s` which, when present in a row, price it from them instead of a
/// route estimate. Output: every input column, then ``resultColumns``. A bad row gets its
/// `error` and empty results; the job goes on. Every priced row says in `tariff_basis` whether a
/// source places it on its tariff (`sourced`) or the most likely tariff was assumed (`assumed`,
/// with the `assumption`); with ``Options/strict`` such a row gets the error instead.
public final class FareCSVJob: @unchecked Sendable {
    /// The result columns appended to every row. `tariff_basis` and `assumption` come after
    /// `error` (added later, after the columns consumers already read by position).
    public static let resultColumns = ["distance_m", "duration_s", "meter", "surcharges", "tolls", "total", "low", "high", "currency", "per_person", "tariff", "error", "tariff_basis", "assumption"]

    public struct Options: Sendable {
        /// Logical column → header name in this file (`--map origin_lat=pickup_lat`).
        public var columnMap: [String: String] = [:]
        /// Stop after this many failed rows (`nil`: never).
        public var maxErrors: Int?
        /// Bytes read before a block is split among the threads (memory is a few times this).
        public var blockBytes = 4 << 20
        public var threads = ProcessInfo.processInfo.activeProcessorCount
        /// Refuse rows where no source settles the tariff (``FareRequest/strict``): they get
        /// `unknown_tariff_group`, `no_tariff_version` or `tariff_version_uncertain` in `error`,
        /// instead of an assumed price.
        public var strict = false
        public init() {}
    }

    /// What a run did.
    public struct Summary: Sendable {
        public var rows = 0
        public var failed = 0
        public var seconds = 0.0
        /// True when `maxErrors` stopped the job early.
        public var stoppedEarly = false
        public var rowsPerSecond: Double { seconds > 0 ? Double(rows) / seconds : 0 }
    }

    let pricer: TripPricer
    let options: Options
    /// One pricer per lane (``TripPricer/threadCopy()``), made once per job: lane k of every block
    /// uses the k-th (a block's lanes finish before the next block's start).
    let threadPricers: [TripPricer]

    public init(pricer: TripPricer, options: Options = Options()) {
        self.pricer = pricer
        self.options = options
        threadPricers = (0..<max(1, options.threads * 4)).map { _ in pricer.threadCopy() }
    }

    /// Runs the job from `source` to `write`.
    /// - Parameters:
    ///   - progress: called after each block with rows done and bytes read so far.
    /// - Throws: ``GeoFareError/emptyCSVInput()`` when there is no header,
    ///   ``GeoFareError/unusableHeader(_:)`` when it lacks a needed column (nothing written but nothing lost either). A record that cannot be read (a
    ///   quoted field never closed) is not thrown: it gets an error row, like any bad row.
    public func run(source: ByteSource, write: (UnsafeBufferPointer<UInt8>) -> Void, progress: (Int, Int) -> Void = { _, _ in }) throws(GeoFareError) -> Summary {
        let start = DispatchTime.now().uptimeNanoseconds
        let stream = CSVBlockStream(source: source, blockBytes: options.blockBytes, maxLanes: options.threads * 4)
        guard let header = try stream.header() else { throw .emptyCSVInput() }
        let layout = try Layout(header: header, map: options.columnMap)
        var out: [UInt8] = []
        CSVWriter.appendRecord(header + Self.resultColumns, to: &out)
        out.withUnsafeBufferPointer { write($0) }

        var summary = Summary()
        let threadPricers = self.threadPricers
        let strict = options.strict
        let counts = stream.run(lane: { piece, out in
            // Lane k of every block prices with the k-th lane pricer (a block's lanes finish
            // before the next block's start, so no two lanes share one at a time).
            var pricer = RowPricer(layout: layout, pricer: threadPricers[piece.lane % threadPricers.count], strict: strict)
            // A broken last record gets an error row of its own.
            return CSVBlockStream.records(of: piece, { pricer.row(&$0, in: piece.bytes, to: &out) }, broken: { pricer.errorRow($0, to: &out) })
        }, write: write, afterBlock: { total in
            progress(total.rows, source.bytesRead)
            if let max = options.maxErrors, total.failed >= max {
                summary.stoppedEarly = true
                return false
            }
            return true
        }, overlap: true)
        summary.rows = counts.rows
        summary.failed = counts.failed
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return summary
    }
}
