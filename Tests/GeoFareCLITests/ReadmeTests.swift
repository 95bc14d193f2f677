import Foundation
import Testing

/// The README says what the package is: its module table lists exactly the product's modules.
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("The README's module table lists exactly the targets of the GeoFare product in Package.swift")
    func moduleTable() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let productLine = try #require(manifest.split(separator: "\n").first { $0.contains(#".library(name: "GeoFare""#) })
        let inProduct = Set(productLine.matches(of: /"(GeoFare[A-Za-z]+)"/).map { String($0.output.1) }).subtracting(["GeoFare"])
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "## The library"))
        let table = readme[section.upperBound...].prefix { _ in true }
        let rows = table.split(separator: "\n").prefix { !$0.hasPrefix("```") }.filter { $0.hasPrefix("| `GeoFare") }
        let inReadme = Set(rows.compactMap { $0.firstMatch(of: /\| `(GeoFare[A-Za-z]+)`/).map { String($0.output.1) } })
        #expect(inProduct.count >= 10)
        #expect(inReadme == inProduct, "README only: \(inReadme.subtracting(inProduct).sorted()); Package.swift only: \(inProduct.subtracting(inReadme).sorted())")
    }
}
