import ArgumentParser
import Foundation
import WaymarkClient
import WaymarkCore
import WaymarkMedia

/// `waymark owntracks`: the OwnTracks app as the recorder that runs with the screen off.
struct OwnTracks: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "owntracks",
        abstract: "Record in the background with the OwnTracks app, end-to-end encrypted.",
        subcommands: [Pair.self]
    )

    struct Pair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pair the OwnTracks app with your account and print the configuration it imports, as a QR code.",
            discussion: """
                Makes the device's nonce and a random encryption key on this computer, seals the key under \
                your passphrase (the route passphrase: the server keeps only the sealed key) and pairs the device. \
                Open the QR code with the phone's camera: OwnTracks imports HTTP mode, this server's address, \
                your username, the device's secret and the key. If OwnTracks does not take the key from the \
                code, type it under Settings → Encryption key.

                The device's nonce works wherever a route's does: photograph its time QR code (/clock) or give \
                `waymark tag --nonce NONCE`, `waymark routes export --owntracks NONCE`, `waymark vault push --owntracks NONCE`.
                """
        )

        @OptionGroup var account: AccountOptions
        @OptionGroup var passphrase: PassphraseOptions
        @Option(name: .long, help: "The device's name on /account.") var name = "OwnTracks"
        @Option(name: .long, help: "Also write the QR code as an image (PGM) to this file.", completion: .file()) var qrImage: String?
        @Flag(name: .long, help: "Print {url, username, password, deviceId, encryptionKey, nonce} as JSON, nothing else.") var json = false

        func run() async throws {
            let client = try await account.signedInClient()
            let secret: String
            do {
                secret = try passphrase.provider()()
            } catch let error as GeotagError {
                Terminal.printError("error: \(error.message)")
                throw ExitCode(2)
            }
            let pairing = try await AccountOptions.reporting { try await client.pairOwnTracks(name: name, passphrase: secret) }
            let configuration = pairing.configuration
            let image = try QRImage(encoding: configuration.link)
            if let qrImage { try image.pgm().write(to: URL(fileURLWithPath: qrImage), options: .atomic) }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(pairing), as: UTF8.self))
                return
            }
            for line in HalfBlocks.lines(image) { print(line) }
            print("""

                Open this code with the phone's camera, with OwnTracks installed; it imports:
                  URL             \(pairing.url)
                  Username        \(pairing.username)
                  Password        \(pairing.password)
                  Encryption key  \(pairing.encryptionKey)
                The password and the key are shown only now. OwnTracks then records in move mode, a fix every \
                \(OwnTracksConfiguration.locatorInterval) s, with the screen off.
                The device's nonce is \(pairing.nonce): photograph its time QR code (/clock?nonce=\(pairing.nonce)) with the camera once.
                """)
            if let url = URL(string: pairing.url), url.scheme != "https" || ["127.0.0.1", "localhost", "::1"].contains(url.host ?? "") {
                Terminal.printError("warning: \(pairing.url) is not an HTTPS address a phone can reach; pair with --server https://NAME:8443 (see README, \"Open it on a phone\").")
            }
        }
    }
}

/// What `routes export --owntracks` and `vault push --owntracks` read: an OwnTracks device's
/// messages from the route service, opened here with the passphrase.
enum OwnTracksExport {
    static func history(nonce: String, from: Date?, to: Date?, service: ServerOptions, passphrase: PassphraseOptions) async throws -> OwnTracksHistory {
        let source = OwnTracksRouteSource(client: try service.client())
        let span = (from != nil || to != nil)
            ? DateInterval(start: from ?? .distantPast, end: to ?? .distantFuture) : nil
        let found: ProvidedRoute?
        do {
            found = try await source.route(forNonce: nonce, during: span)
        } catch let error as WaymarkClientError {
            Terminal.printError("error: \(error)")
            throw ExitCode.failure
        }
        guard case let .owntracks(sealedKey, messages, span)? = found else {
            Terminal.printError("error: \(source.name) has no OwnTracks device with the nonce \(nonce); `waymark owntracks pair` prints it, /account shows it.")
            throw ExitCode.failure
        }
        do {
            let secret = try passphrase.provider()()
            return try OwnTracksHistory.open(sealedKey: sealedKey, messages: messages, span: span, passphrase: secret, nonce: nonce)
        } catch let error as GeotagError {
            Terminal.printError("error: \(error.message)")
            throw ExitCode(2)
        } catch {
            Terminal.printError("error: \(error). Check the passphrase: it is the one the device was paired with.")
            throw ExitCode(2)
        }
    }
}
