import GeoFareCore
/// Decodes one inflated `PrimitiveBlock` (string table, granularity, offsets; dense and plain
/// nodes, ways, relations) and hands its elements to a ``PBFVisitor``.
///
/// Scratch arrays are kept between blocks, so decoding allocates only when a block is larger
/// than any before it.
struct PBFBlockDecoder {
    var strings = PBFStringTable()
    var tags = PBFTags()
    var members = PBFMembers()
    var refs: [Int64] = []
    /// Packed fields of the block being decoded, reused from block to block.
    var scratchA: [UInt64] = [], scratchB: [UInt64] = [], scratchC: [UInt64] = [], scratchD: [UInt64] = [], scratchE: [UInt64] = []
    /// The newest object timestamp seen, seconds since 1970 (0 when none).
    var newestTimestampSeconds: Int64 = 0

    private var granularity: Int64 = 100
    private var latOffset: Int64 = 0
    private var lonOffset: Int64 = 0
    private var dateGranularity: Int64 = 1000

    /// Decodes `block` (the inflated bytes of an `OSMData` blob) and visits its elements of `kinds`.
    mutating func decode<V: PBFVisitor>(_ block: UnsafeRawBufferPointer, kinds: PBFElementKinds, visitor: inout V) throws(GeoFareError) {
        granularity = 100; latOffset = 0; lonOffset = 0; dateGranularity = 1000
        strings.reset(base: block.baseAddress.map { UnsafeRawPointer($0) })
        var groups: [UnsafeRawBufferPointer] = []
        var r = ProtobufReader(block)
        let blockBase = block.baseAddress.map { UnsafeRawPointer($0) }
        while !r.isAtEnd {
            let (field, wire) = try r.key()
            switch (field, wire) {
            case (1, .lengthDelimited):
                var st = ProtobufReader(try r.bytes())
                while !st.isAtEnd {
                    let (f, w) = try st.key()
                    if f == 1, w == .lengthDelimited {
                        let s = try st.bytes()
                        strings.starts.append(s.count == 0 ? 0 : blockBase!.distance(to: UnsafeRawPointer(s.baseAddress!)))
                        strings.lengths.append(s.count)
                    } else { try st.skip(w) }
                }
            case (2, .lengthDelimited): groups.append(try r.bytes())
            case (17, .varint): granularity = try r.int64()
            case (18, .varint): dateGranularity = try r.int64()
            case (19, .varint): latOffset = try r.int64()
            case (20, .varint): lonOffset = try r.int64()
            default: try r.skip(wire)
            }
        }
        guard granularity > 0, granularity <= 1_000_000_000 else { throw .corrupt("granularity \(granularity) out of range") }
        guard dateGranularity > 0, dateGranularity <= 1_000_000_000 else { throw .corrupt("date_granularity \(dateGranularity) out of range") }
        visitor.beginBlock(strings: strings)
        for group in groups {
            var g = ProtobufReader(group)
            while !g.isAtEnd {
                let (field, wire) = try g.key()
                switch (field, wire) {
                case (1, .lengthDelimited):
                    let bytes = try g.bytes()
                    if kinds.contains(.nodes) { try decodeNode(bytes, visitor: &visitor) }
                case (2, .lengthDelimited):
                    let bytes = try g.bytes()
                    if kinds.contains(.nodes) { try decodeDense(bytes, visitor: &visitor) }
                case (3, .lengthDelimited):
                    let bytes = try g.bytes()
                    if kinds.contains(.ways) { try decodeWay(bytes, visitor: &visitor) }
                case (4, .lengthDelimited):
                    let bytes = try g.bytes()
                    if kinds.contains(.relations) { try decodeRelation(bytes, visitor: &visitor) }
                default: try g.skip(wire)
                }
            }
        }
    }

    /// Latitude or longitude in 1e-7 degrees from a raw PBF value: `offset + granularity * raw` nanodegrees.
    @inline(__always)
    private func coordinate(_ raw: Int64, offset: Int64, limit: Int64) throws(GeoFareError) -> Int32 {
        let (scaled, o1) = raw.multipliedReportingOverflow(by: granularity)
        let (nano, o2) = scaled.addingReportingOverflow(offset)
        guard !o1, !o2 else { throw .corrupt("coordinate overflows") }
        // round half away from zero to 1e-7 degrees (exact for the usual granularity 100)
        let e7 = nano >= 0 ? (nano + 50) / 100 : (nano - 50) / 100
        guard e7 >= -limit, e7 <= limit else { throw .corrupt("coordinate \(Double(e7) / 1e7)° out of range") }
        return Int32(e7)
    }

