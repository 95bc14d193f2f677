import Foundation
import GeoFareCore

/// A ``PartyFilter`` lowered to comparisons on the index's columns, for tight loops.
///
/// ``matches(_:)`` checks the clauses held in ``HotRecord`` (status, free seats, departure; a
/// free slot never matches); ``matchesDestination(_:)`` the destination clause, which needs the
/// destination column. Together they agree exactly with ``PartyFilter/matches(_:)``.
struct CompiledFilter {
    var from = -Double.infinity
    var until = Double.infinity
    var minFree = 0
    /// Bit `c` set: status code `c` passes.
    var statusMask: UInt8 = 0b111
    var destination: Coordinate?
    var radius = 0.0
    /// The departure bounds as ``FilterKey`` minutes.
    var minuteLo: UInt32 = 0
    var minuteHi = FilterKey.maxMinute

    init(_ f: PartyFilter) {
        if let d = f.departFrom { from = d.timeIntervalSinceReferenceDate }
        if let d = f.departUntil { until = d.timeIntervalSinceReferenceDate }
        if let m = f.minFreeSeats { minFree = m }
        if let s = f.statuses { statusMask = s.reduce(0) { $0 | (1 << $1.code) } }
        if let d = f.destination, let r = f.destinationRadiusMeters {
            destination = d
            radius = r
        }
        minuteLo = FilterKey.minute(from)
        minuteHi = FilterKey.minute(until)
    }

    /// 1 when a party with this ``FilterKey`` can match (never 0 for one that does), else 0;
    /// computed without branches, since scans call it for every party.
    @inline(__always)
    func mayMatch(_ key: UInt32) -> Int {
        let status = (UInt32(statusMask) &>> (key & 3)) & 1  // status 3 (free slot): bit 3 is 0
        let seats = Int((key &>> 2) & 31) >= minFree ? 1 : 0
        let m = key &>> 7
        let minute = (m &- minuteLo) <= (minuteHi &- minuteLo) ? 1 : 0
        return Int(status) & seats & minute
    }

    /// The clauses on status, free seats and departure.
    @inline(__always)
    func matches(_ h: HotRecord) -> Bool {
        h.status <= 2 && (statusMask & (1 << h.status)) != 0
            && Int(h.seatsTotal) - Int(h.seatsTaken) >= minFree
            && h.departure >= from && h.departure <= until
    }

    /// Every clause, for the party in `slot` whose record is `h`.
    @inline(__always)
    func matches(_ h: HotRecord, slot: UInt32, columns: PartyColumns) -> Bool {
        matches(h) && (destination == nil || matchesDestination(columns.destination[Int(slot)]))
    }

    /// The destination clause (true when there is none).
    @inline(__always)
    func matchesDestination(_ d: Coordinate) -> Bool {
        guard let destination else { return true }
        return FastDistance.haversineMeters(destination, d) <= radius
    }
}
