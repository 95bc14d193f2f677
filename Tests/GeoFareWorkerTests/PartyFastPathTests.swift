import Foundation
import GeoFareCore
import GeoFareParties
import GeoFareTestSupport
import GeoFareText
import Testing
@testable import GeoFareWorker

/// The byte-level fast path for party ops (``FastPartyRequest``) answers exactly as the
/// general path: the same stream of random requests, valid and invalid, sent to a worker with
/// the fast path and to one without (`GEOFARE_FAST_PATH=off`), each on its own SQLite file,
/// must get the same bytes back, line for line.
@Suite(.timeLimit(.minutes(TestTime.minutes(10))))
struct PartyFastPathTests {
    /// One random request and whether it is in the fast form (the decoder must take it).
    struct Line {
        let text: String
        let fast: Bool
    }

    /// Random party requests: mostly in the fast form, the rest in forms only the general path
    /// takes (unknown keys, escapes, exponents, nulls, wrong types, values out of range,
    /// attributes), plus fast-form requests that fail in the index (a negative radius, an
    /// unknown party or cluster) so errors are compared too.
    static func requests(_ count: Int, seed: UInt64) -> [Line] {
        var rng = SeededGenerator(seed: seed)
        func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &rng)] }
        func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        func num(_ r: ClosedRange<Double>) -> String { DecimalFormat.string(.random(in: r, using: &rng), decimals: Int.random(in: 0...7, using: &rng)) }
        func point() -> String {
            let lat = num(37.45...37.65), lon = num(126.85...127.15)
            return chance(0.5) ? #"{"lat":\#(lat),"lon":\#(lon)}"# : #"{ "lon" : \#(lon) , "lat" : \#(lat) }"#
        }
        func time() -> String { "2030-05-\(Int.random(in: 10...20, using: &rng))T\(Int.random(in: 10...23, using: &rng)):\(pick(["00", "15", "30"])):00\(pick(["+09:00", "Z", "-0300"]))" }
        var lines: [Line] = []
        for i in 0..<count {
            let id = pick(["\(i)", #""r\#(i)""#, "-\(i)"])
            let pid = "p\(Int.random(in: 0..<60, using: &rng))"
            var fields: [String] = []
            var fast = true
            let op: String
            // A way out of the fast form, applied to some requests of every op.
            func spoil() {
                fast = false
                switch Int.random(in: 0..<5, using: &rng) {
                case 0: fields.append(#""extra":1"#)
                case 1: fields.append(#""limit":null"#)
                case 2: fields.append(#""id":"dup""#)
                case 3: fields.append(#""tolls":1e2"#)
                default: fields.append(#""note":"a\"b""#)
                }
            }
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<4:
                op = "party.upsert"
                let total = Int.random(in: 1...6, using: &rng)
                var taken = Int.random(in: 0...total, using: &rng)
                var party = [#""id":"\#(pid)""#, #""origin":\#(point())"#, #""destination":\#(point())"#, #""depart_at":"\#(time())""#,
                             #""seats_total":\#(total)"#]
                if chance(0.7) { party.append(#""seats_taken":\#(taken)"#) } else { taken = 0 }
                if chance(0.5) { party.append(#""status":"\#(pick(["open", "full", "closed"]))""#) }
                switch Int.random(in: 0..<14, using: &rng) {
                case 0: party.append(#""attributes":{"z":1,"a":[true,null],"k":"v"}"#); fast = false
                case 1: party[4] = #""seats_total":\#(total + 20)"#; fast = false                    // out of range
                case 2: party[0] = #""id":"p\u00\#(Int.random(in: 30...39, using: &rng))""#; fast = false  // an escape
                case 3: party[0] = #""id":"""#; fast = false                                           // empty id
                case 4: party[1] = #""origin":{"lat":95,"lon":127}"#; fast = false
                case 5: party[4] = #""seats_total":"4""#; fast = false                                 // wrong type
                case 6: party[4] = #""seats_total":4.0"#; fast = false
                case 7: party.remove(at: 3); fast = false                                              // no depart_at
                case 8: party.append(#""status":"gone""#); fast = false
                case 9: party[3] = #""depart_at":"2030-05-15T22:30:00""#; fast = false                 // no offset
                default: break
                }
                party.shuffle(using: &rng)
                fields.append(#""party":{\#(party.joined(separator: ","))}"#)
            case 4:
                op = pick(["party.remove", "party.get"])
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: fields.append(#""party_id":\#(i)"#); fast = false
                case 1: fast = false
                default: fields.append(#""party_id":"\#(chance(0.8) ? pid : "missing\(i)")""#)
                }
            case 5...7:
                op = "nearby"
                fields.append(#""center":\#(point())"#)
                if chance(0.7) { fields.append(#""radius_m":\#(chance(0.05) ? "-5" : num(50...3000))"#) }
                if chance(0.6) {
                    let limit = chance(0.05) ? 0 : Int.random(in: 1...40, using: &rng)
                    fields.append(#""limit":\#(limit)"#)
                    if limit == 0 { fast = false }
                }
                filters(&fields)
            case 8:
                op = "clusters"
                let lat = Double.random(in: 37.45...37.62, using: &rng), lon = Double.random(in: 126.85...127.1, using: &rng)
                let span = pick([0.005, 0.02, 0.1, 0.4])
                let (s, n) = chance(0.03) ? (lat + span, lat) : (lat, lat + span)
                if s > n { fast = false }
                fields.append(#""bbox":{"west":\#(lon),"south":\#(s),"east":\#(lon + span),"north":\#(n)}"#)
                let zoom = Int.random(in: 0...21, using: &rng)
                if zoom > 20 { fast = false }
                fields.append(#""zoom":\#(zoom)"#)
                if chance(0.5) { fields.append(#""ids_limit":\#(Int.random(in: 0...20, using: &rng))"#) }
                filters(&fields)
            default:
                op = "cluster.leaves"
                // A party id is a leaf's own id (answered with that party); the rest are unknown.
                fields.append(#""cluster_id":"\#(pick([pid, pid, "c12-1", "c14-13972", "nonsense"]))""#)
                if chance(0.5) { fields.append(#""limit":\#(Int.random(in: 1...30, using: &rng))"#) }
                if chance(0.3) { fields.append(#""offset":\#(Int.random(in: 0...5, using: &rng))"#) }
                filters(&fields)
            }
            if chance(0.12) { spoil() }
            func filters(_ f: inout [String]) {
                if chance(0.2) { f.append(#""min_free_seats":\#(Int.random(in: 0...3, using: &rng))"#) }
                if chance(0.2) { f.append(#""status":\#(pick([#""open""#, #"["open","full"]"#, "[]", #"["closed"]"#]))"#) }
                if chance(0.15) { f.append(#""depart_from":"\#(time())""#) }
                if chance(0.15) { f.append(#""depart_until":"\#(time())""#) }
                if chance(0.1) { f.append(#""destination":{"center":\#(point()),"radius_m":\#(num(100...20000))}"#) }
                if chance(0.03) { f.append(#""min_free_seats":99"#); fast = false }
            }
            fields.append(#""op":"\#(op)""#)
            fields.shuffle(using: &rng)
            fields.insert(#""id":\#(id)"#, at: Int.random(in: 0...fields.count, using: &rng))
            lines.append(Line(text: "{" + fields.joined(separator: pick([",", ", "])) + "}", fast: fast))
        }
        return lines
    }

    /// A response with its `updated_at` values (the store's clock at commit, different in two
    /// processes) replaced by one mark; every other byte is kept.
    static func normalised(_ line: [UInt8]) -> String {
        String(decoding: line, as: UTF8.self).replacing(#/"updated_at":"[^"]*"/#, with: #""updated_at":"T""#)
    }

    @Test("The fast decoder takes exactly the fast-form requests and declines the others, each op to its typed form")
    func decoderTakesTheFastForm() throws {
        var taken = 0
        for line in Self.requests(3000, seed: 5) {
            let decoded = Array(line.text.utf8).withUnsafeBytes { FastPartyRequest.decode($0) }
            #expect((decoded != nil) == line.fast, "\(line.text)")
            if decoded != nil { taken += 1 }
        }
        #expect(taken > 1500)
        // A fare is not a party request; a party op that only looks like one in a nested string is not taken.
        let fare = #"{"id":1,"op":"fare","from":{"lat":37.5,"lon":127},"to":{"lat":37.6,"lon":127},"depart_at":"2024-05-15T10:00:00Z"}"#
        #expect(Array(fare.utf8).withUnsafeBytes { FastPartyRequest.decode($0) } == nil)
        let nested = #"{"id":1,"note":{"op":"party.get"},"op":"party.get","party_id":"p1"}"#
        #expect(Array(nested.utf8).withUnsafeBytes { FastPartyRequest.decode($0) } == nil)
        // An id that reads "op" does not hide the op after it.
        let opID = #"{"id":"op","op":"party.get","party_id":"p1"}"#
        let decoded = Array(opID.utf8).withUnsafeBytes { FastPartyRequest.decode($0) }
        #expect(decoded?.idToken == Array(#""op""#.utf8))
        guard case let .query(.get(partyID))? = decoded?.body else { Issue.record("not a party.get: \(String(describing: decoded))"); return }
        #expect(partyID == "p1")
    }

    @Test("Instants written straight to bytes equal the ISO strings the general path wrote, fractions and far years included")
    func isoBytes() {
        var rng = SeededGenerator(seed: 9)
        var times: [Double] = [0, -1, 0.0004, 0.0005, 0.0006, 0.9996, 0.9994, 1_900_000_000.5, -62_135_596_800, 253_402_300_799.9997, -70_000_000_000, 1e12]
        for _ in 0..<20_000 { times.append(Double.random(in: -4e10...4e10, using: &rng).rounded() / pick(1, 1000, &rng)) }
        func pick(_ a: Double, _ b: Double, _ rng: inout SeededGenerator) -> Double { Bool.random(using: &rng) ? a : b }
        for t in times {
            let date = Date(timeIntervalSince1970: t)
            var w = ByteWriter(capacity: 64)
            defer { w.deallocate() }
            w.jsonInstant(date)
            var expected = ByteWriter(capacity: 64)
            defer { expected.deallocate() }
            expected.jsonString(ISO8601.utcString(date))
            #expect(Array(w.bytes) == Array(expected.bytes), "\(t)")
        }
    }

    @Test("Thousands of random party requests get the same bytes from the fast path and from the general path, and the fast worker did take the fast path")
    func sameBytes() throws {
        let lines = Self.requests(4000, seed: 22)
        let expectFast = lines.filter(\.fast).count
        let fastWorker = try WorkerProcess(arguments: ["--db", temporaryDatabase()])
        let generalWorker = try WorkerProcess(arguments: ["--db", temporaryDatabase()], environment: ["GEOFARE_FAST_PATH": "off"])
        // In slices, as a backend sends: so runs of writes are grouped, and reads see the writes before them.
        var a: [[UInt8]] = [], b: [[UInt8]] = []
        var start = 0
        while start < lines.count {
            let end = min(lines.count, start + 500)
            let slice = Array((lines[start..<end].map(\.text).joined(separator: "\n") + "\n").utf8)
            fastWorker.send(slice)
            generalWorker.send(slice)
            a += fastWorker.receiveLines(end - start)
            b += generalWorker.receiveLines(end - start)
            start = end
        }
        let statsA = fastWorker.call(#"{"id":"s","op":"stats"}"#)
        let statsB = generalWorker.call(#"{"id":"s","op":"stats"}"#)
        fastWorker.closeInput(); generalWorker.closeInput()
        #expect(fastWorker.wait() == 0)
        #expect(generalWorker.wait() == 0)
        try #require(a.count == lines.count && b.count == lines.count)
        var differ = 0, errors = 0, nonEmpty = 0
        for i in lines.indices {
            let x = Self.normalised(a[i]), y = Self.normalised(b[i])
            if x != y {
                differ += 1
                if differ <= 5 { Issue.record("request \(lines[i].text)\nfast:    \(x.prefix(400))\ngeneral: \(y.prefix(400))") }
            }
            if x.contains(#""ok":false"#) { errors += 1 }
            if x.contains(#""parties":[{"#) || x.contains(#""items":[{"#) { nonEmpty += 1 }
        }
        #expect(differ == 0)
        // The comparison covers errors and answers with content, not only empty results.
        #expect(errors > 200 && errors < lines.count / 2, "\(errors) errors")
        #expect(nonEmpty > 500, "\(nonEmpty) non-empty query answers")
        // The fast worker answered every fast-form request on the fast path; the other none.
        #expect(statsA?["result"]?["fast_path"]?.int64 == Int64(expectFast), "\(statsA.map { JSONWriter.string($0) } ?? "none")")
        #expect(statsB?["result"]?["fast_path"]?.int64 == 0)
        // Both counted the same requests and the same errors.
        #expect(statsA?["result"]?["requests"] == statsB?["result"]?["requests"])
        #expect(statsA?["result"]?["errors"] == statsB?["result"]?["errors"])
    }
}