    @inline(__always)
    private func checkString(_ index: UInt64) throws(GeoFareError) -> UInt32 {
        guard index < UInt64(strings.count) else { throw .corrupt("string index \(index) beyond the string table (\(strings.count))") }
        return UInt32(index)
    }

    private mutating func noteTimestamp(_ raw: Int64) {
        let (ms, overflow) = raw.multipliedReportingOverflow(by: dateGranularity)
        if !overflow, ms / 1000 > newestTimestampSeconds { newestTimestampSeconds = ms / 1000 }
    }

    /// Reads the timestamp (field 2) of an `Info` message.
    private mutating func decodeInfo(_ bytes: UnsafeRawBufferPointer) throws(GeoFareError) {
        var r = ProtobufReader(bytes)
        while !r.isAtEnd {
            let (f, w) = try r.key()
            if f == 2, w == .varint { noteTimestamp(try r.int64()) } else { try r.skip(w) }
        }
    }

    private mutating func decodeNode<V: PBFVisitor>(_ bytes: UnsafeRawBufferPointer, visitor: inout V) throws(GeoFareError) {
        var r = ProtobufReader(bytes)
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        scratchA.removeAll(keepingCapacity: true)
        scratchB.removeAll(keepingCapacity: true)
        while !r.isAtEnd {
            let (f, w) = try r.key()
            switch (f, w) {
            case (1, .varint): id = try r.sint64()
            case (2, _): try ProtobufReader.appendVarints(w, from: &r, to: &scratchA)
            case (3, _): try ProtobufReader.appendVarints(w, from: &r, to: &scratchB)
            case (4, .lengthDelimited): try decodeInfo(try r.bytes())
            case (8, .varint): lat = try r.sint64()
            case (9, .varint): lon = try r.sint64()
            default: try r.skip(w)
            }
        }
        try fillTags(keys: scratchA, values: scratchB)
        visitor.node(id: id, latitude: try coordinate(lat, offset: latOffset, limit: 900_000_000),
                     longitude: try coordinate(lon, offset: lonOffset, limit: 1_800_000_000), tags: tags, strings: strings)
    }

    private mutating func fillTags(keys: [UInt64], values: [UInt64]) throws(GeoFareError) {
        guard keys.count == values.count else { throw .corrupt("\(keys.count) tag keys but \(values.count) values") }
        tags.removeAll()
        for i in 0..<keys.count {
            tags.keys.append(try checkString(keys[i]))
            tags.values.append(try checkString(values[i]))
        }
    }

    private mutating func decodeDense<V: PBFVisitor>(_ bytes: UnsafeRawBufferPointer, visitor: inout V) throws(GeoFareError) {
        var r = ProtobufReader(bytes)
        scratchA.removeAll(keepingCapacity: true) // ids
        scratchB.removeAll(keepingCapacity: true) // lats
        scratchC.removeAll(keepingCapacity: true) // lons
        scratchD.removeAll(keepingCapacity: true) // keys_vals
        scratchE.removeAll(keepingCapacity: true) // timestamps
        while !r.isAtEnd {
            let (f, w) = try r.key()
            switch f {
            case 1: try ProtobufReader.appendVarints(w, from: &r, to: &scratchA)
            case 5 where w == .lengthDelimited:
                var info = ProtobufReader(try r.bytes())
                while !info.isAtEnd {
                    let (fi, wi) = try info.key()
                    if fi == 2 { try ProtobufReader.appendVarints(wi, from: &info, to: &scratchE) } else { try info.skip(wi) }
                }
            case 8: try ProtobufReader.appendVarints(w, from: &r, to: &scratchB)
            case 9: try ProtobufReader.appendVarints(w, from: &r, to: &scratchC)
            case 10: try ProtobufReader.appendVarints(w, from: &r, to: &scratchD)
            default: try r.skip(w)
            }
        }
        let n = scratchA.count
        guard scratchB.count == n, scratchC.count == n else {
            throw .corrupt("dense nodes: \(n) ids, \(scratchB.count) latitudes, \(scratchC.count) longitudes")
        }
        var ts: Int64 = 0
        for t in scratchE { ts = ts &+ t.zigzag; noteTimestamp(ts) }
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        var kv = 0
        let hasTags = !scratchD.isEmpty
        for i in 0..<n {
            id = id &+ scratchA[i].zigzag
            lat = lat &+ scratchB[i].zigzag
            lon = lon &+ scratchC[i].zigzag
            tags.removeAll()
            if hasTags {
                while true {
                    guard kv < scratchD.count else { throw .corrupt("dense nodes: keys_vals ends inside node \(id)") }
                    let k = scratchD[kv]; kv += 1
                    if k == 0 { break }
                    guard kv < scratchD.count else { throw .corrupt("dense nodes: keys_vals ends inside a tag of node \(id)") }
                    let v = scratchD[kv]; kv += 1
                    tags.keys.append(try checkString(k))
                    tags.values.append(try checkString(v))
                }
            }
            visitor.node(id: id, latitude: try coordinate(lat, offset: latOffset, limit: 900_000_000),
                         longitude: try coordinate(lon, offset: lonOffset, limit: 1_800_000_000), tags: tags, strings: strings)
        }
    }

