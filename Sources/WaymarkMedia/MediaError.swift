import Foundation

/// Something went wrong with one photo on disk. The description names the file and says what to do.
public struct MediaError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var message: String
    /// The format can be written, but writing would damage other metadata; a sidecar is the safe way.
    public var wouldDamageMetadata: Bool

    public init(file: String, message: String, wouldDamageMetadata: Bool = false) {
        self.file = file
        self.message = message
        self.wouldDamageMetadata = wouldDamageMetadata
    }

    public var description: String { "\(file): \(message)" }
}

/// Calls a shim function that reports failure as -1 with a message in a caller-provided buffer.
func callShim(file: String, _ body: (UnsafeMutablePointer<CChar>, Int) -> Int32) throws {
    // -2 is the shim's WM_UNSAFE: writing would damage metadata.
    var buffer = [CChar](repeating: 0, count: 512)
    let status = buffer.withUnsafeMutableBufferPointer { pointer -> Int32 in
        guard let base = pointer.baseAddress else { return -1 }
        return body(base, pointer.count)
    }
    guard status == 0 else {
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw MediaError(file: file, message: message.isEmpty ? "the media library failed without a reason" : message,
                         wouldDamageMetadata: status == -2)
    }
}
