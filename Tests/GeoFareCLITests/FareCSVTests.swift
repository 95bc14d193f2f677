import Foundation
import GeoFareCore
import GeoFareFare
import GeoFareTestSupport
import GeoFareText
import Testing

/// `geofare fare-csv` end to end, as a subprocess.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct FareCSVTests {
    static func fixture(_ name: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
    }

    @Test("Golden output: BOM, CRLF, quoted fields with commas and line breaks, bad rows, pass-through columns",
          arguments: ["trips", "totals", "basis"])
    func golden(name: String) throws {
        let input = try Self.fixture("\(name).csv")
        let expected = try String(contentsOf: try Self.fixture("\(name).expected.csv"), encoding: .utf8)
        let r = try GeoFareBinary.run(["fare-csv", input.path])
        #expect(r.stdout == expected)
        #expect(r.status == 65)  // the fixtures hold bad rows on purpose
        #expect(r.stderr.contains("failed"))
    }

    @Test("From stdin to a file, with --threads 1 and 2 giving the same bytes over many lanes")
    func stdinToFile() throws {
        // The fixture's rows (bad ones, quoted line breaks) 800 times over: about 440 KB, which
        // the job cuts into several lanes per thread, so the lanes' order is what is compared.
        let fixture = try String(contentsOf: try Self.fixture("trips.csv"), encoding: .utf8)
        let header = fixture.prefix { $0 != "\n" && $0 != "\r\n" }
        let body = fixture.dropFirst(header.count).drop { $0 == "\n" || $0 == "\r\n" }
        let text = header + "\n" + String(repeating: String(body) + (body.hasSuffix("\n") ? "" : "\n"), count: 800)
        #expect(text.utf8.count > 6 * 65_536)
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-out-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: out) }
        let one = try GeoFareBinary.run(["fare-csv", "-", "-o", out.path, "--threads", "1", "--quiet"], stdin: text)
        #expect(one.status == 65)
        #expect(one.stderr.isEmpty)
        let many = try GeoFareBinary.run(["fare-csv", "--threads", "2"], stdin: text)
        #expect(try String(contentsOf: out, encoding: .utf8) == many.stdout)
    }

    @Test("-o writes into the named file in place: /dev/null stays a device, a symlink's target gets the rows")
    func outputInPlace() throws {
        let text = try String(contentsOf: try Self.fixture("totals.csv"), encoding: .utf8)
        let r = try GeoFareBinary.run(["fare-csv", "-", "-o", "/dev/null", "--quiet"], stdin: text)
        #expect(r.status == 65)
        let type = try FileManager.default.attributesOfItem(atPath: "/dev/null")[.type] as? FileAttributeType
        #expect(type == .typeCharacterSpecial)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let target = dir.appendingPathComponent("target.csv"), link = dir.appendingPathComponent("link.csv")
        try Data("old".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        _ = try GeoFareBinary.run(["fare-csv", "-", "-o", link.path, "--quiet"], stdin: text)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        #expect(try String(contentsOf: target, encoding: .utf8) == GeoFareBinary.run(["fare-csv", "-", "--quiet"], stdin: text).stdout)
    }

    @Test("--max-errors stops early; a header without the needed columns is a clear error")
    func stopsAndHeader() throws {
        let text = try String(contentsOf: try Self.fixture("trips.csv"), encoding: .utf8)
        let r = try GeoFareBinary.run(["fare-csv", "--max-errors", "1"], stdin: text)
        #expect(r.status == 65)
        #expect(r.stderr.contains("stopped early"))
        let bad = try GeoFareBinary.run(["fare-csv"], stdin: "id,x\n1,2\n")
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("distance_m,duration_s"))
        let mapped = try GeoFareBinary.run(["fare-csv", "--map", "distance_m=km"], stdin: "id,x\n1,2\n")
        #expect(mapped.stderr.contains("no column 'km'"))
    }

    @Test("fare-csv and the library agree exactly on the same trips")
    func agreesWithLibrary() throws {
        let pricer = try TripPricer.standard()
        var rng = SeededGenerator(seed: 21)
        var csv = "id,origin_lat,origin_lon,dest_lat,dest_lon,depart_at,party_size\n"
        var expected: [FareQuote] = []
        for i in 0..<300 {
            let a = try Coordinate(latitude: (Double.random(in: 37.50...37.62, using: &rng) * 1e6).rounded() / 1e6,
                                   longitude: (Double.random(in: 126.90...127.10, using: &rng) * 1e6).rounded() / 1e6)
            let b = try Coordinate(latitude: (Double.random(in: 37.20...37.70, using: &rng) * 1e6).rounded() / 1e6,
                                   longitude: (Double.random(in: 126.80...127.20, using: &rng) * 1e6).rounded() / 1e6)
            let when = "2024-05-1\(i % 7 + 3)T\(10 + i % 14):\(i % 6)5:00+09:00"
            let party = i % 4 + 1
            csv += "\(i),\(a.latitude),\(a.longitude),\(b.latitude),\(b.longitude),\(when),\(party)\n"
            var r = FareRequest(from: a, to: b, departure: ISO8601.parse(when)!)
            r.partySize = party
            r.tariff = "kr-seoul/regular"
            expected.append(try pricer.quote(r).quote)
        }
        let out = try GeoFareBinary.run(["fare-csv", "--quiet"], stdin: csv.replacingOccurrences(of: "party_size\n", with: "party_size,tariff\n").split(separator: "\n").enumerated().map { $0 == 0 ? String($1) : $1 + ",kr-seoul/regular" }.joined(separator: "\n") + "\n")
        #expect(out.status == 0)
        let rows = out.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == expected.count)
        for (row, q) in zip(rows, expected) {
            // ...,distance_m,duration_s,meter,surcharges,tolls,total,low,high,currency,per_person,tariff,error,tariff_basis,assumption
            let n = row.count
            #expect(row[n - 12] == String(q.meter))
            #expect(row[n - 9] == String(q.total))
            #expect(row[n - 8] == String(q.low) && row[n - 7] == String(q.high))
            #expect(row[n - 5] == q.perPerson.map(String.init).joined(separator: ";"))
            #expect(row[n - 14] == DecimalFormat.string(q.distanceMeters, decimals: 1))
            #expect(row[n - 2] == "sourced" && row[n - 1] == "" && q.tariffBasis == .sourced)
        }
    }

    /// Sourced and assumed rows mixed: every priced row says its basis (assumed ones why) in the
    /// two columns after error; --strict gives the errors of before and sourced rows unchanged.
    @Test("fare-csv with sourced and assumed rows mixed: each priced row says its basis; --strict errors only the assumed")
    func basisColumns() throws {
        let input = try Self.fixture("basis.csv")
        let r = try GeoFareBinary.run(["fare-csv", "--quiet", input.path])
        let strict = try GeoFareBinary.run(["fare-csv", "--quiet", "--strict", input.path])
        #expect(strict.stdout == (try String(contentsOf: try Self.fixture("basis.strict.expected.csv"), encoding: .utf8)))
        #expect(r.status == 65 && strict.status == 65)  // the origin at sea and the bad time fail either way
        let rows = try csvRecords(r.stdout.utf8), strictRows = try csvRecords(strict.stdout.utf8)
        let header = try #require(rows.first)
        #expect(Array(header.suffix(4)) == ["tariff", "error", "tariff_basis", "assumption"])
        try #require(rows.count == 12 && strictRows.count == 12)
        let basis = Dictionary(uniqueKeysWithValues: rows.dropFirst().map { ($0[0], ($0[$0.count - 3], $0[$0.count - 2], $0[$0.count - 1])) })
        let strictBasis = Dictionary(uniqueKeysWithValues: strictRows.dropFirst().map { ($0[0], ($0[$0.count - 3], $0[$0.count - 2], $0[$0.count - 1])) })
        for id in ["S1", "U1"] {
            #expect(basis[id]! == ("", "sourced", "") && strictBasis[id]! == ("", "sourced", ""), "\(id)")
            #expect(rows.first { $0[0] == id } == strictRows.first { $0[0] == id })
        }
        // O1 and O2 start in Iksan: since its 복합할증 became a distance tier, on Iksan's own copy of the
        // provincial tariff, which gives no 시계외 rate either.
        for (id, code, why) in [("G1", "unknown_tariff_group", "Gyeonggi standard group (kr-gyeonggi/regular): no source names"),
                                ("G2", "unknown_tariff_group", "Gyeonggi standard group (kr-gyeonggi/regular): no source names"),
                                ("W1", "no_tariff_version", "priced on its earliest modelled version"),
                                ("W2", "no_tariff_version", "priced on its earliest modelled version"),
                                ("J1", "tariff_version_uncertain", "on a day no source gives"),
                                ("O1", "unknown_out_of_zone_rate", "no source gives kr-jeonbuk/regular-iksan's out-of-zone (시계외) rate in version 2023-08-01T00:00:00+09:00: priced without it (0 %)"),
                                ("O2", "no_tariff_version", "fares before it were likely lower; no source gives kr-jeonbuk/regular-iksan's out-of-zone (시계외) rate in version 2019-05")] {
            let (error, b, assumption) = basis[id]!
            #expect(error == "" && b == "assumed" && assumption.contains(why), "\(id): \(assumption)")
            let (strictError, sb, sa) = strictBasis[id]!
            #expect(strictError.hasSuffix("[\(code)]") && sb == "" && sa == "", "\(id): \(strictError)")
        }
        for id in ["M1", "X1"] {
            #expect(basis[id]!.0.hasSuffix("]") && basis[id]!.1 == "" && basis[id]! == strictBasis[id]!, "\(id)")
        }
    }
}
