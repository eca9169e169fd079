import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkVault

/// The local cache of records waiting for the vault.
@Suite struct VaultCacheTests {
    @Test func theSameRecordsAreCachedOnce() throws {
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = sampleRecords(10)
        #expect(try cache.add(records, source: nil) == 10)
        #expect(try cache.add(records, source: nil) == 0)
        #expect(try cache.add(Array(records[5...]) + sampleRecords(3, start: 1_800_000_000), source: nil) == 3)
        #expect(try cache.count() == 13)
        // The same instant at another place is another record.
        var moved = records[0]
        moved.latitude += 0.001
        #expect(try cache.add([moved], source: nil) == 1)
    }

    @Test func aSourceImportedTwiceAddsNothingTheSecondTime() throws {
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try cache.add(sampleRecords(4), source: "route:2OANEZK7Q1XD") == 4)
        #expect(try cache.add(sampleRecords(4, start: 1_900_000_000), source: "route:2OANEZK7Q1XD") == 0)
        _ = try cache.clear()
        #expect(try cache.add(sampleRecords(4), source: "route:2OANEZK7Q1XD") == 0)
        #expect(try cache.add(sampleRecords(4), source: "file:abc") == 4)
    }

    @Test func pendingIsOldestFirstAndRemoveTakesExactlyTheGivenOnes() throws {
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = sampleRecords(6)
        _ = try cache.add(Array(records.reversed()), source: nil)
        let pending = try cache.pending(limit: 4)
        #expect(pending.map(\.record) == Array(records[0..<4]))
        try cache.remove([pending[1].id, pending[3].id])
        #expect(try cache.pending(limit: 10).map(\.record) == [records[0], records[2], records[4], records[5]])
        #expect(try cache.pending(limit: 0).isEmpty)
    }

    @Test func clearDeletesEveryRecordAndSaysHowMany() throws {
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try cache.add(sampleRecords(9), source: nil)
        #expect(try cache.clear() == 9)
        #expect(try cache.count() == 0)
        #expect(try cache.clear() == 0)
    }

    @Test func theRepositoryIsTheSeedsDefaultUntilSetAndKeptInTheFile() throws {
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try cache.repository() == "eu.ownyourdata.location")
        try cache.setRepository("oyd.location")
        #expect(try cache.repository() == "oyd.location")
        let reopened = try VaultCache(path: folder.appendingPathComponent("vault.sqlite"))
        #expect(try reopened.repository() == "oyd.location")
        for bad in ["", "a/b", "with space", "tab\there", String(repeating: "x", count: 201)] {
            #expect(throws: VaultCacheError.invalidRepository(bad)) { try cache.setRepository(bad) }
        }
        #expect(try cache.repository() == "oyd.location")
    }

    @Test func theLastUploadIsKept() throws {
        let (cache, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try cache.lastUpload() == nil)
        let date = Date(timeIntervalSince1970: 1_800_000_123.5)
        try cache.setLastUpload(date)
        #expect(try VaultCache(path: folder.appendingPathComponent("vault.sqlite")).lastUpload() == date)
    }

    @Test func theFileIsReadableOnlyByTheUser() throws {
        let (_, folder) = try temporaryCache()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("vault.sqlite").path)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let directory = try FileManager.default.attributesOfItem(atPath: folder.path)
        #expect((directory[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test func aFileThatIsNotACacheIsRefusedWithItsPath() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("vault.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: file)
        #expect {
            try VaultCache(path: file)
        } throws: { error in
            if case let .cannotOpen(path, _) = error as? VaultCacheError { path == file.path } else { false }
        }
    }

    @Test func theDefaultLocationFollowsTheRecordersFolder() {
        #expect(VaultCache.defaultLocation(environment: ["WAYMARK_HOME": "/tmp/wm"]).path == "/tmp/wm/vault.sqlite")
        #expect(VaultCache.defaultLocation(environment: ["XDG_DATA_HOME": "/x/data", "HOME": "/home/u"]).path == "/x/data/waymark/vault.sqlite")
        #if os(Linux)
        #expect(VaultCache.defaultLocation(environment: ["XDG_DATA_HOME": "relative", "HOME": "/home/u"]).path == "/home/u/.local/share/waymark/vault.sqlite")
        #endif
    }
}
