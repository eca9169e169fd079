import Foundation
import Testing

/// The database the `waymark` processes of a test use: SQLite in their data folder, or the
/// throwaway PostgreSQL of `scripts/with-postgres` (its `DATABASE_URL`).
///
/// A test that runs on both takes `arguments: CLIDatabase.all` and runs its body inside
/// ``run(_:)``; every `waymark` it starts (``WaymarkBinary``) gets `DATABASE_URL` then, and no other
/// does, so a test that does not ask for PostgreSQL stays on SQLite however the tests are run.
/// With `WAYMARK_REQUIRE_POSTGRES=1` (make test) a missing `DATABASE_URL` fails those tests.
enum CLIDatabase: String, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    @TaskLocal static var current: CLIDatabase = .sqlite

    static var all: [CLIDatabase] {
        let environment = ProcessInfo.processInfo.environment
        let wantPostgres = environment["DATABASE_URL"].map { !$0.isEmpty } == true || environment["WAYMARK_REQUIRE_POSTGRES"] == "1"
        return wantPostgres ? [.sqlite, .postgres] : [.sqlite]
    }

    var testDescription: String { rawValue }

    /// `DATABASE_URL` for a `waymark` process started now: PostgreSQL's only inside ``run(_:)`` on `.postgres`.
    static var url: String? {
        guard current == .postgres else { return nil }
        return ProcessInfo.processInfo.environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Runs `body` with every `waymark` it starts on this database.
    func run(_ body: () async throws -> Void) async throws {
        if self == .postgres {
            _ = try #require(ProcessInfo.processInfo.environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 },
                             "WAYMARK_REQUIRE_POSTGRES=1 but DATABASE_URL is not set; run the tests under scripts/with-postgres")
        }
        try await Self.$current.withValue(self, operation: body)
    }
}
