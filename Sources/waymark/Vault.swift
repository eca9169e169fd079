import ArgumentParser
import Foundation
import WaymarkCore
import WaymarkMedia
import WaymarkRecorder
import WaymarkVault

/// `waymark vault`: recorded locations to a personal OwnYourData data vault (DESIGN §3.11, seed 002).
struct Vault: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Send recorded locations, encrypted, to your OwnYourData data vault.",
        discussion: """
        Sign in once with `waymark vault login`; `waymark vault push` then turns the recorder's routes (or a \
        track file) into location records, keeps them in a local cache and uploads them over Wi-Fi. Records \
        are encrypted to the repository's public key when it has one. The cache and the sign-in live in \
        $WAYMARK_HOME (else the user's data folder); the sign-in is kept in the desktop keyring when there is one.
        """,
        subcommands: [Login.self, Modules.self, Status.self, Push.self, ReadLocation.self, ClearCache.self, Logout.self]
    )

    static let defaultVault = "https://data-vault.eu"

    // MARK: login

    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign in to a data vault with e-mail and password, or with its login QR code.",
            discussion: """
            The password is read from --password-file or asked without echo, never taken from the command line. \
            --qr reads the login QR code your data vault shows under "My Account" (a photo or screenshot of it); \
            what the code lacks may be given with --url, --user and --password-file.
            """
        )

        @Option(name: .long, help: "The data vault's address (default: \(Vault.defaultVault)).") var url: String?
        @Option(name: .long, help: "Your e-mail address (else asked).") var user: String?
        @Option(name: .long, help: "A file whose first line is the password (else it is asked without echo).", completion: .file())
        var passwordFile: String?
        @Option(name: .long, help: "An image (JPEG, PNG, WebP, HEIC) of the vault's login QR code.", completion: .file()) var qr: String?

        func run() async throws {
            let words = VaultWords()
            let (vault, credentials, fromCode) = try qr.map(fromQRCode) ?? typed()
            let store = try Vault.preferredStore()
            let connection: VaultConnection
            do throws(VaultError) {
                connection = try await VaultConnection.signIn(vault: vault, credentials: credentials, store: store)
            } catch {
                if fromCode { Terminal.printError("Read from the QR code: \(Vault.describe(vault: vault, credentials: credentials))") }
                switch error {
                case .unreachable(let detail):
                    Terminal.printError(words.cannotReachVault)
                    Terminal.printError("  \(vault.absoluteString): \(VaultWords.clean(detail))")
                case .invalidCredentials:
                    Terminal.printError(words.invalidCredentials)
                default:
                    Terminal.printError("error: \(VaultWords.describe(error))")
                }
                throw ExitCode.failure
            }
            do {
                try await connection.save()
            } catch {
                Terminal.printError("error: signed in, but the sign-in cannot be kept: \(VaultWords.describe(error, in: store.kind)). "
                    + "Set WAYMARK_VAULT_STORE=file to keep it in a file readable only by you.")
                throw ExitCode.failure
            }
            // A sign-in kept elsewhere before (e.g. in the file, before a keyring was available) is replaced by this one.
            for other in VaultSecretStores.all(environment: ProcessInfo.processInfo.environment) where other.kind != store.kind {
                try? other.delete()
            }
            let session = await connection.session
            print("Signed in to \(vault.absoluteString) as \(VaultWords.clean(session.username ?? session.account)).")
            print("The sign-in is kept in \(VaultWords.place(store.kind)).")
        }

        /// The vault and credentials from the options and prompts.
        private func typed() throws -> (URL, VaultCredentials, Bool) {
            let vault = try Vault.vaultURL(url ?? Vault.defaultVault)
            let email = try user ?? Vault.ask("E-mail address: ", else: "Give --user EMAIL (no terminal to ask at).")
            let password = try readPassword(for: email)
            return (vault, .password(email: email, password: password), false)
        }

        /// The vault and credentials of the QR code in `image`, gaps filled from the options.
        private func fromQRCode(_ image: String) throws -> (URL, VaultCredentials, Bool) {
            guard let data = FileManager.default.contents(atPath: image) else { try Vault.fail("cannot read \(image).") }
            let texts: [String]
            do {
                texts = try QRScanner().scan(image: data)
            } catch {
                try Vault.fail("\(image) cannot be read as an image: \(error)")
            }
            let results = texts.map(VaultLoginPayload.parse)
            if let payload = results.lazy.compactMap({ try? $0.get() }).first {
                return (payload.vault, payload.credentials, true)
            }
            guard case .failure(.incomplete(var fields)) = results.first(where: { if case .failure(.incomplete) = $0 { true } else { false } }) else {
                try Vault.fail(texts.isEmpty
                    ? "\(image) shows no QR code that can be read. Photograph the code in your data vault (\"My Account\") again, closer and sharper."
                    : "the QR code in \(image) is no data vault login: it holds no JSON object with PIA_URL.")
            }
            // What the code lacks may come from the options (the seed fills the login form with what it read).
            if fields.vault == nil, let url { fields.vault = try Vault.vaultURL(url) }
            if fields.isAppForm {
                if let vault = fields.vault, let key = fields.key, let secret = fields.secret { return (vault, .app(key: key, secret: secret), true) }
            } else {
                if fields.email == nil { fields.email = user }
                if fields.password == nil, passwordFile != nil, let email = fields.email { fields.password = try readPassword(for: email) }
                if let vault = fields.vault, let email = fields.email, let password = fields.password {
                    return (vault, .password(email: email, password: password), true)
                }
            }
            var lines = ["The QR code in \(image) is incomplete: it lacks \(fields.missing.map(VaultWords.name).joined(separator: ", "))."]
            if !fields.invalid.isEmpty {
                lines.append("Unusable in it: \(fields.invalid.map(VaultWords.name).joined(separator: ", ")) (a wrong type, empty, or not an http(s) address).")
            }
            let read = [fields.vault.map { "vault \($0.absoluteString)" }, fields.email.map { "e-mail \(VaultWords.clean($0))" },
                        fields.key.map { "app key \(VaultWords.clean($0))" }].compactMap { $0 }
            if !read.isEmpty { lines.append("It holds: \(read.joined(separator: ", ")).") }
            lines.append("Give what is missing with --url URL, --user EMAIL and --password-file FILE, or sign in without --qr.")
            Terminal.printError(lines.joined(separator: "\n"))
            throw ExitCode.failure
        }

        private func readPassword(for email: String) throws -> String {
            if let passwordFile {
                guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                    throw ValidationError("Cannot read the password file \(passwordFile).")
                }
                return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
            }
            guard Terminal.stdinIsTerminal, let typed = Terminal.readSecret(prompt: "Password for \(email): ") else {
                throw ValidationError("No terminal to ask the password at: give --password-file FILE.")
            }
            return typed
        }
    }

    // MARK: modules

    struct Modules: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your data vault's modules, each with the link that opens it signed in.")

        func run() async throws {
            let words = VaultWords()
            let connection = try Vault.signedIn()
            let client = connection.client
            let modules = try await Vault.calling(words) { () async throws(VaultError) -> [VaultModule] in
                try await connection.authorized { token throws(VaultError) in try await client.modules(token: token) }
            }
            let vault = await connection.session.vault
            guard !modules.isEmpty else {
                print(words.noModules)
                print("\(words.openYourVault): \(vault.absoluteString)")
                return
            }
            for (index, module) in modules.enumerated() {
                if index > 0 { print("") }
                print(VaultWords.clean(module.name))
                if !module.description.isEmpty { print("  \(VaultWords.clean(module.description))") }
                print("  \(module.link(vault: vault)?.absoluteString ?? "(no link: the vault gave no usable address for it)")")
            }
        }
    }

    // MARK: status

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the vault, the user, the repository, the cached records and the last upload.")

        func run() async throws {
            let cache = try Vault.openCache()
            let preferred = try Vault.preferredStore()
            let found: (session: VaultSession, store: any VaultSecretStore)?
            do {
                found = try VaultSecretStores.find(environment: ProcessInfo.processInfo.environment)
            } catch {
                Terminal.printError("warning: \(VaultWords.describe(error, in: preferred.kind))")
                found = nil
            }
            var rows: [(String, String)] = []
            if let (session, store) = found {
                rows.append(("Vault", session.vault.absoluteString))
                rows.append(("User", VaultWords.clean(session.username.map { "\($0) (\(session.account))" } ?? session.account)))
                rows.append(("Sign-in kept in", VaultWords.place(store.kind)))
            } else {
                rows.append(("Vault", "not signed in (`waymark vault login`)"))
            }
            rows.append(("Repository", try cache.repository()))
            rows.append(("Cached records", String(try cache.count())))
            rows.append(("Last upload", try cache.lastUpload().map { localTime($0, seconds: true) } ?? "never"))
            let width = "Sign-in kept in".count  // the longest label, signed in or not: the columns stay put
            for (label, value) in rows { print("\((label + ":").padding(toLength: width + 2, withPad: " ", startingAt: 0))\(value)") }
        }
    }

    // MARK: push

    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cache the recorder's routes (or a track file) as location records and upload the cache over Wi-Fi.",
            discussion: """
            Without arguments every route of the recorder not cached before is added. The cache is uploaded \
            only over Wi-Fi, as the data vault's own app does; --any-network sends over any \
            connection. Records the vault refuses stay cached; `waymark vault status` shows how many.

            --owntracks NONCE sends what that OwnTracks device recorded in the background (between --from \
            and --to), decrypted here with the passphrase: one position per --every (5 minutes unless \
            given: a day is 288 records, where one was at a street's resolution on foot, not every 10 s \
            that OwnTracks records for geotagging). The route service and its key are --server and \
            WAYMARK_API_KEY / WAYMARK_API_SECRET, as for `waymark tag`.
            """
        )

        @Argument(help: ArgumentHelp("Route numbers from `waymark routes list` (default: every recorded route).", valueName: "route-id"))
        var routeIDs: [Int64] = []
        @Option(name: .long, help: "A GPX, KML, GeoJSON or NMEA track file to send instead of recorded routes.", completion: .file())
        var file: [String] = []
        @Option(name: .long, help: "The vault repository for location data, kept for later pushes (default: eu.ownyourdata.location).")
        var repo: String?
        @Flag(name: .long, help: "Upload over any network, not only Wi-Fi.") var anyNetwork = false
        @OptionGroup var storeOptions: StoreOptions
        @Option(name: .long, help: "An OwnTracks device's nonce: send what it recorded instead of the recorder's routes.") var owntracks: String?
        @Option(name: .long, help: "With --owntracks: the first instant, ISO 8601 with its zone.", transform: Routes.Export.instant) var from: Date?
        @Option(name: .long, help: "With --owntracks: the last instant, ISO 8601 with its zone.", transform: Routes.Export.instant) var to: Date?
        @Option(name: .long, help: "With --owntracks: one position per this interval, e.g. 30s, 5m, 1h (default 5m).", transform: Push.interval)
        var every: TimeInterval = 300
        @OptionGroup(title: "Route service (with --owntracks)") var service: ServerOptions
        @OptionGroup var passphrase: PassphraseOptions

        /// `30s`, `5m`, `1h` or plain seconds.
        static func interval(_ text: String) throws -> TimeInterval {
            let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600]
            let unit = text.last.flatMap { units[$0] }
            guard let number = Double(unit == nil ? text : String(text.dropLast())), number.isFinite, number > 0 else {
                throw ValidationError("--every takes an interval such as 30s, 5m or 1h.")
            }
            let seconds = number * (unit ?? 1)
            guard seconds >= 1, seconds <= 86_400 else { throw ValidationError("--every is from 1 s to 24 h.") }
            return seconds
        }

        func validate() throws {
            if let repo, !VaultCache.isRepositoryName(repo) {
                throw ValidationError("--repo takes a repository name such as eu.ownyourdata.location (no slashes, spaces or control characters).")
            }
            if let owntracks {
                if !QRPayload.isWaymarkNonce(owntracks) { throw ValidationError("--owntracks takes the device's nonce: 12 characters of 0-9 and A-Z.") }
                if !routeIDs.isEmpty || !file.isEmpty { throw ValidationError("--owntracks sends what the device recorded; give no route numbers or --file with it.") }
                if let from, let to, from > to { throw ValidationError("--from must come before --to.") }
            } else if from != nil || to != nil {
                throw ValidationError("--from and --to go with --owntracks.")
            }
        }

        func run() async throws {
            let env = ProcessInfo.processInfo.environment
            let words = VaultWords(environment: env)
            let cache = try Vault.openCache()
            if let repo { try cache.setRepository(repo) }
            if let owntracks {
                try await cacheOwnTracks(owntracks, into: cache)
            } else {
                if file.isEmpty || !routeIDs.isEmpty { try await cacheRoutes(into: cache) }
                for path in file { try cacheFile(path, into: cache) }
            }

            let cached = try cache.count()
            guard cached > 0 else {
                print("Nothing to send: no location records are cached.")
                return
            }
            let network = NetworkKind.current(environment: env) { NetworkProbe().connection() }
            guard anyNetwork || network.allowsUpload else {
                let why = switch network {
                case .offline: "there is no network connection"
                case .other: "this computer is on a wired network, not on Wi-Fi"
                case .unknown, .wifi: "the kind of this network cannot be told"
                }
                Terminal.printError("Not sent: \(why), and location records are uploaded over Wi-Fi only. "
                    + "`waymark vault push --any-network` sends them over this connection. \(VaultWords.count(cached, "record")) stay cached.")
                throw ExitCode.failure
            }
            let connection = try Vault.signedIn()
            let repository = try cache.repository()
            let report = await VaultPusher(client: connection.client, tokens: connection, cache: cache).push(repository: repository)
            if report.written > 0 {
                print("Sent \(VaultWords.count(report.written, "record")) to \(repository), "
                    + (report.encrypted ? "encrypted to the repository's public key." : "in plain text (the repository has no public key)."))
            }
            for (reason, number) in report.refused.sorted(by: { $0.key < $1.key }) {
                Terminal.printError("The vault refused \(VaultWords.count(number, "record")): \(VaultWords.clean(reason))")
            }
            if let failure = report.failure {
                switch failure {
                case .unreachable(let detail):
                    Terminal.printError(words.cannotReachVault)
                    Terminal.printError("  \(await connection.session.vault.absoluteString): \(VaultWords.clean(detail))")
                case .invalidCredentials:
                    Terminal.printError(words.invalidCredentials)
                    Terminal.printError("The kept sign-in no longer works: `waymark vault login` again.")
                default:
                    Terminal.printError("error: \(VaultWords.describe(failure))")
                }
            }
            if report.kept > 0 {
                print("\(VaultWords.count(report.kept, "record")) \(report.kept == 1 ? "stays" : "stay") cached; `waymark vault push` sends \(report.kept == 1 ? "it" : "them") again.")
            }
            if let problem = await connection.saveFailure {
                Terminal.printError("warning: the renewed sign-in cannot be kept: \(VaultWords.describe(problem, in: connection.store.kind))")
            }
            if report.failure != nil || !report.refused.isEmpty { throw ExitCode.failure }
        }

        /// Adds the routes named (or every recorded route) that are not cached yet.
        private func cacheRoutes(into cache: VaultCache) async throws {
            let location = storeOptions.store.map { URL(fileURLWithPath: $0) }
                ?? RecorderPaths.defaultStoreLocation(environment: ProcessInfo.processInfo.environment)
            guard FileManager.default.fileExists(atPath: location.path) else {
                if !routeIDs.isEmpty { try Vault.fail("there are no recorded routes here (\(location.path) does not exist).") }
                return
            }
            let store = try SQLiteRecordingStore(path: location.path)
            let routes: [StoredRoute]
            if routeIDs.isEmpty {
                routes = try await store.routes().filter { $0.state != .recording }.sorted { $0.id < $1.id }
            } else {
                routes = try await routeIDs.asyncMap { id in
                    guard let route = try await store.route(id) else { try Vault.fail("there is no recorded route \(id); `waymark routes list` shows them.") }
                    guard route.state != .recording else { try Vault.fail("route \(id) is still being recorded; push it when it has stopped.") }
                    return route
                }
            }
            var before = 0
            for route in routes {
                let records = try await store.tracks(of: route.id).flatMap { VaultRecord.records(track: $0.fixes) }
                let added = try cache.add(records, source: VaultSource.route(nonce: route.nonce))
                if added > 0 {
                    print("Route \(route.id): \(VaultWords.count(added, "location record")) cached.")
                } else if !routeIDs.isEmpty {
                    print("Route \(route.id) was cached before; nothing added.")
                } else {
                    before += 1
                }
            }
            if before > 0 { print("\(VaultWords.count(before, "recorded route")) cached before; nothing added for \(before == 1 ? "it" : "them").") }
        }

        /// Adds one position per interval of what an OwnTracks device recorded (records already
        /// cached are not added twice).
        private func cacheOwnTracks(_ nonce: String, into cache: VaultCache) async throws {
            let history = try await OwnTracksExport.history(nonce: nonce, from: from, to: to, service: service, passphrase: passphrase)
            let fixes = history.onePerInterval(every)
            let added = try cache.add(VaultRecord.records(track: fixes), source: nil)
            print("OwnTracks device \(nonce): \(VaultWords.count(history.fixes.count, "position")) recorded, one per \(Int(every)) s: "
                + "\(VaultWords.count(added, "location record")) cached\(added < fixes.count ? " (\(fixes.count - added) cached before)" : "").")
        }

        /// Adds a track file's fixes, unless the same file was cached before.
        private func cacheFile(_ path: String, into cache: VaultCache) throws {
            guard let data = FileManager.default.contents(atPath: path) else { try Vault.fail("cannot read \(path).") }
            let tracks: [Track]
            do {
                tracks = try TrackFile.read(data, fileName: (path as NSString).lastPathComponent)
            } catch {
                try Vault.fail("\(path) cannot be read as a track: \(error)")
            }
            let added = try cache.add(tracks.flatMap { VaultRecord.records(track: $0.fixes) }, source: VaultSource.file(contents: data))
            print(added > 0 ? "\(path): \(VaultWords.count(added, "location record")) cached." : "\(path) was cached before; nothing added.")
        }
    }

    // MARK: read-location

    struct ReadLocation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "read-location",
            abstract: "Cache one location record from gpsd's current fix."
        )

        @Option(name: .long, help: "gpsd's address (default: 127.0.0.1:2947).") var gpsd: String?
        @Option(name: .long, help: "Seconds to wait for a fix.") var timeout: Double = 30

        func validate() throws {
            guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds.") }
        }

        func run() async throws {
            let source = try gpsd.map(GPSDSource.init(endpoint:)) ?? GPSDSource()
            let cache = try Vault.openCache()
            let fix: Fix?
            do {
                fix = try await source.firstFix(within: .seconds(timeout))
            } catch {
                Terminal.printError("error: \(RecorderWords.describe(error))")
                throw ExitCode.failure
            }
            guard let fix else {
                Terminal.printError("error: \(source.description) gave no position within \(RecorderFormat.duration(timeout)): the receiver has no fix yet. "
                    + "Try again where it sees the sky, or wait longer with --timeout SECONDS.")
                throw ExitCode.failure
            }
            let record = VaultRecord(fix: fix)
            _ = try cache.add([record], source: nil)
            let accuracy = fix.accuracy.map { String(format: " (± %.0f m)", $0) } ?? ""
            let motion = [fix.speed.map { String(format: "%.1f m/s", $0) }, fix.course.map { String(format: "heading %.0f°", $0) }]
                .compactMap { $0 }.joined(separator: " ")
            print("Cached a location record: \(record.timestamp), \(String(format: "%.6f, %.6f", fix.latitude, fix.longitude))\(accuracy)"
                + (motion.isEmpty ? "" : ", \(motion)") + ". "
                + "\(VaultWords.count(try cache.count(), "record")) cached; `waymark vault push` uploads them.")
        }
    }

    // MARK: clear-cache

    struct ClearCache: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear-cache", abstract: "Delete every location record cached here (asks first).")

        @Flag(name: .long, help: "Do not ask for confirmation.") var yes = false

        func run() async throws {
            let cache = try Vault.openCache()
            let cached = try cache.count()
            guard cached > 0 else {
                print("The cache is empty.")
                return
            }
            guard yes || Vault.answersYes("Delete the \(VaultWords.count(cached, "cached location record")), which are not in the vault? [y/N] ") else {
                print("Nothing was deleted.")
                return
            }
            let deleted = try cache.clear()
            print("Deleted \(VaultWords.count(deleted, "cached location record")).")
        }
    }

    // MARK: logout

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget the kept sign-in (the cached records stay).")

        func run() async throws {
            var forgotten: [String] = []
            for store in VaultSecretStores.all(environment: ProcessInfo.processInfo.environment) {
                do {
                    guard try store.load() != nil else { continue }
                    try store.delete()
                    forgotten.append(VaultWords.place(store.kind))
                } catch {
                    Terminal.printError("error: \(VaultWords.describe(error, in: store.kind))")
                    throw ExitCode.failure
                }
            }
            let cached = try Vault.openCache().count()
            let stays = cached > 0 ? " The \(VaultWords.count(cached, "cached record")) stay here (`waymark vault clear-cache` deletes them)." : ""
            if forgotten.isEmpty {
                print("Not signed in; no sign-in was kept.\(stays)")
            } else {
                print("Signed out: the sign-in kept in \(forgotten.joined(separator: " and ")) is deleted.\(stays)")
            }
        }
    }
}

