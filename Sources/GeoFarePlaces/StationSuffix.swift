/// The generic word riders add to a station's name, and the extra search keys a station gets
/// for it: OSM tags a station `name=서면` (the map shows 역 beside the symbol), riders type
/// "서면역", "서면 역", "Seomyeon Station" or "seomyeonyeok".
///
/// The rule is data: ``korean`` after a name with a Hangul syllable, ``latin`` after every
/// Latin spelling (the name itself when it has no Hangul, its romanisations when it has), unless
/// the name already ends with it. Only ``PlaceKind/station`` gets these keys: subway entrances
/// are named after their station already (`공덕역 3번출구`, `Second Ave (F,V)`).
enum StationSuffix {
    /// The Korean suffix, written after a Hangul name: 서면 → 서면역.
    static let korean = "역"
    /// The Korean word a station exit's name ends with: 서면역 7번출구.
    static let koreanExit = "출구"

    /// Names an unnamed subway entrance by its description when that is an exit's name
    /// (OSM Busan tags `description=서면역 7번출구`, `description:en=Seomyeon Station gate 7`,
    /// `ref=7` and no `name` on every exit): `name` and, if absent, `name:en` from them, so
    /// riders' `서면역 7번출구` finds the exit. Other descriptions (New York's say where a stair
    /// is) stay descriptions.
    static func nameExitFromDescription(_ tags: inout [String: String]) {
        guard tags["name"] == nil, let railway = tags["railway"], railway == "subway_entrance" || railway == "train_station_entrance",
              let d = tags["description:ko"] ?? tags["description"], d.hasSuffix(koreanExit) else { return }
        tags["name"] = d
        if tags["name:en"] == nil, let en = tags["description:en"] { tags["name:en"] = en }
    }
    /// The Latin suffixes, as keys: Seomyeon → seomyeonstation, seomyeonstn.
    static let latin: [[UInt8]] = [Array("station".utf8), Array("stn".utf8)]

    /// One extra key of a station's name.
    struct SuffixedKey: Equatable {
        var bytes: [UInt8]
        var origin: PlacesFileLayout.KeyOrigin
    }

    /// The keys `name` (a station's) gets for its suffix, beside its own: for a Hangul name the
    /// key, 초성 and both romanisations of name + 역 and the romanisations + `station`/`stn`; for
    /// a Latin name its key + `station`/`stn`. Empty when the name already ends with the suffix.
    /// - Complexity: O(n) in the name's length.
    static func keys(of name: String) -> [SuffixedKey] {
        let key = SearchText.key(name)
        guard !key.isEmpty else { return [] }
        var out: [SuffixedKey] = []
        func latinKeys(_ base: [UInt8], origin: PlacesFileLayout.KeyOrigin) {
            guard !latin.contains(where: { base.count > $0.count && base.suffix($0.count).elementsEqual($0) }) else { return }
            for s in latin { out.append(SuffixedKey(bytes: base + s, origin: origin)) }
        }
        if let letters = SearchText.romanizedKey(name) {
            let koreanKey = SearchText.key(korean)
            guard !key.suffix(koreanKey.count).elementsEqual(koreanKey) else { return [] }
            let suffixed = name + korean
            out.append(SuffixedKey(bytes: SearchText.key(suffixed), origin: .name))
            if let initials = SearchText.initialsKey(suffixed) { out.append(SuffixedKey(bytes: initials, origin: .initials)) }
            if let l = SearchText.romanizedKey(suffixed) { out.append(SuffixedKey(bytes: l, origin: .romanized)) }
            if let r = SearchText.revisedRomanizationKey(suffixed) { out.append(SuffixedKey(bytes: r, origin: .romanized)) }
            latinKeys(letters, origin: .romanized)
            if let r = SearchText.revisedRomanizationKey(name) { latinKeys(r, origin: .romanized) }
        } else {
            latinKeys(key, origin: .name)
        }
        return out
    }

    /// `query` without the line riders add to a station (`공덕역 6호선`, `6호선 공덕역`, `경의중앙선
    /// 공덕`, `Gongdeok line 6`), or `nil` when it names none: a word of digits and 호선, a word
    /// of three or more Hangul syllables ending in 선, or `line` and a number. Only stations and
    /// subway entrances are searched with what is left (the index merges a station's lines).
    static func withoutLine(_ query: String) -> String? {
        var words = query.split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard words.count >= 2 else { return nil }
        func isLineWord(_ w: String) -> Bool {
            if w.hasSuffix("호선"), w.dropLast(2).allSatisfy(\.isASCII), let n = Int(w.dropLast(2)), n > 0 { return true }
            return w.count >= 3 && w.hasSuffix("선") && w.allSatisfy(StreetText.isHangul)
        }
        if let i = words.firstIndex(where: isLineWord) {
            words.remove(at: i)
        } else if let i = words.indices.dropLast().first(where: { words[$0].lowercased() == "line" && Int(words[$0 + 1]) != nil }) {
            words.removeSubrange(i...(i + 1))
        } else { return nil }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
