/// A 32-bit summary of a party's filterable fields, for the sequential filtered pass: it reads
/// 4 bytes a party instead of a 32-byte ``HotRecord``, and only parties whose key may match
/// are checked exactly.
///
/// Bits 0–1: status code (3 = free slot); bits 2–6: free seats (0...20); bits 7–31: the
/// departure's minute since 2001-01-01 UTC, floored and clamped to 0...2^25 − 1 (until 2064).
/// Every field is a monotone function of the exact value, so a filter's bounds mapped the same
/// way never reject a party the exact filter accepts.
enum FilterKey {
    static let freeSlot: UInt32 = 3
    static let maxMinute: UInt32 = (1 << 25) - 1

    /// The minute bucket of a time in seconds since 2001 (clamped; ±∞ go to the ends).
    @inline(__always)
    static func minute(_ seconds: Double) -> UInt32 {
        let m = (seconds / 60).rounded(.down)
        if !(m > 0) { return 0 }
        return m >= Double(maxMinute) ? maxMinute : UInt32(m)
    }

    /// The key of a live record.
    @inline(__always)
    static func make(_ h: HotRecord) -> UInt32 {
        guard h.status <= 2 else { return freeSlot }
        let free = UInt32(h.seatsTotal &- h.seatsTaken) & 31
        return UInt32(h.status) | free << 2 | minute(h.departure) << 7
    }
}
