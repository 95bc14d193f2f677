import Foundation
import GeoFareCore
import GeoFareGraph
import GeoFareGraphBuild
import GeoFareOSM
import Testing

/// Truncated, bit-flipped and random files give a ``GeoFareError``, never a crash or a hang.
@Suite("PBF robustness")
struct RobustnessTests {
    static let codes: Set<String> = ["pbf_truncated", "pbf_corrupt", "pbf_unsupported"]

    /// Reads and builds `data`; returns the error, or nil when it decoded.
    static func outcome(_ data: Data, build: Bool) -> GeoFareError? {
        do throws(GeoFareError) {
            let reader = try PBFReader(data: data)
            if build {
                _ = try OSMRoadNetworkBuilder(profile: try! TestData.carProfile()).build(reader: reader)
            } else {
                struct Count: PBFVisitor { var n = 0; mutating func node(id: Int64, latitude: Int32, longitude: Int32, tags: PBFTags, strings: PBFStringTable) { n += 1 } }
                var c = Count()
                try reader.visit(&c)
            }
            return nil
        } catch { return error }
    }

    @Test("truncating a real extract at any of many offsets gives pbf_truncated naming the blob", .needsExtracts)
    func truncation() throws {
        let data = try Data(contentsOf: TestData.extract("seoul_mapo.osm.pbf"))
        var rng = SeededGenerator(seed: 2026)
        var offsets = [0, 1, 3, 4, 5, 20, data.count - 1]
        for _ in 0..<120 { offsets.append(Int.random(in: 0..<data.count, using: &rng)) }
        for cut in offsets {
            let error = Self.outcome(data.prefix(cut), build: false)
            // a cut exactly between two blobs is a valid shorter file
            guard let error else { continue }
            #expect(error.code == .pbfTruncated, "cut at \(cut): \(error)")
            #expect(error.field?.hasPrefix("blob[") == true, "cut at \(cut): \(error)")
        }
        #expect(Self.outcome(Data(), build: false)?.code == .pbfTruncated)
    }

    @Test("flipped bytes in real extracts give a typed error or a valid network", .needsExtracts, arguments: ["seoul_mapo.osm.pbf", "busan_seomyeon_1km.osm.pbf"])
    func flips(_ name: String) throws {
        let original = try Data(contentsOf: TestData.extract(name))
        var rng = SeededGenerator(seed: 7 &+ UInt64(name.count))
        var errors = 0
        for round in 0..<60 {
            var data = original
            for _ in 0..<(1 + round % 4) {
                // favour the headers, where a flip changes structure rather than compressed bytes
                let at = round % 3 == 0 ? Int.random(in: 0..<min(200, data.count), using: &rng) : Int.random(in: 0..<data.count, using: &rng)
                data[at] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &rng)
            }
            if let error = Self.outcome(data, build: round % 3 == 0) {
                errors += 1
                #expect(Self.codes.contains(error.code.rawValue), "\(error)")
                #expect(error.field?.hasPrefix("blob[") == true, "\(error)")
            }
        }
        #expect(errors > 30, "zlib's checksum should catch most flips: \(errors) of 60")
    }

    @Test("random bytes and hand-corrupted blocks give typed errors")
    func garbage() throws {
        var rng = SeededGenerator(seed: 99)
        for size in [1, 4, 5, 16, 100, 5000] {
            let data = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &rng) })
            let error = try #require(Self.outcome(data, build: false))
            #expect(Self.codes.contains(error.code.rawValue))
        }
        // a primitive block whose protobuf is garbage, stored raw (no checksum to catch it)
        for seed in 0..<200 as Range<UInt64> {
            var g = SeededGenerator(seed: seed)
            var file = Data()
            var header = Proto()
            header.bytes(4, Array("OsmSchema-V0.6".utf8))
            PBFWriter.appendBlob(&file, type: "OSMHeader", content: header.out)
            PBFWriter.appendBlob(&file, type: "OSMData", content: (0..<Int.random(in: 1...300, using: &g)).map { _ in UInt8.random(in: 0...255, using: &g) })
            if let error = Self.outcome(file, build: false) { #expect(Self.codes.contains(error.code.rawValue), "\(error)") }
        }
    }

    @Test("lzma and zstd blobs and unknown required features are pbf_unsupported")
    func unsupported() throws {
        for field: UInt64 in [4, 7] {
            var file = Data()
            var header = Proto()
            header.bytes(4, Array("OsmSchema-V0.6".utf8))
            PBFWriter.appendBlob(&file, type: "OSMHeader", content: header.out)
            var blob = Proto()
            blob.varint(2, 10)
            blob.bytes(field, [1, 2, 3])
            var blobHeader = Proto()
            blobHeader.bytes(1, Array("OSMData".utf8))
            blobHeader.varint(3, UInt64(blob.out.count))
            let n = UInt8(blobHeader.out.count)
            file.append(contentsOf: [0, 0, 0, n] + blobHeader.out + blob.out)
            let error = try #require(Self.outcome(file, build: false))
            #expect(error.code == .pbfUnsupported && error.field == "blob[1]@\(file.count - blob.out.count - Int(n) - 4)", "\(error)")
        }
        var w = PBFWriter()
        w.requiredFeatures = ["OsmSchema-V0.6", "HistoricalInformation"]
        do {
            _ = try PBFReader(data: w.encode())
            Issue.record("a history file must be refused")
        } catch {
            #expect(error.code == .pbfUnsupported && error.message.contains("HistoricalInformation"))
        }
    }

    @Test("the header's replication timestamp, bbox-free header and writing program are read", .needsExtracts)
    func header() throws {
        var w = PBFWriter()
        w.replicationTimestamp = 1_700_000_000
        let reader = try PBFReader(data: w.encode())
        #expect(reader.header.replicationTimestampSeconds == 1_700_000_000)
        #expect(reader.header.writingProgram == "GeoFareTests")
        #expect(reader.header.bboxNanodegrees == nil)
        let monaco = try PBFReader(contentsOf: TestData.extract("osrm_monaco.osm.pbf"))
        let box = try #require(monaco.header.bboxNanodegrees)
        #expect(box.left < box.right && box.bottom < box.top && box.left > 7_000_000_000 && box.top < 44_000_000_000)
    }
}
