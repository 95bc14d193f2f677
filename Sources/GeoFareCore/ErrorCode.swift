/// Every error code GeoFare can emit, in one place (as GRDB keeps SQLite's result codes).
///
/// A code is part of the wire protocol: the worker sends it as `error.code`, the CLI prints it in
/// brackets, `fare-csv` writes it in the `error` column. Each ``GeoFareError`` takes its code from
/// here, never from a string literal; a test checks that docs/protocol.md lists exactly these codes.
public enum ErrorCode: String, CaseIterable, Sendable, CustomStringConvertible {
    /// The wire code (`rawValue`), so that text that interpolates a code prints what the
    /// protocol sends.
    public var description: String { rawValue }

    /// A quoted CSV field is never closed (its line is named).
    case csvUnterminatedQuote = "csv_unterminated_quote"
    /// The `--data` directory cannot be listed.
    case dataDirectoryUnreadable = "data_directory_unreadable"
    /// A data file is neither embedded nor in the data directory.
    case dataFileMissing = "data_file_missing"
    /// A data file cannot be read.
    case dataFileUnreadable = "data_file_unreadable"
    /// A CSV input has no header at all.
    case emptyInput = "empty_input"
    /// An input file cannot be opened or read.
    case fileUnreadable = "file_unreadable"
    /// A bug: an answer GeoFare could not form (reported, never silent).
    case internalError = "internal_error"
    /// A bounding box whose sides are out of order or out of range.
    case invalidBbox = "invalid_bbox"
    /// Coordinate text that is not `LAT,LON`.
    case invalidCoordinate = "invalid_coordinate"
    /// A zone file that is not the GeoJSON GeoFare reads.
    case invalidGeojson = "invalid_geojson"
    /// A request line that is not valid JSON (the byte offset is named).
    case invalidJson = "invalid_json"
    /// A CSV field that should be a number is not one.
    case invalidNumber = "invalid_number"
    /// A party size outside 1...20.
    case invalidPartySize = "invalid_party_size"
    /// A range whose ends are out of order.
    case invalidRange = "invalid_range"
    /// A request that is not a JSON object with an `op`.
    case invalidRequest = "invalid_request"
    /// A route calibration or profile file that does not validate.
    case invalidRouteData = "invalid_route_data"
    /// A split that cannot be made (unit, weights, drop-offs).
    case invalidSplit = "invalid_split"
    /// A tariff file that does not validate (file and JSON path named).
    case invalidTariff = "invalid_tariff"
    /// A time that is not ISO 8601 with an offset.
    case invalidTime = "invalid_time"
    /// A value outside its set of allowed words.
    case invalidValue = "invalid_value"
    /// A zone file that does not validate.
    case invalidZone = "invalid_zone"
    /// A latitude outside −90...90.
    case latitudeOutOfRange = "latitude_out_of_range"
    /// A longitude outside −180...180.
    case longitudeOutOfRange = "longitude_out_of_range"
    /// A CSV header without a needed column.
    case missingColumn = "missing_column"
    /// A required field is absent.
    case missingField = "missing_field"
    /// A required value is empty.
    case missingValue = "missing_value"
    /// A money amount that must not be negative.
    case negativeValue = "negative_value"
    /// No tariff region holds (or lies within 500 m of) the origin.
    case noTariffForLocation = "no_tariff_for_location"
    /// The tariff has no version in force at the departure.
    case noTariffVersion = "no_tariff_version"
    /// NaN or an infinity where a finite number is required.
    case notFinite = "not_finite"
    /// No party with that id.
    case notFound = "not_found"
    /// A number outside its allowed range.
    case outOfRange = "out_of_range"
    /// A request line longer than the worker accepts.
    case requestTooLarge = "request_too_large"
    /// A trip by coordinates given to the meter alone (price it with `TripPricer`).
    case routeRequired = "route_required"
    /// The SQLite file is corrupt.
    case storageCorrupt = "storage_corrupt"
    /// The party store failed (SQLite); stateless ops keep answering.
    case storageError = "storage_error"
    /// An input larger than its limit.
    case tooLarge = "too_large"
    /// An array longer than its limit.
    case tooManyItems = "too_many_items"
    /// More than 10,000 segments.
    case tooManySegments = "too_many_segments"
    /// More than 25 stops.
    case tooManyStops = "too_many_stops"
    /// PROJ could not transform a point.
    case transformFailed = "transform_failed"
    /// PROJ has no transformation between the two systems.
    case transformUnavailable = "transform_unavailable"
    /// The operation needs what this worker was started without (a party store).
    case unavailable = "unavailable"
    /// A cluster id that is not of this index.
    case unknownCluster = "unknown_cluster"
    /// A coordinate reference system GeoFare does not know.
    case unknownCrs = "unknown_crs"
    /// An op the worker does not have (the known ones are listed).
    case unknownOp = "unknown_op"
    /// A request field its op does not have (a misspelling: the nearest known name is suggested).
    case unknownField = "unknown_field"
    /// A speed profile id that is not loaded.
    case unknownProfile = "unknown_profile"
    /// A tariff version with no known out-of-zone rate, for a trip that leaves its business zone.
    case unknownOutOfZoneRate = "unknown_out_of_zone_rate"
    /// A departure inside the month in which a tariff changed on a day no source gives (the
    /// tariff and the month are named): either version could be in force, so none is guessed.
    case tariffVersionUncertain = "tariff_version_uncertain"
    /// A tariff id or alias that is not loaded (the known ones are listed).
    case unknownTariff = "unknown_tariff"
    /// The origin lies in a province whose cities and counties set their own tariffs, in one
    /// whose tariff group no source gives.
    case unknownTariffGroup = "unknown_tariff_group"
    /// A JSON value of the wrong type.
    case wrongType = "wrong_type"
    /// A graph file whose checksum or structure does not match its content.
    case graphCorrupt = "graph_corrupt"
    /// A road network that is inconsistent (array lengths, node indexes) or whose path weights overflow.
    case graphInvalidNetwork = "graph_invalid_network"
    /// A maximum snap distance that is not a positive number of metres (at most 100 km).
    case invalidSnapDistance = "invalid_snap_distance"
    /// A graph file that cannot be opened, mapped or written.
    case graphIo = "graph_io"
    /// No road lies within the maximum snap distance of a point.
    case noRoadNearby = "no_road_nearby"
    /// The snapped points are not connected by any road path.
    case noRoute = "no_route"
    /// A file that is not a GeoFare graph (bad magic).
    case graphNotAGraphFile = "graph_not_a_graph_file"
    /// A graph file shorter than its header or section table says.
    case graphTruncated = "graph_truncated"
    /// A graph file of a format version this reader does not understand (rebuild it).
    case graphVersionUnsupported = "graph_version_unsupported"
    /// An OSM PBF file that ends inside a blob (the blob and byte offset are named).
    case pbfTruncated = "pbf_truncated"
    /// An OSM PBF file whose bytes do not decode (bad varint, length, inflate failure).
    case pbfCorrupt = "pbf_corrupt"
    /// An OSM PBF file that needs a feature GeoFare does not read (lzma/zstd blobs, history).
    case pbfUnsupported = "pbf_unsupported"
    /// An OSM PBF file that cannot be opened or read.
    case pbfUnreadable = "pbf_unreadable"
    /// A road profile that is not valid JSON or fails validation (the JSON path is named).
    case invalidProfile = "invalid_profile"
    /// No road profile of that id.
    case profileNotFound = "profile_not_found"
    /// A places index file whose checksum or structure does not match its content.
    case placesCorrupt = "places_corrupt"
    /// A places index file that cannot be opened, mapped or written.
    case placesIo = "places_io"
    /// A file that is not a GeoFare places index (bad magic).
    case placesNotAPlacesFile = "places_not_a_places_file"
    /// A `places.*` request to a worker started without `--places FILE`.
    case placesNotLoaded = "places_not_loaded"
    /// A places index file shorter than its header or section table says.
    case placesTruncated = "places_truncated"
    /// A places index file of a format version this reader does not understand (rebuild it).
    case placesVersionUnsupported = "places_version_unsupported"
    /// A place search query with nothing to search for (empty, or only spaces and punctuation).
    case queryEmpty = "query_empty"
    /// A place search query longer than 256 bytes of UTF-8.
    case queryTooLong = "query_too_long"
    /// Text that is not valid UTF-8 (a place query given as bytes).
    case invalidUtf8 = "invalid_utf8"
    /// An HTTP request body that is not JSON by its `Content-Type` (`geofare serve`: HTTP 415).
    case unsupportedMediaType = "unsupported_media_type"
    /// A request `geofare serve` could not answer within its `--request-timeout` (HTTP 503).
    case requestTimeout = "request_timeout"
}
