import Foundation
import WaymarkCore
import WaymarkRecorder

/// Fixes for store and uploader tests: a walk north from 46° N 14° E, one fix a second.
func walk(_ count: Int, from start: Int = 0, at base: Double = 1_717_236_000) -> [Fix] {
    (start..<(start + count)).map { (i: Int) -> Fix in
        let step = Double(i)
        let altitude: Double? = i % 3 == 0 ? nil : 300 + step
        let accuracy: Double? = i % 5 == 0 ? nil : 4.5
        return Fix(latitude: 46 + step / 100_000, longitude: 14 + step / 50_000, altitude: altitude, accuracy: accuracy,
                   time: Date(timeIntervalSince1970: base + step + 0.25))
    }
}

/// An upload whose fields tell the routes apart (no real envelope: the store keeps bytes).
func fakeUpload(_ tag: String) -> RouteUpload {
    RouteUpload(envelope: Data("{\"tag\":\"\(tag)\"}".utf8), lookupKey: "lookup-\(tag)", deleteToken: "token-\(tag)",
                deleteTokenHash: "hash-\(tag)", idempotencyKey: "key-\(tag)")
}

extension RecordingStore {
    /// Starts, fills and queues a route; returns its id.
    func queuedRoute(_ tag: String, created: Date, upload: RouteUpload? = nil) async throws -> Int64 {
        let id = try await startRoute(nonce: "nonce-\(tag)", created: created, qrPeriod: 5)
        try await append(walk(3), track: 0, route: id, distance: 2, duration: 2)
        try await queue(route: id, upload: upload ?? fakeUpload(tag), distance: 2, duration: 2)
        return id
    }
}
