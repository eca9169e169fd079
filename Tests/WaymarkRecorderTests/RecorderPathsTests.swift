import Foundation
import Testing
import WaymarkRecorder
import WaymarkTestSupport

@Suite("Where the recorder's store lives")
struct RecorderPathsTests {
    @Test("WAYMARK_HOME first, then XDG_DATA_HOME, then the home folder; the folder is made private")
    func order() throws {
        let folder = try TemporaryFolder()
        let home = folder.url.appendingPathComponent("home").path
        let custom = folder.url.appendingPathComponent("custom").path
        let xdg = folder.url.appendingPathComponent("xdg").path

        let chosen = RecorderPaths.defaultStore(environment: ["WAYMARK_HOME": custom, "XDG_DATA_HOME": xdg, "HOME": home])
        #expect(chosen.path == custom + "/recorder.sqlite")
        let attributes = try FileManager.default.attributesOfItem(atPath: custom)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)

        #expect(RecorderPaths.defaultStore(environment: ["WAYMARK_HOME": "", "XDG_DATA_HOME": xdg, "HOME": home]).path
                == xdg + "/waymark/recorder.sqlite")
        #expect(FileManager.default.fileExists(atPath: xdg + "/waymark"))
        // A relative XDG_DATA_HOME is invalid and ignored, as the XDG specification says.
        let fallback = RecorderPaths.defaultStore(environment: ["XDG_DATA_HOME": "relative", "HOME": home]).path
        #if os(macOS)
        #expect(fallback == home + "/Library/Application Support/Waymark/recorder.sqlite")
        #else
        #expect(fallback == home + "/.local/share/waymark/recorder.sqlite")
        #endif
        #expect(FileManager.default.fileExists(atPath: (fallback as NSString).deletingLastPathComponent))
    }

    @Test("a folder that cannot be made leads to the store's clear error, not a crash")
    func unmakeable() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        let path = RecorderPaths.defaultStore(environment: ["WAYMARK_HOME": file.path]).path
        #expect(throws: RecordingStoreError.self) { try SQLiteRecordingStore(path: path) }
    }
}
