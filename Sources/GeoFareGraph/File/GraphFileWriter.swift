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
        var sections: [(UInt32, [UInt8])] = [(S.metadata, Array(json))]
        func add<T: BitwiseCopyable>(_ id: UInt32, _ a: [T]) { sections.append((id, a.withUnsafeBytes { Array($0) })) }
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
            for (k, view) in ch.views.enumerated() { sections.append((S.hierarchy(metric, k), Array(UnsafeRawBufferPointer(view)))) }
            add(S.hierarchy(metric, S.coreStartIndex), [UInt32(ch.coreStart)])
        }
        try writeSections(sections, to: path)
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
        precondition(magic.count == 8, "a section file's magic is 8 bytes")
        let a = SectionFileLayout.alignment
        func aligned(_ x: Int) -> Int { (x + a - 1) / a * a }
        var offset = aligned(SectionFileLayout.headerSize + sections.count * SectionFileLayout.tableEntrySize)
        var table: [UInt8] = []
        var offsets: [Int] = []
        for s in sections {
            offsets.append(offset)
            appendLE(&table, s.id); appendLE(&table, UInt32(a)); appendLE(&table, UInt64(offset)); appendLE(&table, UInt64(s.bytes.count))
            offset = aligned(offset + s.bytes.count)
        }
        let fileLength = offset
        var body = [UInt8](repeating: 0, count: fileLength - SectionFileLayout.headerSize)
        body.replaceSubrange(0..<table.count, with: table)
        for (s, o) in zip(sections, offsets) {
            body.replaceSubrange((o - SectionFileLayout.headerSize)..<(o - SectionFileLayout.headerSize + s.bytes.count), with: s.bytes)
        }
        var crc = CRC32()
        body.withUnsafeBytes { crc.update($0) }
        var header = magic
        appendLE(&header, version); appendLE(&header, UInt32(sections.count)); appendLE(&header, UInt64(fileLength))
        appendLE(&header, crc.value); appendLE(&header, UInt32(0))
        try writeAtomically([header, body], to: path)
    }

    static func appendLE<T: FixedWidthInteger>(_ bytes: inout [UInt8], _ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes the parts to a temporary file in the target's directory, fsyncs it, then renames it over `path`.
    static func writeAtomically(_ parts: [[UInt8]], to path: String) throws(GeoFareError) {
        let temp = path + ".tmp.\(getpid())"
        func fail(_ what: String) -> GeoFareError {
            GeoFareError(code: .graphIo, message: "\(what) '\(path)': \(String(cString: strerror(errno)))", field: path)
        }
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw fail("cannot create a temporary file for") }
        var ok = true
        for part in parts where ok {
            part.withUnsafeBytes { buf in
                var done = 0
                while done < buf.count {
                    let n = systemWrite(fd, buf.baseAddress! + done, buf.count - done)
                    if n < 0 { if errno == EINTR { continue }; ok = false; return }
                    done += n
                }
            }
        }
        if ok && fsync(fd) != 0 { ok = false }
        if close(fd) != 0 { ok = false }
        guard ok else { let e = fail("cannot write"); unlink(temp); throw e }
        guard rename(temp, path) == 0 else { let e = fail("cannot rename the temporary file to"); unlink(temp); throw e }
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
