/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320, as zlib's `crc32` and PNG), slicing by 8.
/// The graph file's checksum; `CRC32.checksum("123456789".utf8) == 0xCBF43926`.
struct CRC32 {
    private static let tables: [[UInt32]] = {
        var t = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[0][i] = c
        }
        for i in 0..<256 {
            for k in 1..<8 { t[k][i] = (t[k - 1][i] >> 8) ^ t[0][Int(t[k - 1][i] & 0xFF)] }
        }
        return t
    }()

    /// The running value (pre- and post-inverted as usual).
    private(set) var value: UInt32 = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var c = ~value
        Self.tables.withUnsafeBufferPointer { tables in
            let t0 = tables[0], t1 = tables[1], t2 = tables[2], t3 = tables[3]
            let t4 = tables[4], t5 = tables[5], t6 = tables[6], t7 = tables[7]
            t0.withUnsafeBufferPointer { t0 in t1.withUnsafeBufferPointer { t1 in t2.withUnsafeBufferPointer { t2 in
            t3.withUnsafeBufferPointer { t3 in t4.withUnsafeBufferPointer { t4 in t5.withUnsafeBufferPointer { t5 in
            t6.withUnsafeBufferPointer { t6 in t7.withUnsafeBufferPointer { t7 in
                var i = 0
                let n = bytes.count
                while i + 8 <= n {
                    let lo = bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self).littleEndian ^ c
                    let hi = bytes.loadUnaligned(fromByteOffset: i + 4, as: UInt32.self).littleEndian
                    c = t7[Int(lo & 0xFF)] ^ t6[Int((lo >> 8) & 0xFF)] ^ t5[Int((lo >> 16) & 0xFF)] ^ t4[Int(lo >> 24)]
                        ^ t3[Int(hi & 0xFF)] ^ t2[Int((hi >> 8) & 0xFF)] ^ t1[Int((hi >> 16) & 0xFF)] ^ t0[Int(hi >> 24)]
                    i += 8
                }
                while i < n {
                    c = t0[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
                    i += 1
                }
            } } } } } } } }
        }
        value = ~c
    }

    static func checksum<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var crc = CRC32()
        Array(bytes).withUnsafeBytes { crc.update($0) }
        return crc.value
    }
}
