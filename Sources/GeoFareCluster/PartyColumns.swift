import Foundation
import GeoFareCore

/// The parties of an index in structure-of-arrays form, addressed by slot, plus the id → slot
/// table.
///
/// A slot keeps its party until the party is removed; freed slots are reused. Ids are UTF-8
/// bytes in one arena (no per-id allocation); the arena is compacted when more than half of
/// it is garbage. Per party: 32 bytes of ``HotRecord``, 16 of destination, 8 of update time,
/// 8 of version, 6 of id offset/length, the id's bytes and ~8 bytes of hash table.
struct PartyColumns {
    var hot: [HotRecord] = []
    var destination: [LonLat] = []
    var updatedAt: [Double] = []
    var version: [Int64] = []
    var idStart: [UInt32] = []
    var idLength: [UInt16] = []
    var idBytes: [UInt8] = []
    /// Attributes of the few parties that have them, by slot.
    var attributes: [UInt32: String] = [:]
    var freeSlots: [UInt32] = []
    var table = IDTable()
    private var garbageBytes = 0

    /// Live parties.
    var count: Int { table.count }
    /// Slots in use or free (the length of every column).
    var slotCount: Int { hot.count }

    var estimatedBytes: Int {
        hot.capacity * MemoryLayout<HotRecord>.stride + destination.capacity * MemoryLayout<LonLat>.stride
            + updatedAt.capacity * 8 + version.capacity * 8 + idStart.capacity * 4 + idLength.capacity * 2 + idBytes.capacity
            + freeSlots.capacity * 4 + table.estimatedBytes + attributes.count * 64
            + attributes.values.reduce(0) { $0 + $1.utf8.count }
    }

