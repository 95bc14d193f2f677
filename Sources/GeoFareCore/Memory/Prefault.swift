#if canImport(Glibc)
import Glibc
#endif

/// Maps the pages of a fresh large buffer in one system call before it is filled.
///
/// Writing to fresh memory takes a page fault per 4 KiB page; on this project's VMs that is
/// ~1 ms per MiB, the largest single cost of a bulk load. `madvise(MADV_POPULATE_WRITE)`
/// (Linux ≥ 5.14) maps the same pages in about 60 % of the time. Best effort: other systems,
/// older kernels and small buffers skip it.
public enum Prefault {
    public static func pages(_ base: UnsafeMutableRawPointer?, byteCount: Int) {
        #if os(Linux)
        guard let base, byteCount >= 1 << 20 else { return }
        let page = 4096
        let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + byteCount) & ~(page - 1)
        guard end > start, let p = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(p, end - start, 23)  // MADV_POPULATE_WRITE
        #endif
    }

    /// A new array of `count` elements that `initialize` must fill completely, its pages
    /// mapped first.
    @inlinable
    public static func array<T>(count: Int, _ initialize: (UnsafeMutableBufferPointer<T>) -> Void) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            pages(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: count * MemoryLayout<T>.stride)
            initialize(buffer)
            initialized = count
        }
    }
}
