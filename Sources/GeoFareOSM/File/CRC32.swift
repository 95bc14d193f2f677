import CZlib

/// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) through zlib's `crc32_z`, which the
/// PBF reader links anyway: the graph file's checksum.
/// `CRC32.checksum("123456789".utf8) == 0xCBF43926`. Public so that the places file
/// (`GeoFarePlaces`) checksums the same way.
public struct CRC32: Sendable {
    /// The running value (zlib's: pre- and post-inverted as usual).
    public private(set) var value: UInt32 = 0

    public init() {}

    /// Adds `bytes` to the running value.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        value = UInt32(crc32_z(UInt(value), base.assumingMemoryBound(to: UInt8.self), bytes.count))
    }

    /// The CRC-32 of `bytes`.
    public static func checksum<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var crc = CRC32()
        Array(bytes).withUnsafeBytes { crc.update($0) }
        return crc.value
    }
}
