import GeoFareCore
/// A minimal protocol-buffers wire-format reader over borrowed bytes: varints, zigzag, and
/// length-delimited fields as sub-buffers. Every read is bounds-checked and throws
/// `pbf_corrupt` instead of trapping, so corrupt input cannot crash or hang the decoder
/// (each call consumes at least one byte or throws).
///
/// The caller keeps the underlying bytes alive while the reader and its sub-buffers are used.
struct ProtobufReader {
    /// Wire types of the protobuf encoding.
    enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    private(set) var position: Int
    let end: Int
    let base: UnsafeRawPointer?

    init(_ bytes: UnsafeRawBufferPointer) {
        base = bytes.baseAddress.map { UnsafeRawPointer($0) }
        position = 0
        end = bytes.count
    }

    var isAtEnd: Bool { position >= end }

    /// Reads a base-128 varint of at most 10 bytes.
    @inline(__always)
    mutating func varint() throws(GeoFareError) -> UInt64 {
        guard let base else { throw .corrupt("varint past the end of a message") }
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw .corrupt("varint past the end of a message") }
            let byte = base.load(fromByteOffset: position, as: UInt8.self)
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            guard shift < 64 else { throw .corrupt("varint longer than 10 bytes") }
        }
    }

    @inline(__always)
    mutating func sint64() throws(GeoFareError) -> Int64 {
        let v = try varint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }

    @inline(__always)
    mutating func int64() throws(GeoFareError) -> Int64 { Int64(bitPattern: try varint()) }

    /// A field key: (field number, wire type). Unknown wire types (groups, 6, 7) are corrupt here.
    @inline(__always)
    mutating func key() throws(GeoFareError) -> (field: UInt64, wire: WireType) {
        let k = try varint()
        guard let wire = WireType(rawValue: UInt8(k & 7)) else {
            throw .corrupt("unsupported protobuf wire type \(k & 7)")
        }
        let field = k >> 3
        guard field > 0 else { throw .corrupt("protobuf field number 0") }
        return (field, wire)
    }

    /// The bytes of a length-delimited field.
    @inline(__always)
    mutating func bytes() throws(GeoFareError) -> UnsafeRawBufferPointer {
        let length = try varint()
        guard length <= UInt64(end - position) else {
            throw .corrupt("field of \(length) bytes overruns its message (\(end - position) left)")
        }
        let start = base!.advanced(by: position)
        position += Int(length)
        return UnsafeRawBufferPointer(start: start, count: Int(length))
    }

    /// Skips a field of the given wire type.
    mutating func skip(_ wire: WireType) throws(GeoFareError) {
        switch wire {
        case .varint: _ = try varint()
        case .lengthDelimited: _ = try bytes()
        case .fixed64:
            guard end - position >= 8 else { throw .corrupt("fixed64 past the end of a message") }
            position += 8
        case .fixed32:
            guard end - position >= 4 else { throw .corrupt("fixed32 past the end of a message") }
            position += 4
        }
    }

    /// Decodes a repeated integer field: packed (length-delimited) or one unpacked varint,
    /// appending each raw varint to `out`.
    static func appendVarints(_ wire: WireType, from reader: inout ProtobufReader, to out: inout [UInt64]) throws(GeoFareError) {
        switch wire {
        case .varint: out.append(try reader.varint())
        case .lengthDelimited:
            var packed = ProtobufReader(try reader.bytes())
            while !packed.isAtEnd { out.append(try packed.varint()) }
        default: throw .corrupt("repeated integer field with wire type \(wire.rawValue)")
        }
    }
}

extension UInt64 {
    /// The zigzag-decoded signed value.
    @inline(__always) var zigzag: Int64 { Int64(bitPattern: (self >> 1) ^ (0 &- (self & 1))) }
}
