import Foundation
import GeoFareCore

/// The parties of an index in structure-of-arrays form, addressed by slot, plus the id → slot
/// table.
///
/// A slot keeps its party until the party is removed; freed slots are reused. Per party:
/// 32 bytes of ``HotRecord``, 4 of ``FilterKey``, 16 of destination, 8 of update time, 2 of version (versions
/// ≥ 65,535 go to a side table), 5 of id offset/length, the id's UTF-8 bytes in one arena
/// (compacted when more than half of it is garbage) and 5–8 bytes of hash table.
/// Attributes live in a side table, so parties without them cost nothing.
struct PartyColumns {
    var hot: [HotRecord] = []
    /// ``FilterKey`` of each slot, kept in step with `hot`.
    var filterKeys: [UInt32] = []
    var destination: [Coordinate] = []
    var updatedAt: [Double] = []
    var version: [UInt16] = []
    /// Each slot's id: where it starts in `idBytes` and its length.
    var idStart: [UInt32] = [], idLength: [UInt8] = [], idBytes: [UInt8] = []
    /// Attributes of the parties that have them, by slot.
    var attributes: [UInt32: String] = [:]
    /// Versions that do not fit in `version` (marked `UInt16.max` there).
    var largeVersions: [UInt32: Int64] = [:]
    var freeSlots: [UInt32] = []
    var table = IDTable()
    var garbageBytes = 0
    /// The id hash seed, random per index.
    let seed = UInt64.random(in: .min ... .max)

    /// Live parties.
    var count: Int { table.count }
    /// Slots in use or free (the length of every column).
    var slotCount: Int { hot.count }

    var estimatedBytes: Int {
        hot.capacity * MemoryLayout<HotRecord>.stride + filterKeys.capacity * 4 + destination.capacity * MemoryLayout<Coordinate>.stride
            + updatedAt.capacity * 8 + version.capacity * 2 + idStart.capacity * 4 + idLength.capacity + idBytes.capacity
            + freeSlots.capacity * 4 + table.estimatedBytes + (attributes.count + largeVersions.count) * 48
            + attributes.values.reduce(0) { $0 + $1.utf8.count }
    }

    // MARK: Ids

