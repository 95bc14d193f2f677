import Foundation
import GeoFareCore
import GeoFareParties
import PostgresNIO

/// Rows in the text format of PostgreSQL's `COPY ... FROM STDIN` (tab-separated columns,
/// one line per row, `\N` for NULL): what ``PostgresPartyStore/upsertMany(_:now:)`` streams.
///
/// In a text value, backslash, tab, newline and carriage return are written as `\\`, `\t`,
/// `\n` and `\r`, so no value can end a column or a row, be read as NULL (`\N`) or as the end
/// of the data (`\.`). Every other character is its UTF-8 bytes. PostgreSQL text cannot hold
/// NUL at all: ``nulField(_:)`` finds it before anything is sent.
enum PostgresCopyText {
    /// The columns of ``appendParty(_:ordinal:to:)``, in order.
    static let partyColumns = ["ord"] + PartyTable.columns.dropLast(2)

    /// Appends one row: `ordinal` (the party's place in the input), then the party's fields
    /// as in the `party` table (no version or update time: the store sets those).
    static func appendParty(_ p: Party, ordinal: Int, to out: inout ByteBuffer) {
        out.writeString(String(ordinal))
        out.writeInteger(UInt8(ascii: "\t"))
        appendText(p.id, to: &out)
        for v in [p.origin.latitude, p.origin.longitude, p.destination.latitude, p.destination.longitude, p.departure.timeIntervalSince1970] {
            out.writeInteger(UInt8(ascii: "\t"))
            // Swift's description is the shortest text that reads back as the same Double.
            out.writeString(v.description)
        }
        out.writeString("\t\(p.seatsTotal)\t\(p.seatsTaken)\t")
        out.writeString(p.status.rawValue)
        out.writeInteger(UInt8(ascii: "\t"))
        if let a = p.attributesJSON { appendText(a, to: &out) } else { out.writeStaticString("\\N") }
        out.writeInteger(UInt8(ascii: "\n"))
    }

    /// Appends `text` as one value, escaped.
    static func appendText(_ text: String, to out: inout ByteBuffer) {
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            for (i, b) in bytes.enumerated() {
                let escaped: UInt8
                switch b {
                case UInt8(ascii: "\\"): escaped = UInt8(ascii: "\\")
                case UInt8(ascii: "\t"): escaped = UInt8(ascii: "t")
                case UInt8(ascii: "\n"): escaped = UInt8(ascii: "n")
                case UInt8(ascii: "\r"): escaped = UInt8(ascii: "r")
                default: continue
                }
                out.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<i]))
                out.writeInteger(UInt8(ascii: "\\"))
                out.writeInteger(escaped)
                start = i + 1
            }
            out.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start...]))
        }
    }

    /// The first text field of `p` that holds a NUL (`id` or `attributes`), which PostgreSQL
    /// cannot store; `nil` when there is none.
    static func nulField(_ p: Party) -> String? {
        if p.id.utf8.contains(0) { return "id" }
        if let a = p.attributesJSON, a.utf8.contains(0) { return "attributes" }
        return nil
    }
}
