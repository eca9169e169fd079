import Foundation
import Vapor

extension Request {
    /// The path parameter `name` (the contract's `{photo_id}`, `{task_id}` …) as a UUID, in any
    /// letter case; `nil` when it is missing or not a UUID, which every area answers as 404, as
    /// for an id that does not exist.
    func uuidParameter(_ name: String) -> UUID? {
        parameters.get(name).flatMap(UUID.init(uuidString:))
    }
}
