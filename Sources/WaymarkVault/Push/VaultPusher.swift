import Foundation
import Logging

/// Where a push gets its access token: Session/VaultConnection (signing in again when the token
/// expires), or a simple source in tests.
public protocol VaultTokenSource: Sendable {
    /// A token that should still work.
    func token() async throws(VaultError) -> VaultToken
    /// A new token, after the vault refused the last one (401).
    func renew() async throws(VaultError) -> VaultToken
}

/// What one push did.
public struct PushReport: Sendable, Equatable {
    /// Records the vault stored (and that left the cache).
    public var written: Int
    /// Records the vault refused, by its reason; they stay cached.
    public var refused: [String: Int]
    /// Records still cached after the push.
    public var kept: Int
    /// Whether the repository has a key, so the records went sealed.
    public var encrypted: Bool
    /// Why the push stopped early, or nil when it went through every cached record.
    public var failure: VaultError?

    public init(written: Int = 0, refused: [String: Int] = [:], kept: Int = 0, encrypted: Bool = false, failure: VaultError? = nil) {
        self.written = written
        self.refused = refused
        self.kept = kept
        self.encrypted = encrypted
        self.failure = failure
    }

    /// How many records the vault refused, over all reasons.
    public var refusedCount: Int { refused.values.reduce(0, +) }
}

/// Sends the cached records to a repository (the seed's "Write Data" and "Encrypting data").
public struct VaultPusher: Sendable {
    public let client: VaultClient
    public let tokens: any VaultTokenSource
    public let cache: VaultCache
    /// Records per request.
    public let batchSize: Int
    private let now: @Sendable () -> Date
    private let logger = Logger(label: "waymark.vault.push")

    public init(client: VaultClient, tokens: any VaultTokenSource, cache: VaultCache, batchSize: Int = 100,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.client = client
        self.tokens = tokens
        self.cache = cache
        self.batchSize = max(1, batchSize)
        self.now = now
    }

    /// Sends every cached record in batches — sealed to the repository's key when it has one
    /// (asked once per push), plain otherwise — and removes exactly the written ones; refused
    /// ones stay cached. A 401 renews the token once and retries that request; a second 401,
    /// a 403, no answer or a bad answer stop the push and keep everything not yet written.
    /// `lastUpload` is set whenever a batch wrote something.
    public func push(repository: String) async -> PushReport {
        var report = PushReport()
        do throws(VaultError) {
            var token = try await tokens.token()
            let key = try await authorized(&token) { token throws(VaultError) in try await client.repositoryKey(repository, token: token) }
            report.encrypted = key != nil
            var position: (timestamp: String, id: Int64)?
            while true {
                let batch: [(id: Int64, record: VaultRecord)]
                do {
                    batch = try cache.pending(limit: batchSize, after: position)
                } catch {
                    logger.debug("cannot read the cache", metadata: ["error": "\(error)"])
                    break
                }
                guard let last = batch.last else { break }
                position = (last.record.timestamp, last.id)
                let items: [Data] = try batch.map { (entry) throws(VaultError) -> Data in
                    if let key { try VaultSeal.seal(entry.record.json(), to: key).json() } else { entry.record.json() }
                }
                let results = try await authorized(&token) { token throws(VaultError) in try await client.write(items, repo: repository, token: token) }
                var written = [Int64]()
                for (entry, result) in zip(batch, results) {
                    switch result {
                    case .written: written.append(entry.id)
                    case let .refused(reason): report.refused[reason, default: 0] += 1
                    }
                }
                do {
                    try cache.remove(written)
                    report.written += written.count
                    if !written.isEmpty { try cache.setLastUpload(now()) }
                } catch {
                    // The vault has them; the cache could not forget them. Stop before sending more.
                    logger.debug("cannot update the cache", metadata: ["error": "\(error)"])
                    break
                }
                logger.debug("pushed a batch", metadata: ["sent": "\(batch.count)", "written": "\(written.count)", "repository": "\(repository)"])
            }
        } catch {
            report.failure = error
            logger.debug("push stopped", metadata: ["error": "\(error)", "repository": "\(repository)"])
        }
        report.kept = (try? cache.count()) ?? 0
        return report
    }

    /// Runs `call`; on 401 renews the token once and runs it again.
    private func authorized<T>(_ token: inout VaultToken, _ call: (VaultToken) async throws(VaultError) -> T) async throws(VaultError) -> T {
        do {
            return try await call(token)
        } catch .unauthorized {
            token = try await tokens.renew()
            return try await call(token)
        }
    }
}
