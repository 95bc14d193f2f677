import GeoFareCore

/// The tables both party stores hold, SQLite's (``SQLitePartyStore``) and PostgreSQL's
/// (``PostgresPartyStore``): the same names, columns and meaning, so a party reads back the
/// same from either and a test can compare them row for row.
///
/// - `party`, one row per party: `id` (text, unique), `origin_lat`, `origin_lon`, `dest_lat`,
///   `dest_lon` (WGS84 degrees), `depart_at` (Unix seconds), `seats_total`, `seats_taken`,
///   `status` (one of ``PartyStatus``), `attributes` (the party's JSON object as text, or
///   NULL), `updated_at` (Unix seconds of the write), `version` (1 when inserted, +1 per upsert).
/// - `party_change`, the change feed, one row per write that changed something: `seq`
///   (increasing, in commit order), `party_id`, `at` (Unix seconds).
///
/// Each store creates them through its own migrations (SQL dialects differ); the column lists
/// every read and the bulk import use are these.
package enum PartyTable {
    /// The `party` columns, in the order every read of both stores selects them.
    package static let columns = ["id", "origin_lat", "origin_lon", "dest_lat", "dest_lon", "depart_at",
                          "seats_total", "seats_taken", "status", "attributes", "updated_at", "version"]

    /// ``columns`` as a SQL select list, each with `prefix` (`"p."`) when given.
    package static func selectList(prefix: String = "") -> String {
        columns.map { prefix + $0 }.joined(separator: ", ")
    }
}
