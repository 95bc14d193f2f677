import GeoFareCore

/// An open-addressing hash table from party ids to slots, 5 bytes a bucket.
///
/// The table stores only slots; the ids live in the caller's byte arena, so lookups take an
/// `isMatch` closure. A control byte per bucket (empty, deleted, or 0x80 | 7 bits of the hash)
/// skips most non-matching buckets without touching the arena. Buckets are chosen by
/// `hash × capacity >> 64` (any capacity works), probing is linear, and the table grows by
/// rehashing when live + deleted buckets pass 80 %.
struct IDTable {
    private static let empty: UInt8 = 0
    private static let deleted: UInt8 = 1

    private(set) var control: [UInt8] = []
    private(set) var slots: [UInt32] = []
    /// Live entries.
    private(set) var count = 0
    /// Live plus deleted buckets.
    private var used = 0

    var capacity: Int { control.count }
    var estimatedBytes: Int { control.capacity + slots.capacity * 4 }

    @inline(__always)
    func home(_ hash: UInt64) -> Int {
        Int(truncatingIfNeeded: hash.multipliedFullWidth(by: UInt64(control.count)).high)
    }

    @inline(__always)
    static func tag(_ hash: UInt64) -> UInt8 { 0x80 | UInt8(truncatingIfNeeded: hash & 0x7F) }

    /// The bucket holding a matching entry, or `nil`.
    @inline(__always)
    func find(hash: UInt64, isMatch: (UInt32) -> Bool) -> Int? {
        let n = control.count
        if n == 0 { return nil }
        let t = IDTable.tag(hash)
        var i = home(hash)
        return control.withUnsafeBufferPointer { ctrl in
            slots.withUnsafeBufferPointer { s in
                while true {
                    let c = ctrl[i]
                    if c == IDTable.empty { return nil }
                    if c == t && isMatch(s[i]) { return i }
                    i += 1
                    if i == n { i = 0 }
                }
            }
        }
    }

    /// The slot stored in a bucket from ``find(hash:isMatch:)``.
    @inline(__always) func slot(at bucket: Int) -> UInt32 { slots[bucket] }

    /// Points a bucket at another slot (same id).
    @inline(__always) mutating func setSlot(_ slot: UInt32, at bucket: Int) { slots[bucket] = slot }

    /// Adds an entry whose id is not in the table. `hashOf` gives the hash of a stored slot's
    /// id, for growing.
    mutating func insert(hash: UInt64, slot: UInt32, hashOf: (UInt32) -> UInt64) {
        if (used + 1) * 5 > control.count * 4 { rehash(minimumCapacity: count + 1, hashOf: hashOf) }
        insertFresh(hash: hash, slot: slot)
    }

    @inline(__always)
    private mutating func insertFresh(hash: UInt64, slot: UInt32) {
        let n = control.count
        var i = home(hash)
        while control[i] >= 0x80 {
            i += 1
            if i == n { i = 0 }
        }
        if control[i] == IDTable.empty { used += 1 }
        control[i] = IDTable.tag(hash)
        slots[i] = slot
        count += 1
    }

    /// Adds an entry unless a matching one exists, in a table with room (see
    /// ``reserveEmpty(_:)``); returns the bucket of the existing entry, else `nil`.
    @inline(__always)
    mutating func insertUnlessPresent(hash: UInt64, slot: UInt32, isMatch: (UInt32) -> Bool) -> Int? {
        insertUnlessPresent(home: home(hash), tag: IDTable.tag(hash), slot: slot, isMatch: isMatch)
    }

    /// ``insertUnlessPresent(hash:slot:isMatch:)`` with the hash's bucket and tag already
    /// computed (a bulk load inserts in bucket order, so the table is written sequentially).
    @inline(__always)
    mutating func insertUnlessPresent(home: Int, tag t: UInt8, slot: UInt32, isMatch: (UInt32) -> Bool) -> Int? {
        let n = control.count
        var i = home
        while true {
            let c = control[i]
            if c < 0x80 { break }
            if c == t && isMatch(slots[i]) { return i }
            i += 1
            if i == n { i = 0 }
        }
        precondition((used + 1) * 5 <= n * 4 + 4, "IDTable: no room")
        if control[i] == IDTable.empty { used += 1 }
        control[i] = t
        slots[i] = slot
        count += 1
        return nil
    }

    /// Removes the entry in a bucket from ``find(hash:isMatch:)``.
    mutating func remove(at bucket: Int) {
        let next = bucket + 1 == control.count ? 0 : bucket + 1
        if control[next] == IDTable.empty {
            control[bucket] = IDTable.empty
            used -= 1
        } else {
            control[bucket] = IDTable.deleted
        }
        count -= 1
    }

    /// Makes an empty table room for exactly `n` entries (80 % load), as a bulk load does.
    mutating func reserveEmpty(_ n: Int) {
        precondition(count == 0 && used == 0)
        let capacity = max(16, n + n / 4 + 1)
        control = Prefault.array(count: capacity) { $0.initialize(repeating: IDTable.empty) }
        slots = Prefault.array(count: capacity) { $0.initialize(repeating: 0) }
    }

    private mutating func rehash(minimumCapacity: Int, hashOf: (UInt32) -> UInt64) {
        // Room for 1.6× the entries, so the load after a rehash is at most 62.5 %.
        let newCapacity = max(16, minimumCapacity * 8 / 5 + 1, control.count > 0 && count * 5 > control.count * 2 ? control.count * 3 / 2 : 0)
        let oldControl = control, oldSlots = slots
        control = [UInt8](repeating: IDTable.empty, count: newCapacity)
        slots = [UInt32](repeating: 0, count: newCapacity)
        count = 0
        used = 0
        for i in oldControl.indices where oldControl[i] >= 0x80 {
            insertFresh(hash: hashOf(oldSlots[i]), slot: oldSlots[i])
        }
    }
}
