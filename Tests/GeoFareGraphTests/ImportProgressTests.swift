import Foundation
import GeoFareGraph
import GeoFareGraphBuild
import GeoFareOSM
import Testing

/// `graph build` shows live progress while it reads the PBF: the importer reports each phase as it
/// starts and, while it reads the file, every data block; the reports change nothing in the result.
@Suite("Import progress")
struct ImportProgressTests {
    struct Event: Equatable { var phase: String; var done: Int; var total: Int }

    @Test("phases in order, every data block counted up to the file's total, the same network as without progress",
          arguments: TestData.extracts.prefix(3))
    func reportsEveryBlockAndPhase(_ name: String) throws {
        let url = TestData.extract(name)
        let blocks = try PBFReader(contentsOf: url).dataBlockCount
        #expect(blocks > 0)
        var events: [Event] = []
        let builder = OSMRoadNetworkBuilder(profile: try TestData.carProfile())
        let (network, report) = try builder.build(pbfAt: url) { events.append(Event(phase: $0, done: $1, total: $2)) }
        let (plain, _) = try builder.build(pbfAt: url)
        #expect(network == plain)
        // the phases appear in the order the report times them
        var phases: [String] = []
        for e in events where phases.last != e.phase { phases.append(e.phase) }
        #expect(phases == report.phaseMilliseconds.map(\.name))
        // both passes over the file count 0, 1, ..., blocks; the later phases say only that they started
        for pass in ["ways", "nodes"] {
            #expect(events.filter { $0.phase == pass } == (0...blocks).map { Event(phase: pass, done: $0, total: blocks) }, "\(pass)")
        }
        for phase in ["arcs", "restrictions", "component", "renumber"] {
            #expect(events.filter { $0.phase == phase } == [Event(phase: phase, done: 0, total: 0)])
        }
    }

}
