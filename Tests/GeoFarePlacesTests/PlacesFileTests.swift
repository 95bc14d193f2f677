import Foundation
import GeoFareCore
import GeoFarePlaces
import GeoFareTestSupport
import Testing

/// A places file that is broken in any way is refused with a typed error, never read.
@Suite(.enabled(if: PlacesData.run, "needs ../shared/data/osm beside the checkout"))
struct PlacesFileTests {
    static func good() throws -> [UInt8] {
        let index = try PlacesData.index("busan_seomyeon_1km.osm.pbf")
        return Array(try Data(contentsOf: URL(fileURLWithPath: index.path)))
    }

    static func open(_ bytes: [UInt8], _ name: String) -> ErrorCode? {
        let path = PlacesData.directory.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        do { _ = try PlacesIndex(path: path); return nil } catch { return error.code }
    }

    @Test("Truncated, flipped, foreign, empty, missing and newer files: each its code")
    func broken() throws {
        let bytes = try Self.good()
        #expect(Self.open(bytes, "ok.places") == nil)
        #expect(Self.open(Array(bytes.prefix(20)), "short-header.places") == .placesTruncated)
        #expect(Self.open(Array(bytes.prefix(bytes.count / 2)), "half.places") == .placesTruncated)
        var flipped = bytes
        flipped[bytes.count - 100] ^= 0x40
        #expect(Self.open(flipped, "flipped.places") == .placesCorrupt)
        var magic = bytes
        magic[7] = UInt8(ascii: "G")
        #expect(Self.open(magic, "graph-magic.places") == .placesNotAPlacesFile)
        var version = bytes
        version[8] = 9
        #expect(Self.open(version, "v9.places") == .placesVersionUnsupported)
        // a file of the format before addresses (version 3): refused, saying to rebuild it
        var old = bytes
        old[8] = 3
        let path = PlacesData.directory.appendingPathComponent("v3.places").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(old))
        #expect { try PlacesIndex(path: path) } throws: { e in
            let e = e as? GeoFareError
            return e?.code == .placesVersionUnsupported && e?.message.contains("rebuild") == true && e?.field == path
        }
        #expect(Self.open([], "empty.places") == .placesNotAPlacesFile)
        #expect(Self.open(bytes + [0], "longer.places") == .placesCorrupt)
        #expect { try PlacesIndex(path: "/nonexistent/x.places") } throws: { ($0 as? GeoFareError)?.code == .placesIo }
        // Every single-byte change after the header is caught (the checksum), at 64 spread offsets.
        for k in 0..<64 {
            var b = bytes
            let at = 32 + (bytes.count - 33) * k / 63
            b[at] &+= 1
            #expect(Self.open(b, "byte-\(k).places") != nil, "a change at byte \(at) went unnoticed")
        }
    }

    @Test("A file holds its metadata: source, timestamp, counts, box and the ODbL attribution")
    func metadata() throws {
        let index = try PlacesData.index("seoul_mapo.osm.pbf")
        let m = index.metadata
        #expect(m.source == "seoul_mapo.osm.pbf")
        #expect(m.osmTimestamp.hasPrefix("20"))
        #expect(m.placeCount == index.count && m.keyCount == index.keyCount)
        #expect(m.kinds.values.reduce(0, +) == m.placeCount)
        #expect(m.attribution.contains("OpenStreetMap contributors, ODbL"))
        #expect(m.west > 126.9 && m.east < 127.0 && m.south > 37.5 && m.north < 37.6)
        // streets are merged: fewer entries than named road ways, one per name nearby
        #expect((m.kinds["street"] ?? 0) > 50)
    }
}
