import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareText

extension FareCSVJob {
    /// Prices and formats the rows of one lane, reading fields in place: it parses each row into
    /// a ``FareRequest``, prices it with the lane's ``TripPricer`` (the library's one entry) and
    /// formats the answer.
    struct RowPricer {
        let layout: Layout
        /// This lane's pricer (``TripPricer/threadCopy()``: its own meter copies).
        let pricer: TripPricer
        /// ``FareRequest/strict`` for every row.
        let strict: Bool
        /// The last tariff column seen and what it resolved to (an index into the catalog, or
        /// the error it gave): a file names the same tariff on most rows.
        var tariffBytes: [UInt8] = []
        var tariffResolved: Result<Int, GeoFareError>?
        /// `tariffResolved`'s index when it is one, else -1: the common case's answer without
        /// unwrapping a `Result` (whose error case made every read an outlined copy).
        var tariffResolvedIndex = -1
        /// The meter of the last priced row and its `tariff` and `currency` column bytes.
        var lastMeter: Meter?
        var tariffField: [UInt8] = []
        var currencyField: [UInt8] = []
        /// The row being priced and its figures, filled in place row after row: building a
        /// fresh 272-byte request and copying 160 bytes of figures out of the pricer per row was
        /// a measurable share of a row.
        var request = FareRequest(trip: .totals(distanceMeters: 0, durationSeconds: 0), departure: Date(timeIntervalSince1970: 0))
        var figures = FareFigures()

        init(layout: Layout, pricer: TripPricer, strict: Bool = false) {
            self.layout = layout
            self.pricer = pricer
            self.strict = strict
        }

        /// Appends one output row: the input columns, then the results or the error.
        /// - Returns: false when the row failed.
        mutating func row(_ scanner: inout CSVRecordScanner, in bytes: UnsafeBufferPointer<UInt8>, to out: inout ByteWriter) -> Bool {
            let count = scanner.fieldCount
            if scanner.isUnescaped {
                for k in 0..<count {
                    if k > 0 { out.append(0x2C) }
                    out.appendCSVField(scanner.field(k, in: bytes))
                }
            } else {
                // Nothing needed quoting: the record's own bytes are its output.
                out.append(UnsafeBufferPointer(rebasing: bytes[scanner.rawRange]))
            }
            // Short rows are padded so the result columns stay aligned.
            for _ in count..<max(count, layout.width) { out.append(0x2C) }
            out.append(0x2C)
            var ok = true
            var basis: (TariffBasis, String?)?
            do {
                // Figures (equal splits) straight from the pricer, or the whole quote: no enum
                // around them, whose payload (a quote) would be copied on every row.
                try parse(&scanner, in: bytes)
                if request.split == .equal {
                    let meter = try pricer.figures(request, into: &figures)
                    use(meter)
                    let riders = request.partySize
                    basis = (figures.tariffBasis, figures.assumption)
                    FareCSVJob.appendMoney(distance: figures.distanceMeters, duration: figures.durationSeconds, meter: figures.reading.amount,
                                           surcharges: figures.surcharges, tolls: figures.tolls, total: figures.total, low: figures.low, high: figures.high, to: &out)
                    out.append(currencyField)
                    out.append(0x2C)
                    if figures.tolls == 0 && figures.callFee == 0 {
                        let shares = FareSplit.EqualShares(total: figures.total, riders: riders, unit: figures.splitUnit)
                        for k in 0..<riders {
                            if k > 0 { out.append(0x3B) }
                            out.appendDecimal(shares[k])
                        }
                    } else {
                        for k in 0..<riders {
                            if k > 0 { out.append(0x3B) }
                            out.appendDecimal(figures.equalShare(k, riders: riders))
                        }
                    }
                    out.append(0x2C)
                } else {
                    let q = try pricer.quote(request).quote
                    use(q)
                    basis = (q.tariffBasis, q.assumption)
                    FareCSVJob.appendResult(q, to: &out)
                }
                out.append(tariffField)
                out.append(0x2C)
            } catch let error as GeoFareError {
                ok = false
                for _ in 0..<11 { out.append(0x2C) }
                out.appendCSVField("\(error.onLine(scanner.line)) [\(error.code)]")
            } catch {
                ok = false
                for _ in 0..<11 { out.append(0x2C) }
                out.appendCSVField("line \(scanner.line): \(error) [\(ErrorCode.internalError.rawValue)]")
            }
            // tariff_basis, assumption: empty on an error row (no fare, no basis).
            out.append(0x2C)
            if let (b, assumption) = basis {
                if b == .sourced { out.append("sourced") } else { out.append("assumed") }
                out.append(0x2C)
                if let assumption { out.appendCSVField(assumption) }
            } else {
                out.append(0x2C)
            }
            out.append(0x0A)
            return ok
        }

