import Foundation
import Testing
import GeoFareCore
import GeoFareTestSupport
@testable import GeoFareFare

/// Korea's real meter (issue 41): the Korean slow-time model (`Data/fare/slow-time-kr.json`,
/// fitted on real Seongnam rides), Gyeonggi's 시계외 from the boundary of the taxi's 시·군, and a
/// known trip priced with its ends, checked on the real metered rides of
/// `shared/data/korea/seongnam_taxi_trips_2024q1.csv` and on trips whose answer is known by hand.
struct KoreanMeterTests {
    static let seongnamCityHall = Coordinate(uncheckedLatitude: 37.4200, longitude: 127.1267)
    static let bundang = Coordinate(uncheckedLatitude: 37.3825, longitude: 127.1190)           // Seohyeon station, Seongnam
    static let gwangjuCityHall = Coordinate(uncheckedLatitude: 37.4294, longitude: 127.2551)   // Gwangju, Gyeonggi: the next 시
    static let day = "2024-03-05T14:00:00+09:00"

    static func known(_ from: Coordinate?, _ to: Coordinate?, meters: Double = 12_000, seconds: Double = 1_200, zone: String? = nil,
                      at time: String = day, tariff: String? = "kr-gyeonggi/regular") throws -> FareQuote {
        var r = FareRequest(trip: .totals(distanceMeters: meters, durationSeconds: seconds), departure: at(time), tariff: tariff)
        r.origin = from
        r.destination = to
        r.businessZone = zone
        return try sharedPricer.quote(r).quote
    }

