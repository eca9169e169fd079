import NIOConcurrencyHelpers
import NIOPosix
import WaymarkMedia

/// Hashes and checks passwords with Argon2id on threads of its own, never on an event loop or
/// the cooperative pool, and never on the pool that SQLite's blocking calls use.
final class PasswordHasher: Sendable {
    let cost: PasswordHash.Cost
    private let pool: NIOThreadPool
    /// A hash of no one's password, checked when a sign-in names an unknown account so that it
    /// takes as long as a wrong password (the timing tells nothing about which names exist).
    private let decoy = NIOLockedValueBox<PasswordHash?>(nil)

    /// - Parameter threads: How many hashes may run at once; each holds `cost.memoryBytes`.
    init(cost: PasswordHash.Cost = .interactive, threads: Int = 2) {
        self.cost = cost
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        pool.start()
    }

    /// A new hash of `password` with a fresh salt.
    func hash(_ password: String) async throws -> PasswordHash {
        let cost = self.cost
        return try await pool.runIfActive { try PasswordHash(hashing: password, cost: cost) }
    }

    /// Whether `password` matches `hash`; with no hash (no such account), checks a decoy and
    /// answers `false` in the same time.
    func verify(_ password: String, against hash: PasswordHash?) async throws -> Bool {
        let cost = self.cost, decoy = self.decoy
        return try await pool.runIfActive {
            if let hash { return hash.verify(password) }
            let stand = try decoy.withLockedValue { value in
                if let value { return value }
                let made = try PasswordHash(hashing: "no account has this password", cost: cost)
                value = made
                return made
            }
            _ = stand.verify(password)
            return false
        }
    }

    /// Stops the threads once the hashes under way are done.
    func shutdown() async throws {
        try await pool.shutdownGracefully()
    }
}