// MARK: Shared wiring

extension Vault {
    /// The store a new sign-in goes to; an unknown WAYMARK_VAULT_STORE is refused by name.
    static func preferredStore() throws -> any VaultSecretStore {
        let env = ProcessInfo.processInfo.environment
        if case let .failure(unknown) = VaultSecretStores.forced(environment: env) {
            throw ValidationError("\(VaultSecretStores.variable)=\(unknown.value) names no store; use one of: \(VaultSecretStores.UnknownStore.known.joined(separator: ", ")).")
        }
        return VaultSecretStores.preferred(environment: env)
    }

    /// The kept sign-in, as a connection; says how to sign in when there is none.
    static func signedIn() throws -> VaultConnection {
        let preferred = try preferredStore()
        let found: (session: VaultSession, store: any VaultSecretStore)?
        do {
            found = try VaultSecretStores.find(environment: ProcessInfo.processInfo.environment)
        } catch {
            try fail("the kept sign-in cannot be read: \(VaultWords.describe(error, in: preferred.kind)).")
        }
        guard let (session, store) = found else {
            Terminal.printError("Not signed in to a data vault: `waymark vault login` first.")
            throw ExitCode.failure
        }
        return VaultConnection(session: session, store: store)
    }

    /// The local cache of location records.
    static func openCache() throws -> VaultCache {
        let location = VaultCache.defaultLocation(environment: ProcessInfo.processInfo.environment)
        do {
            return try VaultCache(path: location)
        } catch {
            Terminal.printError("error: cannot open the location cache \(location.path): \(error)")
            throw ExitCode.failure
        }
    }

