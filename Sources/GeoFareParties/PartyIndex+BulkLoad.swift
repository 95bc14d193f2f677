import Foundation
import GeoFareCore

extension PartyIndex {
    /// Loads parties into an empty index.
    ///
    /// 1. On all cores: validate and compute each origin's Morton code.
    /// 2. Radix-sort by code (the input index rides in the key's low bits when it fits).
    /// 3. On all cores: write the columns and the id arena in sorted order, so slot = rank and
    ///    the parties of a leaf are adjacent in memory.
    /// 4. Build the id table (later duplicates win), then the tree bottom-up.
    ///
    /// Fresh memory is the dearest part (page faults), so big arrays are prefaulted in one
    /// call each and temporaries are few: the sort keys, their scratch and one byte per id.
    func bulkLoad(_ parties: [Party]) {
        precondition(count == 0 && columns.slotCount == 0)
        let n = parties.count
        let grid = self.grid, seed = columns.seed
        let codeBits = 2 * grid.depth
        let indexBits = Swift.max(1, Int.bitWidth - (n - 1).leadingZeroBitCount)
        let packed = codeBits + indexBits <= 64
        let indexMask = (UInt64(1) << UInt64(indexBits)) - 1
        var order: [UInt32] = []
        var inputLength = [UInt8](repeating: 0, count: n)

        // 1. Validate; codes; id lengths.
        var keys: [UInt64] = parties.withUnsafeBufferPointer { ps in
            inputLength.withUnsafeMutableBufferPointer { lengths in
                Prefault.array(count: n) { ks in
                    Parallel.forEachChunk(n) { _, range in
                        for i in range {
                            precondition(PartyIndex.isValid(ps[i]), "PartyIndex.upsert: invalid party '\(ps[i].id)'; call Party.validate() first")
                            let origin = ps[i].origin
                            let code = CellGrid.morton(x: grid.x(longitude: origin.longitude), y: grid.y(latitude: origin.latitude))
                            ks.initializeElement(at: i, to: packed ? code << UInt64(indexBits) | UInt64(i) : code)
                            lengths[i] = UInt8(truncatingIfNeeded: ps[i].id.utf8.count)
                        }
                    }
                }
            }
        }

        // 2. Sort by cell.
        if packed {
            RadixSort.sort(&keys, lowBit: indexBits, keyBits: codeBits)
        } else {
            order = [UInt32](unsafeUninitializedCapacity: n) { buf, c in
                for i in 0..<n { buf.initializeElement(at: i, to: UInt32(truncatingIfNeeded: i)) }
                c = n
            }
            RadixSort.sort(keys: &keys, values: &order, keyBits: codeBits)
        }
        let keyShift = packed ? indexBits : 0
        func inputIndex(_ r: Int) -> Int { packed ? Int(keys[r] & indexMask) : Int(order[r]) }

        // 3. Id offsets in sorted order, then every column in sorted order.
        var total = 0
        let idLength: [UInt8] = Prefault.array(count: n) { out in
            for r in 0..<n { out.initializeElement(at: r, to: inputLength[inputIndex(r)]) }
        }
        inputLength = []
        let idStart: [UInt32] = Prefault.array(count: n) { out in
            for r in 0..<n {
                out.initializeElement(at: r, to: UInt32(truncatingIfNeeded: total))
                total += Int(idLength[r])
            }
        }
        precondition(total < Int(UInt32.max), "PartyIndex: ids too large for one arena")
        let chunks = Parallel.chunkCount(n)
        var side = [[(slot: UInt32, attributes: String?, version: Int64)]](repeating: [], count: chunks)
        var hot: [HotRecord] = [], destination: [Coordinate] = [], updatedAt: [Double] = [], version: [UInt16] = []
        var arena: [UInt8] = []
        parties.withUnsafeBufferPointer { ps in
            keys.withUnsafeBufferPointer { ks in
                order.withUnsafeBufferPointer { os in
                    idStart.withUnsafeBufferPointer { starts in
                        idLength.withUnsafeBufferPointer { lengths in
                            side.withUnsafeMutableBufferPointer { sideOut in
                                hot = Prefault.array(count: n) { hotOut in
                                    destination = Prefault.array(count: n) { destOut in
                                        updatedAt = Prefault.array(count: n) { updOut in
                                            version = Prefault.array(count: n) { verOut in
                                                arena = Prefault.array(count: total) { arenaOut in
                                                    Parallel.forEachChunk(n) { chunk, range in
                                                        var extra: [(slot: UInt32, attributes: String?, version: Int64)] = []
                                                        // Touch the parties a block ahead with independent loads, so
                                                        // their cache and TLB misses overlap instead of queueing.
                                                        var warm = 0.0
                                                        for r in range {
                                                            if (r - range.lowerBound) & 15 == 0 {
                                                                for a in Swift.min(r + 16, range.upperBound)..<Swift.min(r + 32, range.upperBound) {
                                                                    let j = packed ? Int(ks[a] & indexMask) : Int(os[a])
                                                                    warm += ps[j].departure.timeIntervalSinceReferenceDate + ps[j].updatedAt.timeIntervalSinceReferenceDate
                                                                }
                                                            }
                                                            let i = packed ? Int(ks[r] & indexMask) : Int(os[r])
                                                            let code = ks[r] >> UInt64(keyShift)
                                                            let p = ps.baseAddress! + i
                                                            hotOut.initializeElement(at: r, to: HotRecord(
                                                                lon: p.pointee.origin.longitude, lat: p.pointee.origin.latitude,
                                                                departure: p.pointee.departure.timeIntervalSinceReferenceDate,
                                                                y: CellGrid.compact(code >> 1),
                                                                seatsTotal: UInt8(truncatingIfNeeded: p.pointee.seatsTotal),
                                                                seatsTaken: UInt8(truncatingIfNeeded: p.pointee.seatsTaken), status: p.pointee.status.code))
                                                            destOut.initializeElement(at: r, to: p.pointee.destination)
                                                            updOut.initializeElement(at: r, to: p.pointee.updatedAt.timeIntervalSinceReferenceDate)
                                                            let v = p.pointee.version
                                                            verOut.initializeElement(at: r, to: v < Int64(UInt16.max) ? UInt16(v) : .max)
                                                            let target = UnsafeMutableRawBufferPointer(
                                                                rebasing: UnsafeMutableRawBufferPointer(arenaOut)[Int(starts[r])..<Int(starts[r]) + Int(lengths[r])])
                                                            if p.pointee.id.utf8.withContiguousStorageIfAvailable({ target.copyMemory(from: UnsafeRawBufferPointer($0)) }) == nil {
                                                                for (k, b) in p.pointee.id.utf8.enumerated() { target[k] = b }
                                                            }
                                                            if p.pointee.attributesJSON != nil || v >= Int64(UInt16.max) {
                                                                extra.append((UInt32(truncatingIfNeeded: r), p.pointee.attributesJSON, v))
                                                            }
                                                        }
                                                        if warm.isNaN { extra.append((0, nil, 0)) }
                                                        sideOut[chunk] = extra
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        columns.hot = hot
        columns.filterKeys = hot.withUnsafeBufferPointer { h in
            Prefault.array(count: n) { keys in
                Parallel.forEachChunk(n) { _, range in
                    for r in range { keys.initializeElement(at: r, to: FilterKey.make(h[r])) }
                }
            }
        }
        columns.destination = destination
        columns.updatedAt = updatedAt
        columns.version = version
        columns.idStart = idStart
        columns.idLength = idLength
        columns.idBytes = arena
        (hot, destination, updatedAt, version, arena) = ([], [], [], [], [])
        for extra in side {
            for e in extra {
                if let a = e.attributes { columns.attributes[e.slot] = a }
                if e.version >= Int64(UInt16.max) { columns.largeVersions[e.slot] = e.version }
            }
        }

        // 4. The id table; of parties with the same id, the later in the input wins. Entries
        // are sorted by home bucket first (bucket << 39 | 7 tag bits << 32 | slot), so the table is
        // filled front to back instead of at random.
        var table = IDTable()
        table.reserveEmpty(n)
        var losers: [UInt32] = []
        let bucketBits = Int.bitWidth - table.capacity.leadingZeroBitCount
        let sortedInserts = bucketBits + 39 <= 64 && n <= Int(UInt32.max)
        var entries: [UInt64] = []
        columns.idStart.withUnsafeBufferPointer { starts in
            columns.idLength.withUnsafeBufferPointer { lengths in
                columns.idBytes.withUnsafeBytes { ar in
                    @inline(__always) func insert(home: Int, tag: UInt8, r: Int) {
                        let a = Int(starts[r]), la = Int(lengths[r])
                        let existing = table.insertUnlessPresent(home: home, tag: tag, slot: UInt32(truncatingIfNeeded: r)) { s in
                            Int(lengths[Int(s)]) == la && memcmp(ar.baseAddress! + a, ar.baseAddress! + Int(starts[Int(s)]), la) == 0
                        }
                        if let bucket = existing {
                            let other = table.slot(at: bucket)
                            if inputIndex(Int(other)) < inputIndex(r) {
                                table.setSlot(UInt32(truncatingIfNeeded: r), at: bucket)
                                losers.append(other)
                            } else {
                                losers.append(UInt32(truncatingIfNeeded: r))
                            }
                        }
                    }
                    @inline(__always) func hash(_ r: Int) -> UInt64 {
                        let a = Int(starts[r])
                        return IDHash.hash(UnsafeRawBufferPointer(rebasing: ar[a..<a + Int(lengths[r])]), seed: seed)
                    }
                    if sortedInserts {
                        entries = Prefault.array(count: n) { out in
                            for r in 0..<n {
                                let h = hash(r)
                                out.initializeElement(at: r, to: UInt64(table.home(h)) << 39 | UInt64(IDTable.tag(h) & 0x7F) << 32 | UInt64(r))
                            }
                        }
                        RadixSort.sort(&entries, lowBit: 39, keyBits: bucketBits)
                        for e in entries {
                            insert(home: Int(e >> 39), tag: 0x80 | UInt8(truncatingIfNeeded: (e >> 32) & 0x7F), r: Int(e & 0xFFFF_FFFF))
                        }
                        entries = []
                    } else {
                        for r in 0..<n {
                            let h = hash(r)
                            insert(home: table.home(h), tag: IDTable.tag(h), r: r)
                        }
                    }
                }
            }
        }
        columns.table = table

        // 5. The tree over the sorted codes (without the duplicates' losers).
        var slots: [UInt32]?
        if !losers.isEmpty {
            let dead = Set(losers)
            for slot in losers { columns.release(slot: slot) }
            var kept: [UInt32] = []
            var k = 0
            for r in 0..<n where !dead.contains(UInt32(r)) {
                keys[k] = keys[r]
                kept.append(UInt32(r))
                k += 1
            }
            keys.removeLast(n - k)
            slots = kept
        }
        order = []
        columns.hot.withUnsafeBufferPointer { hot in
            keys.withUnsafeBufferPointer { ks in
                if let slots {
                    slots.withUnsafeBufferPointer { s in tree.build(keys: ks, keyShift: keyShift, slots: s, hot: hot) }
                } else {
                    tree.build(keys: ks, keyShift: keyShift, slots: nil, hot: hot)
                }
            }
        }
        }
}
