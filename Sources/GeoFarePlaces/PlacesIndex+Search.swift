import Foundation
import GeoFareCore

extension PlacesIndex {
    /// Keys of one prefix range looked at, at most: a one-letter query on a country index stops here.
    public static let scanLimit = 20_000
    /// The most results a search returns.
    public static let maxLimit = 100

    /// Searches place names for a query given as bytes (a request's raw text).
    /// - Throws: ``GeoFareError`` `invalid_utf8`, then as ``search(_:near:limit:typos:)``.
    public func search(utf8 bytes: [UInt8], near: Coordinate? = nil, limit: Int = 10, typos: Bool = true) throws(GeoFareError) -> [PlaceMatch] {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw GeoFareError(code: .invalidUtf8, message: "the query is not valid UTF-8", field: "q")
        }
        return try search(text, near: near, limit: limit, typos: typos)
    }

    /// ``find(_:near:limit:typos:)`` for a query given as bytes.
    /// - Throws: ``GeoFareError`` `invalid_utf8`, then as ``find(_:near:limit:typos:)``.
    public func find(utf8 bytes: [UInt8], near: Coordinate? = nil, limit: Int = 10, typos: Bool = true) throws(GeoFareError) -> Found {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw GeoFareError(code: .invalidUtf8, message: "the query is not valid UTF-8", field: "q")
        }
        return try find(text, near: near, limit: limit, typos: typos)
    }

    /// The places whose names match `query` best (docs/places.md states the rules): the matches
    /// of ``find(_:near:limit:typos:)``, without the words it left out.
    /// - Throws: as ``find(_:near:limit:typos:)``.
    public func search(_ query: String, near: Coordinate? = nil, limit: Int = 10, typos: Bool = true) throws(GeoFareError) -> [PlaceMatch] {
        try find(query, near: near, limit: limit, typos: typos).matches
    }

    /// A search's answer: the matches, and the words of the query it left out to find them
    /// (`앞`, `in front of`: ``QueryWords``), empty when the query was searched as typed.
    public struct Found: Sendable {
        public var matches: [PlaceMatch]
        public var ignoredWords: [String]
    }

    /// Searches `query` as typed (``searchAsTyped(_:key:near:limit:typos:byScan:)``); when that finds no
    /// name start, address, intersection or category, searches its other readings in order
    /// (``QueryWords/variants(of:)``: without the words around the place, abbreviations written
    /// out, a branch suffix or a station's 역 handled, two streets joined) and answers the first
    /// that does, saying which words it left out; else what the query found as typed (or, when
    /// that is nothing, the first reading that found anything).
    /// - Throws: ``GeoFareError`` `query_too_long` (over ``SearchText/maxQueryBytes`` bytes),
    ///   `query_empty` (nothing searchable, or only words around a place: `근처`, `in front of`),
    ///   `out_of_range` (`limit`).
    public func find(_ query: String, near: Coordinate? = nil, limit: Int = 10, typos: Bool = true) throws(GeoFareError) -> Found {
        try find(query, near: near, limit: limit, typos: typos, byScan: false)
    }

    func find(_ query: String, near: Coordinate?, limit: Int, typos: Bool, byScan: Bool) throws(GeoFareError) -> Found {
        guard query.utf8.count <= SearchText.maxQueryBytes else {
            throw GeoFareError(code: .queryTooLong, message: "the query has \(query.utf8.count) bytes; at most \(SearchText.maxQueryBytes)", field: "q")
        }
        guard (1...Self.maxLimit).contains(limit) else {
            throw GeoFareError(code: .outOfRange, message: "limit \(limit) is outside 1...\(Self.maxLimit)", field: "limit")
        }
        let key = SearchText.key(query)
        guard !key.isEmpty else {
            throw GeoFareError(code: .queryEmpty, message: "the query has no letters or digits to search for", field: "q")
        }
        // (a set look-up of the key: no word splitting on the common path)
        if QueryWords.aroundKeys.contains(key) {
            throw GeoFareError(code: .queryEmpty, message: "the query has only words around a place ('\(query)'): name the place", field: "q")
        }
        let typed = searchAsTyped(query, key: key, near: near, limit: limit, typos: typos, byScan: byScan)
        if typed.named { return Found(matches: typed.matches, ignoredWords: []) }
        var fallback: Found?
        for v in QueryWords.variants(of: query) where !v.dropsNameWord || typed.matches.isEmpty {
            let r = searchAsTyped(v.text, key: SearchText.key(v.text), near: near, limit: limit, typos: false, byScan: byScan)
            if r.named { return Found(matches: r.matches, ignoredWords: v.ignored) }
            if fallback == nil, !r.matches.isEmpty { fallback = Found(matches: r.matches, ignoredWords: v.ignored) }
        }
        if typed.matches.isEmpty, let fallback { return fallback }
        return Found(matches: typed.matches, ignoredWords: [])
    }

    /// One search of `query` as typed: the query and every name are reduced to ``SearchText``
    /// keys; a place matches when the query's key is a prefix of one of its keys (a name, a later
    /// part of a name, its 초성 or its romanisations) or, for a query that starts no name (only
    /// later words, or nothing), one edit away from such a prefix: a letter of a Latin query of
    /// three or more letters, a jamo of a Hangul query of three or more syllables. Results are
    /// ordered by ``MatchQuality`` (a later word of a park, market, hospital, campus or station
    /// before a street or stop whose name starts with the query), then ``PlaceKind/importance``,
    /// then distance from `near`, then the shorter key, then index order.
    /// - Returns: the matches, and whether one is a name start, an address, an intersection or a
    ///   category (`named`: what ``find(_:near:limit:typos:)`` stops at).
    /// - Complexity: O(log k) per key range plus the keys in it (at most ``scanLimit``); a typo
    ///   search adds about 75 narrow range searches per letter of a Latin query, 70 per jamo of a
    ///   Hangul one.
    /// - Parameter byScan: look at every key in turn instead of a binary search (the baseline).
    func searchAsTyped(_ query: String, key q: [UInt8], near: Coordinate?, limit: Int, typos: Bool, byScan: Bool = false) -> (matches: [PlaceMatch], named: Bool) {
        guard !q.isEmpty else { return ([], false) }
        var top = TopPlaces(limit: limit, index: self, near: near)
        let special = offerAddressesIntersectionsAndCategories(query, key: q, into: &top)
        let all = 0..<keyPlace.count
        // The keys that start with a query key: a binary search, or the baseline's scan of every key.
        func scanned(_ qb: UnsafeBufferPointer<UInt8>) -> [Int] {
            var out: [Int] = []
            for k in all where out.count < Self.scanLimit && compare(key: k, qb, prefixOnly: true) == 0 { out.append(k) }
            return out
        }
        q.withUnsafeBufferPointer { qb in
            if byScan {
                for k in scanned(qb) { top.offer(key: k, quality: quality(key: k, queryLength: qb.count)) }
            } else {
                for k in prefixRange(qb, within: all).prefix(Self.scanLimit) { top.offer(key: k, quality: quality(key: k, queryLength: qb.count)) }
            }
        }
        if !top.hasNameStartMatch, !special {
            if byScan { offerStationsWithoutLine(query, into: &top, keys: scanned) } else {
                offerStationsWithoutLine(query, into: &top) { prefixRange($0, within: all).prefix(Self.scanLimit) }
            }
        }
        let named = top.hasNameStartMatch || special
        q.withUnsafeBufferPointer { qb in
            // a query that names an address, an intersection, a category or a station's line is not a typo
            guard typos, !top.hasNameStartMatch, !special else { return }
            if SearchText.isLatin(q), q.count >= 3 {
                typoSearch(qb, unit: 1, alphabet: Self.latinAlphabet, into: &top)
            } else if SearchText.isJamoOnly(q), SearchText.syllableCount(query) >= 3 {
                typoSearch(qb, unit: 3, alphabet: Self.jamoAlphabet, into: &top)
            }
        }
        return (top.results(), named)
    }

    /// The baseline of ``search(_:near:limit:typos:)`` with `typos: false`: the same answer found by looking
    /// at every name key in turn instead of a binary search (for tests and `geofare bench places`;
    /// addresses, intersections and categories are looked up as the search does).
    /// - Throws: as ``search(_:near:limit:typos:)``.
    /// - Complexity: O(k), every key.
    public func searchByScan(_ query: String, near: Coordinate? = nil, limit: Int = 10) throws(GeoFareError) -> [PlaceMatch] {
        try find(query, near: near, limit: limit, typos: false, byScan: true).matches
    }

    /// Offers the stations and subway entrances whose names start with `query` without the line
    /// it names (``StationSuffix/withoutLine(_:)``: `공덕역 6호선` → 공덕역), if it names one.
    /// `keys` gives the keys that start with a query key.
    private func offerStationsWithoutLine<S: Sequence<Int>>(_ query: String, into top: inout TopPlaces, keys: (UnsafeBufferPointer<UInt8>) -> S) {
        guard let rest = StationSuffix.withoutLine(query) else { return }
        let r = SearchText.key(rest)
        guard !r.isEmpty else { return }
        r.withUnsafeBufferPointer { rb in
            for k in keys(rb) {
                let kind = kinds[Int(keyPlace[k])]
                guard kind == PlaceKind.station.rawValue || kind == PlaceKind.subwayEntrance.rawValue else { continue }
                top.offer(key: k, quality: quality(key: k, queryLength: rb.count))
            }
        }
    }

    /// The quality of a key that starts with a query of `queryLength` bytes.
    @inline(__always)
    private func quality(key k: Int, queryLength: Int) -> MatchQuality {
        let exact = Int(keyStart[k + 1] - keyStart[k]) == queryLength
        return keyFlags[k] & 1 == 1 ? (exact ? .exact : .prefix) : (exact ? .word : .wordPrefix)
    }

    /// The letters a Latin typo may put in: a–z, 0–9, one byte each.
    static let latinAlphabet: [UInt8] = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    /// The jamo a Hangul typo may put in, as keys spell them (3 bytes of UTF-8 each, one after
    /// another): the 19 leading consonants (final clusters are split into them) and the 14
    /// simple vowels (compound vowels are split into them).
    static let jamoAlphabet: [UInt8] = Array("ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎㅏㅐㅑㅒㅓㅔㅕㅖㅗㅛㅜㅠㅡㅣ".utf8)

    /// Offers every key one edit away from a prefix match of `q` (deletion, substitution,
    /// insertion, transposition of one unit at each position: a byte of a Latin query, a jamo,
    /// `unit` bytes wide, of a Hangul one; `alphabet` is the units that may be put in, one after
    /// another), searching each variant inside the range of the prefix it shares with `q`.
    private func typoSearch(_ q: UnsafeBufferPointer<UInt8>, unit w: Int, alphabet: [UInt8], into top: inout TopPlaces) {
        let units = q.count / w
        var variant = [UInt8](repeating: 0, count: q.count + w)
        var shared = 0..<keyPlace.count
        alphabet.withUnsafeBufferPointer { letters in
            variant.withUnsafeMutableBufferPointer { v in
                func probe(_ length: Int) {
                    for k in prefixRange(UnsafeBufferPointer(start: v.baseAddress, count: length), within: shared).prefix(200) { top.offer(key: k, quality: .typo) }
                }
                /// Whether unit `a` of `x` equals unit `b` of `y`.
                func same(_ x: UnsafeBufferPointer<UInt8>, _ a: Int, _ y: UnsafeBufferPointer<UInt8>, _ b: Int) -> Bool {
                    for j in 0..<w where x[a + j] != y[b + j] { return false }
                    return true
                }
                for i in 0..<units {
                    let at = i * w
                    if i > 0 { shared = prefixRange(UnsafeBufferPointer(rebasing: q[0..<at]), within: shared) }
                    if shared.isEmpty { return }
                    for j in 0..<at { v[j] = q[j] }
                    // deletion of unit i
                    for j in (at + w)..<q.count { v[j - w] = q[j] }
                    probe(q.count - w)
                    // transposition of units i and i + 1
                    if i + 1 < units, !same(q, at, q, at + w) {
                        for j in at..<q.count { v[j] = q[j] }
                        for j in 0..<w { v[at + j] = q[at + w + j]; v[at + w + j] = q[at + j] }
                        probe(q.count)
                    }
                    for c in stride(from: 0, to: letters.count, by: w) {
                        // substitution of unit i by c
                        if !same(letters, c, q, at) {
                            for j in 0..<w { v[at + j] = letters[c + j] }
                            for j in (at + w)..<q.count { v[j] = q[j] }
                            probe(q.count)
                        }
                        // insertion of c before unit i
                        for j in 0..<w { v[at + j] = letters[c + j] }
                        for j in at..<q.count { v[j + w] = q[j] }
                        probe(q.count + w)
                    }
                }
            }
        }
    }

    /// The keys in `range` that start with `prefix` (keys are sorted bytewise, so they are contiguous).
    func prefixRange(_ prefix: UnsafeBufferPointer<UInt8>, within range: Range<Int>) -> Range<Int> {
        // first key >= prefix
        var lo = range.lowerBound, hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            if compare(key: mid, prefix, prefixOnly: false) < 0 { lo = mid + 1 } else { hi = mid }
        }
        let start = lo
        // first key that does not start with prefix
        hi = range.upperBound
        while lo < hi {
            let mid = (lo + hi) / 2
            if compare(key: mid, prefix, prefixOnly: true) <= 0 { lo = mid + 1 } else { hi = mid }
        }
        return start..<lo
    }

    /// Key `k` against `q`: negative, zero or positive. With `prefixOnly`, only the first
    /// `q.count` bytes of the key count (a key that starts with `q` compares equal).
    @inline(__always)
    private func compare(key k: Int, _ q: UnsafeBufferPointer<UInt8>, prefixOnly: Bool) -> Int {
        let s = Int(keyStart[k]), n = Int(keyStart[k + 1]) - s
        let m = min(n, q.count)
        if m > 0 {
            let c = memcmp(keyBytes.baseAddress! + s, q.baseAddress!, m)
            if c != 0 { return Int(c) }
        }
        if prefixOnly && n >= q.count { return 0 }
        return n - q.count
    }
}

