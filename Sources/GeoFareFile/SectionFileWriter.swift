import GeoFareCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a section file (``SectionFileLayout``: the container graph files and places indexes
/// share) atomically: into a temporary file beside the target, flushed, then renamed over it, so a
/// reader never sees half a file. The graph file's writer (`GraphFileWriter` in
/// `GeoFareGraphBuild`) and the places index's builder both write through it.
public enum SectionFileWriter {
    /// Lays out `sections` in the container of ``SectionFileLayout`` (header, section table,
    /// 8-byte aligned sections, CRC-32), and writes the file atomically; another kind of file
    /// (the places index) passes its own 8-byte `magic` and `version`.
    /// - Throws: ``GeoFareError`` `graph_io` when the file cannot be written.
    public static func write(_ sections: [(id: UInt32, bytes: [UInt8])], to path: String,
                             version: UInt32, magic: [UInt8]) throws(GeoFareError) {
        try stream(sections.map { Section(id: $0.id, bytes: $0.bytes) }, to: path, version: version, magic: magic)
    }

    /// One section to write: its id, its length in bytes and a function that hands its bytes to a
    /// writer (so the writer needs no copy of them).
    package struct Section {
        package let id: UInt32
        package let count: Int
        package let withBytes: ((UnsafeRawBufferPointer) -> Void) -> Void

        package init(id: UInt32, count: Int, withBytes: @escaping ((UnsafeRawBufferPointer) -> Void) -> Void) {
            self.id = id; self.count = count; self.withBytes = withBytes
        }

        package init<T: BitwiseCopyable>(id: UInt32, array: [T]) {
            self.init(id: id, count: array.count * MemoryLayout<T>.stride) { body in array.withUnsafeBytes { body($0) } }
        }

        package init(id: UInt32, bytes: [UInt8]) { self.init(id: id, array: bytes) }
    }

    /// ``write(_:to:version:magic:)`` without copying the sections: writes the header
    /// with a zero checksum, then the table and each section in turn (zero padding to the
    /// alignment) while computing the CRC-32, then the header again with it; all into a temporary
    /// file beside `path`, fsynced, then renamed over it.
    package static func stream(_ sections: [Section], to path: String, version: UInt32, magic: [UInt8]) throws(GeoFareError) {
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
            .sectionFileWriteFailed(what, path: path, reason: String(cString: strerror(errno)))
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

    package static func appendLE<T: FixedWidthInteger>(_ bytes: inout [UInt8], _ value: T) {
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
