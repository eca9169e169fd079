import Foundation

/// Why a vault operation failed. The shells (CLI, web pages) choose the words; ``description``
/// is a plain English summary for logs and tests, never holding a secret.
public enum VaultError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer: connection refused, timeout, TLS, DNS — the seed's "can't access data vault".
    case unreachable(String)
    /// Sign-in answered anything but 200 — the seed's "invalid username and/or password".
    case invalidCredentials
    /// 401 on an API call, after one renewal of the token.
    case unauthorized
    /// 403: the account may not use this repository.
    case forbidden
    /// An answer that breaks the contract: not JSON, the wrong shape, a count that does not match.
    case badAnswer(status: Int, detail: String)
    /// A repository key that is not 64 hexadecimal characters.
    case invalidKey(String)
    /// libsodium refused: a box that does not open, or a key it rejects.
    case crypto(String)
    /// A vault address that is not an http(s) URL.
    case invalidURL(String)

    public var description: String {
        switch self {
        case let .unreachable(detail): "the data vault cannot be reached (\(detail))"
        case .invalidCredentials: "the data vault refused the sign-in"
        case .unauthorized: "the data vault refused the token (401) even after signing in again"
        case .forbidden: "the data vault does not allow this (403)"
        case let .badAnswer(status, detail): "the data vault answered \(status) with something unexpected: \(detail)"
        case let .invalidKey(detail): "the repository key is not 64 hexadecimal characters: \(detail)"
        case let .crypto(detail): "sealing or opening failed: \(detail)"
        case let .invalidURL(detail): "not a data vault address: \(detail)"
        }
    }
}
