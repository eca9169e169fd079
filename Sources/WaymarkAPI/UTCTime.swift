import Foundation
import WaymarkCore

/// An instant of an API body, written as RFC 3339 text in UTC (`2026-06-01T10:00:00.123Z`,
/// ``InternetTime``) whatever the encoder's date strategy, and read only from such text.
///
/// `@UTCTime public var createdAt: Date` keeps a DTO's field a `Date` in Swift and a
/// `format: date-time` string on the wire, as the contract describes it.
@propertyWrapper
public struct UTCTime: Codable, Sendable, Hashable {
    public var wrappedValue: Date

    public init(wrappedValue: Date) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = InternetTime.date(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not an RFC 3339 time with its zone")
        }
        wrappedValue = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(InternetTime.text(wrappedValue))
    }
}
