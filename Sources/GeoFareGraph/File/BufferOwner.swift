/// Keeps the memory behind read-only views alive: either buffers it allocated itself (a
/// hierarchy built in memory) or a memory-mapped file.
package final class BufferOwner: @unchecked Sendable {
    private var allocations: [UnsafeMutableRawBufferPointer] = []

    package init() {}

    /// Copies `array` into memory this owner frees on deinit, and returns a view of it.
    package func keep<T: BitwiseCopyable>(_ array: [T]) -> UnsafeBufferPointer<T> {
        let raw = UnsafeMutableRawBufferPointer.allocate(byteCount: max(array.count * MemoryLayout<T>.stride, 1),
                                                         alignment: max(MemoryLayout<T>.alignment, 8))
        allocations.append(raw)
        let typed = raw.bindMemory(to: T.self)
        _ = array.withUnsafeBufferPointer { src in memcpyTyped(typed, src) }
        return UnsafeBufferPointer(start: typed.baseAddress, count: array.count)
    }

    deinit { for a in allocations { a.deallocate() } }
}

@inline(__always)
private func memcpyTyped<T>(_ dst: UnsafeMutableBufferPointer<T>, _ src: UnsafeBufferPointer<T>) -> Int {
    guard let d = dst.baseAddress, let s = src.baseAddress, src.count > 0 else { return 0 }
    d.update(from: s, count: src.count)
    return src.count
}
