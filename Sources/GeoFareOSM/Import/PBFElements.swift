import Foundation

/// The string table of one PBF primitive block: entries are borrowed from the decompressed block.
public struct PBFStringTable {
    @usableFromInline var starts: [Int] = []
    @usableFromInline var lengths: [Int] = []
    @usableFromInline var base: UnsafeRawPointer? = nil

    /// The number of strings.
    public var count: Int { starts.count }

    /// The bytes of string `index` (valid only while the block is being visited).
    @inlinable public func bytes(_ index: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base.map { $0 + starts[index] }, count: lengths[index])
    }

    /// String `index` decoded as UTF-8 (invalid sequences repaired).
    public func string(_ index: Int) -> String {
        String(decoding: bytes(index), as: UTF8.self)
    }

    /// Whether string `index` equals `text` byte for byte.
    @inlinable public func equals(_ index: Int, _ text: StaticString) -> Bool {
        let b = bytes(index)
        guard b.count == text.utf8CodeUnitCount else { return false }
        return b.count == 0 || memcmp(b.baseAddress!, text.utf8Start, b.count) == 0
    }

    mutating func reset(base: UnsafeRawPointer?) {
        starts.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        self.base = base
    }
}

/// The tags of one OSM element as indexes into the block's ``PBFStringTable``
/// (`keys[i]` = `values[i]`). Indexes are checked against the table before a visitor sees them.
public struct PBFTags {
    public internal(set) var keys: [UInt32] = [], values: [UInt32] = []
    public var count: Int { keys.count }

    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
    }
}

/// The member kinds of an OSM relation, as PBF codes them.
public enum PBFMemberType: UInt8, Sendable {
    case node = 0, way = 1, relation = 2
}

/// The members of one relation: ids (delta-decoded), types and role string indexes.
public struct PBFMembers {
    public internal(set) var ids: [Int64] = [], types: [PBFMemberType] = []
    public internal(set) var roles: [UInt32] = []
    public var count: Int { ids.count }

    mutating func removeAll() {
        ids.removeAll(keepingCapacity: true)
        types.removeAll(keepingCapacity: true)
        roles.removeAll(keepingCapacity: true)
    }
}

/// Which element kinds a pass over a PBF file decodes; blocks are still inflated, but the
/// groups of other kinds are skipped without decoding.
public struct PBFElementKinds: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let nodes = PBFElementKinds(rawValue: 1)
    public static let ways = PBFElementKinds(rawValue: 2)
    public static let relations = PBFElementKinds(rawValue: 4)
    public static let all: PBFElementKinds = [.nodes, .ways, .relations]
}

/// Receives the elements of a PBF file in file order. Arguments are borrowed: copy what you keep.
public protocol PBFVisitor {
    /// Called before the elements of each primitive block, with its string table.
    mutating func beginBlock(strings: PBFStringTable)
    /// A node; `latitude`/`longitude` in 1e-7 degrees (WGS84).
    mutating func node(id: Int64, latitude: Int32, longitude: Int32, tags: PBFTags, strings: PBFStringTable)
    /// A way with its node references in order.
    mutating func way(id: Int64, refs: [Int64], tags: PBFTags, strings: PBFStringTable)
    /// A relation with its members.
    mutating func relation(id: Int64, members: PBFMembers, tags: PBFTags, strings: PBFStringTable)
}

extension PBFVisitor {
    public mutating func beginBlock(strings: PBFStringTable) {}
    public mutating func node(id: Int64, latitude: Int32, longitude: Int32, tags: PBFTags, strings: PBFStringTable) {}
    public mutating func way(id: Int64, refs: [Int64], tags: PBFTags, strings: PBFStringTable) {}
    public mutating func relation(id: Int64, members: PBFMembers, tags: PBFTags, strings: PBFStringTable) {}
}
