import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// What other areas hold on a photo that the photo area must honour, without reading their
/// tables: a photo sent with an inspection task is evidence, never changed or deleted, and
/// officers and admins may see a private photo that belongs to a task (DESIGN §3.10). The areas
/// that hold photos so (tasks) register their checks when the server is configured, as scenes
/// register their companions (``PhotoCompanions``).
final class PhotoClaims: Sendable {
    /// Whether `photo` is evidence. Asked inside the transaction that would delete it, on that
    /// transaction's connection; `lock` asks for the row that says so to be locked (PostgreSQL),
    /// so that a send at the same moment either comes first (and the photo stays) or waits until
    /// the photo is gone.
    typealias Evidence = @Sendable (_ photo: UUID, _ sql: any SQLDatabase, _ lock: Bool) async throws -> Bool
    /// Whether officers and admins may see `photo` although it is private.
    typealias StaffView = @Sendable (_ photo: UUID, _ sql: any SQLDatabase) async throws -> Bool
    /// The inspection task a photo belongs to, for its PDF.
    typealias TaskOf = @Sendable (_ photo: UUID) async throws -> TaskRecord?

    private let checks = NIOLockedValueBox<(evidence: [Evidence], staff: [StaffView], task: [TaskOf])>(([], [], []))

    /// Adds an area's checks.
    func use(evidence: @escaping Evidence, staffMaySee: @escaping StaffView, task: @escaping TaskOf) {
        checks.withLockedValue {
            $0.evidence.append(evidence)
            $0.staff.append(staffMaySee)
            $0.task.append(task)
        }
    }

    /// The task `photo` belongs to, if an area says it belongs to one.
    func task(of photo: UUID) async throws -> TaskRecord? {
        for lookup in checks.withLockedValue({ $0.task }) {
            if let task = try await lookup(photo) { return task }
        }
        return nil
    }

    /// Whether any area holds `photo` as evidence.
    func isEvidence(_ photo: UUID, on sql: any SQLDatabase, lock: Bool = false) async throws -> Bool {
        for check in checks.withLockedValue({ $0.evidence }) where try await check(photo, sql, lock) { return true }
        return false
    }

    /// Whether any area holds `photo` as evidence, asked outside a transaction.
    func isEvidence(_ photo: UUID, on database: ServerDatabase) async throws -> Bool {
        try await isEvidence(photo, on: try Self.sql(database))
    }

    /// Whether any area lets officers and admins see `photo`, on the server's database.
    func staffMaySee(_ photo: UUID, on database: ServerDatabase) async throws -> Bool {
        try await staffMaySee(photo, on: try Self.sql(database))
    }

    private static func sql(_ database: ServerDatabase) throws -> any SQLDatabase {
        guard let sql = try database.db as? any SQLDatabase else { throw PhotoStoreError.notSQL }
        return sql
    }

    /// Whether any area lets officers and admins see `photo`.
    func staffMaySee(_ photo: UUID, on sql: any SQLDatabase) async throws -> Bool {
        for check in checks.withLockedValue({ $0.staff }) where try await check(photo, sql) { return true }
        return false
    }
}
