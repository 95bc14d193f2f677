/// Money as GeoFare keeps it: integer minor units (won, cents) beside an ISO 4217 currency code,
/// never `Double`. KRW has no minor unit, so 4,800 won is `4800`; USD counts cents, so $2.50 is
/// `250`. This namespace writes such amounts for people.
public enum MinorUnits {
    /// How many decimal places the currency's minor unit has (0 for KRW and JPY, 2 otherwise).
    public static func exponent(of currency: String) -> Int {
        switch currency { case "KRW", "JPY", "VND", "CLP", "ISK": 0; default: 2 }
    }

    /// Formats minor units with thousands separators and the currency's decimals, e.g.
    /// `4,800` (KRW) or `12.50` (USD).
    public static func format(_ minorUnits: Int64, currency: String) -> String {
        let exp = exponent(of: currency)
        let negative = minorUnits < 0
        let magnitude = minorUnits.magnitude
        var divisor: UInt64 = 1
        for _ in 0..<exp { divisor *= 10 }
        let whole = String(magnitude / divisor)
        var grouped = ""
        for (i, ch) in whole.enumerated() {
            if i > 0 && (whole.count - i) % 3 == 0 { grouped.append(",") }
            grouped.append(ch)
        }
        if exp > 0 {
            let frac = String(magnitude % divisor)
            grouped += "." + String(repeating: "0", count: exp - frac.count) + frac
        }
        return (negative ? "-" : "") + grouped
    }

    /// Money for people, in the currency's units: `$8.00` for USD, `8,000 KRW` for others (the
    /// code after the amount). Never minor units labelled with a currency.
    public static func text(_ minorUnits: Int64, currency: String) -> String {
        if currency == "USD" { return (minorUnits < 0 ? "-$" : "$") + format(minorUnits == .min ? .max : abs(minorUnits), currency: currency) }
        return format(minorUnits, currency: currency) + " " + currency
    }
}
