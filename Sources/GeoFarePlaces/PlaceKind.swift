/// What a place is, read from its OSM tags; its ``importance`` ranks places whose names match a
/// query equally well (a station before a shop of the same name).
public enum PlaceKind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `railway=station|halt`, `public_transport=station`, `amenity=bus_station`.
    case station = 0
    /// `railway=subway_entrance|train_station_entrance`.
    case subwayEntrance = 1
    /// `highway=bus_stop`, `public_transport=platform` (bus).
    case busStop = 2
    /// `place=*`: cities, districts, neighbourhoods, villages (the admin and named areas).
    case area = 3
    /// `tourism=*`, `historic=*`, `leisure=*`, `man_made=tower|bridge`: landmarks and sights.
    case landmark = 4
    /// `amenity=*`, `office=*`, `healthcare=*`: schools, hospitals, cafés, banks, offices.
    case amenity = 5
    /// `shop=*`.
    case shop = 6
    /// A named `building=*` without any of the tags above.
    case building = 7
    /// A named road (`highway=*` that cars or people use), one entry per street name and stretch.
    case street = 8
    /// A named road junction (a node with `junction=yes` or `highway=traffic_signals`, or a name
    /// ending in a junction word of `Data/places/street-words.json`: 서면교차로, 연세로사거리),
    /// one entry per name and stretch: the way Koreans name a pickup at a crossing.
    case junction = 9

    /// The wire name (`station`, `subway_entrance`, ...).
    public var description: String {
        switch self {
        case .station: "station"
        case .subwayEntrance: "subway_entrance"
        case .busStop: "bus_stop"
        case .area: "area"
        case .landmark: "landmark"
        case .amenity: "amenity"
        case .shop: "shop"
        case .building: "building"
        case .street: "street"
        case .junction: "junction"
        }
    }

    /// The rank among equal matches, higher first: station 9, area 8, landmark 7, subway
    /// entrance 6, bus stop and junction 5, street 4, amenity 3, building 2, shop 1.
    public var importance: Int {
        switch self {
        case .station: 9
        case .area: 8
        case .landmark: 7
        case .subwayEntrance: 6
        case .busStop, .junction: 5
        case .street: 4
        case .amenity: 3
        case .building: 2
        case .shop: 1
        }
    }

    /// The kind of an element with these tags (the first rule in the order of the cases that
    /// matches), or `nil` when it is none of them.
    /// - Parameter tag: the value of a key, or `nil` when the element lacks it.
    static func classify(isWay: Bool, tag: (String) -> String?) -> PlaceKind? {
        let railway = tag("railway"), pt = tag("public_transport"), highway = tag("highway")
        if railway == "station" || railway == "halt" || pt == "station" || tag("amenity") == "bus_station" { return .station }
        if railway == "subway_entrance" || railway == "train_station_entrance" { return .subwayEntrance }
        if highway == "bus_stop" || (pt == "platform" && (tag("bus") == "yes" || highway == "bus_stop")) { return .busStop }
        if tag("place") != nil { return .area }
        if tag("tourism") != nil || tag("historic") != nil || tag("leisure") != nil { return .landmark }
        if let m = tag("man_made"), m == "tower" || m == "bridge" || m == "lighthouse" { return .landmark }
        if tag("amenity") != nil || tag("office") != nil || tag("healthcare") != nil { return .amenity }
        if tag("shop") != nil { return .shop }
        if isWay, let h = highway, streetHighways.contains(h) { return .street }
        if tag("building") != nil { return .building }
        return nil
    }

    /// The `highway` values that make a named way a street.
    static let streetHighways: Set<String> = [
        "motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street",
        "service", "pedestrian", "road", "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link",
    ]
}