    private mutating func decodeWay<V: PBFVisitor>(_ bytes: UnsafeRawBufferPointer, visitor: inout V) throws(GeoFareError) {
        var r = ProtobufReader(bytes)
        var id: Int64 = 0
        scratchA.removeAll(keepingCapacity: true)
        scratchB.removeAll(keepingCapacity: true)
        scratchC.removeAll(keepingCapacity: true)
        while !r.isAtEnd {
            let (f, w) = try r.key()
            switch (f, w) {
            case (1, .varint): id = try r.int64()
            case (2, _): try ProtobufReader.appendVarints(w, from: &r, to: &scratchA)
            case (3, _): try ProtobufReader.appendVarints(w, from: &r, to: &scratchB)
            case (4, .lengthDelimited): try decodeInfo(try r.bytes())
            case (8, _): try ProtobufReader.appendVarints(w, from: &r, to: &scratchC)
            default: try r.skip(w)
            }
        }
        try fillTags(keys: scratchA, values: scratchB)
        refs.removeAll(keepingCapacity: true)
        var ref: Int64 = 0
        for d in scratchC { ref = ref &+ d.zigzag; refs.append(ref) }
        visitor.way(id: id, refs: refs, tags: tags, strings: strings)
    }

    private mutating func decodeRelation<V: PBFVisitor>(_ bytes: UnsafeRawBufferPointer, visitor: inout V) throws(GeoFareError) {
        var r = ProtobufReader(bytes)
        var id: Int64 = 0
        scratchA.removeAll(keepingCapacity: true) // keys
        scratchB.removeAll(keepingCapacity: true) // vals
        scratchC.removeAll(keepingCapacity: true) // roles_sid
        scratchD.removeAll(keepingCapacity: true) // memids
        scratchE.removeAll(keepingCapacity: true) // types
        while !r.isAtEnd {
            let (f, w) = try r.key()
            switch (f, w) {
            case (1, .varint): id = try r.int64()
            case (2, _): try ProtobufReader.appendVarints(w, from: &r, to: &scratchA)
            case (3, _): try ProtobufReader.appendVarints(w, from: &r, to: &scratchB)
            case (4, .lengthDelimited): try decodeInfo(try r.bytes())
            case (8, _): try ProtobufReader.appendVarints(w, from: &r, to: &scratchC)
            case (9, _): try ProtobufReader.appendVarints(w, from: &r, to: &scratchD)
            case (10, _): try ProtobufReader.appendVarints(w, from: &r, to: &scratchE)
            default: try r.skip(w)
            }
        }
        try fillTags(keys: scratchA, values: scratchB)
        let n = scratchD.count
        guard scratchC.count == n, scratchE.count == n else {
            throw .corrupt("relation \(id): \(n) member ids, \(scratchC.count) roles, \(scratchE.count) types")
        }
        members.removeAll()
        var mid: Int64 = 0
        for i in 0..<n {
            mid = mid &+ scratchD[i].zigzag
            guard scratchE[i] <= 2, let type = PBFMemberType(rawValue: UInt8(scratchE[i])) else {
                throw .corrupt("relation \(id): member type \(scratchE[i])")
            }
            // roles_sid is int32 (not zigzag); negative values would be sign-extended varints
            members.ids.append(mid)
            members.types.append(type)
            members.roles.append(try checkString(scratchC[i]))
        }
        visitor.relation(id: id, members: members, tags: tags, strings: strings)
    }
}
