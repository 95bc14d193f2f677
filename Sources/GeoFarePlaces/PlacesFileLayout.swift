/// The layout of a places index file: the graph file's container (``GeoFareFile/SectionFileLayout``;
/// ``GeoFareFile/SectionFileWriter`` writes both) with magic "GEOFAREP" and these sections.
enum PlacesFileLayout {
    static let magic: [UInt8] = Array("GEOFAREP".utf8)
    static let currentVersion: UInt32 = 5

    enum Section {
        /// ``PlacesMetadata`` as JSON.
        static let metadata: UInt32 = 1
        /// Per place: latitude and longitude (Int32, 1e-7 degrees), kind (UInt8, ``PlaceKind``).
        static let latitudes: UInt32 = 10, longitudes: UInt32 = 11, kinds: UInt32 = 12
        /// Per place: the start of its record in `text` (UInt32, one more than the places), and the
        /// records: the OSM id, then `key␞value` pairs of names, then of address parts, the three
        /// parts separated by U+001D and the pairs by U+001F (UTF-8).
        static let textStart: UInt32 = 13, text: UInt32 = 14
        /// The search keys sorted bytewise: the start of each in `keyBytes` (UInt32, one more than
        /// the keys), the bytes, and per key its place (UInt32), flags (UInt8: bit 0, the key
        /// starts at the name's start; bits 1–2: ``KeyOrigin``) and the name it came from (UInt8,
        /// the position in the place's names).
        static let keyStart: UInt32 = 20, keyBytes: UInt32 = 21, keyPlace: UInt32 = 22, keyFlags: UInt32 = 23, keyName: UInt32 = 24
        /// The reverse grid: sorted cell keys (UInt64), the start of each cell's places in
        /// `cellItems` (UInt32, one more than the cells), and the places (UInt32).
        static let cellKeys: UInt32 = 30, cellStart: UInt32 = 31, cellItems: UInt32 = 32
        /// Streets' shapes: per place the start of its points (UInt32, one more than the places;
        /// empty for other kinds) and the points (Int32 latitude, longitude; `Int32.min` latitude:
        /// a break between two ways).
        static let shapeStart: UInt32 = 40, shapeLatitudes: UInt32 = 41, shapeLongitudes: UInt32 = 42
        /// Per place (UInt8): ``PlaceFlags``.
        static let placeFlags: UInt32 = 15
        /// Street keys (``StreetText``) sorted bytewise: a street's key alone, an address's street key,
        /// a 0 byte and its house-number key. The start of each (UInt32, one more than the keys),
        /// the bytes, per key its place (UInt32) and the house number's value (Int32; -1: a street).
        static let streetKeyStart: UInt32 = 50, streetKeyBytes: UInt32 = 51, streetKeyPlace: UInt32 = 52, streetKeyNumber: UInt32 = 53
        /// Per category of the metadata's `categories`: the start of its places (UInt32, one more
        /// than the categories) and the places (UInt32, ascending).
        static let categoryStart: UInt32 = 60, categoryItems: UInt32 = 61
    }

    /// Bits of a place's flags.
    enum PlaceFlags {
        /// OSM names it (one of ``PlaceTags/nameKeys``).
        static let named: UInt8 = 1
        /// It has `addr:housenumber`.
        static let address: UInt8 = 2
        /// Its shape (the shape sections) is a building's outline, not a street's lines.
        static let outline: UInt8 = 4
    }

    /// Where a search key came from (bits 1–2 of its flags).
    enum KeyOrigin: UInt8 {
        case name = 0, initials = 1, romanized = 2
    }

    /// A grid cell's side, 1e-7 degrees (0.005°: about 550 m north–south).
    static let cellE7: Int32 = 50_000

    static func cellKey(row: Int32, column: Int32) -> UInt64 {
        UInt64(UInt32(bitPattern: row)) << 32 | UInt64(UInt32(bitPattern: column))
    }

    static func cell(_ e7: Int32) -> Int32 {
        let v = Int64(e7)
        return Int32(v >= 0 ? v / Int64(cellE7) : (v - Int64(cellE7) + 1) / Int64(cellE7))
    }
}
