import GeoFareCore
import GeoFareText
import Testing

/// JSON text that is not UTF-8: `invalid_utf8` naming the first bad byte and the string's path.
struct JSONUTF8Tests {
    static func parseError(_ bytes: [UInt8]) -> GeoFareError? {
        do { _ = try JSONParser.parse(bytes); return nil } catch { return error }
    }

    static func recovered(_ bytes: [UInt8]) -> JSONValue? {
        bytes.withUnsafeBytes { JSONParser.parseReplacingInvalidUTF8($0) }
    }

    @Test("firstInvalidUTF8 agrees with Swift's own validation on random bytes, and everything before it is UTF-8")
    func validator() {
        var rng = SeededGenerator(seed: 42)
        // bytes drawn around the boundaries of the UTF-8 table, so every lead-byte case is met
        let pool: [UInt8] = [0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
                             0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
        var bad = 0
        for _ in 0..<50_000 {
            let bytes = (0..<Int(rng.next() % 7)).map { _ in pool[Int(rng.next() % UInt64(pool.count))] }
            let first = bytes.withUnsafeBytes { JSONParser.firstInvalidUTF8($0, in: 0..<$0.count) }
            #expect((first == nil) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
            if let first {
                bad += 1
                #expect(String(validating: bytes[..<first], as: UTF8.self) != nil, "\(bytes) at \(first)")
            }
        }
        #expect(bad > 10_000)
    }

    @Test("A bad sequence inside a string: invalid_utf8 at its first byte, with the path and the rest of the request", arguments: [
        // text before the bad bytes, the bad bytes, text after, the path
        (#"{"id":9,"op":"places.search","q":"공"#, [0xEA, 0xB3], #""}"#, "q"),         // cut short by the quote
        (#"{"id":9,"op":"x","q":"a"#, [0xC0, 0x80], #"b"}"#, "q"),                      // overlong NUL
        (#"{"id":9,"op":"x","via":[{"name":"ok"},{"name":"\n"#, [0xED, 0xA0, 0x80], #""}]}"#, "via[1].name"),  // a surrogate, after an escape
        (#"{"id":9,"op":"x","party":{"id":""#, [0xFF], #""}}"#, "party.id"),
    ])
    func insideAString(_ c: (String, [UInt8], String, String)) throws {
        let bytes = Array(c.0.utf8) + c.1 + Array(c.2.utf8)
        let error = try #require(Self.parseError(bytes))
        #expect(error.code == .invalidUtf8)
        #expect(error.offset == c.0.utf8.count, "\(error.message)")
        #expect(error.field == c.3)
        let recovered = bytes.withUnsafeBytes { JSONParser.parseReplacingInvalidUTF8($0) }
        #expect(recovered?.object?["id"] == .number("9"))
        #expect(error.message.contains("at byte \(c.0.utf8.count)"))
    }

    @Test("Outside strings, or before a grammar error: invalid_utf8 without a value; valid UTF-8 in the wrong place stays invalid_json")
    func outsideStrings() throws {
        let outside = try #require(Self.parseError(Array(#"{"id":1,"#.utf8) + [0xFF] + Array(#""op":"ping"}"#.utf8)))
        #expect(outside.code == .invalidUtf8 && outside.offset == 8 && outside.field == nil)
        #expect(Self.recovered(Array(#"{"id":1,"#.utf8) + [0xFF] + Array(#""op":"ping"}"#.utf8)) == nil)
        let thenBroken = try #require(Self.parseError(Array(#"{"q":""#.utf8) + [0xFF] + Array(#"", oops}"#.utf8)))
        #expect(thenBroken.code == .invalidUtf8 && thenBroken.offset == 6 && thenBroken.field == "q")
        #expect(Self.recovered(Array(#"{"q":""#.utf8) + [0xFF] + Array(#"", oops}"#.utf8)) == nil)
        let hangulOutside = try #require(Self.parseError(Array(#"{"id":공}"#.utf8)))
        #expect(hangulOutside.code == .invalidJson && hangulOutside.offset == 6)
        #expect(try JSONParser.parse(Array(#"{"q":"공덕 \u00e9"}"#.utf8)).object?["q"] == .string("공덕 é"))
    }
}
