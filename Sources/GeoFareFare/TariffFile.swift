import Foundation
import GeoFareCore

/// The JSON shape of a tariff file, and its validation into ``Tariff``.
struct TariffFile: Decodable {
    struct Version: Decodable {
        struct Night: Decodable { let from: String; let to: String; let rate_percent: Int }
        struct Flat: Decodable {
            let name: String
            let amount: Int64
            let from: String?
            let to: String?
            let weekdays: [Int]?
            let zone: String?
        }
        struct Rounding: Decodable { let step: Int64; let mode: String }
        struct Tier: Decodable { let from_m: Double; let rate_percent: Int }
        struct ByDestination: Decodable { let zones: [String]; let rate_percent: Int }
        let effective_from: String?
        let effective_month: String?
        let in_force_on: String?
        let sources: [String]
        let secondary: [String]?
        let base_fare: Int64
        let base_distance_m: Double
        let unit_price: Int64
        let unit_distance_m: Double
        let unit_time_s: Double
        let mode: TariffVersion.Mode
        let charge_unit: TariffVersion.ChargeUnit
        let night: [Night]
        let out_of_zone_rate_percent: Int?
        let out_of_zone_by_destination: [ByDestination]?
        let max_combined_rate_percent: Int?
        let surcharged_base_step: Int64
        let surcharged_unit_step: Int64
        let flat_surcharges: [Flat]
        let distance_tiers: [Tier]?
        let rounding: Rounding
    }
    let id: String
    let aliases: [String]?
    let name: String
    let currency: String
    let time_zone: String
    let region: String?
    let also_regions: [String]?
    let business_zone: String?
    let business_zones: [String]?
    let slow_time_model: String?
    struct AssumedFor: Decodable { let zone: String; let label: String; let why: String }
    let assumed_for: [AssumedFor]?
    struct PlacedForVersions: Decodable { let zone: String; let versions: [String]; let sources: [String] }
    let placed_for_versions: [PlacedForVersions]?
    let default_cruise_kmh: Double
    let versions: [Version]

    /// The largest amount a tariff may state, minor units (₩1,000,000,000, $10,000,000): with
    /// units of at least 1 m and 1 s, every price the meter can reach stays far inside Int64.
    static let maxAmount: Int64 = 1_000_000_000

    /// Decodes and validates a tariff file.
    /// - Throws: ``GeoFareError`` `invalid_tariff` whose field names the file and the JSON path.
    static func load(_ data: Data, origin: String) throws(GeoFareError) -> Tariff {
        let file: TariffFile
        do { file = try JSONDecoder().decode(TariffFile.self, from: data) } catch let error as DecodingError {
            throw .invalidTariff(origin, Self.path(of: error), Self.describe(error))
        } catch {
            throw .invalidTariff(origin, "$", "\(error)")
        }
        return try file.validated(origin: origin)
    }

