extension RoadProfile {
    /// The posted limit a `maxspeed` tag value states, in km/h, before ``maxspeedFactor``.
    ///
    /// Accepts a number with an optional unit (`50`, `50 km/h`, `50kmh`, `50 kph`, `30 mph`,
    /// `10 knots`), a symbolic value of ``maxspeedSymbolic`` (case-insensitive: `KR:urban`,
    /// `none`, `walk`), and several values separated by `;` (the lowest wins).
    /// - Returns: km/h within (0, 300], or `nil` when the value is not understood (`signals`,
    ///   `variable`, `50 foo`, `0`); the caller then uses the road class's default.
    public func postedSpeedKmh(maxspeed value: String) -> Double? {
        var best: Double? = nil
        for part in value.split(separator: ";") {
            guard let v = parseOne(part) else { continue }
            best = best.map { min($0, v) } ?? v
        }
        return best
    }

    /// The free-flow speed in km/h for a `maxspeed` value: the posted limit times ``maxspeedFactor``.
    public func speedKmh(maxspeed value: String) -> Double? {
        postedSpeedKmh(maxspeed: value).map { $0 * maxspeedFactor }
    }

    private func parseOne(_ raw: Substring) -> Double? {
        let text = raw.trimmingSpaces().lowercased()
        if let v = maxspeedSymbolic[text] { return v }
        var digits = Substring(text)
        var number = ""
        while let c = digits.first, c.isASCII, c.isNumber || c == "." {
            number.append(c); digits.removeFirst()
        }
        guard !number.isEmpty, let n = Double(number), n > 0 else { return nil }
        let factor: Double
        switch digits.trimmingSpaces() {
        case "", "km/h", "kmh", "kph", "km/hr": factor = 1
        case "mph", "mp/h": factor = 1.609344
        case "knots", "kn": factor = 1.852
        default: return nil
        }
        let kmh = n * factor
        return kmh > 0 && kmh <= 300 ? kmh : nil
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> Substring {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
