/// LSD radix sort of integer keys with a payload, 11 bits a pass.
enum RadixSort {
    /// Sorts `keys` ascending (stable), permuting `values` alongside. Passes whose digit is the
    /// same for every key are skipped, so keys sharing high bits (a city) cost fewer passes.
    /// - Parameter keyBits: how many low bits of the keys can be non-zero.
    /// - Complexity: O(n · keyBits / 11).
    static func sort(keys: inout [UInt64], values: inout [UInt32], keyBits: Int) {
        let n = keys.count
        precondition(values.count == n)
        if n < 2 { return }
        let bits = 11, radix = 1 << bits, mask = UInt64(radix - 1)
        var tmpKeys = [UInt64](repeating: 0, count: n)
        var tmpValues = [UInt32](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: radix)
        var shift = 0
        while shift < keyBits {
            let sh = UInt64(shift)
            for i in 0..<radix { counts[i] = 0 }
            keys.withUnsafeBufferPointer { k in
                counts.withUnsafeMutableBufferPointer { c in
                    for i in 0..<n { c[Int((k[i] >> sh) & mask)] += 1 }
                }
            }
            if counts.contains(n) {
                shift += bits
                continue
            }
            var sum = 0
            for i in 0..<radix {
                let c = counts[i]
                counts[i] = sum
                sum += c
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
            shift += bits
        }
    }
}