/// The best `limit` places seen so far, one entry per place, in result order.
struct TopPlaces {
    struct Entry {
        /// The place, or for an intersection a number past the places naming the pair.
        var uid: Int
        var place: Int
        /// The name key that matched, or -1 (an address, intersection or category).
        var key: Int
        var quality: MatchQuality
        /// The order of ``quality`` among results (``TopPlaces/rank(_:kind:)``).
        var rank: Int
        var importance: Int
        var distance: Double
        var keyLength: Int
        /// An intersection's other street and junction (1e-7 degrees), a category's position.
        var other = -1, junctionLat: Int32 = 0, junctionLon: Int32 = 0, category = -1

        /// Whether `self` ranks before `other`.
        func before(_ o: Entry) -> Bool {
            if rank != o.rank { return rank > o.rank }
            if importance != o.importance { return importance > o.importance }
            if distance != o.distance { return distance < o.distance }
            if keyLength != o.keyLength { return keyLength < o.keyLength }
            return uid < o.uid
        }
    }

    let limit: Int
    let index: PlacesIndex
    let near: Coordinate?
    let ruler: CheapRuler?
    var entries: [Entry] = []
    var count: Int { entries.count }
    /// Whether some key offered starts at its name's start (`exact` or `prefix`).
    var hasNameStartMatch = false

