/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), in Swift, eight bytes at a time
/// ("slicing by 8"): the checksum of the graph and places files.
/// `CRC32.checksum("123456789".utf8) == 0xCBF43926`, the value zlib's `crc32` gives, so files
/// written before read the same. In Swift so that reading a graph (the fare product) links no zlib.
public struct CRC32: Sendable {
    /// The running value (pre- and post-inverted as usual).
    public private(set) var value: UInt32 = 0

    public init() {}

    /// Eight tables of 256 entries, flat: `table[k × 256 + b]` is the CRC of byte `b` followed by
    /// `k` zero bytes.
    static let table: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for b in 0..<256 {
            var c = UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[b] = c
        }
        for k in 1..<8 {
            for b in 0..<256 { t[k * 256 + b] = (t[(k - 1) * 256 + b] >> 8) ^ t[Int(t[(k - 1) * 256 + b] & 0xFF)] }
        }
        return t
    }()

    /// Adds `bytes` to the running value.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        var c = ~value
        Self.table.withUnsafeBufferPointer { t in
            var i = 0
            let n = bytes.count
            while n - i >= 8 {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                let x = c ^ UInt32(truncatingIfNeeded: word), hi = UInt32(truncatingIfNeeded: word >> 32)
                c = t[7 * 256 + Int(x & 0xFF)] ^ t[6 * 256 + Int((x >> 8) & 0xFF)] ^ t[5 * 256 + Int((x >> 16) & 0xFF)] ^ t[4 * 256 + Int(x >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)] ^ t[256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < n {
                c = t[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }
        value = ~c
    }

    /// The CRC-32 of `bytes`.
    public static func checksum<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var crc = CRC32()
        Array(bytes).withUnsafeBytes { crc.update($0) }
        return crc.value
    }
}