        /// Appends the row of a record that could not be read at all: empty input and result
        /// columns, and the error (what and on which line the record starts), then the empty
        /// `tariff_basis` and `assumption`.
        func errorRow(_ error: any Error, to out: inout ByteWriter) {
            for _ in 0..<(layout.width + FareCSVJob.resultColumns.count - 3) { out.append(0x2C) }
            if let coded = error as? GeoFareError {
                out.appendCSVField("\(coded.description) [\(coded.code)]")
            } else {
                out.appendCSVField("\(error)")
            }
            out.append(",,")
            out.append(0x0A)
        }

        /// Notes the tariff of a row priced as a whole quote (its tariff column).
        mutating func use(_ quote: FareQuote) {
            lastMeter = nil
            tariffField.removeAll()
            CSVWriter.appendField(quote.tariff, to: &tariffField)
        }

        /// Notes the meter a row was priced with (its tariff and currency columns).
        mutating func use(_ meter: Meter) {
            if meter === lastMeter { return }
            lastMeter = meter
            tariffField.removeAll()
            CSVWriter.appendField(meter.tariffID, to: &tariffField)
            currencyField = Array(meter.currency.utf8)
        }

        /// The catalog index of a tariff column's text, resolved once per distinct text.
        mutating func tariffIndex(_ t: UnsafeBufferPointer<UInt8>) throws(GeoFareError) -> Int {
            let same = tariffBytes.count == t.count && tariffBytes.withUnsafeBufferPointer { FareCSVJob.sameBytes($0, t) }
            if same && tariffResolvedIndex >= 0 { return tariffResolvedIndex }
            if tariffResolved == nil || !same {
                tariffBytes = Array(t)
                let name = String(decoding: t, as: UTF8.self)
                let catalog = pricer.catalog
                tariffResolved = Result { () throws(GeoFareError) -> Int in try catalog.tariffIndex(name) }
                tariffResolvedIndex = (try? tariffResolved!.get()) ?? -1
            }
            return try tariffResolved!.get()
        }