    init(limit: Int, index: PlacesIndex, near: Coordinate?) {
        self.limit = limit
        self.index = index
        self.near = near
        ruler = near.map { CheapRuler(latitude: $0.latitude) }
        entries.reserveCapacity(limit + 1)
    }

    mutating func offer(key k: Int, quality: MatchQuality) {
        if quality >= .prefix { hasNameStartMatch = true }
        let place = Int(index.keyPlace[k])
        let kind = PlaceKind(rawValue: index.kinds[place]) ?? .shop
        let distance = near.map { ruler!.distanceMeters($0, index.coordinate(place)) } ?? 0
        insert(Entry(uid: place, place: place, key: k, quality: quality, rank: Self.rank(quality, kind: kind), importance: kind.importance,
                     distance: distance, keyLength: Int(index.keyStart[k + 1] - index.keyStart[k])))
    }

    /// The order of a match: its quality's, except that a later word of a park, market,
    /// hospital, campus or station (the short name people use for it) comes before a street or a
    /// stop whose name merely starts with the query (a street named after the place).
    static func rank(_ quality: MatchQuality, kind: PlaceKind) -> Int { quality.rank(for: kind) }

    /// Offers a place found by its address, an intersection (`other`, `junction`) or a category.
    mutating func offer(place: Int, quality: MatchQuality, importance: Int, other: Int = -1, junction: (Int32, Int32)? = nil, category: Int = -1) {
        let distance: Double
        if let near {
            distance = junction.map { ruler!.distanceMeters(near, Coordinate(uncheckedLatitude: Double($0.0) / 1e7, longitude: Double($0.1) / 1e7)) }
                ?? ruler!.distanceMeters(near, index.coordinate(place))
        } else { distance = 0 }
        var e = Entry(uid: other >= 0 ? (place + 1) * index.count + other : place, place: place, key: -1, quality: quality,
                      rank: quality.rawValue * 10, importance: importance, distance: distance, keyLength: 0)
        e.other = other
        e.category = category
        if let junction { e.junctionLat = junction.0; e.junctionLon = junction.1 }
        insert(e)
    }

