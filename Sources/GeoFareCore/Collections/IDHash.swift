/// A fast seeded 64-bit hash of short byte strings (party ids) for the id table.
///
/// Eight bytes at a time, each word mixed in with a multiply and an xor-shift, finished with
/// MurmurHash3's 64-bit finaliser. Not cryptographic; the seed is random per index, so
/// colliding ids cannot be prepared in advance without seeing the process.
public enum IDHash {
    @inlinable @inline(__always)
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
        let n = bytes.count
        var h = seed ^ (UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15)
        var i = 0
        while i + 8 <= n {
            let w = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            h = (h ^ w) &* 0xBF58_476D_1CE4_E5B9
            h ^= h >> 31
            i += 8
        }
        if i < n {
            var w: UInt64 = 0
            var shift: UInt64 = 0
            while i < n {
                w |= UInt64(bytes[i]) << shift
                shift += 8
                i += 1
            }
            h = (h ^ w) &* 0x94D0_49BB_1331_11EB
            h ^= h >> 29
        }
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }
}
