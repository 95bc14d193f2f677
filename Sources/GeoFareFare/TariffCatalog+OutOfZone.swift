import GeoFareCore

extension TariffCatalog {
    /// Where a meter's version gives no out-of-zone (시계외) rate and a trip on it leaves the
    /// business zone (where the engine throws `unknown_out_of_zone_rate`), by the rule in
    /// `Data/tariffs/README.md`: the trip is priced without the surcharge (0 %, the least the
    /// meter can charge), and the band reaches the trip priced at the highest out-of-zone rate
    /// any tariff in the same currency gives (``highestOutOfZoneRate``). `nil` when the version
    /// gives a rate.
    /// - Returns: the meter at 0 %, the meter at the top rate (its label ends "at N % out of
    ///   zone"; `nil` when no tariff in the currency gives a rate above 0) and why, for people.
    func assumedOutOfZoneRate(_ m: Meter) -> (priced: Meter, top: Meter?, why: String)? {
        guard m.version.outOfZoneRatePercent == nil else { return nil }
        let highest = highestOutOfZoneRate[m.currency]
        let top = highest.flatMap { $0.percent > 0 ? Self.meter(m, outOfZoneRate: $0.percent, labelled: true) : nil }
        var why = "no source gives \(m.tariffID)'s out-of-zone (시계외) rate in version \(m.versionLabel): priced without it (0 %)"
        if let highest, top != nil {
            why += ", band up to \(highest.percent) % (the highest out-of-zone rate in the data, \(highest.tariffs.joined(separator: ", ")))"
        }
        return (Self.meter(m, outOfZoneRate: 0, labelled: false), top, why)
    }

    /// The meter of a trip to `destination` where `m`'s version sets the out-of-zone (시계외)
    /// rate by destination (``TariffVersion/outOfZoneByDestination``): `m` at the rate of the
    /// first rule with a zone holding the destination (the label unchanged: it is the same
    /// version), or `nil` when no rule's zone holds it (the version's own rate applies).
    /// - Complexity: a point-in-polygon test per zone named, until one holds the destination.
    public func destinationMeter(_ m: Meter, to destination: Coordinate) -> Meter? {
        for rule in m.version.outOfZoneByDestination {
            for id in rule.zones where zones.zone(id)?.polygon.contains(destination) == true {
                return rule.ratePercent == m.version.outOfZoneRatePercent ? nil : Self.meter(m, outOfZoneRate: rule.ratePercent, labelled: false)
            }
        }
        return nil
    }

    /// A meter like `m` whose version charges `percent` outside the zone.
    private static func meter(_ m: Meter, outOfZoneRate percent: Int, labelled: Bool) -> Meter {
        var version = m.version
        version.outOfZoneRatePercent = percent
        if labelled { version.label += " at \(percent) % out of zone" }
        return Meter(tariff: m.tariff, version: version, clock: m.clock, slowTime: m.slowTime)
    }
}
