import Foundation
import GeoFareCore

/// An in-memory spatial index of taxi parties: radius and nearest-neighbour queries and
/// zoom-level grid clustering, updated in place.
///
/// **Model.** Parties are kept in columns (structure of arrays, ids in one byte arena) and
/// their origins in a bucket quadtree over Web Mercator cells. With 256-px tiles and cells of
/// `cellSizePixels` = 2^k px, the cells of zoom z are quadtree level z + 8 − k, so cells nest:
/// a cell at zoom z is exactly the union of its four children at z + 1. Every tree node keeps
/// the count, the exact coordinate sums (1e-9° units) and the bounds of the parties under it,
/// updated on each write along one root-to-leaf path. Unfiltered cluster queries read these
/// aggregates and scan only the (≤ 64) parties of leaves shallower than the zoom's level;
/// filtered queries scan the parties of the viewport's cells.
///
/// **Concurrency.** Not `Sendable` and not thread-safe: one owner (the worker's thread)
/// creates, mutates and queries an index; to serve several threads, put it behind an actor
/// or a lock. (A large bulk load and a filtered query over most parties use all cores
/// internally and return when done.)
///
/// **Memory.** About 84 bytes per party for short ids after a bulk load: 32 of position and
/// filter fields, 4 of filter key, 26 of other fields, 5 + the id's bytes, ~6 of id hash
/// table and ~4 of tree (leaves that updates have touched cost ~5 bytes a party more);
/// attributes and versions ≥ 65,535 extra. ``estimatedBytes`` reports it.
public final class PartyIndex {
    let grid: CellGrid
    var columns = PartyColumns()
    var tree: QuadTree

    /// The grid's cell size in pixels on 256-px tiles (16...256, a power of two).
    public let cellSizePixels: Int

    /// Creates an empty index.
    /// - Parameter cellSizePixels: the clustering cell size in pixels on 256-px tiles: a power
    ///   of two, 16...256 (default 64).
    /// - Throws: ``GeoFareError`` `invalid_value` naming `cell_size_pixels`.
    /// - Complexity: O(1).
    public init(cellSizePixels: Int = 64) throws(GeoFareError) {
        guard (16...256).contains(cellSizePixels), cellSizePixels.nonzeroBitCount == 1 else {
            throw .invalidCellSize(cellSizePixels)
        }
        self.cellSizePixels = cellSizePixels
        grid = CellGrid(cellShift: cellSizePixels.trailingZeroBitCount)
        tree = QuadTree(grid: grid)
    }

    /// The number of parties.
    /// - Complexity: O(1).
    public var count: Int { columns.count }

    /// Bytes the index holds in its arrays (capacity; excludes allocator overhead).
    /// - Complexity: O(leaves).
    public var estimatedBytes: Int { columns.estimatedBytes + tree.estimatedBytes }

    // MARK: Writes

    /// Inserts a party, or replaces the party with the same id, in place.
    ///
    /// A party that did not move keeps its place in the tree; a moved one is removed from its
    /// old leaf and added to its new one, updating one aggregate per level. The party must be
    /// valid (``Party/validate()``); an invalid one stops the process (a precondition), since
    /// the index cannot represent it.
    /// - Complexity: O(tree depth) ≤ 25 node updates; amortised O(64) for a leaf split or merge.
    public func upsert(_ party: Party) {
        precondition(PartyIndex.isValid(party), "PartyIndex.upsert: invalid party '\(party.id)'; call Party.validate() first")
        let y = grid.y(latitude: party.origin.latitude)
        PartyColumns.withBytes(of: party.id) { bytes in
            if let found = columns.lookup(bytes) {
                let slot = found.slot
                let old = columns.hot[Int(slot)]
                columns.write(party, y: y, to: slot)
                if old.lon != party.origin.longitude || old.lat != party.origin.latitude {
                    columns.hot.withUnsafeBufferPointer { hot in
                        tree.remove(slot: slot, at: old, hot: hot)
                        tree.insert(slot: slot, hot: hot)
                    }
                }
            } else {
                let slot = columns.add(party, bytes: bytes, y: y)
                columns.hot.withUnsafeBufferPointer { tree.insert(slot: slot, hot: $0) }
            }
        }
    }

    /// Inserts or replaces many parties; later parties win over earlier ones with the same id.
    ///
    /// Into an empty index this is a bulk load, an order of magnitude faster than one
    /// ``upsert(_:)`` per party: it sorts the parties by cell (radix sort, on all cores), lays
    /// the columns out in that order (so each leaf's parties are adjacent in memory) and
    /// builds the tree bottom-up. Every party must be valid (a precondition, as for
    /// ``upsert(_:)``).
    /// - Complexity: O(n) for a bulk load, else O(n · depth).
    public func upsert<C: Collection>(contentsOf parties: C) where C.Element == Party {
        guard count == 0 && columns.slotCount == 0 && parties.count >= 1_024 else {
            for p in parties { upsert(p) }
            return
        }
        if let array = parties as? [Party] { bulkLoad(array) } else { bulkLoad(Array(parties)) }
    }

    /// Removes a party.
    /// - Returns: the removed party, or `nil` when no party has that id.
    /// - Complexity: O(tree depth), plus O(64) when the party sat on its leaf's bounds.
    @discardableResult
    public func remove(id: String) -> Party? {
        guard let (slot, bucket) = columns.find(id: id) else { return nil }
        let party = columns.party(at: slot)
        let old = columns.hot[Int(slot)]
        columns.free(slot: slot, bucket: bucket)
        columns.hot.withUnsafeBufferPointer { tree.remove(slot: slot, at: old, hot: $0) }
        return party
    }

    // MARK: Reads

    /// The party with an id (compared by UTF-8 bytes), or `nil`.
    /// - Complexity: O(1) expected.
    public func party(id: String) -> Party? {
        columns.find(id: id).map { columns.party(at: $0.slot) }
    }

    /// Every party, sorted by id (UTF-8 byte order).
    /// - Complexity: O(n log n).
    public func allParties() -> [Party] {
        var slots: [UInt32] = []
        slots.reserveCapacity(count)
        for s in 0..<columns.slotCount where columns.hot[s].status != HotRecord.freeSlot { slots.append(UInt32(s)) }
        sortByID(&slots)
        return slots.map { columns.party(at: $0) }
    }

    // MARK: Helpers

    static func isValid(_ p: Party) -> Bool {
        do { try p.validate() } catch { return false }
        return true
    }

    /// Sorts slots by their ids' UTF-8 bytes.
    func sortByID(_ slots: inout [UInt32]) {
        columns.sortByID(&slots)
    }
}

@available(*, unavailable, message: "PartyIndex has one owner; put it behind an actor or a lock to share it")
extension PartyIndex: Sendable {}
