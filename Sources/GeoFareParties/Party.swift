import Foundation
import GeoFareCore

/// A taxi party: riders gathering at an origin to share a taxi to a destination.
///
/// Coordinates are WGS84 degrees (longitude, latitude); the spatial index indexes ``origin``.
/// Validate a party with ``validate()`` before handing it to ``PartyIndex/upsert(_:)``.
public struct Party: Sendable, Hashable, Codable {
    /// The caller's id: 1...128 bytes of UTF-8. Ids are compared by their bytes (no Unicode
    /// normalisation), so `"é"` precomposed and decomposed are different ids.
    public var id: String
    /// Where riders gather (indexed).
    public var origin: Coordinate
    /// Where the taxi goes.
    public var destination: Coordinate
    /// When the taxi leaves.
    public var departure: Date
    /// Seats in the taxi, 1...20.
    public var seatsTotal: Int
    /// Seats taken, 0...``seatsTotal``.
    public var seatsTaken: Int
    /// Whether the party takes riders.
    public var status: PartyStatus
    /// Free-form attributes: the text of a JSON object (at most 16 KiB), stored and returned as
    /// given; the index never parses it.
    public var attributesJSON: String?
    /// When the store last wrote the party.
    public var updatedAt: Date
    /// Bumped by the store on every write (1 for a new party); never negative.
    public var version: Int64

    /// Seats still free: ``seatsTotal`` − ``seatsTaken``.
    public var freeSeats: Int { seatsTotal - seatsTaken }

    /// The most UTF-8 bytes an id may have.
    public static let maxIDBytes = 128
    /// The most UTF-8 bytes ``attributesJSON`` may have (16 KiB).
    public static let maxAttributesBytes = 16_384
    /// The allowed range of ``seatsTotal``.
    public static let seatsTotalRange = 1...20

    /// Creates a party; nothing is checked until ``validate()``. Coordinates are WGS84
    /// degrees; `updatedAt` defaults to 1970-01-01 and `version` to 0.
    public init(id: String, origin: Coordinate, destination: Coordinate, departure: Date, seatsTotal: Int, seatsTaken: Int,
                status: PartyStatus, attributesJSON: String? = nil, updatedAt: Date = Date(timeIntervalSince1970: 0),
                version: Int64 = 0) {
        (self.id, self.origin, self.destination, self.departure) = (id, origin, destination, departure)
        (self.seatsTotal, self.seatsTaken, self.status) = (seatsTotal, seatsTaken, status)
        (self.attributesJSON, self.updatedAt, self.version) = (attributesJSON, updatedAt, version)
    }

    /// Checks every field.
    ///
    /// - Throws: ``GeoFareError`` whose `field` is the wire name of the first bad field:
    ///   `id` (`invalid_value`: empty or longer than 128 bytes), `origin.lat`/`origin.lon` and
    ///   `destination.lat`/`destination.lon` (`not_finite`, `latitude_out_of_range`,
    ///   `longitude_out_of_range`), `depart_at` and `updated_at` (`not_finite`), `seats_total`
    ///   (`out_of_range`, 1...20), `seats_taken` (`out_of_range`, 0...seats_total), `version`
    ///   (`out_of_range`, negative) or `attributes` (`invalid_value`: not `{...}`; `too_large`).
    /// - Complexity: O(1), plus O(bytes) of `id` and `attributesJSON`.
    public func validate() throws(GeoFareError) {
        let idBytes = id.utf8.count
        guard idBytes >= 1 && idBytes <= Party.maxIDBytes else {
            throw .invalidPartyID(byteCount: idBytes)
        }
        do { try Coordinate.validate(latitude: origin.latitude, longitude: origin.longitude) } catch { throw error.prefixed("origin") }
        do {
            try Coordinate.validate(latitude: destination.latitude, longitude: destination.longitude)
        } catch { throw error.prefixed("destination") }
        let departs = departure.timeIntervalSinceReferenceDate
        guard departs.isFinite else { throw .notFinite("depart_at", departs) }
        let updated = updatedAt.timeIntervalSinceReferenceDate
        guard updated.isFinite else { throw .notFinite("updated_at", updated) }
        guard Party.seatsTotalRange.contains(seatsTotal) else { throw .outOfRange("seats_total", Double(seatsTotal), 1...20) }
        guard (0...seatsTotal).contains(seatsTaken) else {
            throw .outOfRange("seats_taken", Double(seatsTaken), 0...Double(seatsTotal))
        }
        guard version >= 0 else {
            throw .mustNotBeNegative("version", version)
        }
        if let attributes = attributesJSON {
            let bytes = attributes.utf8
            guard bytes.count <= Party.maxAttributesBytes else {
                throw .attributesTooLarge(byteCount: bytes.count)
            }
            let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            guard bytes.first(where: { !isSpace($0) }) == UInt8(ascii: "{"),
                  bytes.reversed().first(where: { !isSpace($0) }) == UInt8(ascii: "}") else {
                throw .attributesNotObject()
            }
        }
    }

    private enum CodingKeys: String, CodingKey {
        case id, origin, destination, departure = "depart_at", seatsTotal = "seats_total", seatsTaken = "seats_taken", status
        case attributesJSON = "attributes_json", updatedAt = "updated_at", version
    }
}