    /// Runs `body` over an id's UTF-8 bytes without copying a native string.
    @inline(__always)
    static func withBytes<R>(of id: String, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        var id = id
        return id.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    @inline(__always)
    func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 { IDHash.hash(bytes, seed: seed) }

    /// The hash of a slot's id, from the id columns (passed separately so the table can grow
    /// while `self` is being mutated).
    static func hash(ofSlot slot: UInt32, starts: UnsafeBufferPointer<UInt32>, lengths: UnsafeBufferPointer<UInt8>,
                     arena: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let start = Int(starts[Int(slot)]), length = Int(lengths[Int(slot)])
        return IDHash.hash(UnsafeRawBufferPointer(rebasing: arena[start..<start + length]), seed: seed)
    }

    /// Whether the id in `slot` has exactly these bytes.
    @inline(__always)
    func idEquals(slot: UInt32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        let s = Int(slot)
        guard Int(idLength[s]) == bytes.count else { return false }
        let start = Int(idStart[s])
        return idBytes.withUnsafeBytes { arena in memcmp(arena.baseAddress! + start, bytes.baseAddress!, bytes.count) == 0 }
    }

    /// The id of a slot as a String.
    func id(ofSlot slot: UInt32) -> String {
        let start = Int(idStart[Int(slot)]), length = Int(idLength[Int(slot)])
        return idBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<start + length]), as: UTF8.self) }
    }

    /// Orders two slots by their ids' UTF-8 bytes (a prefix first).
    @inline(__always)
    func idLess(_ a: UInt32, _ b: UInt32) -> Bool {
        let sa = Int(idStart[Int(a)]), la = Int(idLength[Int(a)])
        let sb = Int(idStart[Int(b)]), lb = Int(idLength[Int(b)])
        let c = idBytes.withUnsafeBytes { arena in memcmp(arena.baseAddress! + sa, arena.baseAddress! + sb, min(la, lb)) }
        return c != 0 ? c < 0 : la < lb
    }

    /// Sorts slots by their ids' UTF-8 bytes. Comparisons read raw buffers (nothing retained)
    /// and first compare the ids' leading 8 bytes as one big-endian integer; small inputs
    /// (cluster members) use insertion sort.
    func sortByID(_ slots: inout [UInt32]) {
        if slots.count < 2 { return }
        idStart.withUnsafeBufferPointer { st in
            idLength.withUnsafeBufferPointer { ln in
                idBytes.withUnsafeBytes { ar in
                    @inline(__always) func prefix(_ s: UInt32) -> UInt64 {
                        let start = Int(st[Int(s)]), length = Int(ln[Int(s)])
                        var v: UInt64 = 0
                        for k in 0..<Swift.min(8, length) { v |= UInt64(ar[start + k]) << UInt64(56 - 8 * k) }
                        return v
                    }
                    @inline(__always) func less(_ a: UInt32, _ pa: UInt64, _ b: UInt32, _ pb: UInt64) -> Bool {
                        if pa != pb { return pa < pb }
                        let sa = Int(st[Int(a)]), la = Int(ln[Int(a)]), sb = Int(st[Int(b)]), lb = Int(ln[Int(b)])
                        let c = memcmp(ar.baseAddress! + sa, ar.baseAddress! + sb, Swift.min(la, lb))
                        return c != 0 ? c < 0 : la < lb
                    }
                    slots.withUnsafeMutableBufferPointer { buf in
                        if buf.count <= 32 {
                            var prefixes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                           UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                           UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                           UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
                                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                            withUnsafeMutableBytes(of: &prefixes) { raw in
                                let p = raw.bindMemory(to: UInt64.self)
                                for i in 0..<buf.count { p[i] = prefix(buf[i]) }
                                for i in 1..<buf.count {
                                    let s = buf[i], ps = p[i]
                                    var j = i
                                    while j > 0 && less(s, ps, buf[j - 1], p[j - 1]) {
                                        buf[j] = buf[j - 1]
                                        p[j] = p[j - 1]
                                        j -= 1
                                    }
                                    buf[j] = s
                                    p[j] = ps
                                }
                            }
                        } else {
                            buf.sort { a, b in less(a, prefix(a), b, prefix(b)) }
                        }
                    }
                }
            }
        }
    }

    /// Looks an id up: its hash, and the slot and table bucket of the party that has it.
    @inline(__always)
    func lookup(_ bytes: UnsafeRawBufferPointer) -> (hash: UInt64, slot: UInt32, bucket: Int)? {
        let h = hash(bytes)
        guard let b = table.find(hash: h, isMatch: { idEquals(slot: $0, bytes) }) else { return nil }
        return (h, table.slot(at: b), b)
    }

    /// The slot and table bucket of a live party by id.
    func find(id: String) -> (slot: UInt32, bucket: Int)? {
        PartyColumns.withBytes(of: id) { bytes in lookup(bytes).map { ($0.slot, $0.bucket) } }
    }

    // MARK: Writing

    /// Stores a party in a fresh slot and indexes its id (which must not be present).
    /// - Returns: the slot.
    mutating func add(_ p: Party, bytes: UnsafeRawBufferPointer, y: UInt32) -> UInt32 {
        let start = UInt32(idBytes.count)
        idBytes.append(contentsOf: bytes)
        let slot: UInt32
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = UInt32(hot.count)
            hot.append(.empty)
            filterKeys.append(FilterKey.freeSlot)
            destination.append(Coordinate(uncheckedLatitude: 0, longitude: 0))
            updatedAt.append(0)
            version.append(0)
            idStart.append(0)
            idLength.append(0)
        }
        idStart[Int(slot)] = start
        idLength[Int(slot)] = UInt8(bytes.count)
        write(p, y: y, to: slot)
        insertIntoTable(hash: hash(bytes), slot: slot)
        return slot
    }

    /// Adds a table entry; the table may grow, rehashing from the id columns.
    mutating func insertIntoTable(hash: UInt64, slot: UInt32) {
        let seed = seed
        idStart.withUnsafeBufferPointer { starts in
            idLength.withUnsafeBufferPointer { lengths in
                idBytes.withUnsafeBytes { arena in
                    table.insert(hash: hash, slot: slot) { PartyColumns.hash(ofSlot: $0, starts: starts, lengths: lengths, arena: arena, seed: seed) }
                }
            }
        }
    }

    /// Overwrites every field of a slot except the id.
    @inline(__always)
    mutating func write(_ p: Party, y: UInt32, to slot: UInt32) {
        let s = Int(slot)
        let h = HotRecord(
            lon: p.origin.longitude, lat: p.origin.latitude, departure: p.departure.timeIntervalSinceReferenceDate, y: y,
            seatsTotal: UInt8(p.seatsTotal), seatsTaken: UInt8(p.seatsTaken), status: p.status.code
        )
        hot[s] = h
        filterKeys[s] = FilterKey.make(h)
        destination[s] = p.destination
        updatedAt[s] = p.updatedAt.timeIntervalSinceReferenceDate
        setVersion(p.version, slot: slot)
        if let a = p.attributesJSON { attributes[slot] = a } else if !attributes.isEmpty { attributes[slot] = nil }
    }

    @inline(__always)
    mutating func setVersion(_ v: Int64, slot: UInt32) {
        if v >= 0 && v < Int64(UInt16.max) {
            version[Int(slot)] = UInt16(v)
            if !largeVersions.isEmpty { largeVersions[slot] = nil }
        } else {
            version[Int(slot)] = .max
            largeVersions[slot] = v
        }
    }

    /// Frees a slot whose id sits in table bucket `bucket`.
    mutating func free(slot: UInt32, bucket: Int) {
        table.remove(at: bucket)
        release(slot: slot)
    }

    /// Frees a slot that has no table entry.
    mutating func release(slot: UInt32) {
        let s = Int(slot)
        hot[s] = .empty
        filterKeys[s] = FilterKey.freeSlot
        if !attributes.isEmpty { attributes[slot] = nil }
        if !largeVersions.isEmpty { largeVersions[slot] = nil }
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

    // MARK: Reading

    /// The party in a live slot.
    func party(at slot: UInt32) -> Party {
        let s = Int(slot)
        let h = hot[s]
        let v = version[s]
        return Party(
            id: id(ofSlot: slot),
            origin: Coordinate(uncheckedLatitude: h.lat, longitude: h.lon),
            destination: destination[s],
            departure: Date(timeIntervalSinceReferenceDate: h.departure),
            seatsTotal: Int(h.seatsTotal), seatsTaken: Int(h.seatsTaken), status: PartyStatus(code: h.status),
            attributesJSON: attributes.isEmpty ? nil : attributes[slot],
            updatedAt: Date(timeIntervalSinceReferenceDate: updatedAt[s]),
            version: v == .max ? largeVersions[slot] ?? Int64(v) : Int64(v)
        )
    }
}
