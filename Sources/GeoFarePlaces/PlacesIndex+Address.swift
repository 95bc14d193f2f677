import Foundation
import GeoFareCore

extension PlacesIndex {
    /// The most places an intersection's street words resolve to (each pair is tried).
    static let maxIntersectionStreets = 8
    /// The most places offered for each of the two house numbers nearest one that is not there.
    static let maxInterpolated = 3

    /// Offers what the query names besides a name: an address (`350 5th Ave`, `동천로 92`), an
    /// intersection (`W 34th St & 7th Ave`, `신촌로와 연세로 교차로`), a category (`약국`).
    /// - Returns: whether anything was offered.
    func offerAddressesIntersectionsAndCategories(_ query: String, key q: [UInt8], into top: inout TopPlaces) -> Bool {
        var found = false
        if let c = categoryPositions(forQueryKey: q) {
            for position in c {
                for item in categoryItems[Int(categoryStart[position])..<Int(categoryStart[position + 1])] {
                    top.offer(place: Int(item), quality: .category, importance: 0, category: position)
                    found = true
                }
            }
        }
        found = offerAddresses(query, into: &top) || found
        found = offerIntersection(query, into: &top) || found
        return found
    }

    /// The positions in the file's categories of the categories whose word is `key`, or `nil`.
    func categoryPositions(forQueryKey key: [UInt8]) -> [Int]? {
        let ids = PlaceCategories.embedded.named(byQueryKey: key)
        guard !ids.isEmpty else { return nil }
        let positions = ids.compactMap { metadata.categories.firstIndex(of: $0) }
        return positions.isEmpty ? nil : positions
    }

    /// The importance of a place found by its address: an addressed building's outline first
    /// (the Empire State Building before the Starbucks inside it), then by kind.
    private func addressImportance(_ place: Int) -> Int {
        placeFlags[place] & PlacesFileLayout.PlaceFlags.outline != 0 ? 10 : (PlaceKind(rawValue: kinds[place])?.importance ?? 0)
    }

    /// Offers the places at the house number of an address query, else the nearest numbers on
    /// each side of it on that street (`interpolated`).
    private func offerAddresses(_ query: String, into top: inout TopPlaces) -> Bool {
        var found = false
        for a in StreetText.addressQueries(query) {
            for street in a.streets {
                // the street as typed, else with a direction before it
                var variants = [(length: street.count, range: streetKeyRange(street + [0]))].filter { !$0.range.isEmpty }
                if variants.isEmpty {
                    variants = streetVariants(street).dropFirst().map { (length: $0.count, range: streetKeyRange($0 + [0])) }.filter { !$0.range.isEmpty }
                }
                guard !variants.isEmpty else { continue }
                let ranges = variants.map(\.range)
                var exact = false
                for v in variants {
                    for k in v.range where streetKey(k).count == v.length + 1 + a.number.count && streetKey(k).suffix(a.number.count).elementsEqual(a.number) {
                        let p = Int(streetKeyPlace[k])
                        top.offer(place: p, quality: .address, importance: addressImportance(p))
                        exact = true
                    }
                }
                if !exact { offerNearestNumbers(ranges, number: StreetText.houseValue(a.number), sameSide: a.numberFirst, into: &top) }
                found = true
                break
            }
        }
        return found
    }

    /// Offers the places with the nearest house number below and above `number` in `ranges`
    /// (on the same side of the street, even or odd, when `sameSide` and there are such numbers).
    private func offerNearestNumbers(_ ranges: [Range<Int>], number: Int32, sameSide: Bool, into top: inout TopPlaces) {
        let all = ranges.flatMap { Array($0) }
        let side = all.filter { streetKeyNumber[$0] % 2 == number % 2 }
        let pool = sameSide && !side.isEmpty ? side : all
        let below = pool.map { streetKeyNumber[$0] }.filter { $0 <= number }.max()
        let above = pool.map { streetKeyNumber[$0] }.filter { $0 >= number }.min()
        for target in [below, above].compactMap({ $0 }) {
            for k in pool.filter({ streetKeyNumber[$0] == target }).prefix(Self.maxInterpolated) {
                let p = Int(streetKeyPlace[k])
                top.offer(place: p, quality: .interpolated, importance: addressImportance(p))
            }
        }
    }

    /// A street key and, when it does not start with a direction, the key with each direction
    /// before it (`34thstreet`: also `west34thstreet`, `east34thstreet`, ...), the ones the index holds.
    private func streetVariants(_ key: [UInt8]) -> [[UInt8]] {
        let directions = Self.directionKeys
        if directions.contains(where: { key.starts(with: $0) }) { return [key] }
        return [key] + directions.map { $0 + key }
    }

    /// `west`, `east`, `north`, `south` as keys (from `Data/places/street-words.json`).
    static let directionKeys: [[UInt8]] = Array(Set(StreetText.words.directions.values)).sorted().map { SearchText.key($0) }

    /// The streets (places) a query's street words name: the whole key, else with a direction
    /// before it, else streets whose key starts with it, else with a direction before it (`34th` →
    /// West 34th Street, `7th` → 7th Avenue): the first of these that names any.
    func streets(named words: [String]) -> [Int] {
        let key = StreetText.streetKey(words: words)
        guard !key.isEmpty else { return [] }
        var out: [Int] = []
        let variants = streetVariants(key)
        for prefixOnly in [false, true] {
            for keys in [[key], Array(variants.dropFirst())] {
                for v in keys {
                    for k in streetKeyRange(v) where streetKeyNumber[k] < 0 && (prefixOnly || streetKey(k).count == v.count) {
                        let p = Int(streetKeyPlace[k])
                        if !out.contains(p) && out.count < Self.maxIntersectionStreets { out.append(p) }
                    }
                }
                if !out.isEmpty { return out }
            }
        }
        return out
    }

