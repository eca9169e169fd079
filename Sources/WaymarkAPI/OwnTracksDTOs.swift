import Foundation
import WaymarkCore

/// `POST /api/v1/owntracks/devices`: a device named by its owner, with the nonce and the sealed
/// key its pairing client made (DESIGN §3.13).
public struct CreateOwnTracksDeviceRequest: Codable, Sendable, Equatable {
    public var name: String
    /// Twelve characters of `0-9A-Z`, as a route's QR nonce.
    public var nonce: String
    /// The encryption key sealed under the passphrase (``EnvelopeContent/owntracksKey``).
    public var sealedKey: RouteEnvelope

    public init(name: String, nonce: String, sealedKey: RouteEnvelope) {
        self.name = name
        self.nonce = nonce
        self.sealedKey = sealedKey
    }
}

/// A device just paired: the only time its secret is shown.
public struct NewOwnTracksDeviceDTO: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var nonce: String
    /// The Basic user OwnTracks sends: the account's username.
    public var username: String
    /// The Basic password OwnTracks sends.
    public var secret: String
    @UTCTime public var createdAt: Date

    public init(id: UUID, name: String, nonce: String, username: String, secret: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.nonce = nonce
        self.username = username
        self.secret = secret
        self.createdAt = createdAt
    }
}

/// A device as its owner lists it (never its secret).
public struct OwnTracksDeviceDTO: Codable, Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var nonce: String
    public var sealedKey: RouteEnvelope
    @UTCTime public var createdAt: Date
    /// How many messages it has sent.
    public var messages: Int
    /// When the last of them arrived; nil before the first.
    public var lastMessageAt: Date?

    public init(id: UUID, name: String, nonce: String, sealedKey: RouteEnvelope, createdAt: Date, messages: Int, lastMessageAt: Date?) {
        self.id = id
        self.name = name
        self.nonce = nonce
        self.sealedKey = sealedKey
        self.createdAt = createdAt
        self.messages = messages
        self.lastMessageAt = lastMessageAt
    }

    enum CodingKeys: String, CodingKey { case id, name, nonce, sealedKey, createdAt, messages, lastMessageAt }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        nonce = try container.decode(String.self, forKey: .nonce)
        sealedKey = try container.decode(RouteEnvelope.self, forKey: .sealedKey)
        _createdAt = try container.decode(UTCTime.self, forKey: .createdAt)
        messages = try container.decode(Int.self, forKey: .messages)
        lastMessageAt = try container.decodeIfPresent(UTCTime.self, forKey: .lastMessageAt)?.wrappedValue
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(nonce, forKey: .nonce)
        try container.encode(sealedKey, forKey: .sealedKey)
        try container.encode(_createdAt, forKey: .createdAt)
        try container.encode(messages, forKey: .messages)
        // Always present, null before the first message (the contract requires the member).
        if let lastMessageAt { try container.encode(UTCTime(wrappedValue: lastMessageAt), forKey: .lastMessageAt) } else {
            try container.encodeNil(forKey: .lastMessageAt)
        }
    }
}

/// What a device's nonce finds (`GET /api/v1/owntracks/lookup/{lookup}`): its sealed key.
public struct OwnTracksSealedDeviceDTO: Codable, Sendable, Equatable {
    public var sealedKey: RouteEnvelope
    @UTCTime public var createdAt: Date
    public var messages: Int

    public init(sealedKey: RouteEnvelope, createdAt: Date, messages: Int) {
        self.sealedKey = sealedKey
        self.createdAt = createdAt
        self.messages = messages
    }
}

/// One stored message: the `data` of the encrypted message as it came, and when it came.
public struct OwnTracksStoredMessageDTO: Codable, Sendable, Equatable {
    public var data: String
    @UTCTime public var receivedAt: Date

    public init(data: String, receivedAt: Date) {
        self.data = data
        self.receivedAt = receivedAt
    }
}