    private mutating func insert(_ e: Entry) {
        if entries.count == limit, let worst = entries.last, !e.before(worst) { return }
        if let at = entries.firstIndex(where: { $0.uid == e.uid }) {
            guard e.before(entries[at]) else { return }
            entries.remove(at: at)
        }
        let at = entries.firstIndex { e.before($0) } ?? entries.count
        entries.insert(e, at: at)
        if entries.count > limit { entries.removeLast() }
    }

    func results() -> [PlaceMatch] {
        entries.map { e in
            let place = index.place(at: e.place)
            if e.key < 0 { return index.specialMatch(e, place: place, near: near) }
            let n = Int(index.keyName[e.key])
            let distance = near.map {
                WGS84Geodesic.distanceMeters(latitude1: $0.latitude, longitude1: $0.longitude,
                                             latitude2: place.coordinate.latitude, longitude2: place.coordinate.longitude)
            }
            let form: String
            switch PlacesFileLayout.KeyOrigin(rawValue: (index.keyFlags[e.key] >> 1) & 3) {
            case .initials: form = "initials"
            case .romanized: form = "romanized"
            default: form = "name"
            }
            return PlaceMatch(place: place, quality: e.quality, matchedName: n < place.names.count ? place.names[n].key : "name",
                              matchedForm: form, distanceMeters: distance)
        }
    }
}