    /// Offers the junctions of the two streets an intersection query names: a node both share,
    /// the nearest to `near` when they share several (else the first along the first street).
    private func offerIntersection(_ query: String, into top: inout TopPlaces) -> Bool {
        guard let (a, b) = StreetText.intersection(query) else { return false }
        let first = streets(named: a)
        guard !first.isEmpty else { return false }
        let second = streets(named: b)
        guard !second.isEmpty else { return false }
        // each second street's shape points, gathered once for all the first streets
        let secondPoints: [Set<UInt64>] = second.map { y in
            var points = Set<UInt64>()
            for j in Int(shapeStart[y])..<Int(shapeStart[y + 1]) where shapeLatitudes[j] != .min { points.insert(packedShapePoint(j)) }
            return points
        }
        var found = false
        for x in first {
            var best = [(Int32, Int32)?](repeating: nil, count: second.count)
            var bestD = [Double](repeating: .infinity, count: second.count)
            for j in Int(shapeStart[x])..<Int(shapeStart[x + 1]) where shapeLatitudes[j] != .min {
                let packed = packedShapePoint(j)
                for (i, y) in second.enumerated() where y != x && secondPoints[i].contains(packed) {
                    guard let near = top.near else { if best[i] == nil { best[i] = (shapeLatitudes[j], shapeLongitudes[j]) }; continue }
                    let d = top.ruler!.distanceMeters(near, Coordinate(uncheckedLatitude: Double(shapeLatitudes[j]) / 1e7, longitude: Double(shapeLongitudes[j]) / 1e7))
                    if d < bestD[i] { bestD[i] = d; best[i] = (shapeLatitudes[j], shapeLongitudes[j]) }
                }
            }
            for (i, y) in second.enumerated() {
                guard let junction = best[i] else { continue }
                top.offer(place: x, quality: .intersection, importance: PlaceKind.street.importance, other: y, junction: junction)
                found = true
            }
        }
        return found
    }

    /// Pairs of streets that share a node (they meet or cross), at most `limit`, in index order:
    /// intersections to ask for (`geofare bench places` draws its intersection queries from them).
    /// - Complexity: O(p) in the streets' shape points.
    public func meetingStreets(limit: Int) -> [(Place, Place)] {
        var first: [UInt64: Int] = [:]
        var pairs: [(Int, Int)] = []
        var seen = Set<Int>()
        for i in 0..<count where kinds[i] == PlaceKind.street.rawValue && placeFlags[i] & PlacesFileLayout.PlaceFlags.outline == 0 {
            for j in Int(shapeStart[i])..<Int(shapeStart[i + 1]) where shapeLatitudes[j] != .min {
                let packed = packedShapePoint(j)
                if let other = first[packed] {
                    if other != i, seen.insert(other * count + i).inserted, pairs.count < limit { pairs.append((other, i)) }
                } else { first[packed] = i }
            }
        }
        return pairs.map { (place(at: $0.0), place(at: $0.1)) }
    }

    /// Shape point `j`'s latitude and longitude (1e-7 degrees) in one number: equal for the same node.
    @inline(__always)
    private func packedShapePoint(_ j: Int) -> UInt64 {
        UInt64(UInt32(bitPattern: shapeLatitudes[j])) << 32 | UInt64(UInt32(bitPattern: shapeLongitudes[j]))
    }

    /// The bytes of street key `k`.
    @inline(__always)
    func streetKey(_ k: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: streetKeyBytes[Int(streetKeyStart[k])..<Int(streetKeyStart[k + 1])])
    }

    /// The street keys that start with `prefix` (sorted bytewise, so contiguous).
    func streetKeyRange(_ prefix: [UInt8]) -> Range<Int> {
        func compare(_ k: Int, prefixOnly: Bool) -> Int {
            let key = streetKey(k)
            let m = min(key.count, prefix.count)
            for i in 0..<m where key[i] != prefix[i] { return Int(key[i]) - Int(prefix[i]) }
            if prefixOnly && key.count >= prefix.count { return 0 }
            return key.count - prefix.count
        }
        var lo = 0, hi = streetKeyPlace.count
        while lo < hi { let mid = (lo + hi) / 2; if compare(mid, prefixOnly: false) < 0 { lo = mid + 1 } else { hi = mid } }
        let start = lo
        hi = streetKeyPlace.count
        while lo < hi { let mid = (lo + hi) / 2; if compare(mid, prefixOnly: true) <= 0 { lo = mid + 1 } else { hi = mid } }
        return start..<lo
    }

    /// The result of an entry found by address, intersection or category.
    func specialMatch(_ e: TopPlaces.Entry, place: Place, near: Coordinate?) -> PlaceMatch {
        var point = place.coordinate
        var junction: Junction?
        if e.other >= 0 {
            point = Coordinate(uncheckedLatitude: Double(e.junctionLat) / 1e7, longitude: Double(e.junctionLon) / 1e7)
            junction = Junction(street: self.place(at: e.other), coordinate: point)
        }
        let distance = near.map {
            WGS84Geodesic.distanceMeters(latitude1: $0.latitude, longitude1: $0.longitude, latitude2: point.latitude, longitude2: point.longitude)
        }
        let matched: String
        switch e.quality {
        case .address, .interpolated: matched = "addr:street"
        case .category: matched = "category"
        default: matched = "name"
        }
        return PlaceMatch(place: place, quality: e.quality, matchedName: matched, matchedForm: e.quality.description, distanceMeters: distance,
                          junction: junction, category: e.category >= 0 ? metadata.categories[e.category] : nil)
    }
}
