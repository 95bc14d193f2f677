import Foundation

/// Converts instants to local wall-clock time in a tariff's time zone, fast.
///
/// UTC offsets are precomputed for every daylight-saving period from 1970 to 2100, so a
/// look-up is a binary search instead of a call into Foundation's calendar code.
public struct LocalClock: Sendable, Hashable {
    /// Instants (seconds since 1970, UTC) from which `offsets[i]` applies.
    @usableFromInline let starts: [Double]
    @usableFromInline let offsets: [Int]

    public init(timeZone: TimeZone) {
        var starts: [Double] = [-Double.infinity]
        var offsets: [Int] = [timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 0))]
        var cursor = Date(timeIntervalSince1970: 0)
        let end = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01
        while let next = timeZone.nextDaylightSavingTimeTransition(after: cursor), next < end {
            starts.append(next.timeIntervalSince1970)
            offsets.append(timeZone.secondsFromGMT(for: next))
            cursor = next
        }
        self.starts = starts
        self.offsets = offsets
    }

    /// The UTC offset in seconds at an instant.
    @inlinable
    public func offset(at epochSeconds: Double) -> Int {
        offsets[index(at: epochSeconds)]
    }

    /// Local seconds since 1970-01-01 00:00 local (the instant plus its offset).
    @inlinable
    public func localSeconds(_ epochSeconds: Double) -> Double {
        epochSeconds + Double(offset(at: epochSeconds))
    }

    /// The instant (seconds since 1970, UTC) of a local wall-clock time given as local seconds
    /// since 1970. In a daylight-saving gap the later offset is used; in an overlap the earlier.
    public func epochSeconds(fromLocal local: Double) -> Double {
        let guess = local - Double(offset(at: local))
        return local - Double(offset(at: guess))
    }

    /// The instant at which the offset next changes after `epochSeconds`, or +∞.
    @inlinable
    public func nextTransition(after epochSeconds: Double) -> Double {
        let i = index(at: epochSeconds) + 1
        return i < starts.count ? starts[i] : .infinity
    }

    /// ``localSeconds(_:)`` and ``nextTransition(after:)`` with one look-up.
    @inlinable
    public func localSecondsAndNextTransition(_ epochSeconds: Double) -> (local: Double, next: Double) {
        let i = index(at: epochSeconds)
        return (epochSeconds + Double(offsets[i]), i + 1 < starts.count ? starts[i + 1] : .infinity)
    }

    @usableFromInline
    func index(at t: Double) -> Int {
        if starts.count == 1 { return 0 }
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= t { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Seconds after local midnight (0 ..< 86,400) of a local-seconds value.
    @inlinable @inline(__always)
    public static func secondOfDay(_ localSeconds: Double) -> Double {
        // floor instead of fmod: the same value for every finite input, several times cheaper.
        let q = localSeconds / 86_400
        // (A zero q keeps the old formula: it gives +0 for −0, where the truncation gives −0.)
        guard q != 0, abs(q) < 9e18 else { return localSeconds - q.rounded(.down) * 86_400 }
        // floor(q) from a truncation (an instruction, where `rounded(.down)` calls libm's
        // `floor` when building for baseline x86-64, without SSE4.1): the truncation is exact, and one less when it rounded a
        // negative q up. The same value as before for every input.
        var day = Double(Int64(q))
        if day > q { day -= 1 }
        return localSeconds - day * 86_400
    }

    /// The ISO weekday (1 = Monday ... 7 = Sunday) of a local-seconds value.
    @inlinable
    public static func isoWeekday(_ localSeconds: Double) -> Int {
        let days = Int((localSeconds / 86_400).rounded(.down))
        // 1970-01-01 was a Thursday (ISO 4).
        return ((days % 7 + 7 + 3) % 7) + 1
    }
}
