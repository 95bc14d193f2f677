import GeoFareCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes a graph file (layout in ``GraphFileLayout``) atomically: into a temporary file beside the
/// target, flushed, then renamed over it, so a reader never sees half a file.
public enum GraphFileWriter {
    /// Writes `network`, its hierarchies (one per metric, all of ``GraphMetric/allCases``) and `metadata`
    /// (its counts and bbox are filled in from the network) to `path`.
    /// - Throws: ``GeoFareError`` `graph_io` when the file cannot be written, `graph_invalid_network`
    ///   when a hierarchy is missing or does not match the network.
    public static func write(network: RoadNetwork, hierarchies: [GraphMetric: ContractionHierarchy], metadata: GraphMetadata,
                             to path: String) throws(GeoFareError) {
        try network.validate()
        let meta = metadata.describing(network)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let json = try? encoder.encode(meta) else {
            throw GeoFareError(code: .graphIo, message: "could not encode the metadata", field: "metadata")
        }
        typealias S = GraphFileLayout.Section
        // views of the arrays, not copies: at 2.5 M nodes the file is 1.2 GB, and two copies of it
        // (the sections, then the laid-out body) took the build's peak from 3.5 to 4.7 GB
        var sections: [StreamedSection] = [StreamedSection(id: S.metadata, bytes: Array(json))]
        func add<T: BitwiseCopyable>(_ id: UInt32, _ a: [T]) { sections.append(StreamedSection(id: id, array: a)) }
        add(S.nodeLatitudes, network.nodeLatitudes); add(S.nodeLongitudes, network.nodeLongitudes)
        add(S.arcTail, network.arcTail); add(S.arcHead, network.arcHead)
        add(S.arcDistanceCentimeters, network.arcDistanceCentimeters); add(S.arcTimeMilliseconds, network.arcTimeMilliseconds)
        add(S.arcRoadClass, network.arcRoadClass); add(S.arcFlags, network.arcFlags)
        add(S.shapeStart, network.shapeStart); add(S.shapeLatitudes, network.shapeLatitudes); add(S.shapeLongitudes, network.shapeLongitudes)
        for metric in GraphMetric.allCases {
            guard let ch = hierarchies[metric], ch.nodeCount == network.nodeCount, ch.metric == metric else {
                throw GeoFareError(code: .graphInvalidNetwork, message: "no \(metric.rawValue) hierarchy for this network",
                                 field: "hierarchies")
            }
            // the views live as long as `ch`, which `hierarchies` holds until the write returns
            for (k, view) in ch.views.enumerated() {
                sections.append(StreamedSection(id: S.hierarchy(metric, k), count: view.count * 4) { body in body(UnsafeRawBufferPointer(view)) })
            }
            add(S.hierarchy(metric, S.coreStartIndex), [UInt32(ch.coreStart)])
        }
        try withExtendedLifetime(hierarchies) { () throws(GeoFareError) in
            try streamSectionFile(sections, to: path, version: GraphFileLayout.currentVersion, magic: GraphFileLayout.magic)
        }
    }

    /// Lays out `sections`, checksums them and writes the file atomically.
    static func writeSections(_ sections: [(id: UInt32, bytes: [UInt8])], to path: String,
                              version: UInt32 = GraphFileLayout.currentVersion) throws(GeoFareError) {
        try writeSectionFile(sections, to: path, version: version, magic: GraphFileLayout.magic)
    }

    /// Lays out `sections` in the container of ``SectionFileLayout`` (header, section table,
    /// 8-byte aligned sections, CRC-32), and writes the file atomically; another kind of file
    /// (the places index) passes its own 8-byte `magic` and `version`.
    /// - Throws: ``GeoFareError`` `graph_io` when the file cannot be written.
    public static func writeSectionFile(_ sections: [(id: UInt32, bytes: [UInt8])], to path: String,
                                        version: UInt32, magic: [UInt8]) throws(GeoFareError) {
        try streamSectionFile(sections.map { StreamedSection(id: $0.id, bytes: $0.bytes) }, to: path, version: version, magic: magic)
    }

