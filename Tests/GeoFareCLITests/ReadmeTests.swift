import Foundation
import Testing

/// The docs say what the package is: the module table (docs/architecture.md, linked from the README)
/// lists exactly the product's modules.
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("docs/architecture.md's module table lists exactly the targets of the GeoFare product in Package.swift")
    func moduleTable() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let productLine = try #require(manifest.split(separator: "\n").first { $0.contains(#".library(name: "GeoFare""#) })
        let inProduct = Set(productLine.matches(of: /"(GeoFare[A-Za-z]+)"/).map { String($0.output.1) }).subtracting(["GeoFare"])
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = try #require(doc.range(of: "## Modules"))
        let table = doc[section.upperBound...].prefix { _ in true }
        let rows = table.split(separator: "\n").prefix { !$0.hasPrefix("```") }.filter { $0.hasPrefix("| `GeoFare") }
        let inDoc = Set(rows.compactMap { $0.firstMatch(of: /\| `(GeoFare[A-Za-z]+)`/).map { String($0.output.1) } })
        #expect(inProduct.count >= 10)
        #expect(inDoc == inProduct, "docs/architecture.md only: \(inDoc.subtracting(inProduct).sorted()); Package.swift only: \(inProduct.subtracting(inDoc).sorted())")
    }
}