    // MARK: Ids

    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h = Hasher()
        h.combine(bytes: bytes)
        return UInt64(UInt(bitPattern: h.finalize()))
    }

    /// The hash of the id stored in a slot.
    func hash(ofSlot slot: UInt32) -> UInt64 {
        PartyColumns.hash(ofSlot: slot, starts: idStart, lengths: idLength, arena: idBytes)
    }

    /// The hash of a slot's id, from copies of the id columns (so the table can grow while
    /// `self` is being mutated).
    static func hash(ofSlot slot: UInt32, starts: [UInt32], lengths: [UInt16], arena: [UInt8]) -> UInt64 {
        let start = Int(starts[Int(slot)]), length = Int(lengths[Int(slot)])
        return arena.withUnsafeBytes { hash(UnsafeRawBufferPointer(rebasing: $0[start..<start + length])) }
    }

    /// Runs `body` over an id's UTF-8 bytes without copying a native string.
    @inline(__always)
    static func withBytes<R>(of id: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var id = id
        return id.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// Whether the id in `slot` has exactly these bytes.
    @inline(__always)
    func idEquals(slot: UInt32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let s = Int(slot)
        guard Int(idLength[s]) == bytes.count else { return false }
        let start = Int(idStart[s])
        return idBytes.withUnsafeBytes { arena in
            memcmp(arena.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0
        }
    }

    /// The id of a slot as a String.
    func id(ofSlot slot: UInt32) -> String {
        let start = Int(idStart[Int(slot)]), length = Int(idLength[Int(slot)])
        return idBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + length]), as: UTF8.self) }
    }

    /// Orders two slots by their ids' UTF-8 bytes (shorter prefix first).
    @inline(__always)
    func idLess(_ a: UInt32, _ b: UInt32) -> Bool {
        let sa = Int(idStart[Int(a)]), la = Int(idLength[Int(a)])
        let sb = Int(idStart[Int(b)]), lb = Int(idLength[Int(b)])
        let c = idBytes.withUnsafeBytes { arena in memcmp(arena.baseAddress! + sa, arena.baseAddress! + sb, min(la, lb)) }
        return c != 0 ? c < 0 : la < lb
    }

    /// The slot of a live party by id, with the table bucket it occupies.
    func find(id: String) -> (slot: UInt32, bucket: Int)? {
        PartyColumns.withBytes(of: id) { bytes in
            let h = PartyColumns.hash(bytes)
            guard let b = table.find(hash: h, isMatch: { idEquals(slot: $0, bytes) }) else { return nil }
            return (table.slot(at: b), b)
        }
    }

    // MARK: Writing

    /// Stores a party in a fresh slot and indexes its id (which must not be present).
    /// - Returns: the slot.
    mutating func add(_ p: Party, hash: UInt64, bytes: UnsafeRawBufferPointer, y: UInt32) -> UInt32 {
        let start = UInt32(idBytes.count)
        idBytes.append(contentsOf: bytes)
        let slot: UInt32
        if let free = freeSlots.popLast() {
            slot = free
            idStart[Int(slot)] = start
            idLength[Int(slot)] = UInt16(bytes.count)
            write(p, y: y, to: slot)
        } else {
            slot = UInt32(hot.count)
            hot.append(.empty)
            destination.append(LonLat(lon: 0, lat: 0))
            updatedAt.append(0)
            version.append(0)
            idStart.append(start)
            idLength.append(UInt16(bytes.count))
            write(p, y: y, to: slot)
        }
        let starts = idStart, lengths = idLength, arena = idBytes
        table.insert(hash: hash, slot: slot, hashOf: { PartyColumns.hash(ofSlot: $0, starts: starts, lengths: lengths, arena: arena) })
        return slot
    }

    /// Overwrites every field of a slot except the id.
    @inline(__always)
    mutating func write(_ p: Party, y: UInt32, to slot: UInt32) {
        let s = Int(slot)
        hot[s] = HotRecord(
            lon: p.origin.longitude, lat: p.origin.latitude, departure: p.departure.timeIntervalSinceReferenceDate, y: y,
            seatsTotal: UInt8(p.seatsTotal), seatsTaken: UInt8(p.seatsTaken), status: p.status.code
        )
        destination[s] = LonLat(lon: p.destination.longitude, lat: p.destination.latitude)
        updatedAt[s] = p.updatedAt.timeIntervalSinceReferenceDate
        version[s] = p.version
        if let a = p.attributesJSON { attributes[slot] = a } else if !attributes.isEmpty { attributes[slot] = nil }
    }

    /// Frees a slot whose id sits in table bucket `bucket`.
    mutating func free(slot: UInt32, bucket: Int) {
        table.remove(at: bucket)
        let s = Int(slot)
        hot[s] = .empty
        if !attributes.isEmpty { attributes[slot] = nil }
        garbageBytes += Int(idLength[s])
        idLength[s] = 0
        freeSlots.append(slot)
        if garbageBytes > 1 << 16 && garbageBytes * 2 > idBytes.count { compactIDs() }
    }

    /// Rewrites the id arena without the bytes of freed ids.
    private mutating func compactIDs() {
        var fresh: [UInt8] = []
        fresh.reserveCapacity(idBytes.count - garbageBytes)
        for s in 0..<hot.count where hot[s].status != HotRecord.freeSlot {
            let start = Int(idStart[s]), length = Int(idLength[s])
            idStart[s] = UInt32(fresh.count)
            fresh.append(contentsOf: idBytes[start..<start + length])
        }
        idBytes = fresh
        garbageBytes = 0
    }

    /// Reserves room for `n` more parties.
    mutating func reserve(additional n: Int, idBytes bytes: Int) {
        let total = hot.count + n
        hot.reserveCapacity(total)
        destination.reserveCapacity(total)
        updatedAt.reserveCapacity(total)
        version.reserveCapacity(total)
        idStart.reserveCapacity(total)
        idLength.reserveCapacity(total)
        idBytes.reserveCapacity(idBytes.count + bytes)
        let starts = idStart, lengths = idLength, arena = idBytes
        table.reserve(count + n, hashOf: { PartyColumns.hash(ofSlot: $0, starts: starts, lengths: lengths, arena: arena) })
    }

    // MARK: Reading

    /// The party in a live slot.
    func party(at slot: UInt32) -> Party {
        let s = Int(slot)
        let h = hot[s]
        let d = destination[s]
        return Party(
            id: id(ofSlot: slot),
            origin: Coordinate(uncheckedLatitude: h.lat, longitude: h.lon),
            destination: Coordinate(uncheckedLatitude: d.lat, longitude: d.lon),
            departure: Date(timeIntervalSinceReferenceDate: h.departure),
            seatsTotal: Int(h.seatsTotal), seatsTaken: Int(h.seatsTaken), status: PartyStatus(code: h.status),
            attributesJSON: attributes.isEmpty ? nil : attributes[slot],
            updatedAt: Date(timeIntervalSinceReferenceDate: updatedAt[s]), version: version[s]
        )
    }
}