    /// One section to write: its id, its length in bytes and a function that hands its bytes to a
    /// writer (so the writer needs no copy of them).
    struct StreamedSection {
        let id: UInt32
        let count: Int
        let withBytes: ((UnsafeRawBufferPointer) -> Void) -> Void

        init(id: UInt32, count: Int, withBytes: @escaping ((UnsafeRawBufferPointer) -> Void) -> Void) {
            self.id = id; self.count = count; self.withBytes = withBytes
        }

        init<T: BitwiseCopyable>(id: UInt32, array: [T]) {
            self.init(id: id, count: array.count * MemoryLayout<T>.stride) { body in array.withUnsafeBytes { body($0) } }
        }

        init(id: UInt32, bytes: [UInt8]) { self.init(id: id, array: bytes) }
    }

    /// ``writeSectionFile(_:to:version:magic:)`` without copying the sections: writes the header
    /// with a zero checksum, then the table and each section in turn (zero padding to the
    /// alignment) while computing the CRC-32, then the header again with it; all into a temporary
    /// file beside `path`, fsynced, then renamed over it.
    static func streamSectionFile(_ sections: [StreamedSection], to path: String, version: UInt32, magic: [UInt8]) throws(GeoFareError) {
        precondition(magic.count == 8, "a section file's magic is 8 bytes")
        let a = SectionFileLayout.alignment
        func aligned(_ x: Int) -> Int { (x + a - 1) / a * a }
        var offset = aligned(SectionFileLayout.headerSize + sections.count * SectionFileLayout.tableEntrySize)
        var table: [UInt8] = []
        for s in sections {
            appendLE(&table, s.id); appendLE(&table, UInt32(a)); appendLE(&table, UInt64(offset)); appendLE(&table, UInt64(s.count))
            offset = aligned(offset + s.count)
        }
        let fileLength = offset
        func header(crc: UInt32) -> [UInt8] {
            var h = magic
            appendLE(&h, version); appendLE(&h, UInt32(sections.count)); appendLE(&h, UInt64(fileLength))
            appendLE(&h, crc); appendLE(&h, UInt32(0))
            return h
        }
        let temp = path + ".tmp.\(getpid())"
        func fail(_ what: String) -> GeoFareError {
            GeoFareError(code: .graphIo, message: "\(what) '\(path)': \(String(cString: strerror(errno)))", field: path)
        }
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw fail("cannot create a temporary file for") }
        var ok = true, crc = CRC32(), at = 0
        let zeros = [UInt8](repeating: 0, count: a)
        /// Writes `buf` at the current position; `checked`: part of the checksummed body.
        func put(_ buf: UnsafeRawBufferPointer, checked: Bool = true) {
            guard ok, let base = buf.baseAddress, !buf.isEmpty else { return }
            if checked { crc.update(buf) }
            var done = 0
            while done < buf.count {
                let n = systemWrite(fd, base + done, buf.count - done)
                if n < 0 { if errno == EINTR { continue }; ok = false; return }
                done += n
            }
            at += buf.count
        }
        func pad(to target: Int) { while ok && at < target { zeros.withUnsafeBytes { put(UnsafeRawBufferPointer(rebasing: $0[0..<min(a, target - at)])) } } }
        header(crc: 0).withUnsafeBytes { put($0, checked: false) }
        table.withUnsafeBytes { put($0) }
        for s in sections {
            pad(to: aligned(at))
            let start = at
            s.withBytes { put($0) }
            if ok && at - start != s.count { preconditionFailure("section \(s.id) gave \(at - start) bytes, not \(s.count)") }
        }
        pad(to: fileLength)
        if ok {
            let h = header(crc: crc.value)
            ok = h.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == h.count
        }
        if ok && fsync(fd) != 0 { ok = false }
        if close(fd) != 0 { ok = false }
        guard ok else { let e = fail("cannot write"); unlink(temp); throw e }
        guard rename(temp, path) == 0 else { let e = fail("cannot rename the temporary file to"); unlink(temp); throw e }
    }

    static func appendLE<T: FixedWidthInteger>(_ bytes: inout [UInt8], _ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}

/// `write(2)`, named apart from the enum's `write` method.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(fd, buffer, count)
    #else
    Darwin.write(fd, buffer, count)
    #endif
}
