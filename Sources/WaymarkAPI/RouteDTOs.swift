import Foundation
import WaymarkCore

/// `POST /api/v1/routes`: an encrypted route, the key to find it by, and the hash of its delete token.
public struct CreateRouteRequest: Codable, Sendable, Equatable {
    public var envelope: RouteEnvelope
    /// Lowercase hex SHA-256 of `waymark-route-lookup-v1:` + nonce (``RouteKeys/lookupKey(nonce:)``).
    public var lookup: String
    /// Lowercase hex SHA-256 of the 32-byte delete token.
    public var deleteTokenHash: String

    public init(envelope: RouteEnvelope, lookup: String, deleteTokenHash: String) {
        self.envelope = envelope
        self.lookup = lookup
        self.deleteTokenHash = deleteTokenHash
    }
}

/// The answer to a stored route: `201 {"route_id", "creation_time"}`.
public struct RouteCreated: Codable, Sendable, Equatable {
    public var routeID: String
    /// Unix seconds.
    public var creationTime: Int

    public init(routeID: String, creationTime: Int) {
        self.routeID = routeID
        self.creationTime = creationTime
    }

    enum CodingKeys: String, CodingKey {
        case routeID = "route_id"
        case creationTime = "creation_time"
    }
}

/// A stored route: `GET /api/v1/routes/{route_id}` and `GET /api/v1/routes?lookup=`.
public struct RouteRecord: Codable, Sendable, Equatable {
    public var routeID: String
    public var creationTime: Int
    public var envelope: RouteEnvelope

    public init(routeID: String, creationTime: Int, envelope: RouteEnvelope) {
        self.routeID = routeID
        self.creationTime = creationTime
        self.envelope = envelope
    }

    enum CodingKeys: String, CodingKey {
        case routeID = "route_id"
        case creationTime = "creation_time"
        case envelope
    }
}

/// Every error the API answers: `{"error": "<code>", "reason": "<human text>"}` (DESIGN §3.3).
public struct APIErrorBody: Codable, Sendable, Equatable, Error, CustomStringConvertible {
    public var error: String
    public var reason: String

    public init(error: String, reason: String) {
        self.error = error
        self.reason = reason
    }

    /// An answer of this server: its code is one of ``APIErrorCode``.
    public init(error: APIErrorCode, reason: String) {
        self.init(error: error.rawValue, reason: reason)
    }

    /// The code, when it is one this version knows.
    public var code: APIErrorCode? { APIErrorCode(rawValue: error) }

    public var description: String { "\(error): \(reason)" }
}

/// Header names of the API.
public enum APIHeader {
    public static let key = "X-API-Key"
    public static let timestamp = "X-API-Timestamp"
    public static let nonce = "X-API-Nonce"
    public static let signedHeaders = "X-API-Signed-Headers"
    public static let signature = "X-API-Sig"
    public static let idempotencyKey = "Idempotency-Key"
    public static let routeLookup = "X-Route-Lookup"
    public static let deleteTokenHash = "X-Delete-Token-Hash"
    public static let deleteToken = "X-Delete-Token"
}

extension String {
    /// True for exactly 64 lowercase hexadecimal digits (a SHA-256 or a 32-byte token).
    public var isLowercaseHex64: Bool {
        utf8.count == 64 && utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
