import Foundation
import SQLKit
import Vapor
import WaymarkCore

// What `waymark-load` (the benchmarks of `make bench`) reaches inside the server, and nothing
// more: the benchmarks themselves live in `Sources/waymark-load`. `@_spi(Bench)` keeps these out of
// the module's public interface; only an `@_spi(Bench) import WaymarkServer` sees them.

extension Application {
    /// Runs `work` as one of the server's writers: on SQLite after the writers of this process
    /// before it (``WriteGate``) and waiting up to 10 s for another process's, on PostgreSQL on
    /// one pooled connection; its queries' values are never logged.
    @_spi(Bench) public func asServerWriter<T: Sendable>(_ work: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await quietDB.withWriteConnection(gate: writeGate) { connection in
            guard let sql = connection as? any SQLDatabase else { throw PhotoStoreError.notSQL }
            return try await work(sql)
        }
    }
}

/// The photo store as the benchmarks drive it: the database of a configuration opened (and
/// migrated) as `waymark users` opens it, photos inserted through the store's own insert (places
/// and map cells included), and nearby searches through the server's code path.
@_spi(Bench) public struct BenchPhotoStore: Sendable {
    /// A synthetic public photo: a place, a capture time, an id.
    public struct NewPhoto: Sendable {
        public var id: UUID
        public var latitude: Double
        public var longitude: Double
        public var capturedAt: Date

        public init(id: UUID, latitude: Double, longitude: Double, capturedAt: Date) {
            self.id = id
            self.latitude = latitude
            self.longitude = longitude
            self.capturedAt = capturedAt
        }
    }

    public enum Problem: Error, Sendable, Equatable {
        case noSuchAccount(String)
        case needsPostgreSQL
    }

    private let app: Application
    private let store: SQLPhotoStore

    public init(configuration: ServerConfiguration) async throws {
        app = try await Application.openDatabase(configuration)
        store = SQLPhotoStore(database: app.serverDatabase, clock: .system)
    }

    public var isPostgres: Bool { app.serverDatabase.isPostgres }

    /// The id of the account `username`.
    public func account(username: String) async throws -> UUID {
        guard let account = try await FluentAccountStore(database: app.serverDatabase).account(username: username) else {
            throw Problem.noSuchAccount(username)
        }
        return account.id
    }

    /// Stores `photos` of `owner` in one transaction, as public 12-MP JPEGs uploaded `uploadedAt`.
    public func insert(_ photos: [NewPhoto], owner: UUID, uploadedAt: Date) async throws {
        try await store.insert(photos.map { new in
            Photo(id: new.id, ownerID: owner, title: "Bench photo", capturedAt: new.capturedAt, uploadedAt: uploadedAt,
                  place: Place(latitude: new.latitude, longitude: new.longitude), width: 4000, height: 3000,
                  bytes: 4_500_000, mime: "image/jpeg", sha256: String(repeating: "0", count: 64), visibility: .public)
        })
    }

    /// The store's nearby search (the first page of 50, nearest or newest first); how many it found.
    public func nearby(latitude: Double, longitude: Double, radius: Double, recent: Bool) async throws -> Int {
        try await store.nearby(NearbyQuery(latitude: latitude, longitude: longitude, radius: radius, order: recent ? .recent : .distance)).items.count
    }

    /// The database, for a reference query on the same rows (PostgreSQL only).
    public func sql() throws -> any SQLDatabase {
        guard isPostgres, let sql = try app.serverDatabase.db as? any SQLDatabase else { throw Problem.needsPostgreSQL }
        return sql
    }

    /// The photos' table and the columns the store reads of a photo.
    public static var table: String { CreatePhotos.table }
    public static var columns: [String] { SQLPhotoStore.readColumns }

    /// Reads a row of ``columns`` as the store does (the reference pays for the same decoding).
    public static func decode(_ row: any SQLRow) throws {
        _ = try SQLPhotoStore.photo(from: row)
    }

    public func shutdown() async throws {
        try await app.asyncShutdown()
    }
}
