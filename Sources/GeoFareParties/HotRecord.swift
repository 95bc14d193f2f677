/// The per-party fields that spatial queries and filters read, packed in 32 bytes so one
/// cache line holds two parties.
///
/// `departure` is `Date.timeIntervalSinceReferenceDate`; `y` is the row of the origin at the
/// grid's deepest level (the column is recomputed from `lon`, which is cheap and exact);
/// `status` is ``PartyStatus/code`` or ``HotRecord/freeSlot``.
struct HotRecord {
    var lon: Double
    var lat: Double
    var departure: Double
    var y: UInt32
    var seatsTotal: UInt8
    var seatsTaken: UInt8
    var status: UInt8

    /// The `status` of a slot that holds no party.
    static let freeSlot: UInt8 = 0xFF

    static let empty = HotRecord(lon: 0, lat: 0, departure: 0, y: 0, seatsTotal: 0, seatsTaken: 0, status: freeSlot)

    /// The longitude in units of 1e-9°, truncated: the unit of the exact centroid sums.
    @inline(__always) var lonQ: Int64 { Int64(lon * 1e9) }
    /// The latitude in units of 1e-9°, truncated.
    @inline(__always) var latQ: Int64 { Int64(lat * 1e9) }
}
