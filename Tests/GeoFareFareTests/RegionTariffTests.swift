import Foundation
import Testing
import GeoFareCore
@testable import GeoFareFare

/// Worked examples for every Korean region's current tariff version and at least one older one,
/// from the published numbers in `Data/tariffs/kr-*.json` (each expected amount computed by hand
/// in the comment above its case, not by the engine).
///
/// Every case runs the same three trips: a short free-flow ride inside the base distance (the
/// base fare alone), 6,010 m in 900 s of which 10 × the unit time is slow, by day (the counter F
/// is then 6,010 m + 10 unit distances exactly), and the same trip boarding at 00:30, inside a
/// night tier. Units are charged when they start: N = ⌊(F − base distance) / unit⌋ + 1. At night
/// the base is rounded half-up to 10 KRW (100 KRW for Seoul 2013 and 2019) and the unit price to 10 KRW;
/// the amount paid is rounded half-up to 100 KRW.
struct RegionTariffTests {
    struct Case: NamedCase {
        let name: String, tariff: String, version: String
        /// The two boarding times: by day, and at 00:30 inside a night tier.
        let day: String, night: String
        /// The short ride's distance (inside the base distance) and the base fare it pays.
        let shortMeters: Double, base: Int64
        /// The 6,010 m trip's slow seconds (10 unit times), its units, and its amounts by day and night.
        let slowSeconds: Double, units: Int64, dayTotal: Int64, nightTotal: Int64
    }