    @Test("Every Korean tariff's meter uses the Korean slow-time model; New York keeps the default")
    func koreanModel() throws {
        let kr = try #require(sharedCatalog.slowTimeModels["kr"])
        #expect(kr != sharedCatalog.slowTime)
        for (i, t) in sharedCatalog.tariffs.enumerated() {
            let meter = try sharedCatalog.meter(tariffAt: i, at: t.versions.last!.effectiveFrom)
            #expect(meter.slowTime == (t.id.hasPrefix("kr-") ? kr : sharedCatalog.slowTime), "\(t.id)")
        }
        // The same 12 km / 20 min: the Korean model counts more slow time than New York's did.
        let q = try Self.known(nil, nil)
        let nycSlow = try #require(sharedCatalog.slowTime).slowSeconds(distanceMeters: 12_000, durationSeconds: 1_200, cruise: sharedCatalog.slowTime!.cruise(tripSeconds: 1_200),
                                                                         changeoverSpeed: 131.0 / 30, mode: .concurrent)
        #expect(q.slowSeconds > nycSlow + 60, "kr \(q.slowSeconds) s vs nyc \(nycSlow) s")
    }

    @Test("A tariff naming a slow-time model the catalog lacks fails the catalog; a bad name fails the file")
    func missingModel() throws {
        let gyeonggi = try sharedCatalog.tariff("kr-gyeonggi/regular")
        #expect(gyeonggi.slowTimeModel == "kr")
        do {
            _ = try TariffCatalog(tariffs: [gyeonggi], zones: sharedCatalog.zones, slowTime: sharedCatalog.slowTime)
            Issue.record("a catalog without the kr model loaded")
        } catch {
            #expect(error.code == .invalidTariff && error.field?.contains("slow_time_model") == true, "\(error)")
        }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Data/tariffs/kr-gyeonggi-regular.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        for bad in ["", "KR", "k r", "../nyc", String(repeating: "a", count: 33)] {
            let broken = text.replacingOccurrences(of: #""slow_time_model": "kr""#, with: #""slow_time_model": "\#(bad)""#)
            #expect(throws: GeoFareError.self, "'\(bad)'") { _ = try TariffFile.load(Data(broken.utf8), origin: "test") }
        }
    }

    @Test("A known trip with its ends: 시계외 only beyond the boundary of the taxi's 시·군, none inside it or driving back in")
    func knownTripWithEnds() throws {
        let inside = try Self.known(Self.seongnamCityHall, Self.bundang)
        let plain = try Self.known(nil, nil)
        let out = try Self.known(Self.seongnamCityHall, Self.gwangjuCityHall)
        #expect(inside.total == plain.total && inside.breakdown.unitSurcharges == 0)
        // The given distance and duration are metered, not a route between the ends.
        #expect(out.distanceMeters == 12_000 && out.durationSeconds == 1_200)
        // 20 % on the units beyond the boundary: more than none, less than all of them.
        #expect(out.breakdown.unitSurcharges > 0 && out.breakdown.unitSurcharges < out.breakdown.unitsAmount * 20 / 100, "\(out.breakdown)")
        #expect(abs(out.breakdown.units - plain.breakdown.units) <= 1)
        // From Gwangju into Seongnam: a Gwangju taxi (the origin's tariff and zone) leaves its
        // zone; a Seongnam taxi drives home and charges none, named by its business_zone or by
        // its tariff (whose region holds Seongnam and not Gwangju).
        let gwangjuTaxi = try Self.known(Self.gwangjuCityHall, Self.seongnamCityHall, tariff: nil)
        let home = try Self.known(Self.gwangjuCityHall, Self.seongnamCityHall, zone: "kr-sgg-gyeonggi-seongnam")
        let homeByTariff = try Self.known(Self.gwangjuCityHall, Self.seongnamCityHall)
        #expect(gwangjuTaxi.tariff == "kr-gyeonggi/regular-1800" && gwangjuTaxi.breakdown.unitSurcharges > 0, "\(gwangjuTaxi.tariff)")
        #expect(home.breakdown.unitSurcharges == 0 && home.total == plain.total)
        #expect(homeByTariff.breakdown.unitSurcharges == 0 && homeByTariff.total == plain.total)
        // A Seongnam taxi from Gwangju to Yongin (neither its zone): boarding outside its own zone,
        // it charges none (as the one such ride of the shared data, Seoul to Seoul, was unsurcharged).
        let away = try Self.known(Self.gwangjuCityHall, Coordinate(uncheckedLatitude: 37.2411, longitude: 127.1776), zone: "kr-sgg-gyeonggi-seongnam")
        #expect(away.breakdown.unitSurcharges == 0 && away.total == plain.total)
        #expect(throws: GeoFareError.self) { _ = try Self.known(Self.gwangjuCityHall, Self.seongnamCityHall, zone: "kr-sgg-gyeonggi-nowhere") }
    }

    @Test("The straight line's share outside the zone starts where the line leaves it")
    func shareOutside() throws {
        let zone = try #require(sharedCatalog.zones.zone("kr-sgg-gyeonggi-seongnam")).polygon
        let (a, b) = (Self.seongnamCityHall, Self.gwangjuCityHall)
        let share = TripPricer.shareOutside(from: a, to: b, zone: zone)
        #expect(share > 0.05 && share < 0.95)
        func point(_ t: Double) -> Coordinate {
            Coordinate(uncheckedLatitude: a.latitude + (b.latitude - a.latitude) * t, longitude: a.longitude + (b.longitude - a.longitude) * t)
        }
        let exit = 1 - share
        #expect(zone.contains(point(exit - 0.002)) && !zone.contains(point(exit + 0.002)))
        for k in 0..<50 { #expect(zone.contains(point(Double(k) / 50 * (exit - 0.002)))) }
    }

    /// One real ride of the shared file.
    struct Ride {
        var fare: Int64, state: String, distance: Double, seconds: Double, from: Coordinate, to: Coordinate, pickup: Date
    }

    static var file: URL { SharedData.url("korea/seongnam_taxi_trips_2024q1.csv") }

    static func rides() throws -> [Ride] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return try text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 19, let fare = Int64(f[2]), fare > 0 else { return nil }
            let pickup = try #require(ISO8601.parse(f[7].replacingOccurrences(of: " ", with: "T") + "+09:00"))
            return Ride(fare: fare, state: f[5], distance: try #require(Double(f[15])), seconds: try #require(Double(f[17])),
                        from: try Coordinate(latitude: try #require(Double(f[9])), longitude: try #require(Double(f[8]))),
                        to: try Coordinate(latitude: try #require(Double(f[13])), longitude: try #require(Double(f[12]))), pickup: pickup)
        }
    }

    /// The thresholds are the issue's for rides of another quarter; on these rides (300 of which
    /// the slow-time model was fitted on) the report gives 1.20 %, +0.00 %, 93.6 %, 95.1 %.
    @Test("Real Seongnam rides priced with their ends: median |error| ≤ 1.5 %, signed within ±0.5 %, ≥ 90 % within 500 KRW, surcharge state ≥ 95 %",
          .enabled(if: SharedData.runs("korea/seongnam_taxi_trips_2024q1.csv"), "needs ../shared/data/korea beside the checkout"))
    func realRides() throws {
        let rides = try Self.rides()
        try #require(rides.count == 487)
        var errors: [Double] = [], within = 0, agree = 0
        for ride in rides {
            var r = FareRequest(trip: .totals(distanceMeters: ride.distance, durationSeconds: ride.seconds), departure: ride.pickup, tariff: "kr-gyeonggi/regular")
            r.origin = ride.from
            r.destination = ride.to
            r.businessZone = "kr-sgg-gyeonggi-seongnam"
            let q = try sharedPricer.quote(r).quote
            // The record's fare is the meter's (tolls are paid beside it): the total less tolls.
            let fare = q.total - q.tolls
            errors.append(Double(fare - ride.fare) / Double(ride.fare))
            if abs(fare - ride.fare) <= 500 { within += 1 }
            if (q.breakdown.baseSurcharge + q.breakdown.unitSurcharges > 0) == (ride.state != "미할증") { agree += 1 }
        }
        func median(_ v: [Double]) -> Double { let s = v.sorted(); return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2 }
        let n = Double(rides.count)
        #expect(median(errors.map(abs)) <= 0.015, "median |error| \(median(errors.map(abs)))")
        #expect(abs(median(errors)) <= 0.005, "signed median \(median(errors))")
        #expect(Double(within) / n >= 0.90, "within 500 KRW \(Double(within) / n)")
        #expect(Double(agree) / n >= 0.95, "surcharge state agrees \(Double(agree) / n)")
    }
}
