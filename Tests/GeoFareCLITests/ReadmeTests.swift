import Foundation
import Testing

/// The docs say what the package is: the module table (docs/architecture.md, linked from the README)
/// lists exactly the product's modules.
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("docs/architecture.md's module table lists exactly the targets of the library products in Package.swift")
    func moduleTable() throws {
        let manifest = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // Every library product's targets (GeoFare, GeoFareFare, GeoFarePostgres).
        let productLines = manifest.split(separator: "\n").filter { $0.contains(".library(name: \"GeoFare") }
        #expect(productLines.count >= 3)
        let inProduct = Set(productLines.flatMap { line in
            line.firstMatch(of: /targets: \[([^\]]*)\]/).map { $0.output.1.matches(of: /"(GeoFare[A-Za-z]+)"/).map { String($0.output.1) } } ?? []
        })
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = try #require(doc.range(of: "## Modules"))
        let table = doc[section.upperBound...].prefix { _ in true }
        let rows = table.split(separator: "\n").prefix { !$0.hasPrefix("```") }.filter { $0.hasPrefix("| `GeoFare") }
        let inDoc = Set(rows.compactMap { $0.firstMatch(of: /\| `(GeoFare[A-Za-z]+)`/).map { String($0.output.1) } })
        #expect(inProduct.count >= 10)
        #expect(inDoc == inProduct, "docs/architecture.md only: \(inDoc.subtracting(inProduct).sorted()); Package.swift only: \(inProduct.subtracting(inDoc).sorted())")
    }

    @Test("Every type docs/architecture.md's module table names is declared in Sources (a renamed type cannot linger in the docs)")
    func moduleTableTypesExist() throws {
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = try #require(doc.range(of: "## Modules"))
        let rows = doc[section.upperBound...].split(separator: "\n").filter { $0.hasPrefix("| `GeoFare") }
        let sources = Self.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let text = try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        let targets = try String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaredNames = Set(text.matches(of: /(?:struct|class|enum|protocol|typealias|actor) ([A-Za-z0-9_]+)/).map { String($0.output.1) })
        var checked = 0
        for row in rows {
            // Type names in backticks (capitalised identifiers; SQL words in capitals are not types).
            for match in row.matches(of: /`([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)`/) {
                let name = String(match.output.1)
                if name.hasPrefix("GeoFare") && !name.contains("Error") { continue }
                checked += 1
                let declared = declaredNames.contains(name) || targets.contains("name: \"\(name)\"")
                #expect(declared, "docs/architecture.md names `\(name)`, which nothing in Sources declares")
            }
        }
        #expect(checked > 40)
    }

    /// Each target's dependencies as Package.swift lists them (`.target(name: "X", dependencies: [...])`).
    static func targetDependencies() throws -> [String: [String]] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        var out: [String: [String]] = [:]
        for m in manifest.matches(of: /\.(?:target|executableTarget)\(\s*name: "([A-Za-z]+)",\s*dependencies: \[([^\]]*)\]/) {
            out[String(m.output.1)] = m.output.2.matches(of: /"([A-Za-z]+)"/).map { String($0.output.1) }
        }
        return out
    }

    @Test("Arrows down (issue 43): the fare product's closure holds no PBF reader and no zlib; the meter's file imports only Core, Data and Text")
    func arrowsDown() throws {
        let deps = try Self.targetDependencies()
        #expect(deps["GeoFareGraph"] != nil && deps["GeoFareFare"] != nil, "\(deps.keys.sorted())")
        var closure = Set<String>(), todo = ["GeoFareFare"]
        while let t = todo.popLast() {
            if closure.insert(t).inserted { todo += deps[t] ?? [] }
        }
        #expect(!closure.contains("GeoFareOSM") && !closure.contains("CZlib"), "the fare product's closure: \(closure.sorted())")
        #expect(closure.contains("GeoFareGraph") && closure.contains("GeoFareFile"))
        let meter = try String(contentsOf: Self.root.appendingPathComponent("Sources/GeoFareFare/Meter.swift"), encoding: .utf8)
        let imports = Set(meter.matches(of: /(?m)^import ([A-Za-z]+)/).map { String($0.output.1) })
        #expect(imports.isSubset(of: ["Foundation", "GeoFareCore", "GeoFareData", "GeoFareText"]), "Meter.swift imports \(imports.sorted())")
    }

    @Test("docs/architecture.md's module picture (its Arrows) equals Package.swift's dependencies among our own targets")
    func modulePicture() throws {
        let deps = try Self.targetDependencies()
        let ours = Set(deps.keys).union(["GeoFareCore", "CGeoFareData", "CProj", "CZlib"])
        let doc = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = try #require(doc.range(of: "## Arrows").map { doc[$0.upperBound...] })
        let block = try #require(section.split(separator: "```").dropFirst().first, "no picture under ## Arrows")
        var picture: [String: Set<String>] = [:]
        for line in block.split(separator: "\n") where line.contains("→") {
            let parts = line.split(separator: "→", maxSplits: 1)
            let module = parts[0].trimmingCharacters(in: .whitespaces)
            let targets = parts.count > 1 ? parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } : []
            picture[module] = Set(targets)
        }
        let manifest = deps.mapValues { Set($0.filter(ours.contains)) }
        #expect(Set(picture.keys) == Set(manifest.keys), "picture only: \(Set(picture.keys).subtracting(manifest.keys).sorted()); Package.swift only: \(Set(manifest.keys).subtracting(picture.keys).sorted())")
        for (module, targets) in manifest.sorted(by: { $0.key < $1.key }) {
            #expect(picture[module] == targets, "\(module): the picture says \(picture[module]?.sorted() ?? []), Package.swift \(targets.sorted())")
        }
    }

    @Test("No command but worker, serve and demo (the three that speak the protocol) imports GeoFareWorker: the results' JSON lives with what it encodes (issue 43)")
    func commandsDoNotImportTheWorker() throws {
        let dir = Self.root.appendingPathComponent("Sources/geofare")
        var importers: [String] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasSuffix(".swift") {
            let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
            if text.contains("\nimport GeoFareWorker\n") || text.hasPrefix("import GeoFareWorker\n") { importers.append(name) }
        }
        #expect(importers.sorted() == ["DemoCommand.swift", "ServeCommand.swift", "WorkerCommand.swift"], "\(importers.sorted())")
    }
}
