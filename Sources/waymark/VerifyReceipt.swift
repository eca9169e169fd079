import ArgumentParser

/// `waymark verify-receipt`: checks a photo's signed receipt (DESIGN §3.10).
struct VerifyReceipt: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "verify-receipt", abstract: "Check a photo's receipt signed by a Waymark server.")
}
