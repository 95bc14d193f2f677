import Foundation
import Testing
import GeoFareCore
import GeoFareText
@testable import GeoFareWorker

/// The request declarations (`RequestSchema`) and the protocol document agree: every field an op
/// declares is named in that op's row of docs/protocol.md, and the schema refuses what it does
/// not declare, at any depth, with the nearest name.
struct RequestSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("docs/protocol.md's row of every op names each field the op declares")
    func documented() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        for op in WorkerOp.allCases {
            let row = try #require(doc.split(separator: "\n").first { $0.hasPrefix("| `\(op.rawValue)` |") }, "no row for \(op.rawValue)")
            let fields = row.split(separator: "|", omittingEmptySubsequences: false)[2]
            for name in RequestSchema.fields(of: op).keys.sorted() {
                #expect(fields.contains("`\(name)`"), "\(op.rawValue): `\(name)` is declared but not in its protocol.md row")
            }
        }
    }

    @Test("The schema refuses an undeclared name at any depth, naming its path and the nearest declared name")
    func refuses() throws {
        func object(_ json: String) throws -> [String: JSONValue] { try #require(try JSONParser.parse(Array(json.utf8)).object) }
        #expect(throws: Never.self) { try RequestSchema.check(try object(#"{"id":1,"op":"fare","tariff":"t","trip":{"distance_m":1,"duration_s":1}}"#), op: .fare) }
        let typo = try object(#"{"id":1,"op":"fare","Depart_At":"x"}"#)
        let e1 = try #require(#expect(throws: GeoFareError.self) { try RequestSchema.check(typo, op: .fare) })
        #expect(e1.code == .unknownField && e1.field == "Depart_At" && e1.message.contains("did you mean 'depart_at'?"), "\(e1)")
        let deep = try object(#"{"id":1,"op":"nearby","center":{"lat":1,"lon":2},"destination":{"center":{"lat":1,"lng":2},"radius_m":5}}"#)
        let e2 = try #require(#expect(throws: GeoFareError.self) { try RequestSchema.check(deep, op: .nearby) })
        #expect(e2.code == .unknownField && e2.field == "destination.center.lng", "\(e2)")
        // A party's attributes are the caller's own: any names.
        #expect(throws: Never.self) {
            try RequestSchema.check(try object(#"{"id":1,"op":"party.upsert","party":{"id":"p","attributes":{"anything":{"at":"all"}}}}"#), op: .partyUpsert)
        }
        #expect(RequestSchema.nearest("zzz", in: ["depart_at", "tariff"]) == nil)
        #expect(RequestSchema.editDistance(Array("unti"), Array("unit")) == 1)
    }
}
