import Foundation
import NIOConcurrencyHelpers

/// Photos whose visibility follows another photo's: a scene's feet shot follows its reference
/// (#34: a scene made private left its feet shot public in nearby at the scene's place). The
/// areas that link photos so (scenes) register a lookup when the server is configured; the photo
/// area asks it whenever an owner changes a photo's visibility, without reading their tables.
final class PhotoCompanions: Sendable {
    /// The photos that follow `photo`'s visibility.
    typealias Lookup = @Sendable (_ photo: UUID) async throws -> [UUID]

    private let lookups = NIOLockedValueBox<[Lookup]>([])

    /// Adds an area's lookup.
    func use(_ lookup: @escaping Lookup) {
        lookups.withLockedValue { $0.append(lookup) }
    }

    /// Every photo that follows `photo`, by every registered lookup.
    func following(_ photo: UUID) async throws -> [UUID] {
        var found: [UUID] = []
        for lookup in lookups.withLockedValue({ $0 }) {
            found += try await lookup(photo)
        }
        return found
    }
}
