import Foundation
import Testing
import GeoFareCore
import GeoFareFare
import GeoFareRoute
import GeoFareTestSupport
import GeoFareText

/// `--graph`: a real OSM extract built into a graph file by the command, then the same fares
/// through the worker, `fare-csv` and the library, all on the road network.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct GraphRoutingTests {
    static let shared = SharedData.url("osm")

    /// Builds `extract` into a temporary graph file with `geofare graph build`.
    static func build(_ extract: String) throws -> URL {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-\(UUID().uuidString).graph")
        let r = try GeoFareBinary.run(["graph", "build", shared.appendingPathComponent(extract).path, "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("contraction (fastest)") && r.stderr.contains("nodes"))
        return out
    }

    @Test("graph build --synthetic-city: a grid of SIDE × SIDE nodes that routes; an extract and the grid together are refused")
    func syntheticCity() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-\(UUID().uuidString).graph")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try GeoFareBinary.run(["graph", "build", "--synthetic-city", "30", "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("900 nodes") && r.stderr.contains("hierarchy arcs"), "\(r.stderr)")
        let info = try GeoFareBinary.run(["graph", "info", out.path, "--json"])
        let meta = try JSONParser.parse(Array(info.stdout.utf8.dropLast()))
        #expect(meta.object?["nodeCount"]?.int64 == 900)
        let bench = try GeoFareBinary.run(["bench", "route", "--graph", out.path, "--queries", "200", "--rounds", "1", "--json"])
        #expect(bench.status == 0, "\(bench.stderr)")
        let report = try JSONParser.parse(Array(bench.stdout.utf8.dropLast()))
        for metric in ["fastest", "shortest"] {
            let m = report.object?["metrics"]?.object?[metric]?.object
            #expect(m?["checked_equal"]?.int64 == 200, "\(metric): CH and Dijkstra disagree")
            #expect((m?["ch_settled_mean"]?.int64 ?? 0) > 0)
        }
        let both = try GeoFareBinary.run(["graph", "build", Self.shared.appendingPathComponent("seoul_mapo.osm.pbf").path, "--synthetic-city", "30", "-o", out.path])
        #expect(both.status != 0 && both.stderr.contains("not both"), "\(both.stderr)")
    }

    @Test("graph build --core-degree: a forced core shows in the build, in graph info, and routes as Dijkstra")
    func forcedCore() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("geofare-\(UUID().uuidString).graph")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try GeoFareBinary.run(["graph", "build", "--synthetic-city", "30", "--core-degree", "8", "-o", out.path])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try GeoFareBinary.run(["graph", "info", out.path])
        // "hierarchies  fastest N arcs, core C nodes; shortest N arcs, core C nodes", both cores non-empty
        let line = text.stdout.split(separator: "\n").first { $0.contains("hierarchies") }.map(String.init) ?? ""
        let cores = line.split(separator: ";").compactMap { part in part.split(separator: " ").firstIndex(of: "core").flatMap { i in Int(part.split(separator: " ")[i + 1]) } }
        #expect(cores.count == 2 && cores.allSatisfy { $0 > 0 && $0 < 900 }, "\(text.stdout)")
        let bench = try GeoFareBinary.run(["bench", "route", "--graph", out.path, "--queries", "200", "--rounds", "1", "--json"])
        #expect(bench.status == 0, "\(bench.stderr)")
        let report = try JSONParser.parse(Array(bench.stdout.utf8.dropLast()))
        for metric in ["fastest", "shortest"] {
            #expect(report.object?["metrics"]?.object?[metric]?.object?["checked_equal"]?.int64 == 200, "\(metric): CH and Dijkstra disagree")
        }
        let negative = try GeoFareBinary.run(["graph", "build", "--synthetic-city", "30", "--core-degree", "-1", "-o", out.path])
        #expect(negative.status != 0 && negative.stderr.contains("--core-degree"), "\(negative.stderr)")
    }

    @Test("graph build, info, and a corrupt or foreign file named as such", .enabled(if: SharedData.runs("osm"), "needs ../shared/data/osm beside the checkout"))
    func buildAndInfo() throws {
        let graph = try Self.build("seoul_mapo.osm.pbf")
        defer { try? FileManager.default.removeItem(at: graph) }
        let info = try GeoFareBinary.run(["graph", "info", graph.path, "--json"])
        #expect(info.status == 0)
        let meta = try JSONParser.parse(Array(info.stdout.utf8.dropLast()))
        #expect(meta.object?["profileID"]?.string == "car")
        #expect(meta.object?["attribution"]?.string?.contains("OpenStreetMap") == true)
        #expect((meta.object?["nodeCount"]?.int64 ?? 0) > 500)
        // turn restrictions applied and conditional ones left out are recorded and shown
        #expect((meta.object?["turnRestrictionsApplied"]?.int64 ?? 0) > 0)
        #expect(meta.object?["conditionalRestrictionsLeftOut"]?.int64 != nil && meta.object?["turnRestrictionsViaWay"]?.int64 != nil)
        let text = try GeoFareBinary.run(["graph", "info", graph.path])
        #expect(text.stdout.contains("turn restrictions applied") && text.stdout.contains("conditional (time-dependent) left out"), "\(text.stdout)")
        // A byte flipped in the middle: corrupt, by its checksum.
        var bytes = try Data(contentsOf: graph)
        bytes[bytes.count / 2] ^= 0xFF
        let bad = graph.appendingPathExtension("bad")
        defer { try? FileManager.default.removeItem(at: bad) }
        try bytes.write(to: bad)
        let r = try GeoFareBinary.run(["graph", "info", bad.path])
        #expect(r.status == 65 && r.stderr.contains("graph_corrupt"), "\(r.stderr)")
        let notGraph = try GeoFareBinary.run(["route", "--from", "37.5443,126.9516", "--to", "37.56,126.94", "--graph", Self.shared.appendingPathComponent("seoul_mapo.osm.pbf").path])
        #expect(notGraph.status == 65 && notGraph.stderr.contains("graph_not_a_graph_file"), "\(notGraph.stderr)")
    }

    @Test("Fares inside the graph: worker == fare-csv == library on the road route; outside it the circuity model answers, and says so", .enabled(if: SharedData.runs("osm"), "needs ../shared/data/osm beside the checkout"))
    func threeWayOnGraph() throws {
        let graph = try Self.build("seoul_mapo.osm.pbf")
        defer { try? FileManager.default.removeItem(at: graph) }
        let pricer = try TripPricer.standard(graphs: [graph.path])
        var rng = SeededGenerator(seed: 31)
        var csv = "id,origin_lat,origin_lon,dest_lat,dest_lon,depart_at,party_size,tariff\n"
        var lines: [String] = []
        var expected: [(FareQuote, String)] = []
        for i in 0..<120 {
            let inside = i % 6 != 5
            let a = inside ? try Coordinate(latitude: (Double.random(in: 37.542...37.566, using: &rng) * 1e5).rounded() / 1e5, longitude: (Double.random(in: 126.935...126.965, using: &rng) * 1e5).rounded() / 1e5)
                           : try Coordinate(latitude: 37.5665, longitude: 126.9780)
            let b = inside ? try Coordinate(latitude: (Double.random(in: 37.542...37.566, using: &rng) * 1e5).rounded() / 1e5, longitude: (Double.random(in: 126.935...126.965, using: &rng) * 1e5).rounded() / 1e5)
                           : try Coordinate(latitude: 37.4979, longitude: 127.0276)
            let when = "2024-05-15T\(10 + i % 12):07:00+09:00", party = i % 3 + 1
            csv += "\(i),\(a.latitude),\(a.longitude),\(b.latitude),\(b.longitude),\(when),\(party),kr-seoul/regular\n"
            lines.append(#"{"id":\#(i),"op":"fare","from":{"lat":\#(a.latitude),"lon":\#(a.longitude)},"to":{"lat":\#(b.latitude),"lon":\#(b.longitude)},"depart_at":"\#(when)","party_size":\#(party),"tariff":"kr-seoul/regular","route":true}"#)
            var r = FareRequest(from: a, to: b, departure: ISO8601.parse(when)!, tariff: "kr-seoul/regular")
            r.partySize = party
            let (q, route) = try pricer.quote(r)
            expected.append((q, route?.estimator ?? ""))
        }
        #expect(expected.filter { $0.1 == "graph-ch-v1" }.count >= 50)  // the extract covers two districts in part: some points are > 200 m from its roads
        #expect(expected.filter { $0.1 == "circuity-v2" }.count >= 20)
        let worker = try WorkerProcess(arguments: ["--db", ":memory:", "--graph", graph.path])
        worker.send(Array((lines.joined(separator: "\n") + "\n").utf8))
        let answers = worker.receive(lines.count)
        worker.closeInput()
        _ = worker.wait()
        let out = try GeoFareBinary.run(["fare-csv", "--quiet", "--graph", graph.path], stdin: csv)
        #expect(out.status == 0, "\(out.stderr)")
        let rows = out.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        try #require(answers.count == expected.count && rows.count == expected.count)
        for ((answer, row), (q, estimator)) in zip(zip(answers, rows), expected) {
            let w = try #require(answer["result"])
            #expect(w["total"]?.int64 == q.total && w["meter"]?.int64 == q.meter && w["distance_m"]?.double == q.distanceMeters)
            #expect(w["route"]?["estimator"]?.string == estimator)
            let n = row.count
            #expect(row[n - 9] == String(q.total) && row[n - 14] == DecimalFormat.string(q.distanceMeters, decimals: 1))
        }
    }

    @Test("route on a graph: the road geometry on request, shortest never longer than fastest, no_road_nearby when asked not to fall back", .enabled(if: SharedData.runs("osm"), "needs ../shared/data/osm beside the checkout"))
    func routeOptions() throws {
        let graph = try Self.build("seoul_mapo.osm.pbf")
        defer { try? FileManager.default.removeItem(at: graph) }
        let worker = try WorkerProcess(arguments: ["--db", ":memory:", "--graph", graph.path])
        defer { worker.closeInput(); _ = worker.wait() }
        let trip = #""from":{"lat":37.5443,"lon":126.9516},"to":{"lat":37.5600,"lon":126.9400},"depart_at":"2024-05-15T14:00:00+09:00""#
        let fastest = try #require(worker.call(#"{"id":1,"op":"route",\#(trip),"geometry":true}"#)?["result"])
        let shortest = try #require(worker.call(#"{"id":2,"op":"route",\#(trip),"metric":"shortest"}"#)?["result"])
        #expect(fastest["estimator"]?.string == "graph-ch-v1")
        let geometry = try #require(fastest["geometry"]?.array)
        #expect(geometry.count > 5)
        #expect(geometry.first?.array?.count == 2)
        #expect(shortest["geometry"] == nil)
        #expect((shortest["distance_m"]?.double ?? .infinity) <= (fastest["distance_m"]?.double ?? 0))
        // A point more than 200 m from every road of this extract: an error when asked, the circuity model otherwise.
        let wet = #""from":{"lat":37.5443,"lon":126.9516},"to":{"lat":37.5405,"lon":126.9360},"depart_at":"2024-05-15T14:00:00+09:00""#
        let strict = try #require(worker.call(#"{"id":3,"op":"route",\#(wet),"no_road":"error"}"#))
        let lenient = try #require(worker.call(#"{"id":4,"op":"route",\#(wet)}"#))
        #expect(strict["error"]?["code"]?.string == "no_road_nearby")
        #expect(strict["error"]?["field"]?.string == "to")
        #expect(lenient["result"]?["estimator"]?.string == "circuity-v2")
        // snap_m: each leg end's distance to its road, as the library routes it; none for the circuity model
        let library = try GraphRouteEstimator(paths: [graph.path], fallback: CircuityRouteEstimator())
        var request = RouteRequest(origin: try Coordinate(latitude: 37.5443, longitude: 126.9516), destination: try Coordinate(latitude: 37.5600, longitude: 126.9400),
                                   departure: ISO8601.parse("2024-05-15T14:00:00+09:00")!)
        request.metric = .shortest
        let leg = try #require(library.estimate(request).legs.first)
        let snapFrom = try #require(leg.fromSnapMeters), snapTo = try #require(leg.toSnapMeters)
        #expect(snapFrom > 0 && snapFrom < 200 && snapTo > 0 && snapTo < 200)
        let wireLeg = try #require(shortest["legs"]?.array?.first)
        #expect(wireLeg["from"]?["snap_m"]?.double == snapFrom && wireLeg["to"]?["snap_m"]?.double == snapTo)
        #expect(wireLeg["from"]?["lat"]?.double == 37.5443)
        #expect(lenient["result"]?["legs"]?.array?.first?["from"]?["snap_m"] == nil)
        let version = try #require(worker.call(#"{"id":5,"op":"version"}"#)?["result"])
        #expect(version["graphs"]?.array?.first?["file"]?.string == graph.path)
    }

    /// approach curb on route, fare and the command line: the library's answer, different from
    /// unrestricted where the kerb side matters; an unknown approach is invalid_value naming its
    /// field.
    @Test("approach curb on route, fare and the command line: the library's answer; an unknown approach is invalid_value",
          .enabled(if: SharedData.runs("osm"), "needs ../shared/data/osm beside the checkout"))
    func curbApproach() throws {
        let graph = try Self.build("seoul_mapo.osm.pbf")
        defer { try? FileManager.default.removeItem(at: graph) }
        let library = try GraphRouteEstimator(paths: [graph.path], fallback: CircuityRouteEstimator())
        let depart = "2024-05-15T14:00:00+09:00"
        // points 3–20 m from random spots of the box, until the kerb side changes a shortest route
        var rng = SeededGenerator(seed: 1_819)
        var found: (RouteRequest, Route, Route)?
        for _ in 0..<400 where found == nil {
            let a = try Coordinate(latitude: .random(in: 37.543...37.566, using: &rng), longitude: .random(in: 126.935...126.965, using: &rng))
            let b = try Coordinate(latitude: .random(in: 37.543...37.566, using: &rng), longitude: .random(in: 126.935...126.965, using: &rng))
            var r = RouteRequest(origin: a, destination: b, departure: ISO8601.parse(depart)!)
            r.metric = .shortest
            r.fallbackWhenNoRoad = false
            guard let free = try? library.estimate(r) else { continue }
            r.approaches = [.curb, .curb]
            let curb = try library.estimate(r)
            #expect(curb.distanceMeters >= free.distanceMeters - 0.01)
            if curb.distanceMeters > free.distanceMeters + 5 { found = (r, free, curb) }
        }
        let (request, free, curb) = try #require(found)
        let worker = try WorkerProcess(arguments: ["--db", ":memory:", "--graph", graph.path])
        defer { worker.closeInput(); _ = worker.wait() }
        func point(_ c: Coordinate, _ approach: String?) -> String {
            #"{"lat":\#(c.latitude),"lon":\#(c.longitude)\#(approach.map { #","approach":"\#($0)""# } ?? "")}"#
        }
        func trip(_ approach: String?) -> String {
            #""from":\#(point(request.origin, approach)),"to":\#(point(request.destination, approach)),"depart_at":"\#(depart)","metric":"shortest","no_road":"error""#
        }
        let wireFree = try #require(worker.call(#"{"id":1,"op":"route",\#(trip(nil))}"#)?["result"])
        let wireUnrestricted = try #require(worker.call(#"{"id":2,"op":"route",\#(trip("unrestricted"))}"#)?["result"])
        let wireCurb = try #require(worker.call(#"{"id":3,"op":"route",\#(trip("curb"))}"#)?["result"])
        #expect(wireFree["distance_m"]?.double == free.distanceMeters && wireUnrestricted["distance_m"]?.double == free.distanceMeters)
        #expect(wireCurb["distance_m"]?.double == curb.distanceMeters)
        // fare by coordinates prices the curb route
        let fare = try #require(worker.call(#"{"id":4,"op":"fare",\#(trip("curb")),"route":true}"#)?["result"])
        #expect(fare["route"]?["distance_m"]?.double == curb.distanceMeters, "\(JSONWriter.string(fare))")
        // the command line: --approach curb for every point
        let cli = try GeoFareBinary.run(["route", "--from", "\(request.origin.latitude),\(request.origin.longitude)", "--to", "\(request.destination.latitude),\(request.destination.longitude)",
                                         "--at", depart, "--metric", "shortest", "--graph", graph.path, "--approach", "curb", "--json"])
        #expect(cli.status == 0, "\(cli.stderr)")
        #expect(try JSONParser.parse(Array(cli.stdout.utf8.dropLast())).object?["distance_m"]?.double == curb.distanceMeters)
        // an unknown approach, on a stop too: a typed error naming the field, and the worker goes on
        let bad = try #require(worker.call(#"{"id":5,"op":"route",\#(trip("kerb"))}"#))
        #expect(bad["error"]?["code"]?.string == "invalid_value" && bad["error"]?["field"]?.string == "from.approach", "\(JSONWriter.string(bad))")
        let badVia = try #require(worker.call(#"{"id":6,"op":"route",\#(trip(nil)),"via":[\#(point(request.origin, "left"))]}"#))
        #expect(badVia["error"]?["field"]?.string == "via[0].approach", "\(JSONWriter.string(badVia))")
        #expect(worker.call(#"{"id":7,"op":"route",\#(trip("curb"))}"#)?["result"]?["distance_m"]?.double == curb.distanceMeters)
        // matrix: the same per source and target
        let cells = #""sources":[\#(point(request.origin, "curb"))],"targets":[\#(point(request.destination, "curb"))],"depart_at":"\#(depart)","metric":"shortest","no_road":"error""#
        let matrix = try #require(worker.call(#"{"id":8,"op":"matrix",\#(cells)}"#)?["result"])
        #expect(matrix["distance_m"]?.array?.first?.array?.first?.double.map { abs($0 - curb.distanceMeters) <= 1e-6 } == true, "\(JSONWriter.string(matrix))")
        let badCell = try #require(worker.call(#"{"id":9,"op":"matrix","sources":[\#(point(request.origin, nil))],"targets":[\#(point(request.destination, "curbside"))]}"#))
        #expect(badCell["error"]?["code"]?.string == "invalid_value" && badCell["error"]?["field"]?.string == "targets[0].approach", "\(JSONWriter.string(badCell))")
    }

    /// matrix on a graph: worker cells equal the worker's route for each pair, both metrics;
    /// request_too_large beyond 10,000 cells; circuity-v2 without a graph; geofare matrix --json
    /// the same tables.
    @Test("matrix on a graph: cells equal the worker's routes (both metrics), size limit, circuity-v2 without a graph, --json tables",
          .enabled(if: SharedData.runs("osm"), "needs ../shared/data/osm beside the checkout"))
    func matrixOp() throws {
        let graph = try Self.build("seoul_mapo.osm.pbf")
        defer { try? FileManager.default.removeItem(at: graph) }
        let worker = try WorkerProcess(arguments: ["--db", ":memory:", "--graph", graph.path])
        defer { worker.closeInput(); _ = worker.wait() }
        let points = [(37.5443, 126.9516), (37.5600, 126.9400), (37.5530, 126.9610), (37.5650, 126.9550)]
        func json(_ p: (Double, Double)) -> String { #"{"lat":\#(p.0),"lon":\#(p.1)}"# }
        let list = "[" + points.map(json).joined(separator: ",") + "]"
        let when = "2024-05-15T08:50:00+09:00"
        var id = 10
        for metric in ["fastest", "shortest"] {
            let m = try #require(worker.call(#"{"id":1,"op":"matrix","sources":\#(list),"targets":\#(list),"metric":"\#(metric)","depart_at":"\#(when)"}"#)?["result"])
            #expect(m["estimator"]?.string == "graph-ch-v1")
            let d = try #require(m["distance_m"]?.array), t = try #require(m["duration_s"]?.array)
            #expect(d.count == 4 && t.count == 4 && d.allSatisfy { $0.array?.count == 4 })
            for i in 0..<4 {
                for j in 0..<4 {
                    id += 1
                    let r = try #require(worker.call(#"{"id":\#(id),"op":"route","from":\#(json(points[i])),"to":\#(json(points[j])),"metric":"\#(metric)","depart_at":"\#(when)"}"#)?["result"])
                    #expect(r["estimator"]?.string == "graph-ch-v1")
                    let dm = try #require(d[i].array?[j].double), ts = try #require(t[i].array?[j].double)
                    #expect(abs(dm - (r["distance_m"]?.double ?? -1)) <= 1e-6, "\(metric) \(i)→\(j)")
                    #expect(abs(ts - (r["duration_s"]?.double ?? -1)) <= 1e-6, "\(metric) \(i)→\(j)")
                }
            }
        }
        // 101 × 100 cells: too large
        let many = "[" + Array(repeating: json(points[0]), count: 100).joined(separator: ",") + "]"
        let big = try #require(worker.call(#"{"id":2,"op":"matrix","sources":[\#(json(points[1])),\#(many.dropFirst().dropLast())],"targets":\#(many)}"#))
        #expect(big["error"]?["code"]?.string == "request_too_large")
        let fits = try #require(worker.call(#"{"id":3,"op":"matrix","sources":\#(many),"targets":\#(many)}"#))
        #expect(fits["result"]?["distance_m"]?.array?.count == 100)
        // outside the graph: circuity estimates, marked
        let far = try #require(worker.call(#"{"id":4,"op":"matrix","sources":[{"lat":37.5665,"lon":126.978}],"targets":[{"lat":37.4979,"lon":127.0276},{"lat":37.2636,"lon":127.0286}]}"#)?["result"])
        #expect(far["estimator"]?.string == "circuity-v2")
        #expect(far["distance_m"]?.array?.first?.array?.count == 2)
        #expect(far["source_snap_m"] == nil)
        // the command line prints the worker's result
        let cli = try GeoFareBinary.run(["matrix", "--graph", graph.path, "--source", "37.5443,126.9516", "--source", "37.5600,126.9400",
                                         "--target", "37.5530,126.9610", "--at", when, "--json"])
        #expect(cli.status == 0, "\(cli.stderr)")
        let printed = try JSONParser.parse(Array(cli.stdout.utf8.dropLast()))
        let wire = try #require(worker.call(#"{"id":5,"op":"matrix","sources":[\#(json(points[0])),\#(json(points[1]))],"targets":[\#(json(points[2]))],"depart_at":"\#(when)"}"#)?["result"])
        #expect(printed.object?["distance_m"] == wire["distance_m"] && printed.object?["duration_s"] == wire["duration_s"])
        let tooMany = try GeoFareBinary.run(["matrix"] + Array(repeating: ["--source", "37.5443,126.9516"], count: 101).flatMap { $0 } + Array(repeating: ["--target", "37.5443,126.9516"], count: 100).flatMap { $0 })
        #expect(tooMany.status != 0 && tooMany.stderr.contains("request_too_large"), "\(tooMany.stderr)")
    }
}
