import Foundation
import Testing
import GeoFareCore

/// The error codes are one list: the code takes every code from ``ErrorCode``, and the protocol
/// document (docs/protocol.md) documents exactly that list.
struct ErrorCodeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("docs/protocol.md's error-code table lists exactly the codes of ErrorCode")
    func readmeListsEveryCode() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "## Error codes"))
        let section = doc[start.upperBound...].prefix { _ in true }
        let end = section.range(of: "\n#")?.lowerBound ?? section.endIndex
        var listed = Set<String>()
        for line in section[..<end].split(separator: "\n") where line.hasPrefix("| `") {
            listed.insert(String(line.dropFirst(3).prefix { $0 != "`" }))
        }
        let codes = Set(ErrorCode.allCases.map(\.rawValue))
        #expect(listed.subtracting(codes).isEmpty, "in docs/protocol.md but not emitted: \(listed.subtracting(codes).sorted())")
        #expect(codes.subtracting(listed).isEmpty, "emitted but not in docs/protocol.md: \(codes.subtracting(listed).sorted())")
    }

    @Test("No source file spells an error code as a string literal, in a code field or printed in brackets")
    func noLiteralCodes() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 50)
        // A code field from a string literal, or a code printed in brackets ("... [missing_column]")
        // without going through ErrorCode (the CLI prints codes that way).
        let literal = /code: "[a-z_]+"|var code: String \{ "[a-z_]+" \}|\[[a-z]+(?:_[a-z]+)+\]/
        for file in files where file.lastPathComponent != "ErrorCode.swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: literal) {
                Issue.record("\(file.lastPathComponent): \(match.output) (use an ErrorCode case)")
            }
        }
    }
}