    static let cases: [Case] = [
        // Seoul 2023: 4,800 KRW / 1,600 m, 100 KRW per 131 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 131 = 7,320 m; N = ⌊(7,320 − 1,600) / 131⌋ + 1 = 44; day 4,800 + 44 × 100 = 9,200 → 9,200; night +40 %: base 4,800 × 140/100 → 6,720, unit → 140: 6,720 + 44 × 140 = 12,880 → 12,900.
        Case(name: "Seoul 2023", tariff: "kr-seoul/regular", version: "2023-02-01T04:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 800, base: 4800, slowSeconds: 300, units: 44, dayTotal: 9200, nightTotal: 12900),
        // Seoul 2019: 3,800 KRW / 2,000 m, 100 KRW per 132 m or 31 s. 6,010 m with 310 s slow: F = 6,010 + 10 × 132 = 7,330 m; N = ⌊(7,330 − 2,000) / 132⌋ + 1 = 41; day 3,800 + 41 × 100 = 7,900 → 7,900; night +20 %: base 3,800 × 120/100 → 4,600, unit → 120: 4,600 + 41 × 120 = 9,520 → 9,500.
        Case(name: "Seoul 2019", tariff: "kr-seoul/regular", version: "2019-02-16T04:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3800, slowSeconds: 310, units: 41, dayTotal: 7900, nightTotal: 9500),
        // Seoul 2013: 3,000 KRW / 2,000 m, 100 KRW per 142 m or 35 s. 6,010 m with 350 s slow: F = 6,010 + 10 × 142 = 7,430 m; N = ⌊(7,430 − 2,000) / 142⌋ + 1 = 39; day 3,000 + 39 × 100 = 6,900 → 6,900; night +20 %: base 3,000 × 120/100 → 3,600, unit → 120: 3,600 + 39 × 120 = 8,280 → 8,300.
        Case(name: "Seoul 2013", tariff: "kr-seoul/regular", version: "2013-10-12T04:00:00+09:00", day: "2018-03-14T14:00:00+09:00", night: "2018-03-15T00:30:00+09:00", shortMeters: 1000, base: 3000, slowSeconds: 350, units: 39, dayTotal: 6900, nightTotal: 8300),
        // Incheon deluxe/jumbo 2023 (mode S): 7,000 KRW / 3,000 m, 200 KRW per 151 m or 36 s. 6,010 m with 360 s slow (time only while slow): F = 6,010 + 10 × 151 = 7,520 m; N = ⌊(7,520 − 3,000) / 151⌋ + 1 = 30; day 7,000 + 30 × 200 = 13,000 → 13,000; night +40 % (23–02): base 7,000 × 140/100 → 9,800, unit → 280: 9,800 + 30 × 280 = 18,200 → 18,200.
        Case(name: "Incheon deluxe 2023", tariff: "kr-incheon/deluxe", version: "2023-07-01T04:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 1500, base: 7000, slowSeconds: 360, units: 30, dayTotal: 13000, nightTotal: 18200),
        // Busan deluxe/jumbo 2023 (mode S): 7,500 KRW / 3,000 m, 200 KRW per 140 m or 33 s. 6,010 m with 330 s slow (time only while slow): F = 6,010 + 10 × 140 = 7,410 m; N = ⌊(7,410 − 3,000) / 140⌋ + 1 = 32; day 7,500 + 32 × 200 = 13,900 → 13,900; night +30 % (00–02): base 7,500 × 130/100 → 9,750, unit → 260: 9,750 + 32 × 260 = 18,070 → 18,100.
        Case(name: "Busan deluxe 2023", tariff: "kr-busan/deluxe", version: "2023-06-01T00:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 1500, base: 7500, slowSeconds: 330, units: 32, dayTotal: 13900, nightTotal: 18100),
        // Busan 2023: 4,800 KRW / 2,000 m, 100 KRW per 132 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 132 = 7,330 m; N = ⌊(7,330 − 2,000) / 132⌋ + 1 = 41; day 4,800 + 41 × 100 = 8,900 → 8,900; night +30 %: base 4,800 × 130/100 → 6,240, unit → 130: 6,240 + 41 × 130 = 11,570 → 11,600.
        Case(name: "Busan 2023", tariff: "kr-busan/regular", version: "2023-06-01T00:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 1000, base: 4800, slowSeconds: 330, units: 41, dayTotal: 8900, nightTotal: 11600),
        // Busan 2021: 3,800 KRW / 2,000 m, 100 KRW per 133 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 133 = 7,340 m; N = ⌊(7,340 − 2,000) / 133⌋ + 1 = 41; day 3,800 + 41 × 100 = 7,900 → 7,900; night +20 %: base 3,800 × 120/100 → 4,560, unit → 120: 4,560 + 41 × 120 = 9,480 → 9,500.
        Case(name: "Busan 2021", tariff: "kr-busan/regular", version: "2021-12-15T04:00:00+09:00", day: "2022-05-11T14:00:00+09:00", night: "2022-05-12T00:30:00+09:00", shortMeters: 1000, base: 3800, slowSeconds: 340, units: 41, dayTotal: 7900, nightTotal: 9500),
        // Busan 2017: 3,300 KRW / 2,000 m, 100 KRW per 133 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 133 = 7,340 m; N = ⌊(7,340 − 2,000) / 133⌋ + 1 = 41; day 3,300 + 41 × 100 = 7,400 → 7,400; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 41 × 120 = 8,880 → 8,900.
        Case(name: "Busan 2017", tariff: "kr-busan/regular", version: "2017-09-01T04:00:00+09:00", day: "2018-03-14T14:00:00+09:00", night: "2018-03-15T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 340, units: 41, dayTotal: 7400, nightTotal: 8900),
        // Daegu 2025: 4,500 KRW / 1,700 m, 100 KRW per 125 m or 31 s. 6,010 m with 310 s slow: F = 6,010 + 10 × 125 = 7,260 m; N = ⌊(7,260 − 1,700) / 125⌋ + 1 = 45; day 4,500 + 45 × 100 = 9,000 → 9,000; night +30 %: base 4,500 × 130/100 → 5,850, unit → 130: 5,850 + 45 × 130 = 11,700 → 11,700.
        Case(name: "Daegu 2025", tariff: "kr-daegu/regular", version: "2025-02-22T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 850, base: 4500, slowSeconds: 310, units: 45, dayTotal: 9000, nightTotal: 11700),
        // Daegu 2023: 4,000 KRW / 2,000 m, 100 KRW per 130 m or 31 s. 6,010 m with 310 s slow: F = 6,010 + 10 × 130 = 7,310 m; N = ⌊(7,310 − 2,000) / 130⌋ + 1 = 41; day 4,000 + 41 × 100 = 8,100 → 8,100; night +20 %: base 4,000 × 120/100 → 4,800, unit → 120: 4,800 + 41 × 120 = 9,720 → 9,700.
        Case(name: "Daegu 2023", tariff: "kr-daegu/regular", version: "2023-01-16T00:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 1000, base: 4000, slowSeconds: 310, units: 41, dayTotal: 8100, nightTotal: 9700),
        // Daegu 2018: 3,300 KRW / 2,000 m, 100 KRW per 134 m or 32 s. 6,010 m with 320 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40; day 3,300 + 40 × 100 = 7,300 → 7,300; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 40 × 120 = 8,760 → 8,800.
        Case(name: "Daegu 2018", tariff: "kr-daegu/regular", version: "2018-11-01T00:00:00+09:00", day: "2020-06-10T14:00:00+09:00", night: "2020-06-11T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 320, units: 40, dayTotal: 7300, nightTotal: 8800),
        // Incheon 2023: 4,800 KRW / 1,600 m, 100 KRW per 135 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 135 = 7,360 m; N = ⌊(7,360 − 1,600) / 135⌋ + 1 = 43; day 4,800 + 43 × 100 = 9,100 → 9,100; night +40 %: base 4,800 × 140/100 → 6,720, unit → 140: 6,720 + 43 × 140 = 12,740 → 12,700.
        Case(name: "Incheon 2023", tariff: "kr-incheon/regular", version: "2023-07-01T04:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 800, base: 4800, slowSeconds: 330, units: 43, dayTotal: 9100, nightTotal: 12700),
        // Incheon 2019: 3,800 KRW / 2,000 m, 100 KRW per 135 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 135 = 7,360 m; N = ⌊(7,360 − 2,000) / 135⌋ + 1 = 40; day 3,800 + 40 × 100 = 7,800 → 7,800; night +20 %: base 3,800 × 120/100 → 4,560, unit → 120: 4,560 + 40 × 120 = 9,360 → 9,400.
        Case(name: "Incheon 2019", tariff: "kr-incheon/regular", version: "2019-03-09T04:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3800, slowSeconds: 330, units: 40, dayTotal: 7800, nightTotal: 9400),
        // Gwangju 2025: 4,800 KRW / 1,700 m, 100 KRW per 132 m or 32 s. 6,010 m with 320 s slow: F = 6,010 + 10 × 132 = 7,330 m; N = ⌊(7,330 − 1,700) / 132⌋ + 1 = 43; day 4,800 + 43 × 100 = 9,100 → 9,100; night +30 %: base 4,800 × 130/100 → 6,240, unit → 130: 6,240 + 43 × 130 = 11,830 → 11,800.
        Case(name: "Gwangju 2025", tariff: "kr-gwangju/regular", version: "2025-10-22T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 850, base: 4800, slowSeconds: 320, units: 43, dayTotal: 9100, nightTotal: 11800),
        // Gwangju 2023: 4,300 KRW / 2,000 m, 100 KRW per 134 m or 32 s. 6,010 m with 320 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40; day 4,300 + 40 × 100 = 8,300 → 8,300; night +20 %: base 4,300 × 120/100 → 5,160, unit → 120: 5,160 + 40 × 120 = 9,960 → 10,000.
        Case(name: "Gwangju 2023", tariff: "kr-gwangju/regular", version: "2023-07-01T00:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 1000, base: 4300, slowSeconds: 320, units: 40, dayTotal: 8300, nightTotal: 10000),
        // Daejeon 2026: 4,300 KRW / 1,800 m, 100 KRW per 132 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 132 = 7,330 m; N = ⌊(7,330 − 1,800) / 132⌋ + 1 = 42; day 4,300 + 42 × 100 = 8,500 → 8,500; night +30 %: base 4,300 × 130/100 → 5,590, unit → 130: 5,590 + 42 × 130 = 11,050 → 11,100.
        Case(name: "Daejeon 2026", tariff: "kr-daejeon/regular", version: "2026-03-16T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 900, base: 4300, slowSeconds: 330, units: 42, dayTotal: 8500, nightTotal: 11100),
        // Daejeon 2023: 4,300 KRW / 1,800 m, 100 KRW per 132 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 132 = 7,330 m; N = ⌊(7,330 − 1,800) / 132⌋ + 1 = 42; day 4,300 + 42 × 100 = 8,500 → 8,500; night +20 %: base 4,300 × 120/100 → 5,160, unit → 120: 5,160 + 42 × 120 = 10,200 → 10,200.
        Case(name: "Daejeon 2023", tariff: "kr-daejeon/regular", version: "2023-07-01T00:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 900, base: 4300, slowSeconds: 330, units: 42, dayTotal: 8500, nightTotal: 10200),
        // Daejeon 2019: 3,300 KRW / 2,000 m, 100 KRW per 133 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 133 = 7,340 m; N = ⌊(7,340 − 2,000) / 133⌋ + 1 = 41; day 3,300 + 41 × 100 = 7,400 → 7,400; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 41 × 120 = 8,880 → 8,900.
        Case(name: "Daejeon 2019", tariff: "kr-daejeon/regular", version: "2019-01-01T00:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 340, units: 41, dayTotal: 7400, nightTotal: 8900),
        // Daejeon, in force on 2018-01-01 (modelled from then, its own 2013 start not): 2,800 KRW / 2,000 m, 100 KRW per 140 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 140 = 7,410 m; N = ⌊(7,410 − 2,000) / 140⌋ + 1 = 39; day 2,800 + 39 × 100 = 6,700 → 6,700; night +20 %: base 2,800 × 120/100 → 3,360, unit → 120: 3,360 + 39 × 120 = 8,040 → 8,000.
        Case(name: "Daejeon in force on 2018-01-01", tariff: "kr-daejeon/regular", version: "in force on 2018-01-01", day: "2018-03-14T14:00:00+09:00", night: "2018-03-15T00:30:00+09:00", shortMeters: 1000, base: 2800, slowSeconds: 340, units: 39, dayTotal: 6700, nightTotal: 8000),
        // Ulsan 2025: 4,500 KRW / 2,000 m, 100 KRW per 125 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 125 = 7,260 m; N = ⌊(7,260 − 2,000) / 125⌋ + 1 = 43; day 4,500 + 43 × 100 = 8,800 → 8,800; night +20 %: base 4,500 × 120/100 → 5,400, unit → 120: 5,400 + 43 × 120 = 10,560 → 10,600.
        Case(name: "Ulsan 2025", tariff: "kr-ulsan/regular", version: "2025-03-10T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4500, slowSeconds: 300, units: 43, dayTotal: 8800, nightTotal: 10600),
        // Ulsan 2023 (known to the month: in force from 2023-02-01): 4,000 KRW / 2,000 m, 100 KRW per 125 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 125 = 7,260 m; N = ⌊(7,260 − 2,000) / 125⌋ + 1 = 43; day 4,000 + 43 × 100 = 8,300 → 8,300; night (22–04) +20 %: base 4,000 × 120/100 → 4,800, unit → 120: 4,800 + 43 × 120 = 9,960 → 10,000.
        Case(name: "Ulsan 2023", tariff: "kr-ulsan/regular", version: "2023-01", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 1000, base: 4000, slowSeconds: 300, units: 43, dayTotal: 8300, nightTotal: 10000),
        // Sejong 2024: 4,000 KRW / 1,400 m, 100 KRW per 97 m or 29 s. 6,010 m with 290 s slow: F = 6,010 + 10 × 97 = 6,980 m; N = ⌊(6,980 − 1,400) / 97⌋ + 1 = 58; day 4,000 + 58 × 100 = 9,800 → 9,800; night +30 %: base 4,000 × 130/100 → 5,200, unit → 130: 5,200 + 58 × 130 = 12,740 → 12,700.
        Case(name: "Sejong 2024", tariff: "kr-sejong/regular", version: "2024-08-01T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 700, base: 4000, slowSeconds: 290, units: 58, dayTotal: 9800, nightTotal: 12700),
        // Sejong 2022: 3,300 KRW / 1,500 m, 100 KRW per 105 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 105 = 7,060 m; N = ⌊(7,060 − 1,500) / 105⌋ + 1 = 53; day 3,300 + 53 × 100 = 8,600 → 8,600; night +25 %: base 3,300 × 125/100 → 4,130, unit → 130: 4,130 + 53 × 130 = 11,020 → 11,000.
        Case(name: "Sejong 2022", tariff: "kr-sejong/regular", version: "2022-04-01T00:00:00+09:00", day: "2023-05-10T14:00:00+09:00", night: "2023-05-11T00:30:00+09:00", shortMeters: 750, base: 3300, slowSeconds: 340, units: 53, dayTotal: 8600, nightTotal: 11000),
        // Gyeonggi 표준형 2023: 4,800 KRW / 1,600 m, 100 KRW per 131 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 131 = 7,320 m; N = ⌊(7,320 − 1,600) / 131⌋ + 1 = 44; day 4,800 + 44 × 100 = 9,200 → 9,200; night +30 %: base 4,800 × 130/100 → 6,240, unit → 130: 6,240 + 44 × 130 = 11,960 → 12,000.
        Case(name: "Gyeonggi 표준형 2023", tariff: "kr-gyeonggi/regular", version: "2023-07-01T04:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 800, base: 4800, slowSeconds: 300, units: 44, dayTotal: 9200, nightTotal: 12000),
        // Gyeonggi 표준형 2019: 3,800 KRW / 2,000 m, 100 KRW per 132 m or 31 s. 6,010 m with 310 s slow: F = 6,010 + 10 × 132 = 7,330 m; N = ⌊(7,330 − 2,000) / 132⌋ + 1 = 41; day 3,800 + 41 × 100 = 7,900 → 7,900; night +20 %: base 3,800 × 120/100 → 4,560, unit → 120: 4,560 + 41 × 120 = 9,480 → 9,500.
        Case(name: "Gyeonggi 표준형 2019", tariff: "kr-gyeonggi/regular", version: "2019-05-04T04:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3800, slowSeconds: 310, units: 41, dayTotal: 7900, nightTotal: 9500),
        // Gyeonggi 일반도시 2013: 3,000 KRW / 2,000 m, 100 KRW per 144 m or 35 s. 6,010 m with 350 s slow: F = 6,010 + 10 × 144 = 7,450 m; N = ⌊(7,450 − 2,000) / 144⌋ + 1 = 38; day 3,000 + 38 × 100 = 6,800 → 6,800; night +20 %: base 3,000 × 120/100 → 3,600, unit → 120: 3,600 + 38 × 120 = 8,160 → 8,200.
        Case(name: "Gyeonggi 일반도시 2013", tariff: "kr-gyeonggi/regular", version: "2013-10-19T04:00:00+09:00", day: "2018-03-14T14:00:00+09:00", night: "2018-03-15T00:30:00+09:00", shortMeters: 1000, base: 3000, slowSeconds: 350, units: 38, dayTotal: 6800, nightTotal: 8200),
        // Gyeonggi 가형 2023: 4,800 KRW / 1,800 m, 100 KRW per 104 m or 25 s. 6,010 m with 250 s slow: F = 6,010 + 10 × 104 = 7,050 m; N = ⌊(7,050 − 1,800) / 104⌋ + 1 = 51; day 4,800 + 51 × 100 = 9,900 → 9,900; night +30 %: base 4,800 × 130/100 → 6,240, unit → 130: 6,240 + 51 × 130 = 12,870 → 12,900.
        Case(name: "Gyeonggi 가형 2023", tariff: "kr-gyeonggi/regular-1800", version: "2023-07-01T04:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 900, base: 4800, slowSeconds: 250, units: 51, dayTotal: 9900, nightTotal: 12900),
        // Gyeonggi 가형 2019: 3,800 KRW / 2,000 m, 100 KRW per 104 m or 25 s. 6,010 m with 250 s slow: F = 6,010 + 10 × 104 = 7,050 m; N = ⌊(7,050 − 2,000) / 104⌋ + 1 = 49; day 3,800 + 49 × 100 = 8,700 → 8,700; night +20 % (00–04): base 3,800 × 120/100 → 4,560, unit → 120: 4,560 + 49 × 120 = 10,440 → 10,400.
        Case(name: "Gyeonggi 가형 2019", tariff: "kr-gyeonggi/regular-1800", version: "2019-05-04T04:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3800, slowSeconds: 250, units: 49, dayTotal: 8700, nightTotal: 10400),
        // Gyeonggi 나형 2023: 4,800 KRW / 2,000 m, 100 KRW per 83 m or 20 s. 6,010 m with 200 s slow: F = 6,010 + 10 × 83 = 6,840 m; N = ⌊(6,840 − 2,000) / 83⌋ + 1 = 59; day 4,800 + 59 × 100 = 10,700 → 10,700; night +30 % (23–04): base 4,800 × 130/100 → 6,240, unit → 130: 6,240 + 59 × 130 = 13,910 → 13,900.
        Case(name: "Gyeonggi 나형 2023", tariff: "kr-gyeonggi/regular-2000", version: "2023-07-01T04:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 1000, base: 4800, slowSeconds: 200, units: 59, dayTotal: 10700, nightTotal: 13900),
        // Gyeonggi 나형 2019: 3,800 KRW / 2,000 m, 100 KRW per 83 m or 20 s. 6,010 m with 200 s slow: F = 6,010 + 10 × 83 = 6,840 m; N = ⌊(6,840 − 2,000) / 83⌋ + 1 = 59; day 3,800 + 59 × 100 = 9,700 → 9,700; night +20 %: base 3,800 × 120/100 → 4,560, unit → 120: 4,560 + 59 × 120 = 11,640 → 11,600.
        Case(name: "Gyeonggi 나형 2019", tariff: "kr-gyeonggi/regular-2000", version: "2019-05-04T04:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3800, slowSeconds: 200, units: 59, dayTotal: 9700, nightTotal: 11600),
        // Gangwon 2024: 4,600 KRW / 2,000 m, 100 KRW per 131 m or 31 s. 6,010 m with 310 s slow: F = 6,010 + 10 × 131 = 7,320 m; N = ⌊(7,320 − 2,000) / 131⌋ + 1 = 41; day 4,600 + 41 × 100 = 8,700 → 8,700; night +30 %: base 4,600 × 130/100 → 5,980, unit → 130: 5,980 + 41 × 130 = 11,310 → 11,300.
        Case(name: "Gangwon 2024", tariff: "kr-gangwon/regular", version: "2024-08-05T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4600, slowSeconds: 310, units: 41, dayTotal: 8700, nightTotal: 11300),
        // Gangwon 2022: 3,800 KRW / 2,000 m, 100 KRW per 133 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 133 = 7,340 m; N = ⌊(7,340 − 2,000) / 133⌋ + 1 = 41; day 3,800 + 41 × 100 = 7,900 → 7,900; night +20 %: base 3,800 × 120/100 → 4,560, unit → 120: 4,560 + 41 × 120 = 9,480 → 9,500.
        Case(name: "Gangwon 2022", tariff: "kr-gangwon/regular", version: "2022-04-25T00:00:00+09:00", day: "2023-05-10T14:00:00+09:00", night: "2023-05-11T00:30:00+09:00", shortMeters: 1000, base: 3800, slowSeconds: 330, units: 41, dayTotal: 7900, nightTotal: 9500),
        // Gangwon 2019: 3,300 KRW / 2,000 m, 100 KRW per 133 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 133 = 7,340 m; N = ⌊(7,340 − 2,000) / 133⌋ + 1 = 41; day 3,300 + 41 × 100 = 7,400 → 7,400; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 41 × 120 = 8,880 → 8,900.
        Case(name: "Gangwon 2019", tariff: "kr-gangwon/regular", version: "2019-04-19T00:00:00+09:00", day: "2020-06-10T14:00:00+09:00", night: "2020-06-11T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 330, units: 41, dayTotal: 7400, nightTotal: 8900),
        // Gangwon, in force on 2018-01-01 (own 2013 start not modelled): 2,800 KRW / 2,000 m, 100 KRW per 152 m or 40 s. 6,010 m with 400 s slow: F = 6,010 + 10 × 152 = 7,530 m; N = ⌊(7,530 − 2,000) / 152⌋ + 1 = 37; day 2,800 + 37 × 100 = 6,500 → 6,500; night +20 %: base 2,800 × 120/100 → 3,360, unit → 120: 3,360 + 37 × 120 = 7,800 → 7,800.
        Case(name: "Gangwon in force on 2018-01-01", tariff: "kr-gangwon/regular", version: "in force on 2018-01-01", day: "2018-03-14T14:00:00+09:00", night: "2018-03-15T00:30:00+09:00", shortMeters: 1000, base: 2800, slowSeconds: 400, units: 37, dayTotal: 6500, nightTotal: 7800),
        // Chungbuk 2023: 4,000 KRW / 1,800 m, 100 KRW per 127 m or 32 s. 6,010 m with 320 s slow: F = 6,010 + 10 × 127 = 7,280 m; N = ⌊(7,280 − 1,800) / 127⌋ + 1 = 44; day 4,000 + 44 × 100 = 8,400 → 8,400; night +40 %: base 4,000 × 140/100 → 5,600, unit → 140: 5,600 + 44 × 140 = 11,760 → 11,800.
        Case(name: "Chungbuk 2023", tariff: "kr-chungbuk/regular", version: "2023-08-21T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 900, base: 4000, slowSeconds: 320, units: 44, dayTotal: 8400, nightTotal: 11800),
        // Chungbuk 2022: 3,300 KRW / 2,000 m, 100 KRW per 137 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 137 = 7,380 m; N = ⌊(7,380 − 2,000) / 137⌋ + 1 = 40; day 3,300 + 40 × 100 = 7,300 → 7,300; night +40 %: base 3,300 × 140/100 → 4,620, unit → 140: 4,620 + 40 × 140 = 10,220 → 10,200.
        Case(name: "Chungbuk 2022", tariff: "kr-chungbuk/regular", version: "2022-12-15T22:00:00+09:00", day: "2023-05-10T14:00:00+09:00", night: "2023-05-11T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 340, units: 40, dayTotal: 7300, nightTotal: 10200),
        // Chungbuk 2019: 3,300 KRW / 2,000 m, 100 KRW per 137 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 137 = 7,380 m; N = ⌊(7,380 − 2,000) / 137⌋ + 1 = 40; day 3,300 + 40 × 100 = 7,300 → 7,300; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 40 × 120 = 8,760 → 8,800.
        Case(name: "Chungbuk 2019", tariff: "kr-chungbuk/regular", version: "2019-03-23T00:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 340, units: 40, dayTotal: 7300, nightTotal: 8800),
        // Chungbuk, in force on 2018-01-01 (own 2013-02-15 start not modelled): 2,800 KRW / 2,000 m, 100 KRW per 143 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 143 = 7,440 m; N = ⌊(7,440 − 2,000) / 143⌋ + 1 = 39; day 2,800 + 39 × 100 = 6,700 → 6,700; night +20 %: base 2,800 × 120/100 → 3,360, unit → 120: 3,360 + 39 × 120 = 8,040 → 8,000.
        Case(name: "Chungbuk in force on 2018-01-01", tariff: "kr-chungbuk/regular", version: "in force on 2018-01-01", day: "2018-03-14T14:00:00+09:00", night: "2018-03-15T00:30:00+09:00", shortMeters: 1000, base: 2800, slowSeconds: 340, units: 39, dayTotal: 6700, nightTotal: 8000),
        // Cheonan 2023: 4,000 KRW / 1,400 m, 100 KRW per 110 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 110 = 7,110 m; N = ⌊(7,110 − 1,400) / 110⌋ + 1 = 52; day 4,000 + 52 × 100 = 9,200 → 9,200; night +30 %: base 4,000 × 130/100 → 5,200, unit → 130: 5,200 + 52 × 130 = 11,960 → 12,000.
        Case(name: "Cheonan 2023", tariff: "kr-chungnam/regular-cheonan", version: "2023-09-01T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 700, base: 4000, slowSeconds: 300, units: 52, dayTotal: 9200, nightTotal: 12000),
        // Cheonan 2019: 3,300 KRW / 2,000 m, 100 KRW per 115 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 115 = 7,160 m; N = ⌊(7,160 − 2,000) / 115⌋ + 1 = 45; day 3,300 + 45 × 100 = 7,800 → 7,800; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 45 × 120 = 9,360 → 9,400.
        Case(name: "Cheonan 2019", tariff: "kr-chungnam/regular-cheonan", version: "2019-06-01T00:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 300, units: 45, dayTotal: 7800, nightTotal: 9400),
        // Jeonju 2023: 4,300 KRW / 2,000 m, 100 KRW per 134 m or 32 s. 6,010 m with 320 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40; day 4,300 + 40 × 100 = 8,300 → 8,300; night +20 %: base 4,300 × 120/100 → 5,160, unit → 120: 5,160 + 40 × 120 = 9,960 → 10,000.
        Case(name: "Jeonju 2023", tariff: "kr-jeonbuk/regular-jeonju", version: "2023-08-01T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4300, slowSeconds: 320, units: 40, dayTotal: 8300, nightTotal: 10000),
        // Jeonju 2019 (known to the month: in force from 2019-06-01): 3,300 KRW / 2,000 m, 100 KRW per 137 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 137 = 7,380 m; N = ⌊(7,380 − 2,000) / 137⌋ + 1 = 40; day 3,300 + 40 × 100 = 7,300 → 7,300; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 40 × 120 = 8,760 → 8,800.
        Case(name: "Jeonju 2019", tariff: "kr-jeonbuk/regular-jeonju", version: "2019-05", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 330, units: 40, dayTotal: 7300, nightTotal: 8800),
        // Gunsan 2023: 4,300 KRW / 2,000 m, 100 KRW per 134 m or 32 s, 복합할증 +40 % on units ticking at ≥ 5,026 m of the counter (units 24 on: 2,000 + 23 × 134 = 5,082 m). 6,010 m with 320 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40, of which 17 (24–40) past the tier; day 4,300 + 23 × 100 + 17 × 140 = 8,980 → 9,000; night +20 %: base 4,300 × 120/100 → 5,160, units → 120 and 160: 5,160 + 23 × 120 + 17 × 160 = 10,640 → 10,600.
        Case(name: "Gunsan 2023", tariff: "kr-jeonbuk/regular-gunsan", version: "2023-08-01T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4300, slowSeconds: 320, units: 40, dayTotal: 9000, nightTotal: 10600),
        // Gunsan 2019 (known to the month: in force from 2019-06-01): 3,300 KRW / 2,000 m, 100 KRW per 137 m or 33 s, 복합할증 +40 % from 5,026 m of the counter (units 24 on: 2,000 + 23 × 137 = 5,151 m). 6,010 m with 330 s slow: F = 6,010 + 10 × 137 = 7,380 m; N = ⌊(7,380 − 2,000) / 137⌋ + 1 = 40, of which 17 past the tier; day 3,300 + 23 × 100 + 17 × 140 = 7,980 → 8,000; night +20 %: base 3,300 × 120/100 → 3,960, units → 120 and 160: 3,960 + 23 × 120 + 17 × 160 = 9,440 → 9,400.
        Case(name: "Gunsan 2019", tariff: "kr-jeonbuk/regular-gunsan", version: "2019-05", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 330, units: 40, dayTotal: 8000, nightTotal: 9400),
        // Wanju 2023: 5,000 KRW / 2,000 m, 163 KRW per 134 m or 32 s. 6,010 m with 320 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40; day 5,000 + 40 × 163 = 11,520 → 11,500; night +20 %: base 5,000 × 120/100 → 6,000, unit → 200: 6,000 + 40 × 200 = 14,000 → 14,000.
        Case(name: "Wanju 2023", tariff: "kr-jeonbuk/regular-wanju", version: "2023-08-11T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 5000, slowSeconds: 320, units: 40, dayTotal: 11500, nightTotal: 14000),
        // Wanju 2019: 4,000 KRW / 2,000 m, 160 KRW per 137 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 137 = 7,380 m; N = ⌊(7,380 − 2,000) / 137⌋ + 1 = 40; day 4,000 + 40 × 160 = 10,400 → 10,400; night +20 %: base 4,000 × 120/100 → 4,800, unit → 190: 4,800 + 40 × 190 = 12,400 → 12,400.
        Case(name: "Wanju 2019", tariff: "kr-jeonbuk/regular-wanju", version: "2019-05-21T00:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 4000, slowSeconds: 330, units: 40, dayTotal: 10400, nightTotal: 12400),
        // Suncheon 2023: 4,300 KRW / 2,000 m, 100 KRW per 130 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 130 = 7,310 m; N = ⌊(7,310 − 2,000) / 130⌋ + 1 = 41; day 4,300 + 41 × 100 = 8,400 → 8,400; night +20 %: base 4,300 × 120/100 → 5,160, unit → 120: 5,160 + 41 × 120 = 10,080 → 10,100.
        Case(name: "Suncheon 2023", tariff: "kr-jeonnam/regular-suncheon", version: "2023-11-01T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4300, slowSeconds: 300, units: 41, dayTotal: 8400, nightTotal: 10100),
        // Suncheon 2019: 3,300 KRW / 2,000 m, 100 KRW per 134 m or 32 s. 6,010 m with 320 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40; day 3,300 + 40 × 100 = 7,300 → 7,300; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 40 × 120 = 8,760 → 8,800.
        Case(name: "Suncheon 2019", tariff: "kr-jeonnam/regular-suncheon", version: "2019-04-20T00:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 320, units: 40, dayTotal: 7300, nightTotal: 8800),
        // Suncheon, in force on 2018-01-01 (own 2013 start not modelled): 2,800 KRW / 2,000 m, 100 KRW per 146 m or 35 s. 6,010 m with 350 s slow: F = 6,010 + 10 × 146 = 7,470 m; N = ⌊(7,470 − 2,000) / 146⌋ + 1 = 38; day 2,800 + 38 × 100 = 6,600 → 6,600; night +20 %: base 2,800 × 120/100 → 3,360, unit → 120: 3,360 + 38 × 120 = 7,920 → 7,900.
        Case(name: "Suncheon in force on 2018-01-01", tariff: "kr-jeonnam/regular-suncheon", version: "in force on 2018-01-01", day: "2018-03-14T14:00:00+09:00", night: "2018-03-15T00:30:00+09:00", shortMeters: 1000, base: 2800, slowSeconds: 350, units: 38, dayTotal: 6600, nightTotal: 7900),
        // Pohang 2023: 4,000 KRW / 2,000 m, 100 KRW per 131 m or 31 s. 6,010 m with 310 s slow: F = 6,010 + 10 × 131 = 7,320 m; N = ⌊(7,320 − 2,000) / 131⌋ + 1 = 41; day 4,000 + 41 × 100 = 8,100 → 8,100; night +20 %: base 4,000 × 120/100 → 4,800, unit → 120: 4,800 + 41 × 120 = 9,720 → 9,700.
        Case(name: "Pohang 2023", tariff: "kr-gyeongbuk/regular-pohang", version: "2023-08-21T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4000, slowSeconds: 310, units: 41, dayTotal: 8100, nightTotal: 9700),
        // Pohang 2019: 3,300 KRW / 2,000 m, 100 KRW per 134 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40; day 3,300 + 40 × 100 = 7,300 → 7,300; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 40 × 120 = 8,760 → 8,800.
        Case(name: "Pohang 2019", tariff: "kr-gyeongbuk/regular-pohang", version: "2019-03-23T00:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 330, units: 40, dayTotal: 7300, nightTotal: 8800),
        // Changwon 2023: 4,000 KRW / 2,000 m, 100 KRW per 130 m or 31 s. 6,010 m with 310 s slow: F = 6,010 + 10 × 130 = 7,310 m; N = ⌊(7,310 − 2,000) / 130⌋ + 1 = 41; day 4,000 + 41 × 100 = 8,100 → 8,100; night +20 %: base 4,000 × 120/100 → 4,800, unit → 120: 4,800 + 41 × 120 = 9,720 → 9,700.
        Case(name: "Changwon 2023", tariff: "kr-gyeongnam/regular-changwon", version: "2023-06-10T04:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4000, slowSeconds: 310, units: 41, dayTotal: 8100, nightTotal: 9700),
        // Changwon 2019: 3,300 KRW / 2,000 m, 100 KRW per 133 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 133 = 7,340 m; N = ⌊(7,340 − 2,000) / 133⌋ + 1 = 41; day 3,300 + 41 × 100 = 7,400 → 7,400; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 41 × 120 = 8,880 → 8,900.
        Case(name: "Changwon 2019", tariff: "kr-gyeongnam/regular-changwon", version: "2019-04-11T04:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 340, units: 41, dayTotal: 7400, nightTotal: 8900),
        // Changwon 2013 (known to the month: in force from 2013-08-01): 2,800 KRW / 2,000 m, 100 KRW per 143 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 143 = 7,440 m; N = ⌊(7,440 − 2,000) / 143⌋ + 1 = 39; day 2,800 + 39 × 100 = 6,700 → 6,700; night +20 %: base 2,800 × 120/100 → 3,360, unit → 120: 3,360 + 39 × 120 = 8,040 → 8,000.
        Case(name: "Changwon 2013", tariff: "kr-gyeongnam/regular-changwon", version: "2013-07", day: "2018-03-14T14:00:00+09:00", night: "2018-03-15T00:30:00+09:00", shortMeters: 1000, base: 2800, slowSeconds: 340, units: 39, dayTotal: 6700, nightTotal: 8000),
        // Jeju 2023: 4,100 KRW / 2,000 m, 100 KRW per 126 m or 31 s. 6,010 m with 310 s slow: F = 6,010 + 10 × 126 = 7,270 m; N = ⌊(7,270 − 2,000) / 126⌋ + 1 = 42; day 4,100 + 42 × 100 = 8,300 → 8,300; night +20 %: base 4,100 × 120/100 → 4,920, unit → 120: 4,920 + 42 × 120 = 9,960 → 10,000.
        Case(name: "Jeju 2023", tariff: "kr-jeju/regular", version: "2023-11-20T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4100, slowSeconds: 310, units: 42, dayTotal: 8300, nightTotal: 10000),
        // Jeju 2019: 3,300 KRW / 2,000 m, 100 KRW per 126 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 126 = 7,270 m; N = ⌊(7,270 − 2,000) / 126⌋ + 1 = 42; day 3,300 + 42 × 100 = 7,500 → 7,500; night +20 %: base 3,300 × 120/100 → 3,960, unit → 120: 3,960 + 42 × 120 = 9,000 → 9,000.
        Case(name: "Jeju 2019", tariff: "kr-jeju/regular", version: "2019-07-15T00:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 300, units: 42, dayTotal: 7500, nightTotal: 9000),

        // Jeju, in force on 2018-01-01 (own 2013 start not modelled): 2,800 KRW / 2,000 m, 100 KRW per 144 m or 35 s. 6,010 m with 350 s slow: F = 6,010 + 10 × 144 = 7,450 m; N = ⌊(7,450 − 2,000) / 144⌋ + 1 = 38; day 2,800 + 38 × 100 = 6,600 → 6,600; night +20 %: base 2,800 × 120/100 → 3,360, unit → 120: 3,360 + 38 × 120 = 7,920 → 7,900.
        Case(name: "Jeju in force on 2018-01-01", tariff: "kr-jeju/regular", version: "in force on 2018-01-01", day: "2018-03-14T14:00:00+09:00", night: "2018-03-15T00:30:00+09:00", shortMeters: 1000, base: 2800, slowSeconds: 350, units: 38, dayTotal: 6600, nightTotal: 7900),
        // Gyeongnam 2023: 4,000 KRW / 2,000 m, 100 KRW per 130 m or 31 s. 6,010 m with 310 s slow: F = 6,010 + 10 × 130 = 7,310 m; N = ⌊(7,310 − 2,000) / 130⌋ + 1 = 41; day 4,000 + 41 × 100 = 8,100 → 8,100; night +20 %: base 4,000 × 120/100 → 4,800, unit 100 × 120/100 → 120: 4,800 + 41 × 120 = 9,720 → 9,700.
        Case(name: "Gyeongnam 2023", tariff: "kr-gyeongnam/regular", version: "2023-06-10T04:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4000, slowSeconds: 310, units: 41, dayTotal: 8100, nightTotal: 9700),
        // Gyeongnam 2019: 3,300 KRW / 2,000 m, 100 KRW per 133 m or 34 s. 6,010 m with 340 s slow: F = 6,010 + 10 × 133 = 7,340 m; N = ⌊(7,340 − 2,000) / 133⌋ + 1 = 41; day 3,300 + 41 × 100 = 7,400 → 7,400; night +20 %: base 3,300 × 120/100 → 3,960, unit 100 × 120/100 → 120: 3,960 + 41 × 120 = 8,880 → 8,900.
        Case(name: "Gyeongnam 2019", tariff: "kr-gyeongnam/regular", version: "2019-04-11T04:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 340, units: 41, dayTotal: 7400, nightTotal: 8900),
        // Gyeongbuk 2026 (Andong's date): 4,500 KRW / 1,700 m, 100 KRW per 128 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 128 = 7,290 m; N = ⌊(7,290 − 1,700) / 128⌋ + 1 = 44; day 4,500 + 44 × 100 = 8,900 → 8,900; night +20 %: base 4,500 × 120/100 → 5,400, unit 100 × 120/100 → 120: 5,400 + 44 × 120 = 10,680 → 10,700.
        Case(name: "Gyeongbuk 2026 (Andong's date)", tariff: "kr-gyeongbuk/regular", version: "2026-02-01T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4500, slowSeconds: 300, units: 44, dayTotal: 8900, nightTotal: 10700),
        // Gyeongbuk 2023: 4,000 KRW / 2,000 m, 100 KRW per 131 m or 31 s. 6,010 m with 310 s slow: F = 6,010 + 10 × 131 = 7,320 m; N = ⌊(7,320 − 2,000) / 131⌋ + 1 = 41; day 4,000 + 41 × 100 = 8,100 → 8,100; night +20 %: base 4,000 × 120/100 → 4,800, unit 100 × 120/100 → 120: 4,800 + 41 × 120 = 9,720 → 9,700.
        Case(name: "Gyeongbuk 2023", tariff: "kr-gyeongbuk/regular", version: "2023-09-01T00:00:00+09:00", day: "2024-05-15T14:00:00+09:00", night: "2024-05-16T00:30:00+09:00", shortMeters: 1000, base: 4000, slowSeconds: 310, units: 41, dayTotal: 8100, nightTotal: 9700),
        // Gyeongbuk 2019: 3,300 KRW / 2,000 m, 100 KRW per 134 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40; day 3,300 + 40 × 100 = 7,300 → 7,300; night +20 %: base 3,300 × 120/100 → 3,960, unit 100 × 120/100 → 120: 3,960 + 40 × 120 = 8,760 → 8,800.
        Case(name: "Gyeongbuk 2019", tariff: "kr-gyeongbuk/regular", version: "2019-03-01T00:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 330, units: 40, dayTotal: 7300, nightTotal: 8800),
        // Jeonbuk 2023: 4,300 KRW / 2,000 m, 100 KRW per 134 m or 32 s. 6,010 m with 320 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40; day 4,300 + 40 × 100 = 8,300 → 8,300; night +20 %: base 4,300 × 120/100 → 5,160, unit 100 × 120/100 → 120: 5,160 + 40 × 120 = 9,960 → 10,000.
        Case(name: "Jeonbuk 2023", tariff: "kr-jeonbuk/regular", version: "2023-08-01T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4300, slowSeconds: 320, units: 40, dayTotal: 8300, nightTotal: 10000),
        // Jeonbuk 2019: 3,300 KRW / 2,000 m, 100 KRW per 137 m or 33 s. 6,010 m with 330 s slow: F = 6,010 + 10 × 137 = 7,380 m; N = ⌊(7,380 − 2,000) / 137⌋ + 1 = 40; day 3,300 + 40 × 100 = 7,300 → 7,300; night +20 %: base 3,300 × 120/100 → 3,960, unit 100 × 120/100 → 120: 3,960 + 40 × 120 = 8,760 → 8,800.
        Case(name: "Jeonbuk 2019", tariff: "kr-jeonbuk/regular", version: "2019-05", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 330, units: 40, dayTotal: 7300, nightTotal: 8800),
        // Jeonnam cities 2023: 4,300 KRW / 2,000 m, 100 KRW per 130 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 130 = 7,310 m; N = ⌊(7,310 − 2,000) / 130⌋ + 1 = 41; day 4,300 + 41 × 100 = 8,400 → 8,400; night +20 %: base 4,300 × 120/100 → 5,160, unit 100 × 120/100 → 120: 5,160 + 41 × 120 = 10,080 → 10,100.
        Case(name: "Jeonnam cities 2023", tariff: "kr-jeonnam/regular", version: "2023-11-01T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4300, slowSeconds: 300, units: 41, dayTotal: 8400, nightTotal: 10100),
        // Jeonnam cities 2019: 3,300 KRW / 2,000 m, 100 KRW per 134 m or 32 s. 6,010 m with 320 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40; day 3,300 + 40 × 100 = 7,300 → 7,300; night +20 %: base 3,300 × 120/100 → 3,960, unit 100 × 120/100 → 120: 3,960 + 40 × 120 = 8,760 → 8,800.
        Case(name: "Jeonnam cities 2019", tariff: "kr-jeonnam/regular", version: "2019-04-20T00:00:00+09:00", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 320, units: 40, dayTotal: 7300, nightTotal: 8800),
        // Jeonnam counties 2023: 5,000 KRW / 2,000 m, 160 KRW per 130 m or 30 s. 6,010 m with 300 s slow: F = 6,010 + 10 × 130 = 7,310 m; N = ⌊(7,310 − 2,000) / 130⌋ + 1 = 41; day 5,000 + 41 × 160 = 11,560 → 11,600; night +20 %: base 5,000 × 120/100 → 6,000, unit 160 × 120/100 → 190: 6,000 + 41 × 190 = 13,790 → 13,800.
        Case(name: "Jeonnam counties 2023", tariff: "kr-jeonnam/regular-county", version: "2023-11-06T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 5000, slowSeconds: 300, units: 41, dayTotal: 11600, nightTotal: 13800),
        // Jeonnam counties 2019: 4,000 KRW / 2,000 m, 160 KRW per 134 m or 32 s. 6,010 m with 320 s slow: F = 6,010 + 10 × 134 = 7,350 m; N = ⌊(7,350 − 2,000) / 134⌋ + 1 = 40; day 4,000 + 40 × 160 = 10,400 → 10,400; night +20 %: base 4,000 × 120/100 → 4,800, unit 160 × 120/100 → 190: 4,800 + 40 × 190 = 12,400 → 12,400.
        Case(name: "Jeonnam counties 2019", tariff: "kr-jeonnam/regular-county", version: "2019-05", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 4000, slowSeconds: 320, units: 40, dayTotal: 10400, nightTotal: 12400),
        // Chungnam guideline 2023: 4,000 KRW / 1,400 m, 100 KRW per 127 m or 35 s. 6,010 m with 350 s slow: F = 6,010 + 10 × 127 = 7,280 m; N = ⌊(7,280 − 1,400) / 127⌋ + 1 = 47; day 4,000 + 47 × 100 = 8,700 → 8,700; night +30 %: base 4,000 × 130/100 → 5,200, unit 100 × 130/100 → 130: 5,200 + 47 × 130 = 11,310 → 11,300.
        Case(name: "Chungnam guideline 2023", tariff: "kr-chungnam/regular", version: "2023-09-01T00:00:00+09:00", day: "2026-11-18T14:00:00+09:00", night: "2026-11-19T00:30:00+09:00", shortMeters: 1000, base: 4000, slowSeconds: 350, units: 47, dayTotal: 8700, nightTotal: 11300),
        // Chungnam guideline 2019: 3,300 KRW / 2,000 m, 100 KRW per 131 m or 37 s. 6,010 m with 370 s slow: F = 6,010 + 10 × 131 = 7,320 m; N = ⌊(7,320 − 2,000) / 131⌋ + 1 = 41; day 3,300 + 41 × 100 = 7,400 → 7,400; night +20 %: base 3,300 × 120/100 → 3,960, unit 100 × 120/100 → 120: 3,960 + 41 × 120 = 8,880 → 8,900.
        Case(name: "Chungnam guideline 2019", tariff: "kr-chungnam/regular", version: "2019-06", day: "2021-05-12T14:00:00+09:00", night: "2021-05-13T00:30:00+09:00", shortMeters: 1000, base: 3300, slowSeconds: 370, units: 41, dayTotal: 7400, nightTotal: 8900),
    ]

    @Test("Base fare only: a free-flow ride inside the base distance", arguments: cases)
    func baseOnly(_ c: Case) throws {
        let q = try quote(c.tariff, segments: [(c.shortMeters, 60, 0, false)], at: c.day)
        #expect(q.tariffVersion == c.version, "\(c.name): priced with \(q.tariffVersion)")
        #expect(q.breakdown.units == 0)
        #expect(q.total == c.base, "\(c.name): \(q.total)")
    }

    @Test("6,010 m by day with ten unit-times of slow traffic", arguments: cases)
    func dayTrip(_ c: Case) throws {
        let q = try quote(c.tariff, segments: [(6_010, 900, c.slowSeconds, false)], at: c.day)
        #expect(q.tariffVersion == c.version, "\(c.name): priced with \(q.tariffVersion)")
        #expect(q.breakdown.units == c.units, "\(c.name): \(q.breakdown.units) units")
        #expect(q.total == c.dayTotal, "\(c.name): \(q.total) (meter \(q.meter))")
    }

    @Test("The same trip boarding at 00:30, inside a night tier", arguments: cases)
    func nightTrip(_ c: Case) throws {
        let q = try quote(c.tariff, segments: [(6_010, 900, c.slowSeconds, false)], at: c.night)
        #expect(q.tariffVersion == c.version, "\(c.name): priced with \(q.tariffVersion)")
        #expect(q.breakdown.units == c.units)
        #expect(q.breakdown.baseSurcharge > 0)
        #expect(q.total == c.nightTotal, "\(c.name): \(q.total) (meter \(q.meter))")
    }

    @Test("Every Korean tariff's versions cite sources and list their secondary facts")
    func sourcesAndSecondary() throws {
        let korean = sharedCatalog.tariffs.filter { $0.id.hasPrefix("kr-") && $0.id.contains("/regular") }
        let regions = Set(korean.map { $0.id.split(separator: "/")[0].split(separator: "-").prefix(2).joined(separator: "-") })
        #expect(regions.count == 17, "regions with a tariff: \(regions.sorted())")
        for t in korean {
            for v in t.versions {
                #expect(!v.sources.isEmpty, "\(t.id) \(v.label)")
                #expect(v.secondary.contains("rounding"), "\(t.id) \(v.label): the payment rounding is never stated by a source")
            }
        }
    }

    @Test("A missing out-of-city rate is a clear error for a trip that leaves the zone, not a guess")
    func unknownOutOfZoneRate() throws {
        // Gangwon 2024: the Chuncheon notice does not restate the 시계외 rate.
        let error = try #require(throws: GeoFareError.self) {
            try quote("kr-gangwon/regular", segments: [(2_050, 240, 0, false), (3_000, 300, 0, true)], at: "2025-05-14T14:00:00+09:00")
        }
        #expect(error.code == .unknownOutOfZoneRate)
        #expect(error.field == "segments[1].outside")
        #expect(error.message.contains("kr-gangwon/regular"))
        // The same trip inside the zone is priced: 4,600 KRW / 2,000 m, 131 m: N(5,050) = ⌊3,050 / 131⌋ + 1 = 24
        // → 4,600 + 2,400 = 7,000. Under the 2022 version, whose 20 % the 2022 provincial press restates,
        // N(2,050) = ⌊50 / 133⌋ + 1 = 1 unit inside at 100 and N(5,050) − 1 = ⌊3,050 / 133⌋ + 1 − 1 = 22
        // outside at 120: 3,800 + 100 + 22 × 120 = 6,540 → 6,500.
        let inside = try quote("kr-gangwon/regular", segments: [(2_050, 240, 0, false), (3_000, 300, 0, false)], at: "2025-05-14T14:00:00+09:00")
        #expect(inside.total == 7_000)
        let older = try quote("kr-gangwon/regular", segments: [(2_050, 240, 0, false), (3_000, 300, 0, true)], at: "2023-05-10T14:00:00+09:00")
        #expect(older.meter == 3_800 + 1 * 100 + 22 * 120)
        #expect(older.total == 6_500)
        // Jeju has no 시계외 surcharge at all: a caller-supplied outside segment is refused.
        #expect(throws: GeoFareError.self) {
            try quote("kr-jeju/regular", segments: [(3_000, 300, 0, true)], at: "2025-05-14T14:00:00+09:00")
        }
    }

    @Test("Out-of-city rates and caps where the city gives them: Daejeon 30 % capped at 40 %, then 50 % from 2026-03-16")
    func outOfCityCaps() throws {
        // 2,000 m inside then 2,000 m outside at 00:30, free flow, Daejeon 2023 (1.8 km base, 132 m):
        // N(2,000) = ⌊200/132⌋ + 1 = 2 inside at +20 % (120), N(4,000) = ⌊2,200/132⌋ + 1 = 17, so 15 outside
        // at min(20 + 30, 40) = 40 % (140); base 4,300 × 1.2 = 5,160: 5,160 + 2 × 120 + 15 × 140 = 7,500.
        let q23 = try quote("kr-daejeon/regular", segments: [(2_000, 200, 0, false), (2_000, 200, 0, true)], at: "2024-05-16T00:30:00+09:00")
        #expect(q23.meter == 5_160 + 2 * 120 + 15 * 140)
        // 2026: night 30 % at 00:30 (130), outside min(30 + 30, 50) = 50 % (150); base 4,300 × 1.3 = 5,590.
        let q26 = try quote("kr-daejeon/regular", segments: [(2_000, 200, 0, false), (2_000, 200, 0, true)], at: "2026-11-19T00:30:00+09:00")
        #expect(q26.meter == 5_590 + 2 * 130 + 15 * 150)
        #expect(q26.total == 8_100)
    }

    @Test("Wanju's 163 KRW unit at night: 163 × 1.2 = 195.6 → 200")
    func wanjuNightUnit() throws {
        // 5,000 KRW / 2,000 m, 163 KRW per 134 m: 2,050 m starts one unit; night base 5,000 × 1.2 = 6,000.
        let q = try quote("kr-jeonbuk/regular-wanju", segments: [(2_050, 200, 0, false)], at: "2026-11-19T00:30:00+09:00")
        #expect(q.breakdown.units == 1)
        #expect(q.meter == 6_000 + 200)
    }

    @Test("Before a tariff's first version the answer is no_tariff_version, not a later version")
    func beforeFirstVersion() throws {
        let error = try #require(throws: GeoFareError.self) {
            try quote("kr-ulsan/regular", meters: 3_000, seconds: 400, at: "2022-12-31T23:59:59+09:00")
        }
        #expect(error.code == .noTariffVersion)
        #expect(error.field == "depart_at")
        // Ulsan's 2019 version has no units in any source: the message says where the modelled
        // period starts and why earlier trips are refused.
        #expect(error.message.contains("kr-ulsan/regular") && error.message.contains("2023-01")
                && error.message.contains("left out"), "\(error.message)")
    }

    @Test("A version in force on 2018-01-01 is modelled from 00:00 local time that day; a trip on 2017-12-31 is no_tariff_version saying the period starts there",
          arguments: ["kr-daejeon/regular", "kr-gangwon/regular", "kr-jeju/regular", "kr-jeonnam/regular-suncheon", "kr-chungbuk/regular"])
    func periodStart(_ tariff: String) throws {
        // 1 km in 200 s stays under the 2 km base (1,000 m + 200 s × 152/40 m/s < 2,000 m): the meter is the base fare,
        // 2,800 × 1.2 = 3,360 in the 00:00–04:00 night window.
        let first = try quote(tariff, meters: 1_000, seconds: 200, at: "2018-01-01T00:00:00+09:00")
        #expect(first.tariffVersion == "in force on 2018-01-01" && first.meter == 3_360, "\(tariff): \(first.tariffVersion) \(first.meter)")
        let error = try #require(throws: GeoFareError.self) {
            try quote(tariff, meters: 1_000, seconds: 200, at: "2017-12-31T23:59:59+09:00")
        }
        #expect(error.code == .noTariffVersion && error.field == "depart_at")
        #expect(error.message.contains(tariff) && error.message.contains("modelled period starts at 2018-01-01 00:00 local time")
                && error.message.contains("in force on 2018-01-01") && error.message.contains("earlier start")
                && !error.message.contains("first modelled version starts"), "\(error.message)")
    }

    @Test("A departure in the month of a change whose day no source gives is tariff_version_uncertain, naming the tariff and the month",
          arguments: [("kr-ulsan/regular", "2023-01", "2023-01-01T00:00:00+09:00"), ("kr-ulsan/regular", "2023-01", "2023-01-15T14:00:00+09:00"),
                      ("kr-ulsan/regular", "2023-01", "2023-01-31T23:59:59+09:00"), ("kr-jeonbuk/regular-jeonju", "2019-05", "2019-05-01T00:00:00+09:00"),
                      ("kr-jeonbuk/regular-gunsan", "2019-05", "2019-05-31T23:59:59+09:00")])
    func uncertainMonth(_ tariff: String, _ month: String, _ at: String) throws {
        let error = try #require(throws: GeoFareError.self) { try quote(tariff, meters: 1_000, seconds: 200, at: at) }
        #expect(error.code == .tariffVersionUncertain)
        #expect(error.field == "depart_at")
        #expect(error.message.contains(tariff) && error.message.contains(month) && error.message.contains("no source gives"), "\(error.message)")
    }

    @Test("Both sides of an uncertain month: before it the older version (or none), from the next month's first second the new one")
    func uncertainMonthEdges() throws {
        // 1 km in 200 s stays under every 2 km base (1,000 + 200 s × 137/33 m/s < 2,000 m): the meter is the base fare.
        // Jeonju: no version before May 2019 is modelled; from 2019-06-01 00:00 3,300 (at night × 1.2 = 3,960).
        #expect(throws: GeoFareError.self) { try quote("kr-jeonbuk/regular-jeonju", meters: 1_000, seconds: 200, at: "2019-04-30T23:59:59+09:00") }
        let jeonju = try quote("kr-jeonbuk/regular-jeonju", meters: 1_000, seconds: 200, at: "2019-06-01T00:00:00+09:00")
        #expect(jeonju.tariffVersion == "2019-05" && jeonju.meter == 3_960)
        // ... until the day-precise 2023 version: 2023-07-31 23:59:59 still 2019's (by day, Jeonju's night starts at 00:00),
        // 2023-08-01 00:00 4,300 × 1.2 = 5,160.
        #expect(try quote("kr-jeonbuk/regular-jeonju", meters: 1_000, seconds: 200, at: "2023-07-31T23:59:59+09:00").meter == 3_300)
        #expect(try quote("kr-jeonbuk/regular-jeonju", meters: 1_000, seconds: 200, at: "2023-08-01T00:00:00+09:00").meter == 5_160)
        // Ulsan: 2023-02-01 00:00 (night 22–04) 4,000 × 1.2 = 4,800; the 2023 version runs until
        // 2025-03-10 00:00, when 4,500 × 1.2 = 5,400 starts.
        let ulsan = try quote("kr-ulsan/regular", meters: 1_000, seconds: 200, at: "2023-02-01T00:00:00+09:00")
        #expect(ulsan.tariffVersion == "2023-01" && ulsan.meter == 4_800)
        #expect(try quote("kr-ulsan/regular", meters: 1_000, seconds: 200, at: "2025-03-09T23:59:59+09:00").meter == 4_800)
        #expect(try quote("kr-ulsan/regular", meters: 1_000, seconds: 200, at: "2025-03-10T00:00:01+09:00").meter == 5_400)
    }
}
