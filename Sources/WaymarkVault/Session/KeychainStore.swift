#if canImport(Security)
import Foundation
import Security

/// Keeps the sign-in in the macOS or iOS Keychain, as a generic password of the service
/// `waymark-vault` (the session's JSON is its data).
public struct KeychainStore: VaultSecretStore {
    public static let service = "waymark-vault"
    public static let account = "session"

    public init() {}

    public var name: String { "keychain" }
    public var kind: VaultSecretStoreKind { .keychain }

    private var query: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: Self.service, kSecAttrAccount as String: Self.account]
    }

    /// Whether the Keychain answers a lookup (found or not found).
    public func isUsable() -> Bool {
        var lookup = query
        lookup[kSecReturnAttributes as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(lookup as CFDictionary, &result)
        return status == errSecSuccess || status == errSecItemNotFound
    }

    public func load() throws(VaultSecretStoreError) -> VaultSession? {
        var lookup = query
        lookup[kSecReturnData as String] = true
        lookup[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(lookup as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw .unavailable(Self.message(status)) }
        return try VaultSession.decoded(data)
    }

    public func save(_ session: VaultSession) throws(VaultSecretStoreError) {
        let data = try session.encoded()
        let update = SecItemUpdate(query as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        if update == errSecSuccess { return }
        guard update == errSecItemNotFound else { throw .unavailable(Self.message(update)) }
        var item = query
        item[kSecValueData as String] = data
        item[kSecAttrLabel as String] = "Waymark: data vault sign-in"
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        let added = SecItemAdd(item as CFDictionary, nil)
        guard added == errSecSuccess else { throw .unavailable(Self.message(added)) }
    }

    public func delete() throws(VaultSecretStoreError) {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw .unavailable(Self.message(status)) }
    }

    private static func message(_ status: OSStatus) -> String {
        (SecCopyErrorMessageString(status, nil) as String?) ?? "Keychain error \(status)"
    }
}
#endif