        /// One row's fields parsed into ``request``, to be priced by the lane's ``TripPricer``
        /// exactly as the worker's `fare` op and the library price it. A distance/duration row
        /// sets every field that such a row's fresh request would differ in (trip, departure,
        /// origin, destination, cruise, riders, split, strict, tariff index); a row by
        /// coordinates gets a fresh request. On an error ``request`` is left half-filled: the
        /// next row sets it again.
        mutating func parse(_ scanner: inout CSVRecordScanner, in bytes: UnsafeBufferPointer<UInt8>) throws {
            func text(_ i: Int?) -> UnsafeBufferPointer<UInt8>? {
                guard let i, i < scanner.fieldCount else { return nil }
                let t = ByteNumber.trimmed(scanner.field(i, in: bytes))
                return t.isEmpty ? nil : t
            }
            func number(_ i: Int?, _ name: String) throws -> Double? {
                guard let t = text(i) else { return nil }
                guard let v = ByteNumber.double(t) else {
                    throw GeoFareError.notANumber(String(decoding: t, as: UTF8.self), field: name)
                }
                guard v.isFinite else { throw GeoFareError.notFinite(name, v) }
                return v
            }
            guard let when = text(layout.departAt) else { throw GeoFareError.emptyColumn("depart_at") }
            guard let departure = ISO8601.parse(bytes: when) else {
                throw GeoFareError.invalidISOTime(String(decoding: when, as: UTF8.self), field: "depart_at")
            }
            var party = 1
            if let t = text(layout.partySize) {
                guard let n = ByteNumber.int(t) else {
                    throw GeoFareError.notAnInteger(String(decoding: t, as: UTF8.self), field: "party_size")
                }
                party = n
            }
            var split = SplitMethod.equal
            if let t = text(layout.split) {
                let name = String(decoding: t, as: UTF8.self)
                guard let m = SplitMethod(rawValue: name) else { throw GeoFareError.unknownSplitMethod(name) }
                split = m
            }
            let tariffColumn = text(layout.tariff)
            if let d = try number(layout.distance, "distance_m"), let t = try number(layout.duration, "duration_s") {
                if case .totals = request.trip {} else {
                    // After a row by coordinates: its request had a route's fields.
                    request = FareRequest(trip: .totals(distanceMeters: d, durationSeconds: t), departure: departure)
                }
                request.trip = .totals(distanceMeters: d, durationSeconds: t)
                request.departure = departure
                request.origin = nil
                request.destination = nil
                // The ends of a known trip: the origin picks the tariff (unless the row names
                // one); both ends say whether the ride left the business zone.
                if let lat = try number(layout.originLat, "origin_lat"), let lon = try number(layout.originLon, "origin_lon") {
                    do { request.origin = try Coordinate(latitude: lat, longitude: lon) } catch { throw error.prefixed("origin") }
                }
                if let lat = try number(layout.destLat, "dest_lat"), let lon = try number(layout.destLon, "dest_lon") {
                    do { request.destination = try Coordinate(latitude: lat, longitude: lon) } catch { throw error.prefixed("dest") }
                }
                request.cruiseKmh = try number(layout.cruise, "cruise_kmh")
            } else {
                guard let oLat = try number(layout.originLat, "origin_lat"), let oLon = try number(layout.originLon, "origin_lon"),
                      let dLat = try number(layout.destLat, "dest_lat"), let dLon = try number(layout.destLon, "dest_lon") else {
                    throw GeoFareError.tripColumnsMissing()
                }
                let origin: Coordinate, destination: Coordinate
                do { origin = try Coordinate(latitude: oLat, longitude: oLon) } catch { throw error.prefixed("origin") }
                do { destination = try Coordinate(latitude: dLat, longitude: dLon) } catch { throw error.prefixed("dest") }
                request = FareRequest(from: origin, to: destination, departure: departure)
            }
            request.partySize = party
            request.split = split
            request.strict = strict
            request.tariffIndex = nil
            if let t = tariffColumn { request.tariffIndex = try tariffIndex(t) }
            request.businessZone = text(layout.businessZone).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// Whether two buffers hold the same bytes: eight at a time, the last word overlapping (a
    /// tariff column is compared on every row; `memcmp` was a call).
    @inline(__always)
    static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = a.count
        guard n == b.count else { return false }
        guard n > 0, let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        if n < 8 {
            for i in 0..<n where pa[i] != pb[i] { return false }
            return true
        }
        let ra = UnsafeRawPointer(pa), rb = UnsafeRawPointer(pb)
        var j = 0
        while j &+ 8 <= n {
            if ra.loadUnaligned(fromByteOffset: j, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: j, as: UInt64.self) { return false }
            j &+= 8
        }
        return j == n || ra.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) == rb.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
    }

    /// `distance_m, ..., high,` (the currency follows).
    @inline(__always)
    static func appendMoney(distance: Double, duration: Double, meter: Int64, surcharges: Int64, tolls: Int64,
                            total: Int64, low: Int64, high: Int64, to out: inout ByteWriter) {
        out.append(distance, decimals: 1)
        out.append(0x2C)
        out.append(duration, decimals: 1)
        out.append(0x2C); out.appendDecimal(meter)
        out.append(0x2C); out.appendDecimal(surcharges)
        out.append(0x2C); out.appendDecimal(tolls)
        out.append(0x2C); out.appendDecimal(total)
        out.append(0x2C); out.appendDecimal(low)
        out.append(0x2C); out.appendDecimal(high)
        out.append(0x2C)
    }

    /// Appends `distance_m, ..., per_person,` for a quote (the tariff and error columns follow).
    static func appendResult(_ q: FareQuote, to out: inout ByteWriter) {
        appendMoney(distance: q.distanceMeters, duration: q.durationSeconds, meter: q.meter, surcharges: q.surcharges,
                    tolls: q.tolls, total: q.total, low: q.low, high: q.high, to: &out)
        out.append(Array(q.currency.utf8))
        out.append(0x2C)
        for (k, share) in q.perPerson.enumerated() {
            if k > 0 { out.append(0x3B) }
            out.appendDecimal(share)
        }
        out.append(0x2C)
    }
}
