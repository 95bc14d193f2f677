import GeoFareCore

/// One write of a group that a store commits as a single transaction
/// (``PartyStore/write(_:now:)``).
public enum PartyWrite: Sendable, Hashable {
    /// Insert or replace the party (the store sets its `version` and `updatedAt`).
    case upsert(Party)
    /// Delete the party with this id (nothing when there is none).
    case remove(id: String)

    /// A group of writes in words, for the errors of every store.
    package static func describe(_ writes: [PartyWrite]) -> String {
        if writes.count == 1 {
            switch writes[0] {
            case let .upsert(p): return "writing party '\(p.id)'"
            case let .remove(id): return "removing party '\(id)'"
            }
        }
        return "writing a group of \(writes.count) party changes"
    }
}

/// What one write of a committed group did.
public enum PartyWriteResult: Sendable, Hashable {
    /// The party as stored (`version` previous + 1, `updatedAt` the group's `now`) and the
    /// sequence number of its change record.
    case upserted(Party, seq: Int64)
    /// A removal: the sequence number of its change record, `nil` when there was no such party
    /// (nothing changed, nothing was recorded).
    case removed(id: String, seq: Int64?)

    /// The change record's sequence number, `nil` when the write changed nothing.
    public var seq: Int64? {
        switch self {
        case let .upserted(_, seq): seq
        case let .removed(_, seq): seq
        }
    }
}
