import Foundation
import GeoFareCore
import Synchronization

/// The in-memory index of parties (``PartyIndex``) kept coherent with a party store: the store (a SQLite file or a
/// PostgreSQL database, any ``PartyStore``) is the truth, the index answers the queries.
///
/// - At start the index is built from one snapshot of the store through the bulk path.
/// - Writes are committed to the store in groups (``commit(_:)``: one transaction) and only
///   then applied to the index in place (no rebuild).
/// - ``sync()`` runs before every op that reads or reports parties (once per batch of requests
///   read together, inside ``batch(_:)``): when the store says
///   another process wrote (SQLite: `PRAGMA data_version`; PostgreSQL: always, as one feed
///   query), it applies the change feed to the index; when more than `reloadAfterChanges`
///   changes are waiting (another process imported many parties), it rebuilds the index from
///   a new snapshot instead, which costs less than applying them one by one. When the store
///   fails (PostgreSQL down), the op gets `storage_error` and the next sync reconnects and
///   catches up from the last sequence number.
///
/// Used from the worker loop's thread only (the loop runs party ops in order there).
public final class LivePartyIndex: @unchecked Sendable {
    public let store: any PartyStore
    /// The index the queries read; replaced whole by a reload.
    public private(set) var index: PartyIndex
    private let cellSizePixels: Int
    /// Waiting changes above which ``sync()`` reloads instead of applying them.
    public let reloadAfterChanges: Int
    /// The newest change the index reflects.
    private var lastSeq: Int64
    /// Where catch-up reports go (the worker's standard error); `nil`: nowhere.
    private let log: (@Sendable (String) -> Void)?

    /// Set by the store's change notices (PostgreSQL NOTIFY), on its event loop.
    private let noticed = ChangeNotice()
    /// Catch-ups done while no request was waiting, because the store sent a notice.
    public private(set) var idleCatchUps = 0

    /// Inside ``batch(_:)``: whether a sync succeeded since the batch began.
    private var inBatch = false
    private var syncedThisBatch = false
    /// Store reads that looked for other processes' changes (``externallyChanged`` and, on a
    /// change, the feed), and syncs skipped because the batch had already looked.
    public private(set) var feedChecks = 0
    public private(set) var feedChecksShared = 0

    /// The number of parties in the index (= in the store, after a sync).
    public var count: Int { index.count }

    /// The newest change sequence number the index reflects.
    public var feedSeq: Int64 { lastSeq }

    /// A flag set from any thread.
    final class ChangeNotice: Sendable {
        let flag = Atomic<Bool>(false)
    }

    /// Opens the service over a store, loading every stored party into the index.
    /// - Parameters:
    ///   - reloadAfterChanges: see ``reloadAfterChanges``; applying a change costs about as
    ///     much as reloading 5 parties, so the default reloads a 50,000-party store rather than
    ///     apply more than 10,000 changes.
    ///   - log: receives one line per reload (how many changes, how long).
    /// - Throws: ``GeoFareError``: the store's, or a bad cell size.
    public init(store: any PartyStore, cellSizePixels: Int = 64, reloadAfterChanges: Int = 10_000,
                log: (@Sendable (String) -> Void)? = nil) throws(GeoFareError) {
        self.store = store
        self.cellSizePixels = cellSizePixels
        self.reloadAfterChanges = max(0, reloadAfterChanges)
        self.log = log
        let (parties, last) = try store.snapshot()
        index = try Self.bulkIndex(parties, cellSizePixels: cellSizePixels)
        lastSeq = last
        try store.pruneChanges(olderThan: 86_400, now: Date())
        let noticed = self.noticed
        store.onChangeNotice { noticed.flag.store(true, ordering: .releasing) }
    }

    /// Between requests (the loop calls it while it waits for input): when the store sent a
    /// change notice since the last call, catches up now, so that a quiet worker's index is
    /// current before its next request. A store failure is left for the next request to report.
    /// - Returns: whether changes were applied.
    @discardableResult
    public func catchUpIfNoticed() -> Bool {
        guard noticed.flag.exchange(false, ordering: .acquiringAndReleasing) else { return false }
        guard let applied = try? syncNow(), applied > 0 else { return false }
        idleCatchUps += 1
        return true
    }

    /// An index built through the bulk path (laid out in cell order: faster queries than
    /// one-by-one inserts).
    static func bulkIndex(_ parties: [Party], cellSizePixels: Int) throws(GeoFareError) -> PartyIndex {
        let index = try PartyIndex(cellSizePixels: cellSizePixels)
        index.upsert(contentsOf: parties)
        return index
    }

    /// Applies other processes' changes, if any: one by one when few are waiting, by a reload
    /// from a new snapshot when more than ``reloadAfterChanges`` are.
    /// - Returns: how many changes were applied (0: none waiting).
    /// - Throws: ``GeoFareError``; the index is then unchanged.
    ///
    /// Inside ``batch(_:)`` only the first successful sync reads the store; the ops after it
    /// share what it found (a failed sync is tried again by the next op).
    @discardableResult
    public func sync() throws(GeoFareError) -> Int64 {
        if inBatch && syncedThisBatch {
            feedChecksShared += 1
            return 0
        }
        let applied = try syncNow()
        if inBatch { syncedThisBatch = true }
        return applied
    }

    /// Runs `body` with one store check shared by every ``sync()`` in it. The worker loop wraps
    /// each batch of requests it read together in one: every request of the batch arrived
    /// before its first sync read the store, so a change committed before a request was sent is
    /// still seen by that request, while a pipelining client's hundreds of `nearby` requests
    /// cost one feed query (one round trip on PostgreSQL), not one each.
    public func batch<T>(_ body: () throws -> T) rethrows -> T {
        inBatch = true
        syncedThisBatch = false
        defer { inBatch = false; syncedThisBatch = false }
        return try body()
    }

    private func syncNow() throws(GeoFareError) -> Int64 {
        feedChecks += 1
        guard try store.externallyChanged() else { return 0 }
        if let (changes, last) = try store.changes(after: lastSeq, limit: reloadAfterChanges) {
            for change in changes {
                if let party = change.party { index.upsert(party) } else { index.remove(id: change.id) }
            }
            defer { lastSeq = last }
            return last - lastSeq
        }
        let start = Date()
        let (parties, last) = try store.snapshot()
        index = try Self.bulkIndex(parties, cellSizePixels: cellSizePixels)
        log?("caught up \(last - lastSeq) changes by reloading \(parties.count) parties in \(Int((Date().timeIntervalSince(start) * 1000).rounded())) ms")
        defer { lastSeq = last }
        return last - lastSeq
    }

    /// Commits `writes` to the store as one transaction, then applies them to the index.
    /// - Returns: what each write did, once committed.
    /// - Throws: ``GeoFareError``; then nothing of the group was written, and the index is unchanged.
    public func commit(_ writes: [PartyWrite]) throws(GeoFareError) -> [PartyWriteResult] {
        let results = try store.write(writes, now: Date())
        for result in results {
            switch result {
            case let .upserted(party, _): index.upsert(party)
            case let .removed(id, _): index.remove(id: id)
            }
            // Our own change, next in the feed: it need not be read back.
            if let seq = result.seq, seq == lastSeq + 1 { lastSeq = seq }
        }
        return results
    }
}
