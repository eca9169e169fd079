import Crypto
import Foundation

/// What a photo's receipt says the server stored with it (DESIGN §3.10), hashed as
/// `sha256Metadata` in the receipt.
///
/// Its canonical form (``canonicalJSON``) is one JSON object written as RFC 8785 (JCS) writes it
/// (``CanonicalJSON``: no whitespace, members sorted, numbers as ECMAScript writes them), with
/// every one of these members, `null` where the photo has no value:
///
/// | member | value |
/// |---|---|
/// | `photoId` | the photo's id, lowercase |
/// | `ownerId` | the uploading account's id, lowercase |
/// | `title` | the title as stored (the default `PShare: …` too) |
/// | `capturedAt` | Unix seconds, as stored (from the form's `capturedAt`, else EXIF, else the upload time) |
/// | `latitude`, `longitude` | degrees (WGS-84), the place stored, or `null` |
/// | `altitude` | metres, or `null` |
/// | `accuracy` | metres (the fix's horizontal accuracy), or `null` |
/// | `azimuth` | degrees clockwise from true north, or `null` |
/// | `tilt` | degrees, or `null` |
/// | `centroid` | `{"latitude", "longitude", "samples"}` or `null` |
/// | `width`, `height` | pixels, upright |
/// | `mime` | the type the bytes showed, e.g. `image/jpeg` |
/// | `receivedAt` | when the server stored it, RFC 3339 UTC with milliseconds, e.g. `2026-06-01T10:00:00.123Z` |
///
/// The image itself is covered by `sha256Image`; visibility is not covered (its owner may change
/// it). A later edit of the title or place does not change the receipt: it records what arrived.
public struct ReceiptMetadata: Sendable, Equatable {
    /// A photo's centroid: the centre of the convex hull of the last `samples` fixes.
    public struct Centroid: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var samples: Int

        public init(latitude: Double, longitude: Double, samples: Int) {
            self.latitude = latitude
            self.longitude = longitude
            self.samples = samples
        }
    }

    public var photoId: UUID
    public var ownerId: UUID
    public var title: String
    /// Unix seconds.
    public var capturedAt: Double
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    public var accuracy: Double?
    public var azimuth: Double?
    public var tilt: Double?
    public var centroid: Centroid?
    public var width: Int
    public var height: Int
    public var mime: String
    /// RFC 3339 UTC with milliseconds (``receivedAtText(_:)``).
    public var receivedAt: String

    /// The members of the canonical object, in no particular order (the writer sorts them).
    public static let memberNames: Set<String> = ["photoId", "ownerId", "title", "capturedAt", "latitude", "longitude", "altitude", "accuracy",
                                                  "azimuth", "tilt", "centroid", "width", "height", "mime", "receivedAt"]

    public init(photoId: UUID, ownerId: UUID, title: String, capturedAt: Double, latitude: Double?, longitude: Double?, altitude: Double?,
                accuracy: Double?, azimuth: Double?, tilt: Double?, centroid: Centroid?, width: Int, height: Int, mime: String, receivedAt: String) {
        self.photoId = photoId
        self.ownerId = ownerId
        self.title = title
        self.capturedAt = capturedAt
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.accuracy = accuracy
        self.azimuth = azimuth
        self.tilt = tilt
        self.centroid = centroid
        self.width = width
        self.height = height
        self.mime = mime
        self.receivedAt = receivedAt
    }

    /// The metadata as a JSON value.
    public var value: CanonicalJSON.Value {
        func number(_ value: Double?) -> CanonicalJSON.Value { value.map { .number($0) } ?? .null }
        return .object([
            "photoId": .string(photoId.uuidString.lowercased()),
            "ownerId": .string(ownerId.uuidString.lowercased()),
            "title": .string(title),
            "capturedAt": .number(capturedAt),
            "latitude": number(latitude),
            "longitude": number(longitude),
            "altitude": number(altitude),
            "accuracy": number(accuracy),
            "azimuth": number(azimuth),
            "tilt": number(tilt),
            "centroid": centroid.map { .object(["latitude": .number($0.latitude), "longitude": .number($0.longitude), "samples": .number(Double($0.samples))]) } ?? .null,
            "width": .number(Double(width)),
            "height": .number(Double(height)),
            "mime": .string(mime),
            "receivedAt": .string(receivedAt),
        ])
    }

    /// The canonical text (RFC 8785) whose SHA-256 is the receipt's `sha256Metadata`; `nil` when a
    /// number is not finite (the server never stores one).
    public var canonicalJSON: String? { CanonicalJSON.text(value) }

    /// Lowercase hex SHA-256 of the UTF-8 of ``canonicalJSON``.
    public var sha256: String? {
        canonicalJSON.map { SHA256.hash(data: Data($0.utf8)).hexString }
    }

    /// An instant as a receipt writes it: RFC 3339 in UTC with exactly three fraction digits
    /// (milliseconds, rounded), e.g. `2026-06-01T10:00:00.123Z`.
    public static func receivedAtText(_ date: Date) -> String {
        InternetTime.text(date)
    }
}

