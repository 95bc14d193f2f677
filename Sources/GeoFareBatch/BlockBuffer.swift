import GeoFareText

/// The bytes of one input block: one allocation, made when the stream starts and reused for
/// every block after, read into without zero-filling and grown only when a single record is
/// longer than a block.
///
/// It replaces a `[UInt8]` per block, which cost the reading thread a zero fill of every chunk
/// before `read(2)`, a reallocation and copy for each chunk appended while a block filled, and
/// the page faults of that fresh memory; and whose pointer, taken with
/// `withUnsafeBufferPointer`, the lanes used after that closure had returned. A lane's piece now
/// points into storage that this object owns and frees only in `deinit`: whoever holds a block
/// in flight holds its buffer.
///
/// Not thread-safe: the stream's thread changes it; lanes only read ``bytes`` while no one
/// changes it (between a block's start and its group's end).
final class BlockBuffer: @unchecked Sendable {
    private var base: UnsafeMutableRawPointer
    /// Bytes allocated.
    private(set) var capacity: Int
    /// Bytes held, from the start.
    private(set) var count = 0

    /// Allocates `capacity` bytes (uninitialized, so no page is touched yet). Plain `malloc`
    /// alignment: with 64 (`posix_memalign`) the bench's peak RSS grew by about 5 MiB a round,
    /// the freed blocks not being reused.
    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(byteCount: self.capacity, alignment: MemoryLayout<UInt64>.alignment)
    }

    deinit { base.deallocate() }

    /// The bytes held (valid until the next change).
    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: count)
    }

    var isEmpty: Bool { count == 0 }

    /// Forgets the bytes held, keeping the storage.
    func removeAll() { count = 0 }

    /// Drops the first `n` bytes (`n ≤ count`), moving the rest to the start.
    func removeFirst(_ n: Int) {
        precondition(n >= 0 && n <= count)
        if n < count { base.copyMemory(from: base + n, byteCount: count - n) }
        count -= n
    }

    /// Appends a copy of `other` (which must not point into this buffer).
    func append(_ other: UnsafeBufferPointer<UInt8>) {
        guard let source = other.baseAddress, !other.isEmpty else { return }
        reserve(count + other.count)
        (base + count).copyMemory(from: source, byteCount: other.count)
        count += other.count
    }

    /// Reads from `source` until this holds `target` bytes or the input ends.
    /// - Returns: true at end of input (fewer than `target` bytes held).
    func fill(from source: ByteSource, upTo target: Int) -> Bool {
        reserve(target)
        while count < target {
            let got = source.read(into: UnsafeMutableRawBufferPointer(start: base + count, count: target - count))
            if got == 0 { return true }
            count += got
        }
        return false
    }

    /// Makes room for `total` bytes in all, keeping those held (a copy only when it grows).
    private func reserve(_ total: Int) {
        guard total > capacity else { return }
        var bigger = capacity * 2
        while bigger < total { bigger *= 2 }
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: bigger, alignment: MemoryLayout<UInt64>.alignment)
        fresh.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = fresh
        capacity = bigger
    }
}
