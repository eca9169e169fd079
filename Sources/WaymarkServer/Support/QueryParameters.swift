import Foundation
import Vapor
import WaymarkCore

extension Request {
    /// The query parameter `name` as an instant (ISO 8601 with its zone); nil when absent, 400
    /// `invalid_query` when it is something else.
    func queryInstant(_ name: String) throws -> Date? {
        guard let text = try? query.get(String.self, at: name) else { return nil }
        guard let date = InternetTime.date(text) else {
            throw APIError.badRequest(.invalidQuery, "\(name) must be an ISO 8601 time with its zone, e.g. 2026-06-01T10:00:00Z.")
        }
        return date
    }

    /// A list's `limit`: `otherwise` when absent, 400 `invalid_query` outside `limits`.
    func queryLimit(_ limits: ClosedRange<Int>, otherwise: Int) throws -> Int {
        guard let text = try? query.get(String.self, at: "limit") else { return otherwise }
        guard let value = Int(text), limits.contains(value) else {
            throw APIError.badRequest(.invalidQuery, "limit must be a whole number from \(limits.lowerBound) to \(limits.upperBound).")
        }
        return value
    }
}
