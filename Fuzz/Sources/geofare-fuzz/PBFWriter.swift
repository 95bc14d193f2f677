import Foundation

// A copy of Tests/GeoFareGraphTests/PBFWriter.swift (test code, not a product API): real PBF
// encoding (BlobHeader/Blob with raw data, OSMHeader, one PrimitiveBlock with DenseNodes, Ways
// and Relations), used here to write the seed extracts the PBF, graph-file and places-file
// targets start from, and the small graph and places index the worker target loads.

struct PBFWriter {
    struct Node { var id: Int64; var lat: Double; var lon: Double; var tags: [(String, String)] = [] }
    struct Way { var id: Int64; var refs: [Int64]; var tags: [(String, String)] }
    struct Member { var type: UInt64; var id: Int64; var role: String }
    struct Relation { var id: Int64; var members: [Member]; var tags: [(String, String)] }

    var nodes: [Node] = []
    var ways: [Way] = []
    var relations: [Relation] = []
    var requiredFeatures = ["OsmSchema-V0.6", "DenseNodes"]
    var replicationTimestamp: Int64? = nil
    var waysFirst = false

    private var strings: [String] = [""]
    private var stringIndex: [String: Int] = ["": 0]

    mutating func string(_ s: String) -> UInt64 {
        if let i = stringIndex[s] { return UInt64(i) }
        strings.append(s); stringIndex[s] = strings.count - 1
        return UInt64(strings.count - 1)
    }

    mutating func encode() -> Data {
        var header = Proto()
        for f in requiredFeatures { header.bytes(4, Array(f.utf8)) }
        header.bytes(16, Array("GeoFareFuzz".utf8))
        if let t = replicationTimestamp { header.varint(32, UInt64(t)) }

        var dense = Proto()
        var ids = Proto(), lats = Proto(), lons = Proto(), kv = Proto()
        var pid: Int64 = 0, plat: Int64 = 0, plon: Int64 = 0
        for n in nodes {
            let lat = Int64((n.lat * 1e7).rounded()), lon = Int64((n.lon * 1e7).rounded())
            ids.raw(zigzag(n.id - pid)); lats.raw(zigzag(lat - plat)); lons.raw(zigzag(lon - plon))
            pid = n.id; plat = lat; plon = lon
            for (k, v) in n.tags { kv.raw(string(k)); kv.raw(string(v)) }
            kv.raw(0)
        }
        dense.bytes(1, ids.out); dense.bytes(8, lats.out); dense.bytes(9, lons.out); dense.bytes(10, kv.out)
        var nodeGroup = Proto()
        nodeGroup.bytes(2, dense.out)

        var wayGroup = Proto()
        for w in ways {
            var m = Proto(), keys = Proto(), vals = Proto(), refs = Proto()
            m.varint(1, UInt64(bitPattern: w.id))
            for (k, v) in w.tags { keys.raw(string(k)); vals.raw(string(v)) }
            var prev: Int64 = 0
            for r in w.refs { refs.raw(zigzag(r - prev)); prev = r }
            m.bytes(2, keys.out); m.bytes(3, vals.out); m.bytes(8, refs.out)
            wayGroup.bytes(3, m.out)
        }
        var relGroup = Proto()
        for r in relations {
            var m = Proto(), keys = Proto(), vals = Proto(), roles = Proto(), memids = Proto(), types = Proto()
            m.varint(1, UInt64(bitPattern: r.id))
            for (k, v) in r.tags { keys.raw(string(k)); vals.raw(string(v)) }
            var prev: Int64 = 0
            for mem in r.members { roles.raw(string(mem.role)); memids.raw(zigzag(mem.id - prev)); prev = mem.id; types.raw(mem.type) }
            m.bytes(2, keys.out); m.bytes(3, vals.out); m.bytes(8, roles.out); m.bytes(9, memids.out); m.bytes(10, types.out)
            relGroup.bytes(4, m.out)
        }
        var table = Proto()
        for s in strings { table.bytes(1, Array(s.utf8)) }
        var block = Proto()
        block.bytes(1, table.out)
        if waysFirst {
            block.bytes(2, wayGroup.out); block.bytes(2, relGroup.out); block.bytes(2, nodeGroup.out)
        } else {
            block.bytes(2, nodeGroup.out); block.bytes(2, wayGroup.out); block.bytes(2, relGroup.out)
        }
        var file = Data()
        Self.appendBlob(&file, type: "OSMHeader", content: header.out)
        Self.appendBlob(&file, type: "OSMData", content: block.out)
        return file
    }

    static func appendBlob(_ file: inout Data, type: String, content: [UInt8]) {
        var blob = Proto()
        blob.bytes(1, content)
        blob.varint(2, UInt64(content.count))
        var header = Proto()
        header.bytes(1, Array(type.utf8))
        header.varint(3, UInt64(blob.out.count))
        let n = UInt32(header.out.count)
        file.append(contentsOf: [UInt8(n >> 24), UInt8((n >> 16) & 0xFF), UInt8((n >> 8) & 0xFF), UInt8(n & 0xFF)])
        file.append(contentsOf: header.out)
        file.append(contentsOf: blob.out)
    }

    private func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
}

/// Protobuf wire-format encoding for the writer.
struct Proto {
    var out: [UInt8] = []
    mutating func raw(_ v: UInt64) {
        var v = v
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        out.append(UInt8(v))
    }
    mutating func varint(_ field: UInt64, _ v: UInt64) { raw(field << 3); raw(v) }
    mutating func bytes(_ field: UInt64, _ b: [UInt8]) { raw(field << 3 | 2); raw(UInt64(b.count)); out.append(contentsOf: b) }
}
