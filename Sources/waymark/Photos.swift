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
        @Option(name: .long, help: "The server, e.g. http://127.0.0.1:8080 (else WAYMARK_SERVER).") var server: String?
        @Option(name: .long, help: "Your username (else WAYMARK_USER, else asked); the session token WAYMARK_TOKEN skips signing in.") var user: String?
        @Option(name: .long, help: "A file whose first line is your password (else it is asked without echo).", completion: .file())
        var passwordFile: String?

        /// The extensions of files a folder is searched for.
        static let photoExtensions: Set<String> = ["jpg", "jpeg", "heic", "heif", "png", "webp", "tif", "tiff", "dng", "cr2", "cr3",
                                                   "nef", "arw", "orf", "rw2", "raf", "pef"]

        func run() async throws {
            let env = ProcessInfo.processInfo.environment
            guard let text = server ?? env["WAYMARK_SERVER"], let url = URL(string: text), url.scheme == "http" || url.scheme == "https" else {
                throw ValidationError("Name the server with --server URL or WAYMARK_SERVER (e.g. http://127.0.0.1:8080).")
            }
            let files = try collect()
            guard !files.isEmpty else { throw ValidationError("No photos found in \(paths.joined(separator: ", ")).") }
            var client = PlatformClient(serverURL: url, token: env["WAYMARK_TOKEN"].flatMap { $0.isEmpty ? nil : $0 })
            if client.token == nil {
                let name = try user ?? env["WAYMARK_USER"] ?? ask("Username: ")
                let password = try readPassword()
                do {
                    _ = try await client.signIn(username: name, password: password)
                } catch let WaymarkClientError.api(status, body) where status == 401 || status == 429 {
                    Terminal.printError("error: \(body.reason)")
                    throw ExitCode.failure
                }
            }
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

        private func ask(_ prompt: String) throws -> String {
            guard Terminal.stdinIsTerminal else { throw ValidationError("Give --user NAME (or WAYMARK_USER), or WAYMARK_TOKEN.") }
            FileHandle.standardError.write(Data(prompt.utf8))
            guard let line = readLine(), !line.isEmpty else { throw ExitCode.failure }
            return line
        }

        private func readPassword() throws -> String {
            if let passwordFile {
                guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                    throw ValidationError("Cannot read the password file \(passwordFile).")
                }
                return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
            }
            guard Terminal.stdinIsTerminal, let typed = Terminal.readSecret(prompt: "Password: ") else {
                throw ValidationError("No terminal to ask the password at: give --password-file FILE, or WAYMARK_TOKEN.")
            }
            return typed
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