    /// Runs a call to the vault, printing its failure in the seed's words where it has them.
    static func calling<T>(_ words: VaultWords, _ call: () async throws(VaultError) -> T) async throws -> T {
        do {
            return try await call()
        } catch .unreachable(let detail) {
            Terminal.printError(words.cannotReachVault)
            Terminal.printError("  \(VaultWords.clean(detail))")
        } catch .invalidCredentials {
            Terminal.printError(words.invalidCredentials)
            Terminal.printError("The kept sign-in no longer works: `waymark vault login` again.")
        } catch {
            Terminal.printError("error: \(VaultWords.describe(error))")
        }
        throw ExitCode.failure
    }

    /// Prints `error: <message>` and exits non-zero.
    static func fail(_ message: String) throws -> Never {
        Terminal.printError("error: \(message)")
        throw ExitCode.failure
    }

    /// An http(s) vault address.
    static func vaultURL(_ text: String) throws -> URL {
        guard let url = VaultLoginPayload.vaultAddress(text) else {
            throw ValidationError("\(text) is not a data vault address: give an http:// or https:// URL such as \(defaultVault).")
        }
        return url
    }

    /// The vault and the account, never the password or secret.
    static func describe(vault: URL, credentials: VaultCredentials) -> String {
        switch credentials {
        case let .password(email, _): "vault \(vault.absoluteString), e-mail \(VaultWords.clean(email))"
        case let .app(key, _): "vault \(vault.absoluteString), app key \(VaultWords.clean(key))"
        }
    }

    /// A line typed at a prompt; `otherwise` when there is no terminal to ask at.
    static func ask(_ prompt: String, else otherwise: String) throws -> String {
        guard Terminal.stdinIsTerminal else { throw ValidationError(otherwise) }
        FileHandle.standardError.write(Data(prompt.utf8))
        guard let line = readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else { throw ExitCode.failure }
        return line
    }

    /// Asks a yes/no question; the answer is read from standard input even when it is no terminal
    /// (`echo y | waymark vault clear-cache`); no answer is no.
    static func answersYes(_ question: String) -> Bool {
        FileHandle.standardError.write(Data(question.utf8))
        return ["y", "yes", "j", "ja"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
    }
}

extension Array {
    /// `map` with an async transform, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        results.reserveCapacity(count)
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
