import Foundation
import Testing
import GeoFareTestSupport

/// `geofare transform` and `geofare distance`, run as a subprocess.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct TransformCLITests {
    @Test("One point on the command line prints easting and northing to the millimetre")
    func onePoint() throws {
        let r = try GeoFareBinary.run(["transform", "--from", "wgs84", "--to", "utmk", "126.9780,37.5665"])
        #expect(r.status == 0)
        #expect(r.stdout == "953901.165 1952032.081\n")
        #expect(r.stderr.isEmpty)
    }

    @Test("Negative coordinates are points, not options")
    func negativePoint() throws {
        let r = try GeoFareBinary.run(["transform", "--from", "wgs84", "--to", "webmercator", "-73.9857,40.7484"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("-8236"))
    }

    @Test("Lines from stdin: X,Y and X Y; a bad line gets an empty output line, a message and exit 65")
    func stdinLines() throws {
        let r = try GeoFareBinary.run(["transform", "--from", "wgs84", "--to", "wtm"], stdin: "126.978,37.5665\n126.978 37.5665\nnot a point\n127,99\n")
        #expect(r.status == 65)
        #expect(r.stdout == "198056.367 451885.031\n198056.367 451885.031\n\n\n")
        #expect(r.stderr.contains("line 3"))
        #expect(r.stderr.contains("line 4") && r.stderr.contains("latitude_out_of_range"))
    }

    @Test("A file of several 4 MiB blocks streams through the lanes: every line answered in order, messages in line order, the same with 1 and 2 threads")
    func blocksInOrder() throws {
        // 400,000 lines (≈ 14 MB, more than three 4 MiB blocks); every 997th is not a point, every 1,009th out of range.
        var text = "", bad: [Int] = [], points: [Int: (Double, Double)] = [:]
        var rng = SystemRandomNumberGenerator()
        for line in 1...400_000 {
            let x = Double.random(in: 124.5...131, using: &rng), y = Double.random(in: 33...38.6, using: &rng)
            if line % 997 == 0 { text += "no point here\n"; bad.append(line) }
            else if line % 1_009 == 0 { text += "\(x),\(y + 90)\n"; bad.append(line) }
            else {
                text += line % 2 == 0 ? "\(x),\(y)\n" : "\(x) \(y)\n"
                if line % 50_000 == 1 { points[line] = (x, y) }
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-\(UUID().uuidString)-points.txt")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let one = try GeoFareBinary.run(["transform", "--from", "wgs84", "--to", "utmk", "--input", file.path, "--threads", "1"])
        let two = try GeoFareBinary.run(["transform", "--from", "wgs84", "--to", "utmk", "--input", file.path, "--threads", "2"])
        #expect(one.status == 65 && two.status == 65)
        #expect(one.stdout == two.stdout)
        #expect(one.stderr == two.stderr)
        let out = two.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(out.count == 400_000)
        // The lines named on stderr are exactly the bad ones, in order, and only they are empty.
        let named = two.stderr.split(separator: "\n").compactMap { $0.firstMatch(of: /^geofare: line (\d+):/).map { Int($0.output.1)! } }
        #expect(named == bad)
        #expect(out.enumerated().filter { $0.element.isEmpty }.map { $0.offset + 1 } == bad)
        #expect(two.stderr.hasSuffix("geofare: \(bad.count) of 400000 lines failed\n"))
        // Sampled lines equal the point converted on its own.
        for (line, (x, y)) in points {
            let single = try GeoFareBinary.run(["transform", "--from", "wgs84", "--to", "utmk", "\(x),\(y)"])
            #expect(String(out[line - 1]) + "\n" == single.stdout, "line \(line)")
        }
    }

    @Test("CSV with a header: x/y found by name, other columns kept, an error column added")
    func csv() throws {
        let input = "id,name,lat,lon\r\n1,\"City Hall, Seoul\",37.5665,126.978\r\n2,bad,abc,126\r\n"
        let r = try GeoFareBinary.run(["transform", "--from", "wgs84", "--to", "utmk"], stdin: input)
        #expect(r.status == 65)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "id,name,lat,lon,error")
        #expect(lines[1] == "1,\"City Hall, Seoul\",1952032.081,953901.165,")
        #expect(lines[2].hasPrefix("2,bad,abc,126,"))
    }

    @Test("A file as input, KATEC to WGS84")
    func fileInput() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-\(UUID().uuidString).txt")
        try Data("311277,552097\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try GeoFareBinary.run(["transform", "--from", "katec", "--to", "wgs84", "--precision", "7", "--input", file.path])
        #expect(r.stdout == "126.9934677 37.5668458\n")
        let missing = try GeoFareBinary.run(["transform", "--from", "katec", "--to", "wgs84", "--input", "/nonexistent/file"])
        #expect(missing.status == 66)
    }

    @Test("An unknown CRS exits 64 with a message naming it")
    func unknownCRS() throws {
        let r = try GeoFareBinary.run(["transform", "--from", "wgs84", "--to", "bogus", "1,2"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("bogus") && r.stderr.contains("unknown_crs"))
        #expect(r.stdout.isEmpty)
        // PROJ's own log reaches neither stream: its words are inside our one error line.
        let epsg = try GeoFareBinary.run(["transform", "--from", "wgs84", "--to", "EPSG:999999", "1,2"])
        let lines = epsg.stderr.split(separator: "\n")
        #expect(epsg.stdout.isEmpty && lines.count == 1 && lines[0].hasPrefix("geofare:") && lines[0].contains("proj_create: crs not found"), "\(epsg.stderr)")
    }

    @Test("distance prints the geodesic; bad input exits 65 naming the field")
    func distance() throws {
        let r = try GeoFareBinary.run(["distance", "--json", "40.6,-73.8", "49.01666667,2.55"])
        #expect(r.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Double]
        #expect(abs((json?["distance_m"] ?? 0) - 5853226) < 0.5)
        let bad = try GeoFareBinary.run(["distance", "37.5,126.9", "95,1"])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("to.lat"))
    }
}
