import GeoFareCore
import Foundation

/// Where records end, decided by the scanner's own rules, so that whoever cuts a buffer into
/// pieces (the CSV job's blocks and lanes, a header reader) agrees with the scanner that later
/// reads each piece.
///
/// The rules are ``CSVRecordScanner``'s (and ``CSVReader``'s, and Python's `csv` module's
/// defaults): a quote opens a quoted field only at the start of a field (first byte of the
/// record, or right after a separator); inside it `""` is a quote and a lone `"` closes it; a
/// quote anywhere else is plain text (`5" tall`). A line feed outside a quoted field ends the
/// record. Counting quote parity instead, as a block cutter once did, goes wrong on the first
/// stray quote and then cuts records in the middle of a quoted field.
extension CSVRecordScanner {
    /// Calls `visit(index, newlinesSoFar)` for each record-ending line feed in `bytes` (which must
    /// start at a record boundary), `newlinesSoFar` counting every line feed up to and including
    /// it; stops early when `visit` returns false.
    /// - Returns: the line feeds seen, and whether the scan ended inside a quoted field.
    /// - Complexity: O(n); a buffer without quotes is scanned with `memchr`.
    @discardableResult
    public static func scanRecordEnds(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8 = UInt8(ascii: ","),
                                      visit: (Int, Int) -> Bool) -> (newlines: Int, endsInQuotes: Bool) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return (0, false) }
        let n = bytes.count
        var newlines = 0
        if memchr(base, 0x22, n) == nil {
            var i = 0
            while i < n, let p = memchr(base + i, 0x0A, n - i) {
                let at = base.distance(to: p.assumingMemoryBound(to: UInt8.self))
                newlines += 1
                if !visit(at, newlines) { return (newlines, false) }
                i = at + 1
            }
            return (newlines, false)
        }
        var inQuotes = false, quoteSeen = false, atFieldStart = true
        var i = 0
        while i < n {
            let c = bytes[i]
            i += 1
            if inQuotes {
                if quoteSeen {
                    quoteSeen = false
                    if c == 0x22 { continue }     // "" inside quotes
                    inQuotes = false              // the quote closed the field: c is plain
                } else {
                    if c == 0x22 { quoteSeen = true } else if c == 0x0A { newlines += 1 }
                    continue
                }
            }
            if c == separator {
                atFieldStart = true
            } else if c == 0x0A {
                newlines += 1
                atFieldStart = true
                if !visit(i - 1, newlines) { return (newlines, false) }
            } else if c == 0x22 && atFieldStart {
                inQuotes = true
                atFieldStart = false
            } else {
                atFieldStart = false
            }
        }
        return (newlines, inQuotes && !quoteSeen)
    }

    /// The first record-ending line feed at or after the start of `bytes`, or nil.
    public static func firstRecordEnd(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8 = UInt8(ascii: ",")) -> Int? {
        var found: Int?
        scanRecordEnds(bytes, separator: separator) { at, _ in found = at; return false }
        return found
    }

    /// The last record-ending line feed in `bytes`, or nil when no record ends there.
    public static func lastRecordEnd(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8 = UInt8(ascii: ",")) -> Int? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        if memchr(base, 0x22, bytes.count) == nil {
            // Without quotes every line feed ends a record: look from the back.
            var i = bytes.count - 1
            while i >= 0, bytes[i] != 0x0A { i -= 1 }
            return i >= 0 ? i : nil
        }
        var last: Int?
        scanRecordEnds(bytes, separator: separator) { at, _ in last = at; return true }
        return last
    }

    /// Cuts `bytes` (starting at a record boundary) into about `parts` pieces of similar size,
    /// each starting at a record boundary.
    /// - Returns: the cut offsets (first 0, last `bytes.count`), the line feeds before each
    ///   piece, and all line feeds in the buffer.
    ///
    /// A buffer without quotes (every line feed ends a record) is cut where `memchr` finds the
    /// first line feed past each target, and its line feeds are counted 16 bytes at a time:
    /// the same cuts and counts as the general scan, without a call per record (this runs on
    /// the thread that reads the blocks, once per block).
    /// - Complexity: O(n).
    public static func cuts(_ bytes: UnsafeBufferPointer<UInt8>, parts: Int, separator: UInt8 = UInt8(ascii: ","))
        -> (cuts: [Int], newlinesBefore: [Int], newlines: Int) {
        let n = bytes.count
        if let base = bytes.baseAddress, n > 0, memchr(base, 0x22, n) == nil {
            // The general scan's rule, record end by record end: cut k is at the first line
            // feed after cut k − 1's that lies at or past n·k/parts and is not the last byte.
            var cuts = [0], before = [0]
            var counted = 0, seen = 0  // bytes whose line feeds are counted, and those line feeds
            var target = 1
            while target < parts {
                let from = max(n * target / parts, counted)
                guard from < n, let p = memchr(base + from, 0x0A, n - from) else { break }
                let at = base.distance(to: p.assumingMemoryBound(to: UInt8.self))
                guard at + 1 < n else { break }
                seen += lineFeeds(in: UnsafeBufferPointer(rebasing: bytes[counted...at]))
                counted = at + 1
                cuts.append(at + 1)
                before.append(seen)
                target += 1
            }
            seen += lineFeeds(in: UnsafeBufferPointer(rebasing: bytes[counted...]))
            cuts.append(n)
            return (cuts, before, seen)
        }
        var cuts = [0], before = [0]
        var target = 1
        let (newlines, _) = scanRecordEnds(bytes, separator: separator) { at, seen in
            if target < parts, at >= n * target / parts, at + 1 < n {
                cuts.append(at + 1)
                before.append(seen)
                target += 1
            }
            return true
        }
        cuts.append(n)
        return (cuts, before, newlines)
    }

    /// The line feeds in `bytes`, counted 16 bytes at a time (vector compares).
    public static func lineFeeds(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let n = bytes.count, raw = UnsafeRawPointer(base)
        let lf = SIMD16<UInt8>(repeating: 0x0A)
        var total = 0, i = 0
        while i &+ 16 <= n {
            // Per-lane counts fit a byte for 255 rounds; then they are added up.
            var lanes = SIMD16<UInt8>()
            let stop = min(n, i &+ 16 &* 255)
            while i &+ 16 <= stop {
                let v = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                // A match is all ones (255): subtracting it adds one.
                lanes &-= unsafeBitCast(v .== lf, to: SIMD16<UInt8>.self)
                i &+= 16
            }
            total &+= Int(SIMD16<UInt16>(truncatingIfNeeded: lanes).wrappedSum())
        }
        while i < n {
            if base[i] == 0x0A { total &+= 1 }
            i &+= 1
        }
        return total
    }
}
