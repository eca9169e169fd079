import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkClient

/// `waymark photos`: photos on the server, from the command line.
struct Photos: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Upload photos to the server (e.g. a folder that waymark tag has geotagged).",
        subcommands: [Upload.self]
    )

    struct Upload: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Upload photos or folders of photos; the same file again answers the photo already stored."
        )

        @Argument(help: "Photo files or folders (folders are searched for photos, not into hidden folders).", completion: .file())
        var paths: [String]
        @Option(name: .long, help: "The title of every photo (default: PShare: and its capture time).") var title: String?
        @Flag(name: .long, help: "Only you will see these photos.") var `private` = false
        @Flag(name: .long, help: "Do not publish the photos' own GPS positions as their places.") var noPlace = false
        @OptionGroup var account: AccountOptions

        /// The extensions of files a folder is searched for.
        static let photoExtensions: Set<String> = ["jpg", "jpeg", "heic", "heif", "png", "webp", "tif", "tiff", "dng", "cr2", "cr3",
                                                   "nef", "arw", "orf", "rw2", "raf", "pef"]

        func run() async throws {
            let files = try collect()
            guard !files.isEmpty else { throw ValidationError("No photos found in \(paths.joined(separator: ", ")).") }
            let client = try await account.signedInClient()
            let fields = PlatformClient.PhotoFields(title: title, visibility: `private` ? "private" : "public", usePhotoPlace: !noPlace)
            var stored = 0, placed = 0
            var refused: [(String, String)] = []
            for (index, file) in files.enumerated() {
                progress(done: index, of: files.count, current: file.lastPathComponent)
                do {
                    let photo = try await client.uploadPhoto(file, fields: fields)
                    stored += 1
                    if photo.latitude != nil { placed += 1 }
                    if !Terminal.stderrIsTerminal { print("\(file.path)\t\(photo.id.uuidString.lowercased())\t\(photo.title)") }
                } catch let WaymarkClientError.api(_, body) {
                    refused.append((file.path, body.reason))
                    if body.error == "not_signed_in" { break }
                }
            }
            progress(done: files.count, of: files.count, current: nil)
            print("Uploaded \(stored) of \(files.count) photos (\(placed) with a place).")
            for (path, reason) in refused {
                Terminal.printError("  \(path): \(reason)")
            }
            if !refused.isEmpty { throw ExitCode.failure }
        }

        /// The files named, and the photos in the folders named, sorted by path.
        private func collect() throws -> [URL] {
            var files: [URL] = []
            for path in paths {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw ValidationError("\(path) does not exist.")
                }
                guard isDirectory.boolValue else {
                    files.append(URL(fileURLWithPath: path))
                    continue
                }
                let enumerator = FileManager.default.enumerator(at: URL(fileURLWithPath: path), includingPropertiesForKeys: [.isRegularFileKey],
                                                                options: [.skipsHiddenFiles])
                for case let url as URL in enumerator ?? FileManager.DirectoryEnumerator()
                where Self.photoExtensions.contains(url.pathExtension.lowercased()) && !url.lastPathComponent.contains(".waymark-") {
                    files.append(url)
                }
            }
            return files.sorted { $0.path < $1.path }
        }

        /// A progress bar on a terminal (stderr), redrawn in place.
        private func progress(done: Int, of total: Int, current: String?) {
            guard Terminal.stderrIsTerminal, total > 0 else { return }
            let width = 30
            let filled = width * done / total
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let line = "\r\u{1B}[2K\(bar) \(done)/\(total)" + (current.map { "  \($0)" } ?? "")
            FileHandle.standardError.write(Data((line + (current == nil ? "\n" : "")).utf8))
        }
    }
}
