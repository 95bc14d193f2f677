/// LSD radix sorts, 11 bits a pass, skipping passes whose digit is the same for every key
/// (keys that share high bits, like the cells of one city, cost fewer passes).
public enum RadixSort {
    private static let bits = 11

    /// Sorts `keys` by bits `lowBit ..< lowBit + keyBits` (stable: keys equal there keep their
    /// order, so an index packed below `lowBit` stays ascending).
    /// - Complexity: O(n · keyBits / 11), one n-element scratch array.
    public static func sort(_ keys: inout [UInt64], lowBit: Int, keyBits: Int) {
        let n = keys.count
        if n < 2 { return }
        let radix = 1 << bits, mask = UInt64(radix - 1)
        var tmp: [UInt64] = []
        var counts = [Int](repeating: 0, count: radix)
        var shift = lowBit
        while shift < lowBit + keyBits {
            let sh = UInt64(shift)
            if histogram(keys, shift: sh, mask: mask, counts: &counts) {
                if tmp.isEmpty { tmp = [UInt64](unsafeUninitializedCapacity: n) { _, c in c = n } }
                keys.withUnsafeBufferPointer { k in
                    tmp.withUnsafeMutableBufferPointer { t in
                        counts.withUnsafeMutableBufferPointer { c in
                            for i in 0..<n {
                                let d = Int((k[i] >> sh) & mask)
                                t[c[d]] = k[i]
                                c[d] += 1
                            }
                        }
                    }
                }
                swap(&keys, &tmp)
            }
            shift += bits
        }
    }

    /// Sorts `keys` (all 64 bits used up to `keyBits`) and permutes `values` alongside (stable).
    /// - Complexity: O(n · keyBits / 11), two n-element scratch arrays.
    public static func sort(keys: inout [UInt64], values: inout [UInt32], keyBits: Int) {
        let n = keys.count
        precondition(values.count == n)
        if n < 2 { return }
        let radix = 1 << bits, mask = UInt64(radix - 1)
        var tmpKeys: [UInt64] = [], tmpValues: [UInt32] = []
        var counts = [Int](repeating: 0, count: radix)
        var shift = 0
        while shift < keyBits {
            let sh = UInt64(shift)
            if histogram(keys, shift: sh, mask: mask, counts: &counts) {
                if tmpKeys.isEmpty {
                    tmpKeys = [UInt64](unsafeUninitializedCapacity: n) { _, c in c = n }
                    tmpValues = [UInt32](unsafeUninitializedCapacity: n) { _, c in c = n }
                }
                keys.withUnsafeBufferPointer { k in
                    values.withUnsafeBufferPointer { v in
                        tmpKeys.withUnsafeMutableBufferPointer { tk in
                            tmpValues.withUnsafeMutableBufferPointer { tv in
                                counts.withUnsafeMutableBufferPointer { c in
                                    for i in 0..<n {
                                        let d = Int((k[i] >> sh) & mask)
                                        let at = c[d]
                                        c[d] = at + 1
                                        tk[at] = k[i]
                                        tv[at] = v[i]
                                    }
                                }
                            }
                        }
                    }
                }
                swap(&keys, &tmpKeys)
                swap(&values, &tmpValues)
            }
            shift += bits
        }
    }

    /// Counts digits and turns the counts into start offsets; false when one digit holds every
    /// key (the pass would not move anything).
    private static func histogram(_ keys: [UInt64], shift: UInt64, mask: UInt64, counts: inout [Int]) -> Bool {
        let n = keys.count
        for i in counts.indices { counts[i] = 0 }
        keys.withUnsafeBufferPointer { k in
            counts.withUnsafeMutableBufferPointer { c in
                for i in 0..<n { c[Int((k[i] >> shift) & mask)] += 1 }
            }
        }
        if counts.contains(n) { return false }
        var sum = 0
        for i in counts.indices {
            let c = counts[i]
            counts[i] = sum
            sum += c
        }
        return true
    }
}
