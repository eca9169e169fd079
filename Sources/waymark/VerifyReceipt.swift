import ArgumentParser
import Foundation
import WaymarkAPI
import WaymarkClient
import WaymarkCore

/// `waymark verify-receipt`: checks a photo's signed receipt (DESIGN §3.10).
struct VerifyReceipt: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-receipt",
        abstract: "Check a photo's receipt signed by a Waymark server.",
        discussion: """
            RECEIPT.json is what GET /api/v1/photos/{id}/receipt answered. The signature and the \
            metadata's hash are always checked; the photo's bytes with --photo; the signing key \
            against the server's with --public-key (pinned) or --server (fetched). Exits 0 only \
            when every check made passes, 1 when one fails, 64 for wrong arguments.
            """
    )

    @Argument(help: "The receipt (JSON) to check.", completion: .file()) var receipt: String
    @Option(name: .long, help: "The photo file the receipt is for: its SHA-256 must be the receipt's.", completion: .file()) var photo: String?
    @Option(name: .long, help: "The server's public key (base64, from GET /api/v1/receipts/public-key) that must have signed it.") var publicKey: String?
    @Option(name: .long, help: "The server whose current public key must have signed it, e.g. https://waymark.example.org.") var server: String?

    func validate() throws {
        if publicKey != nil && server != nil {
            throw ValidationError("Give --public-key or --server, not both.")
        }
        if let publicKey, Data(base64Encoded: publicKey)?.count != 32 {
            throw ValidationError("--public-key must be the server's Ed25519 key: 32 bytes in base64 (44 characters ending in =).")
        }
        if let server, Self.serverURL(server) == nil {
            throw ValidationError("--server must be an http(s) URL, e.g. https://waymark.example.org")
        }
    }

    func run() async throws {
        let receipt: PhotoReceipt
        do {
            receipt = try PhotoReceipt(json: try Data(contentsOf: URL(fileURLWithPath: self.receipt)))
        } catch let error as ReceiptError {
            Terminal.printError("error: \(self.receipt) is not a Waymark photo receipt: \(Self.words(error)).")
            throw ExitCode.failure
        } catch {
            Terminal.printError("error: cannot read \(self.receipt): \((error as NSError).localizedDescription)")
            throw ExitCode.failure
        }
        var image: Data?
        if let photo {
            do {
                image = try Data(contentsOf: URL(fileURLWithPath: photo), options: .alwaysMapped)
            } catch {
                Terminal.printError("error: cannot read the photo \(photo): \((error as NSError).localizedDescription)")
                throw ExitCode.failure
            }
        }
        var trusted: Data?
        var trustedFrom = "the key given"
        if let publicKey {
            trusted = Data(base64Encoded: publicKey)
        } else if let server, let url = Self.serverURL(server) {
            do {
                trusted = try await Self.fetchKey(url)
                trustedFrom = "\(server)'s key"
            } catch {
                Terminal.printError("error: cannot get the public key of \(server): \(error)")
                throw ExitCode.failure
            }
        }

        let verdict = receipt.verify(image: image, trustedKey: trusted)
        print("Receipt of photo \(receipt.photoId.uuidString.lowercased()), received by the server at \(receipt.receivedAt)")
        Self.line("signature", verdict.signature, passed: "Ed25519, by key \(receipt.publicKey.base64EncodedString())")
        Self.line("metadata", verdict.metadataHash, passed: "SHA-256 \(receipt.sha256Metadata) of what the server stored (title \"\(receipt.metadata.title)\")")
        Self.line("photo", verdict.imageHash, passed: "SHA-256 \(receipt.sha256Image) is that of \(photo ?? "")", notChecked: "not checked (give --photo FILE)")
        Self.line("server key", verdict.publicKey, passed: "the receipt was signed with \(trustedFrom)", notChecked: "not checked (give --public-key KEY or --server URL)")
        if verdict.isValid {
            print(trusted == nil
                ? "The receipt is intact, but nothing says whose key signed it: check it against the server's key."
                : "The receipt is valid.")
        } else {
            print("The receipt does not check out.")
            throw ExitCode.failure
        }
    }

    /// One check's line: its name, its verdict and what it means.
    private static func line(_ name: String, _ outcome: ReceiptVerification.Outcome, passed: String, notChecked: String = "not checked") {
        let label = name.padding(toLength: 11, withPad: " ", startingAt: 0)
        switch outcome {
        case .passed: print("  \(label) ok      \(passed)")
        case .notChecked: print("  \(label) -       \(notChecked)")
        case let .failed(failure): print("  \(label) FAILED  \(words(failure))")
        }
    }

    private static func words(_ failure: ReceiptCheckFailure) -> String {
        switch failure {
        case let .signatureMalformed(bytes):
            "the signature is \(bytes) bytes long, not 64: it was cut or altered"
        case let .publicKeyMalformed(bytes):
            "the public key is \(bytes) bytes long, not the 32 of an Ed25519 key"
        case .signatureMismatch:
            "the signature does not match: the receipt was changed after the server signed it, or another key was put in it"
        case let .hashMismatch(receipt, computed):
            "the receipt says SHA-256 \(receipt), but it is \(computed.isEmpty ? "not computable" : computed): the content was changed"
        case let .metadataDisagrees(member):
            "the metadata's \(member) is not the receipt's"
        case let .keyMismatch(trusted, receipt):
            "signed by key \(receipt.base64EncodedString()), not by \(trusted.base64EncodedString())"
        }
    }

    private static func words(_ error: ReceiptError) -> String {
        switch error {
        case .notJSON: "it is not JSON"
        case .notAnObject: "it is not a JSON object"
        case let .members(missing, unknown):
            [missing.isEmpty ? nil : "it lacks \(missing.joined(separator: ", "))", unknown.isEmpty ? nil : "it has unknown members \(unknown.joined(separator: ", "))"]
                .compactMap { $0 }.joined(separator: "; ")
        case let .invalidMember(name): "its \(name) is malformed"
        case let .unknownAlgorithm(name): "its algorithm is \(name), not Ed25519"
        case .signingFailed: "it could not be signed"
        }
    }

    private static func serverURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else { return nil }
        return url
    }

    /// The server's published receipt key, as raw bytes.
    private static func fetchKey(_ server: URL) async throws -> Data {
        let key = try await PlatformClient(serverURL: server, retry: RetryPolicy(maxAttempts: 2), requestTimeout: 30).receiptPublicKey()
        guard key.algorithm == PhotoReceipt.algorithm, let raw = Data(base64Encoded: key.publicKey), raw.count == 32 else {
            throw KeyFetchError("its answer is not a receipt key")
        }
        return raw
    }

    private struct KeyFetchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
