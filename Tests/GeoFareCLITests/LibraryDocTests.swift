import Foundation
import Testing

/// What docs/library.md promises a Swift caller, checked against Sources: one public error type,
/// `GeoFareError`, thrown by type from every public entry point, and every type and module its
/// examples use declared.
struct LibraryDocTests {
    static let root = ReadmeTests.root

    /// Every Swift file under Sources with its path relative to the repository.
    static func sources() throws -> [(path: String, text: String)] {
        let dir = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        return try files.map { ($0.path.replacingOccurrences(of: root.path + "/", with: ""), try String(contentsOf: $0, encoding: .utf8)) }
    }

    @Test("docs/library.md says GeoFareError is the one error type, and no other public type conforms to Error")
    func oneErrorType() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        #expect(doc.contains("throws one error type, `GeoFareError`"))
        var errorTypes: [String] = []
        for (path, text) in try Self.sources() {
            for m in text.matches(of: /(?m)^\s*(?:public|open)\s+(?:final\s+)?(?:struct|enum|class|actor)\s+(\w+)[^{\n]*:\s*([^{\n]*)\{/) {
                let conformances = m.output.2.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if conformances.contains(where: { $0 == "Error" || $0.hasSuffix("Error") && $0 != "GeoFareError" }) {
                    errorTypes.append("\(path): \(m.output.1)")
                }
            }
        }
        #expect(errorTypes == ["Sources/GeoFareCore/GeoFareError.swift: GeoFareError"], "\(errorTypes)")
    }

    @Test("Every public function, initializer and accessor that throws says what: throws(GeoFareError), or rethrows")
    func typedThrows() throws {
        var untyped: [String] = []
        var checked = 0
        for (path, text) in try Self.sources() {
            for m in text.matches(of: /(?m)^\s*(?:@[\w()":, ]+\s+)*(?:public|open)\s+(?:[a-z]+\s+)*(?:func|init|subscript|var)\b/) {
                let signature = Self.signature(text[m.range.lowerBound...].drop(while: \.isWhitespace))
                guard signature.contains("throws") else { continue }
                checked += 1
                // Decodable's requirement cannot be typed; rethrows throws what its closure does.
                if signature.contains("init(from decoder:") || signature.contains("rethrows") { continue }
                // A parameter's closure type may throw untyped (its caller chooses); the
                // declaration's own throws clause is the last one.
                let own = signature.ranges(of: "throws").last!
                if !signature[own.upperBound...].hasPrefix("(") { untyped.append("\(path): \(signature.prefix(120))") }
            }
        }
        #expect(checked > 100)
        #expect(untyped.isEmpty, "\(untyped.joined(separator: "\n"))")
    }

    /// A declaration up to its body's brace or the end of its line, whichever comes first outside
    /// parentheses (a signature may span lines inside its parameter list), whitespace folded.
    static func signature(_ text: Substring) -> String {
        var depth = 0
        var end = text.endIndex
        for i in text.indices {
            let c = text[i]
            if c == "(" || c == "[" { depth += 1 } else if c == ")" || c == "]" { depth -= 1 }
            if depth == 0 && (c == "{" || c == "\n") && i > text.startIndex { end = i; break }
        }
        return text[..<end].split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("The modules docs/library.md's examples import are library products' modules, and the types they use are declared")
    func examplesNameRealThings() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/library.md"), encoding: .utf8)
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let blocks = doc.matches(of: /```swift\n([\s\S]*?)```/).map { String($0.output.1) }
        #expect(blocks.count >= 3)
        let imports = Set(blocks.flatMap { $0.matches(of: /import (\w+)/).map { String($0.output.1) } })
        #expect(imports.count >= 4)
        for module in imports {
            #expect(manifest.contains("\"\(module)\""), "docs/library.md imports \(module), which Package.swift does not declare")
        }
        let text = try Self.sources().map(\.text).joined(separator: "\n")
        let declared = Set(text.matches(of: /(?:struct|class|enum|protocol|typealias|actor) ([A-Za-z0-9_]+)/).map { String($0.output.1) })
        let used = Set(blocks.flatMap { $0.matches(of: /\b([A-Z][a-z]+[A-Z][A-Za-z0-9]*)\(/).map { String($0.output.1) } })
            .union(doc.matches(of: /`([A-Z][a-z]+[A-Z][A-Za-z0-9]*)`/).map { String($0.output.1) })
            .subtracting(["GeoFare"])
        #expect(used.count >= 10)
        // Module names (`GeoFarePlaces`) are targets, not types; `MyApp` is the reader's own.
        for name in used.sorted() where !name.hasPrefix("My") && !manifest.contains("name: \"\(name)\"") {
            #expect(declared.contains(name), "docs/library.md uses \(name), which nothing in Sources declares")
        }
    }
}
