import Vapor
import WaymarkAPI

/// The `Idempotency-Key` of a write (DESIGN §3.3): every area that creates something reads it
/// here, so a key is the same thing everywhere, 1 to 255 visible ASCII characters, and answers
/// through ``IdempotentWrite``, so that it means the same everywhere: the same owner and the same
/// key make one thing, once; the same request again gets what the first made; another request
/// under the key is refused with 409 `idempotency_key_reused`. Where the key is kept is the
/// area's store: beside what it made, unique per owner (a photo's, task's, scene's,
/// rephotograph's or path's key column; the route API's records, which outlive a deleted route).
enum IdempotencyKey {
    static let maxLength = 255

    /// The request's key, `nil` when it sent none, or 400 `invalid_idempotency_key`.
    static func of(_ request: Request) throws -> String? {
        guard let key = request.headers.first(name: APIHeader.idempotencyKey) else { return nil }
        guard !key.isEmpty, key.count <= maxLength, key.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw APIError.badRequest(.invalidIdempotencyKey, "\(APIHeader.idempotencyKey) must be 1 to \(maxLength) visible ASCII characters.")
        }
        return key
    }
}

/// One create under an `Idempotency-Key`, as every area answers it (``IdempotencyKey``).
///
/// The area finds what the key made (``init(key:lookFirst:find:)``), reads and checks its request
/// as it would the first time (a malformed retry is refused, not answered), then ``answer(sameRequest:reused:create:)``:
/// what the key made, when the request is the same; else the new thing, made by `create`. Two
/// requests under one key at once both get to `create`; the store's unique (owner, key) index
/// refuses the second, which is then answered with what the first made.
struct IdempotentWrite<Made: Sendable> {
    let key: String?
    /// What the key made, found before the request was read.
    let earlier: Made?
    private let find: (String) async throws -> Made?

    /// What became of the write.
    enum Outcome {
        /// Made now.
        case created(Made)
        /// Made by an earlier request under the same key, with the same content.
        case repeated(Made)

        var made: Made {
            switch self {
            case .created(let made), .repeated(let made): made
            }
        }
    }

    /// Finds what `key` made (unless `lookFirst` is false: a store whose create is refused
    /// under a used key, and where retries are rare, asks only then).
    init(key: String?, lookFirst: Bool = true, find: @escaping (String) async throws -> Made?) async throws {
        self.key = key
        self.find = find
        earlier = if lookFirst, let key { try await find(key) } else { nil }
    }

    /// What the key made, when `sameRequest` says this request is the one that made it; else
    /// `reused`. Without an earlier one, `create` makes it; when `create` fails and the key has
    /// made something in the meantime (a concurrent twin), that is the answer.
    func answer(sameRequest: (Made) -> Bool, reused: @autoclosure () -> any Error,
                create: () async throws -> Made) async throws -> Outcome {
        if let earlier {
            guard sameRequest(earlier) else { throw reused() }
            return .repeated(earlier)
        }
        do {
            return .created(try await create())
        } catch {
            guard let key, let first = try await find(key) else { throw error }
            guard sameRequest(first) else { throw reused() }
            return .repeated(first)
        }
    }
}