    func validated(origin: String) throws(GeoFareError) -> Tariff {
        func fail(_ path: String, _ message: String) -> GeoFareError { .invalidTariff(origin, path, message) }
        let parts = id.split(separator: "/")
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty }) else { throw fail("id", "must be <region>/<class>, got '\(id)'") }
        guard currency.count == 3, currency == currency.uppercased() else { throw fail("currency", "must be an ISO 4217 code, got '\(currency)'") }
        guard let tz = TimeZone(identifier: time_zone) else { throw fail("time_zone", "unknown IANA time zone '\(time_zone)'") }
        guard default_cruise_kmh.isFinite, default_cruise_kmh > 0, default_cruise_kmh < 200 else { throw fail("default_cruise_kmh", "must be within (0, 200), got \(default_cruise_kmh)") }
        guard !versions.isEmpty else { throw fail("versions", "needs at least one version") }
        let alsoRegions = also_regions ?? []
        guard alsoRegions.isEmpty || region != nil else { throw fail("also_regions", "needs a region first") }
        for (i, zone) in alsoRegions.enumerated() where zone.isEmpty || zone == region || alsoRegions[..<i].contains(zone) {
            throw fail("also_regions[\(i)]", "must be a zone id other than the region and the others, got '\(zone)'")
        }
        let assumedFor = assumed_for ?? []
        for (i, a) in assumedFor.enumerated() {
            guard !a.zone.isEmpty, !assumedFor[..<i].contains(where: { $0.zone == a.zone }) else { throw fail("assumed_for[\(i)].zone", "must be a zone id, once, got '\(a.zone)'") }
            guard !a.label.isEmpty else { throw fail("assumed_for[\(i)].label", "must name the tariff for people") }
            guard !a.why.isEmpty else { throw fail("assumed_for[\(i)].why", "must say why this tariff is the most likely one") }
        }
        var out: [TariffVersion] = []
        for (i, v) in versions.enumerated() {
            let at = "versions[\(i)]"
            let from: Date, uncertainFrom: Date?, label: String
            switch (v.effective_from, v.effective_month, v.in_force_on) {
            case let (text?, nil, nil):
                guard let d = ISO8601.parse(text) else { throw fail("\(at).effective_from", "not an ISO 8601 time with offset: '\(text)'") }
                (from, uncertainFrom, label) = (d, nil, text)
            case let (nil, text?, nil):
                guard let (start, next) = Self.month(text, in: tz) else { throw fail("\(at).effective_month", "expected YYYY-MM, got '\(text)'") }
                (from, uncertainFrom, label) = (next, start, text)
            case let (nil, nil, text?):
                guard i == 0 else { throw fail("\(at).in_force_on", "only the first version may be modelled from the start of the period (in_force_on); later versions need their own start") }
                guard let d = Self.day(text, in: tz) else { throw fail("\(at).in_force_on", "expected YYYY-MM-DD, got '\(text)'") }
                (from, uncertainFrom, label) = (d, nil, "in force on \(text)")
            default:
                throw fail(at, "needs exactly one of effective_from (the instant), effective_month (YYYY-MM, when no source gives the day) and in_force_on (YYYY-MM-DD, the start of the modelled period, for a first version whose own earlier start is not modelled)")
            }
            if let last = out.last, last.effectiveFrom >= (uncertainFrom ?? from) {
                throw fail("\(at).\(uncertainFrom == nil ? "effective_from" : "effective_month")", "versions must be in increasing order of start, and a version must start before the month in which the next one took effect")
            }
            guard !v.sources.isEmpty else { throw fail("\(at).sources", "every version names its sources") }
            // Upper bounds keep every price the meter can reach (units × price × rate) far inside
            // Int64: a tariff of 222222222222222221 in a step overflowed the meter's rounding (the
            // tariff fuzz target's finding). Real tariffs are thousands of minor units.
            guard (0...Self.maxAmount).contains(v.base_fare) else { throw fail("\(at).base_fare", "must be within 0...\(Self.maxAmount) minor units") }
            guard v.base_distance_m.isFinite, v.base_distance_m >= 0 else { throw fail("\(at).base_distance_m", "must be ≥ 0") }
            guard (1...Self.maxAmount).contains(v.unit_price) else { throw fail("\(at).unit_price", "must be within 1...\(Self.maxAmount) minor units") }
            guard v.unit_distance_m.isFinite, v.unit_distance_m >= 1 else { throw fail("\(at).unit_distance_m", "must be at least 1 m") }
            guard v.unit_time_s.isFinite, v.unit_time_s >= 1 else { throw fail("\(at).unit_time_s", "must be at least 1 s") }
            guard v.out_of_zone_rate_percent.map({ (0...500).contains($0) }) ?? true else { throw fail("\(at).out_of_zone_rate_percent", "must be within 0...500") }
            guard (1...Self.maxAmount).contains(v.surcharged_base_step) else { throw fail("\(at).surcharged_base_step", "must be within 1...\(Self.maxAmount)") }
            guard (1...Self.maxAmount).contains(v.surcharged_unit_step) else { throw fail("\(at).surcharged_unit_step", "must be within 1...\(Self.maxAmount)") }
            guard v.max_combined_rate_percent.map({ (0...1_500).contains($0) }) ?? true else { throw fail("\(at).max_combined_rate_percent", "must be within 0...1500") }
            guard (1...Self.maxAmount).contains(v.rounding.step) else { throw fail("\(at).rounding.step", "must be within 1...\(Self.maxAmount)") }
            guard v.rounding.mode == "half_up" else { throw fail("\(at).rounding.mode", "only half_up is supported, got '\(v.rounding.mode)'") }
            var night: [TariffVersion.NightWindow] = []
            for (j, w) in v.night.enumerated() {
                guard let a = Self.secondsOfDay(w.from) else { throw fail("\(at).night[\(j)].from", "expected HH:MM, got '\(w.from)'") }
                guard let b = Self.secondsOfDay(w.to) else { throw fail("\(at).night[\(j)].to", "expected HH:MM, got '\(w.to)'") }
                guard a != b else { throw fail("\(at).night[\(j)]", "an empty window") }
                guard (0...500).contains(w.rate_percent) else { throw fail("\(at).night[\(j)].rate_percent", "must be within 0...500") }
                night.append(.init(fromSecond: a, toSecond: b, ratePercent: w.rate_percent))
            }
            // Windows must not overlap: test each minute of the day.
            for minute in stride(from: 0, to: 86_400, by: 60) where night.filter({ Self.window($0.fromSecond, $0.toSecond, contains: minute) }).count > 1 {
                throw fail("\(at).night", "windows overlap at \(minute / 3600):\(String(format: "%02d", minute % 3600 / 60))")
            }
            var flats: [TariffVersion.FlatSurcharge] = []
            for (j, f) in v.flat_surcharges.enumerated() {
                let fat = "\(at).flat_surcharges[\(j)]"
                guard (0...Self.maxAmount).contains(f.amount) else { throw fail("\(fat).amount", "must be within 0...\(Self.maxAmount) minor units") }
                guard (f.from == nil) == (f.to == nil) else { throw fail(fat, "from and to go together") }
                let a = try f.from.map { (s: String) throws(GeoFareError) -> Int in
                    guard let v = Self.secondsOfDay(s) else { throw fail("\(fat).from", "expected HH:MM, got '\(s)'") }
                    return v
                }
                let b = try f.to.map { (s: String) throws(GeoFareError) -> Int in
                    guard let v = Self.secondsOfDay(s) else { throw fail("\(fat).to", "expected HH:MM, got '\(s)'") }
                    return v
                }
                if let days = f.weekdays, !days.allSatisfy({ (1...7).contains($0) }) { throw fail("\(fat).weekdays", "ISO weekdays are 1 (Monday) ... 7") }
                flats.append(.init(name: f.name, amount: f.amount, fromSecond: a, toSecond: b, weekdays: f.weekdays.map(Set.init), zone: f.zone))
            }
            var tiers: [TariffVersion.DistanceTier] = []
            for (j, t) in (v.distance_tiers ?? []).enumerated() {
                let tat = "\(at).distance_tiers[\(j)]"
                guard t.from_m.isFinite, t.from_m >= v.base_distance_m else { throw fail("\(tat).from_m", "must be a distance of the counter at or beyond the base distance (\(v.base_distance_m) m), got \(t.from_m)") }
                if let last = tiers.last, t.from_m <= last.fromMeters { throw fail("\(tat).from_m", "tiers must be in increasing order of from_m, got \(t.from_m) after \(last.fromMeters)") }
                guard (0...500).contains(t.rate_percent) else { throw fail("\(tat).rate_percent", "must be within 0...500, got \(t.rate_percent)") }
                tiers.append(.init(fromMeters: t.from_m, ratePercent: t.rate_percent))
            }
            let byDestination = try destinationRates(v, at: at, fail: fail)
            out.append(TariffVersion(
                effectiveFrom: from, uncertainFrom: uncertainFrom, startsAtPeriodStart: v.in_force_on != nil, label: label, sources: v.sources, secondary: v.secondary ?? [],
                baseFare: v.base_fare, baseDistanceMeters: v.base_distance_m, unitPrice: v.unit_price,
                unitDistanceMeters: v.unit_distance_m, unitTimeSeconds: v.unit_time_s, mode: v.mode, chargeUnit: v.charge_unit,
                night: night, outOfZoneRatePercent: v.out_of_zone_rate_percent, maxCombinedRatePercent: v.max_combined_rate_percent,
                surchargedBaseStep: v.surcharged_base_step, surchargedUnitStep: v.surcharged_unit_step,
                flatSurcharges: flats, distanceTiers: tiers, roundingStep: v.rounding.step, outOfZoneByDestination: byDestination
            ))
        }
        var tariff = Tariff(id: id, aliases: aliases ?? [], name: name, currency: currency, timeZone: tz, region: region, alsoRegions: alsoRegions,
                            businessZone: business_zone, assumedFor: assumedFor.map { .init(zone: $0.zone, label: $0.label, why: $0.why) }, defaultCruiseKmh: default_cruise_kmh, versions: out, origin: origin)
        tariff.placedForVersions = try placements(versions: out, fail: fail)
        if let zones = business_zones {
            guard business_zone != nil else { throw fail("business_zones", "needs business_zone (the zone of an origin in none of them)") }
            guard Set(zones).count == zones.count, !zones.isEmpty else { throw fail("business_zones", "must list distinct zone ids") }
            tariff.businessZonesByOrigin = zones
        }
        if let name = slow_time_model {
            guard SlowTimeModel.isValidName(name) else {
                throw fail("slow_time_model", "must be 1-32 lowercase letters, digits or '-', got '\(name)'")
            }
            tariff.slowTimeModel = name
        }
        return tariff
    }

    /// A version's `out_of_zone_by_destination`, checked: each rule names at least one zone, no
    /// zone twice in the version, a rate within 0...500, and the version gives the rate for
    /// every other destination (`out_of_zone_rate_percent`). Whether each zone is loaded is the
    /// catalog's check (``TariffCatalog/init(tariffs:zones:slowTime:)``).
    private func destinationRates(_ v: Version, at: String, fail: (String, String) -> GeoFareError) throws(GeoFareError) -> [TariffVersion.DestinationRate] {
        let list = v.out_of_zone_by_destination ?? []
        guard !list.isEmpty else { return [] }
        guard v.out_of_zone_rate_percent != nil else {
            throw fail("\(at).out_of_zone_by_destination", "needs out_of_zone_rate_percent, the rate for every other destination")
        }
        var seen: Set<String> = []
        var out: [TariffVersion.DestinationRate] = []
        for (j, r) in list.enumerated() {
            let rat = "\(at).out_of_zone_by_destination[\(j)]"
            guard !r.zones.isEmpty else { throw fail("\(rat).zones", "must name at least one zone") }
            for (k, zone) in r.zones.enumerated() where zone.isEmpty || !seen.insert(zone).inserted {
                throw fail("\(rat).zones[\(k)]", "must be a zone id, once in the version, got '\(zone)'")
            }
            guard (0...500).contains(r.rate_percent) else { throw fail("\(rat).rate_percent", "must be within 0...500, got \(r.rate_percent)") }
            out.append(.init(zones: r.zones, ratePercent: r.rate_percent))
        }
        return out
    }

    /// `placed_for_versions`, checked: each zone once and none of the tariff's own regions, each
    /// version named by its label (as quotes give it: `effective_from`, `effective_month`, or
    /// `in force on YYYY-MM-DD`) once, and at least one source.
    private func placements(versions: [TariffVersion], fail: (String, String) -> GeoFareError) throws(GeoFareError) -> [Tariff.PlacedForVersions] {
        let list = placed_for_versions ?? []
        var out: [Tariff.PlacedForVersions] = []
        for (i, p) in list.enumerated() {
            let at = "placed_for_versions[\(i)]"
            guard !p.zone.isEmpty, p.zone != region, !(also_regions ?? []).contains(p.zone), !list[..<i].contains(where: { $0.zone == p.zone }) else {
                throw fail("\(at).zone", "must be a zone id, once, other than the region and also_regions, got '\(p.zone)'")
            }
            guard !p.versions.isEmpty else { throw fail("\(at).versions", "must name at least one version (its effective_from, effective_month or 'in force on' label)") }
            var indices: [Int] = []
            for (j, label) in p.versions.enumerated() {
                guard let v = versions.firstIndex(where: { $0.label == label }), !indices.contains(v) else {
                    throw fail("\(at).versions[\(j)]", "must be the label of a version of this tariff, once; got '\(label)', versions: \(versions.map(\.label).joined(separator: ", "))")
                }
                indices.append(v)
            }
            guard !p.sources.isEmpty, p.sources.allSatisfy({ !$0.isEmpty }) else { throw fail("\(at).sources", "must give who places the zone on these versions, with the words that do") }
            out.append(.init(zone: p.zone, versions: indices.sorted(), sources: p.sources))
        }
        return out
    }

    /// `YYYY-MM` → the first instant of that month and of the next, at local midnight in `zone`.
    static func month(_ text: String, in zone: TimeZone) -> (start: Date, next: Date)? {
        let p = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 7, p.count == 2, p[0].count == 4, p[1].count == 2,
              let y = Int(p[0]), let m = Int(p[1]), (1...12).contains(m) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let start = calendar.date(from: DateComponents(year: y, month: m, day: 1)),
              let next = calendar.date(byAdding: .month, value: 1, to: start) else { return nil }
        return (start, next)
    }

    /// `YYYY-MM-DD` → 00:00 local time in `zone` on that day.
    static func day(_ text: String, in zone: TimeZone) -> Date? {
        let p = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, p.count == 3, p[0].count == 4, p[1].count == 2, p[2].count == 2,
              let y = Int(p[0]), let m = Int(p[1]), let d = Int(p[2]), (1...12).contains(m), (1...31).contains(d) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let date = calendar.date(from: DateComponents(year: y, month: m, day: d)),
              calendar.component(.day, from: date) == d else { return nil }
        return date
    }

    /// `HH:MM` → seconds after midnight (`24:00` allowed as the end of the day).
    static func secondsOfDay(_ text: String) -> Int? {
        let p = text.split(separator: ":")
        guard p.count == 2, let h = Int(p[0]), let m = Int(p[1]), (0...24).contains(h), (0...59).contains(m), h * 60 + m <= 1440 else { return nil }
        return (h * 3600 + m * 60) % 86_400
    }

    /// Whether a window [from, to) of the day, possibly wrapping midnight, contains a second.
    static func window(_ from: Int, _ to: Int, contains s: Int) -> Bool {
        from < to ? (s >= from && s < to) : (s >= from || s < to)
    }

    static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case let .keyNotFound(key, c): return (c.codingPath + [key]).pathString
        case let .typeMismatch(_, c), let .valueNotFound(_, c), let .dataCorrupted(c): context = c
        @unknown default: return "$"
        }
        return context.codingPath.pathString
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound: return "a required field is missing"
        case let .typeMismatch(type, _): return "expected \(type)"
        case let .valueNotFound(type, _): return "expected \(type), got null"
        case let .dataCorrupted(c): return c.debugDescription
        @unknown default: return "\(error)"
        }
    }
}

extension [any CodingKey] {
    /// `versions[0].base_fare` style path of a coding path.
    var pathString: String {
        var s = ""
        for key in self {
            if let i = key.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + key.stringValue }
        }
        return s.isEmpty ? "$" : s
    }
}
