import Foundation
import GeoFareCore

/// What the worker needs of a party store, whichever database holds it: the SQLite file
/// (``SQLitePartyStore``) or a PostgreSQL database shared by workers on several hosts
/// (``PostgresPartyStore``).
///
/// Every write returns only after its transaction committed. Every write appends to a change
/// feed with increasing sequence numbers, in commit order, so that a process that read up to
/// `seq` finds every later change with ``changes(after:)``.
///
/// One owner at a time (the worker's loop thread) uses a store.
public protocol PartyStore: AnyObject, Sendable {
    /// Where the store is, for logs: a path, or a URL without its password.
    var location: String { get }
    /// Commits `writes` in order as ONE transaction (all or none) and returns what each did,
    /// once the commit has answered. An upsert sets the party's `version` (previous + 1) and
    /// `updatedAt` (`now`); each write that changed something appends one change record.
    /// Every other write method is this one.
    /// - Throws: ``GeoFareError``; then nothing of the group was written.
    func write(_ writes: [PartyWrite], now: Date) throws(GeoFareError) -> [PartyWriteResult]
    /// One party, or `nil`.
    func party(id: String) throws(GeoFareError) -> Party?
    /// Every party, in id order.
    func allParties() throws(GeoFareError) -> [Party]
    /// Upserts many parties in ONE transaction (bulk import: all or none), in order, as
    /// ``write(_:now:)`` would with one `.upsert` each: the same versions (a party given
    /// twice counts twice), one change record per party in input order. Returns the parties
    /// as stored, in input order. A store may take a faster path for large inputs.
    /// - Throws: ``GeoFareError``; then nothing was written.
    func upsertMany(_ parties: [Party], now: Date) throws(GeoFareError) -> [Party]
    /// The number of stored parties.
    func count() throws(GeoFareError) -> Int
    /// The newest change sequence number (0 when none).
    func lastChange() throws(GeoFareError) -> Int64
    /// Whether someone else may have written since the last call (`true` when the store cannot
    /// tell cheaply: the caller then reads the feed).
    func externallyChanged() throws(GeoFareError) -> Bool
    /// The parties changed after `seq`, each once with its current state (`nil`: deleted), in
    /// the order of their last change, and the newest sequence number; `nil` when more than
    /// `limit` change records follow `seq` (the caller then reloads with ``snapshot()``, which
    /// costs less than applying them one by one).
    func changes(after seq: Int64, limit: Int) throws(GeoFareError) -> (changes: [(id: String, party: Party?)], last: Int64)?
    /// Every party, in id order, and the newest change sequence number, read from one snapshot:
    /// the feed after `last` holds exactly the changes the parties do not show.
    func snapshot() throws(GeoFareError) -> (parties: [Party], last: Int64)
    /// Drops change records older than `age` seconds.
    func pruneChanges(olderThan age: TimeInterval, now: Date) throws(GeoFareError)
    /// Asks the store to call `handler` (on any thread) whenever it learns, unasked, that a
    /// change was committed: PostgreSQL's `NOTIFY`, listened to on the store's connection (and
    /// again after a reconnect). SQLite has no such signal and never calls it.
    func onChangeNotice(_ handler: @escaping @Sendable () -> Void)
}

extension PartyStore {
    /// Inserts or replaces a party (a group of one); the party as stored.
    /// - Throws: ``GeoFareError``.
    @discardableResult
    public func upsert(_ party: Party, now: Date = Date()) throws(GeoFareError) -> Party {
        guard case let .upserted(stored, _) = try write([.upsert(party)], now: now)[0] else { preconditionFailure("an upsert answers upserted") }
        return stored
    }

    /// Upserts many parties through ``write(_:now:)``: one group of `.upsert`s.
    public func upsertMany(_ parties: [Party], now: Date) throws(GeoFareError) -> [Party] {
        try write(parties.map(PartyWrite.upsert), now: now).map { result in
            guard case let .upserted(stored, _) = result else { preconditionFailure("an upsert answers upserted") }
            return stored
        }
    }

    /// Deletes a party (a group of one); whether it existed.
    @discardableResult
    public func remove(id: String, now: Date = Date()) throws(GeoFareError) -> Bool {
        try write([.remove(id: id)], now: now)[0].seq != nil
    }

    /// Every change after `seq`, however many (see ``changes(after:limit:)``).
    public func changes(after seq: Int64) throws(GeoFareError) -> (changes: [(id: String, party: Party?)], last: Int64) {
        try changes(after: seq, limit: .max)!
    }
}
