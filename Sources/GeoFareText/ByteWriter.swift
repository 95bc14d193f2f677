import GeoFareCore
/// A growable output buffer for hot formatting loops: plain pointer writes, no per-byte
/// uniqueness or exclusivity checks (an `[UInt8]` pays both on every `append`).
///
/// A value owned by one thread; call ``deallocate()`` when done with it.
///
/// ```swift
/// var out = ByteWriter(capacity: 1 << 16)
/// defer { out.deallocate() }
/// out.appendDecimal(42); out.append(0x2C); out.append(12.34, decimals: 1)
/// write(out.bytes)
/// ```
public struct ByteWriter {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    /// Bytes written.
    public var count: Int { used }
    @usableFromInline var used = 0
    @usableFromInline var capacity: Int

    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    /// Frees the storage; the writer must not be used afterwards.
    public func deallocate() { base.deallocate() }

    /// The bytes written so far (valid until the next write or ``deallocate()``).
    public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: used) }

    /// Forgets the bytes written, keeping the storage.
    public mutating func removeAll() { used = 0 }

    /// Makes room for `extra` more bytes.
    @inlinable @inline(__always)
    public mutating func reserve(_ extra: Int) {
        if used + extra > capacity { grow(to: used + extra) }
    }

    @usableFromInline
    mutating func grow(to needed: Int) {
        var bigger = capacity * 2
        while bigger < needed { bigger *= 2 }
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: bigger)
        fresh.update(from: base, count: used)
        base.deallocate()
        base = fresh
        capacity = bigger
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[used] = byte
        used += 1
    }

    /// Appends bytes.
    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        let n = bytes.count
        reserve(n)
        let p = base + used
        if n <= 64 {
            // A record or a few bytes (a currency, a tariff id): word loads and stores beat a
            // memmove call. Only bytes inside both buffers are read or written.
            // The tail is one more word (or two half words) ending at the last byte, overlapping
            // what is already copied, instead of a loop of single bytes.
            let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(p)
            if n >= 8 {
                var j = 0
                while j &+ 8 <= n {
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: j, as: UInt64.self), toByteOffset: j, as: UInt64.self)
                    j &+= 8
                }
                if j < n {
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self), toByteOffset: n &- 8, as: UInt64.self)
                }
            } else if n >= 4 {
                let head = from.loadUnaligned(as: UInt32.self), tail = from.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
                to.storeBytes(of: head, as: UInt32.self)
                to.storeBytes(of: tail, toByteOffset: n &- 4, as: UInt32.self)
            } else {
                var j = 0
                while j < n { p[j] = source[j]; j &+= 1 }
            }
        } else {
            p.update(from: source, count: n)
        }
        used += n
    }

    /// Appends an array's bytes.
    @inlinable
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends an integer in decimal (what ``DecimalFormat/append(_:to:)`` writes).
    /// Always inlined: a `fare-csv` row writes about ten.
    @inlinable @inline(__always)
    public mutating func appendDecimal(_ value: Int64) {
        reserve(20)
        if value < 0 { base[used] = UInt8(ascii: "-"); used &+= 1 }
        appendDigits(value.magnitude)
    }

    /// Appends the decimal digits of `n` (room for 20 bytes already reserved).
    @inlinable @inline(__always)
    mutating func appendDigits(_ value: UInt64) {
        var n = value
        var digits: Int
        if n < 100_000 {
            // A fare, a share, a count: a few comparisons instead of a multiply per digit.
            digits = n < 100 ? (n < 10 ? 1 : 2) : (n < 1_000 ? 3 : (n < 10_000 ? 4 : 5))
        } else {
            digits = 6
            var power: UInt64 = 1_000_000
            while digits < 20 && n >= power {
                digits &+= 1
                power = power &* 10
            }
        }
        var i = used &+ digits &- 1
        // A literal, not a lazily made table: no `swift_once` check per call.
        let pairs = ByteWriter.digitPairs.utf8Start
        // Two digits per division (by a constant: a multiply and a shift).
        while n >= 100 {
            let r = Int(truncatingIfNeeded: n % 100) &* 2
            n /= 100
            base[i] = pairs[r &+ 1]
            base[i &- 1] = pairs[r]
            i &-= 2
        }
        if n >= 10 {
            let r = Int(truncatingIfNeeded: n) &* 2
            base[i] = pairs[r &+ 1]
            base[i &- 1] = pairs[r]
        } else {
            base[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n)
        }
        used &+= digits
    }

    /// "00" "01" ... "99".
    @usableFromInline
    static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// Appends `value` with exactly `decimals` digits after the point (0...12), rounded half
    /// away from zero: the same text as ``DecimalFormat/append(_:decimals:to:)``.
    @inlinable @inline(__always)
    public mutating func append(_ value: Double, decimals: Int) {
        if decimals == 1, value >= 0, value < 1e17 {
            // The CSV's distances and durations (finite, non-negative, below 10¹⁸ tenths): the
            // general path for d = 1 with its checks and branches already decided, inlined.
            let x = value * 10
            let t = Int64(x)
            var n = UInt64(bitPattern: t)
            if x - Double(t) >= 0.5 { n &+= 1 }
            reserve(24)
            appendDigits(n / 10)
            base[used] = UInt8(ascii: ".")
            base[used &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
            used &+= 2
            return
        }
        appendGeneral(value, decimals: decimals)
    }

    /// ``append(_:decimals:)`` for every value and count of decimals.
    @usableFromInline
    mutating func appendGeneral(_ value: Double, decimals: Int) {
        let d = min(max(decimals, 0), 12)
        // 10^d by repeated multiplication by 10: the same exact values as
        // ``DecimalFormat/powersOfTen`` without reading that lazily made array.
        var unit = 1.0
        for _ in 0..<d { unit *= 10 }
        let x = abs(value) * unit
        // Below 9.2e18 every double at or above 2^52 is an integer, so `x < 9.2e18` is the
        // earlier `x.rounded() < 9.2e18`.
        guard value.isFinite, x < 9.2e18 else {
            var text: [UInt8] = []
            DecimalFormat.append(value, decimals: d, to: &text)
            append(text)
            return
        }
        // `x.rounded()` (half away from zero) from a truncation: x ≥ 0 and x − trunc(x) is
        // exact, so this is the same integer without a call to libm's `round`.
        // Through Int64 (x < 9.2e18 < 2⁶³): the same truncation as `UInt64(x)`, without the
        // unsigned conversions' extra range handling on x86-64 in both directions.
        let t = Int64(x)
        var n = UInt64(bitPattern: t)
        if x - Double(t) >= 0.5 { n &+= 1 }
        reserve(d &+ 22)
        if value < 0 && n != 0 { base[used] = UInt8(ascii: "-"); used &+= 1 }
        if d == 1 {
            // The CSV's distances and durations: divisions by a constant.
            appendDigits(n / 10)
            base[used] = UInt8(ascii: ".")
            base[used &+ 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
            used &+= 2
            return
        }
        let u = UInt64(unit)
        appendDigits(n / u)
        guard d > 0 else { return }
        base[used] = UInt8(ascii: ".")
        var fraction = n % u
        var i = used &+ d
        for _ in 0..<d {
            base[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
            fraction /= 10
            i &-= 1
        }
        used &+= d &+ 1
    }

    /// Appends a CSV field, quoted when it holds a separator, quote or line break.
    public mutating func appendCSVField(_ value: UnsafeBufferPointer<UInt8>) {
        var text: [UInt8] = []
        CSVWriter.appendField(bytes: value, to: &text)
        append(text)
    }

    /// Appends a CSV field given as text.
    public mutating func appendCSVField(_ value: String) {
        var text: [UInt8] = []
        CSVWriter.appendField(value, to: &text)
        append(text)
    }
}

/// JSON pieces for hand-written encoders (the worker's hot results): the same text as
/// ``JSONWriter`` writes for the same values.
extension ByteWriter {
    /// Appends literal text.
    @inlinable
    public mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `"key":`, after a comma unless it is the object's first member.
    @inlinable
    public mutating func jsonKey(_ key: StaticString, first: Bool = false) {
        let n = key.utf8CodeUnitCount
        reserve(n + 4)
        // One capacity check, then plain stores (keys are a few bytes: no memcpy call).
        var p = base + used
        if !first { p.pointee = UInt8(ascii: ","); p += 1 }
        p.pointee = UInt8(ascii: "\"")
        p += 1
        let k = key.utf8Start
        for j in 0..<n { p[j] = k[j] }
        p += n
        p[0] = UInt8(ascii: "\"")
        p[1] = UInt8(ascii: ":")
        used = base.distance(to: p) + 2
    }

    /// A number as ``JSONWriter`` writes ``JSONValue/double(_:)``: integral values below 10¹⁵
    /// as integers, others in Swift's shortest round-trip form, non-finite as `null`.
    public mutating func jsonDouble(_ v: Double) {
        if !v.isFinite { append("null") } else if v == v.rounded(), abs(v) < 1e15 { appendDecimal(Int64(v)) } else {
            var text = v.description
            text.withUTF8 { append($0) }
        }
    }

    /// A string as ``JSONWriter/appendString(_:to:)`` writes it.
    public mutating func jsonString(_ s: String) {
        var s = s
        s.withUTF8 { u in
            var clean = true
            for c in u where c < 0x20 || c == UInt8(ascii: "\"") || c == UInt8(ascii: "\\") {
                clean = false
                break
            }
            if clean {
                append(UInt8(ascii: "\""))
                append(u)
                append(UInt8(ascii: "\""))
            } else {
                var text: [UInt8] = []
                JSONWriter.appendString(String(decoding: u, as: UTF8.self), to: &text)
                append(text)
            }
        }
    }

    /// `true` or `false`.
    public mutating func jsonBool(_ b: Bool) { b ? append("true") : append("false") }

    /// `items` as a JSON array: `[`, each item written by `element`, commas between, `]`. The one
    /// array loop of every encoder.
    @inlinable
    public mutating func jsonArray<C: Collection>(_ items: C, _ element: (inout ByteWriter, C.Element) -> Void) {
        append(UInt8(ascii: "["))
        var first = true
        for item in items {
            if !first { append(UInt8(ascii: ",")) }
            first = false
            element(&self, item)
        }
        append(UInt8(ascii: "]"))
    }
}
