import Foundation
import GeoFareCluster

/// What the worker needs of a party store, whichever database holds it: the SQLite file
/// (``PartyStore``) or a PostgreSQL database shared by workers on several hosts
/// (``PostgresPartyStore``).
///
/// Every write returns only after its transaction committed. Every write appends to a change
/// feed with increasing sequence numbers, in commit order, so that a process that read up to
/// `seq` finds every later change with ``changes(after:)``.
///
/// One owner at a time (the worker's loop thread) uses a store.
public protocol PartyStorage: AnyObject, Sendable {
    /// Where the store is, for logs: a path, or a URL without its password.
    var location: String { get }
    /// Inserts or replaces a party; sets its `version` (previous + 1) and `updatedAt` (`now`).
    /// - Throws: ``StoreError``.
    func upsert(_ party: Party, now: Date) throws(StoreError) -> Party
    /// Upserts many parties in one transaction: all are written or none.
    func upsertMany(_ parties: [Party], now: Date) throws(StoreError) -> [Party]
    /// Deletes a party; whether it existed.
    func remove(id: String, now: Date) throws(StoreError) -> Bool
    /// One party, or `nil`.
    func party(id: String) throws(StoreError) -> Party?
    /// Every party, in id order.
    func allParties() throws(StoreError) -> [Party]
    /// The number of stored parties.
    func count() throws(StoreError) -> Int
    /// The newest change sequence number (0 when none).
    func lastChange() throws(StoreError) -> Int64
    /// Whether someone else may have written since the last call (`true` when the store cannot
    /// tell cheaply: the caller then reads the feed).
    func externallyChanged() throws(StoreError) -> Bool
    /// The parties changed after `seq`, each with its current state (`nil`: deleted), and the
    /// newest sequence number.
    func changes(after seq: Int64) throws(StoreError) -> (changes: [(id: String, party: Party?)], last: Int64)
    /// The sequence number of this store's own last write, when the store knows it (the caller
    /// need not read back its own change from the feed).
    var lastWrittenSeq: Int64? { get }
    /// Drops change records older than `age` seconds.
    func pruneChanges(olderThan age: TimeInterval, now: Date) throws(StoreError)
}

extension PartyStore: PartyStorage {
    public var location: String { path }
    public var lastWrittenSeq: Int64? { nil }
}
