import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkVault

/// The issue's "done when": pushes against the stand-in vault, which decrypts what it receives.
@Suite struct VaultPushTests {
    @Test func aPushInBatchesKeepsExactlyTheRefusedOnesAndASecondPushSendsOnlyThose() async throws {
        let vault = try StandinVault()
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = sampleRecords(200)
        #expect(try cache.add(records, source: "test:200") == 200)
        let refused = stride(from: 3, to: 200, by: 17).map { records[$0].timestamp }
        try vault.refuse(refused)
        let uploaded = Date(timeIntervalSince1970: 1_800_000_000)
        let pusher = VaultPusher(client: vault.client, tokens: TestTokens(client: vault.client), cache: cache, batchSize: 50, now: { uploaded })

        let report = await pusher.push(repository: "eu.ownyourdata.location")
        #expect(report.failure == nil)
        #expect(report.encrypted)
        #expect(report.written == 200 - refused.count)
        #expect(report.refused == ["refused by the stand-in vault": refused.count])
        #expect(report.kept == refused.count)
        #expect(try cache.pending(limit: 1000).map(\.record.timestamp) == refused)
        #expect(try cache.lastUpload() == uploaded)

        // Four requests of 50 records; the stand-in decrypted every written item to exactly record.json().
        let writes = try vault.requests().filter { ($0["path"] as? String)?.hasSuffix("/items") == true }
        #expect(writes.compactMap { $0["items"] as? Int } == [50, 50, 50, 50])
        let items = try vault.items()
        #expect(items.count == 200 - refused.count)
        let expected = Dictionary(uniqueKeysWithValues: records.map { ($0.timestamp, String(decoding: $0.json(), as: UTF8.self)) })
        for item in items {
            let plaintext = try #require(item["plaintext"] as? String)
            let record = try JSONDecoder().decode(VaultRecord.self, from: Data(plaintext.utf8))
            #expect(plaintext == expected[record.timestamp])
            #expect(!refused.contains(record.timestamp))
            let received = try #require(item["received"] as? [String: Any])
            #expect(received["version"] as? String == "0.4")
            #expect((received["nonce"] as? String)?.count == 48)
        }
        // Every nonce differs.
        #expect(Set(items.compactMap { ($0["received"] as? [String: Any])?["nonce"] as? String }).count == items.count)

        // The vault accepts them now: the second push sends only the ones refused before.
        try vault.refuse([])
        let before = try vault.requests().count
        let second = await pusher.push(repository: "eu.ownyourdata.location")
        #expect(second.failure == nil)
        #expect(second.written == refused.count)
        #expect(second.kept == 0)
        let secondWrites = try vault.requests().dropFirst(before).filter { ($0["path"] as? String)?.hasSuffix("/items") == true }
        #expect(secondWrites.compactMap { $0["items"] as? Int }.reduce(0, +) == refused.count)
        #expect(Set(try vault.items().compactMap { ($0["record"] as? [String: Any])?["timestamp"] as? String }) == Set(records.map(\.timestamp)))
    }

    @Test func aRepositoryWithoutAKeyReceivesThePlainRecords() async throws {
        let vault = try StandinVault()
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = sampleRecords(7)
        _ = try cache.add(records, source: nil)
        let report = await VaultPusher(client: vault.client, tokens: TestTokens(client: vault.client), cache: cache, batchSize: 3)
            .push(repository: "plain.location")
        #expect(report == PushReport(written: 7, refused: [:], kept: 0, encrypted: false, failure: nil))
        let items = try vault.items()
        #expect(items.count == 7)
        for (item, record) in zip(items, records) {
            #expect(item["plaintext"] is NSNull)
            let received = try JSONSerialization.data(withJSONObject: try #require(item["received"]), options: [.sortedKeys])
            let original = try JSONSerialization.data(withJSONObject: try JSONSerialization.jsonObject(with: record.json()), options: [.sortedKeys])
            #expect(received == original)
            #expect(try JSONDecoder().decode(VaultRecord.self, from: received) == record)
        }
    }

    @Test func theSeedsExampleRepoWithPublicKeyIsSealedToo() async throws {
        let vault = try StandinVault()
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try cache.add(sampleRecords(2), source: nil)
        let report = await VaultPusher(client: vault.client, tokens: TestTokens(client: vault.client), cache: cache).push(repository: "oyd.location")
        #expect(report.encrypted && report.written == 2 && report.failure == nil)
        #expect(try vault.items().allSatisfy { $0["plaintext"] is String && $0["repo"] as? String == "oyd.location" })
    }

    @Test func aForbiddenRepositoryKeepsEverything() async throws {
        let vault = try StandinVault()
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try cache.add(sampleRecords(5), source: nil)
        let report = await VaultPusher(client: vault.client, tokens: TestTokens(client: vault.client), cache: cache).push(repository: "forbidden.location")
        #expect(report.failure == .forbidden)
        #expect(report.written == 0 && report.kept == 5)
        #expect(try cache.count() == 5)
        #expect(try cache.lastUpload() == nil)
    }

    @Test func anExpiredTokenIsRenewedOnceAndThePushCompletes() async throws {
        let vault = try StandinVault()
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try cache.add(sampleRecords(10), source: nil)
        let tokens = TestTokens(client: vault.client, bogusFirst: true)
        let report = await VaultPusher(client: vault.client, tokens: tokens, cache: cache, batchSize: 4).push(repository: "eu.ownyourdata.location")
        #expect(report.failure == nil)
        #expect(report.written == 10 && report.kept == 0)
        #expect(await tokens.renewals == 1)
        #expect(try vault.requests().filter { $0["status"] as? Int == 401 }.count == 1)
    }

    @Test func anUnreachableVaultKeepsEverythingAndSaysSo() async throws {
        let port = try await unusedLocalPort()
        let client = VaultClient(vault: try #require(URL(string: "http://127.0.0.1:\(port)")), timeout: .seconds(5))
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try cache.add(sampleRecords(4), source: nil)
        let report = await VaultPusher(client: client, tokens: FixedTokens(), cache: cache).push(repository: "eu.ownyourdata.location")
        guard case .unreachable = report.failure else { Issue.record("expected unreachable, got \(String(describing: report.failure))"); return }
        #expect(report.written == 0 && report.kept == 4)
        #expect(try cache.count() == 4)
    }

    @Test func wrongCredentialsOnRenewalStopThePushAndKeepEverything() async throws {
        let vault = try StandinVault()
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try cache.add(sampleRecords(4), source: nil)
        let tokens = TestTokens(client: vault.client, credentials: .password(email: "user_a@ownyourdata.eu", password: "changed"), bogusFirst: true)
        let report = await VaultPusher(client: vault.client, tokens: tokens, cache: cache).push(repository: "eu.ownyourdata.location")
        #expect(report.failure == .invalidCredentials)
        #expect(report.kept == 4)
    }
}
