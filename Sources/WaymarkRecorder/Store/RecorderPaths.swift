import Foundation
import Logging

/// Where the recorder keeps its files.
public enum RecorderPaths {
    /// The store file: `$WAYMARK_HOME/recorder.sqlite` when `WAYMARK_HOME` is set; else
    /// `$XDG_DATA_HOME/waymark/recorder.sqlite` (an absolute `XDG_DATA_HOME` only, as the XDG
    /// specification says); else `~/.local/share/waymark/recorder.sqlite`, on macOS
    /// `~/Library/Application Support/Waymark/recorder.sqlite`.
    ///
    /// Creates the folder (mode 0700: routes are private) when it does not exist. If that
    /// fails, opening the store at the returned path reports why.
    public static func defaultStore(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let folder = defaultFolder(environment: environment)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            Logger(label: "waymark.recorder.paths").debug("cannot create the recorder's folder", metadata: [
                "folder": "\(folder.path)", "error": "\(error)",
            ])
        }
        return folder.appendingPathComponent("recorder.sqlite")
    }

    /// Where ``defaultStore(environment:)`` is, without creating anything: for readers such as
    /// `waymark tag`, which must not leave an empty store behind on a computer that never recorded.
    public static func defaultStoreLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        defaultFolder(environment: environment).appendingPathComponent("recorder.sqlite")
    }

    /// The folder of ``defaultStore(environment:)``, without creating it.
    public static func defaultFolder(environment: [String: String]) -> URL {
        if let home = environment["WAYMARK_HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home, isDirectory: true)
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("waymark", isDirectory: true)
        }
        #if os(macOS)
        return userHome(environment).appendingPathComponent("Library/Application Support/Waymark", isDirectory: true)
        #else
        return userHome(environment).appendingPathComponent(".local/share/waymark", isDirectory: true)
        #endif
    }

    private static func userHome(_ environment: [String: String]) -> URL {
        if let home = environment["HOME"], !home.isEmpty { return URL(fileURLWithPath: home, isDirectory: true) }
        return FileManager.default.homeDirectoryForCurrentUser
    }
}