extension ReceiptMetadata: Decodable {
    /// Reads the metadata strictly: exactly the members of ``memberNames`` (nulls written out),
    /// each of its type; whole numbers where pixels and samples are counted.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: ReceiptJSONKey.self)
        let names = Set(container.allKeys.map(\.stringValue))
        guard names == Self.memberNames else {
            let missing = Self.memberNames.subtracting(names).sorted(), extra = names.subtracting(Self.memberNames).sorted()
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                "metadata members: " + (missing.isEmpty ? "" : "missing \(missing.joined(separator: ", ")) ") + (extra.isEmpty ? "" : "unknown \(extra.joined(separator: ", "))")))
        }
        func key(_ name: String) -> ReceiptJSONKey { ReceiptJSONKey(stringValue: name) }
        func optional(_ name: String) throws -> Double? {
            try container.decodeNil(forKey: key(name)) ? nil : try container.decode(Double.self, forKey: key(name))
        }
        func id(_ name: String) throws -> UUID {
            let text = try container.decode(String.self, forKey: key(name))
            guard text == text.lowercased(), let id = UUID(uuidString: text) else {
                throw DecodingError.dataCorruptedError(forKey: key(name), in: container, debugDescription: "\(name) is not a lowercase UUID")
            }
            return id
        }
        photoId = try id("photoId")
        ownerId = try id("ownerId")
        title = try container.decode(String.self, forKey: key("title"))
        capturedAt = try container.decode(Double.self, forKey: key("capturedAt"))
        latitude = try optional("latitude")
        longitude = try optional("longitude")
        altitude = try optional("altitude")
        accuracy = try optional("accuracy")
        azimuth = try optional("azimuth")
        tilt = try optional("tilt")
        if try container.decodeNil(forKey: key("centroid")) {
            centroid = nil
        } else {
            let nested = try container.nestedContainer(keyedBy: ReceiptJSONKey.self, forKey: key("centroid"))
            guard Set(nested.allKeys.map(\.stringValue)) == ["latitude", "longitude", "samples"] else {
                throw DecodingError.dataCorruptedError(forKey: key("centroid"), in: container, debugDescription: "centroid has latitude, longitude and samples, nothing else")
            }
            centroid = Centroid(latitude: try nested.decode(Double.self, forKey: ReceiptJSONKey(stringValue: "latitude")),
                                longitude: try nested.decode(Double.self, forKey: ReceiptJSONKey(stringValue: "longitude")),
                                samples: try nested.decode(Int.self, forKey: ReceiptJSONKey(stringValue: "samples")))
        }
        width = try container.decode(Int.self, forKey: key("width"))
        height = try container.decode(Int.self, forKey: key("height"))
        mime = try container.decode(String.self, forKey: key("mime"))
        receivedAt = try container.decode(String.self, forKey: key("receivedAt"))
    }
}

/// A coding key of any name, for reading objects whose member names are checked as a set.
struct ReceiptJSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
