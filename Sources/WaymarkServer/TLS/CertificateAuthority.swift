import Crypto
import Foundation
import SwiftASN1
import WaymarkCore
import X509

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waymark's own certificate authority and the server certificate it signs (DESIGN §3.12), kept
/// in `DATA/tls/`: a phone trusts the CA once (`/ca.crt`, `/ca.mobileconfig`) and then every
/// certificate this server makes for itself.
///
/// - `ca.key`, `ca.crt`: an EC P-256 key and a self-signed CA certificate (ten years, path
///   length 0: it signs server certificates only).
/// - `server.key`, `server.crt`: an EC P-256 key and a certificate for every name and address
///   the server is reached by, valid at most 397 days (the most a browser accepts), made anew
///   when it has less than 30 days left or its names changed.
///
/// Keys are written 0600 through a temporary file and a rename; the folder is 0700.
struct CertificateAuthority: Sendable {
    let key: P256.Signing.PrivateKey
    let certificate: Certificate

    static let folder = "tls"
    /// The longest a server certificate is valid: Apple's and Chrome's limit for a TLS server certificate.
    static let serverLifetime: TimeInterval = 397 * 86_400
    /// A server certificate with less than this left is made anew.
    static let renewBefore: TimeInterval = 30 * 86_400
    static let caLifetime: TimeInterval = 10 * 365 * 86_400

    /// Why the TLS files could not be used.
    enum Problem: Error, Equatable {
        /// A file in `DATA/tls/` is not what it should be (its path).
        case unreadable(String)
        case cannotWrite(String)
    }

    /// The CA of `dataDirectory`, made on the first start.
    static func loadOrCreate(in dataDirectory: URL, now: Date) throws -> CertificateAuthority {
        let folder = dataDirectory.appendingPathComponent(Self.folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let keyFile = folder.appendingPathComponent("ca.key"), certificateFile = folder.appendingPathComponent("ca.crt")
        if FileManager.default.fileExists(atPath: keyFile.path) {
            do {
                let key = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOf: keyFile, encoding: .utf8))
                let certificate = try Certificate(pemEncoded: String(contentsOf: certificateFile, encoding: .utf8))
                return CertificateAuthority(key: key, certificate: certificate)
            } catch {
                throw Problem.unreadable(folder.path)
            }
        }
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName {
            OrganizationName("Waymark")
            CommonName("Waymark on \(ServerConfiguration.machineName()) (\(String(RandomToken.make(bytes: 4).prefix(6))))")
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            SubjectKeyIdentifier(hash: Certificate.PublicKey(key.publicKey))
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(key.publicKey),
            notValidBefore: now.addingTimeInterval(-300), notValidAfter: now.addingTimeInterval(caLifetime),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(key))
        // The certificate first: a key without its certificate would be read back as broken.
        try write(try certificate.serializeAsPEM().pemString, to: certificateFile)
        try write(key.pemRepresentation, to: keyFile)
        return CertificateAuthority(key: key, certificate: certificate)
    }

    /// The CA certificate's DER bytes (`/ca.crt`).
    var der: [UInt8] {
        get throws {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        }
    }

    /// The server's key and certificate for `names` (DNS names) and `addresses` (IP addresses):
    /// the stored one while it names exactly these and has 30 days or more left, else a new one.
    /// Returns the PEM of the key and of the chain (the server's certificate, then the CA's).
    func serverIdentity(in dataDirectory: URL, names: [String], addresses: [String], now: Date) throws -> ServerIdentity {
        let folder = dataDirectory.appendingPathComponent(Self.folder)
        let keyFile = folder.appendingPathComponent("server.key"), certificateFile = folder.appendingPathComponent("server.crt")
        let wanted = Self.subjectAlternativeNames(names: names, addresses: addresses)
        if let keyText = try? String(contentsOf: keyFile, encoding: .utf8), let certificateText = try? String(contentsOf: certificateFile, encoding: .utf8),
           let stored = try? Certificate(pemEncoded: certificateText), stored.issuer == certificate.subject,
           stored.notValidAfter.timeIntervalSince(now) >= Self.renewBefore, stored.notValidBefore <= now,
           let storedNames = try? stored.extensions.subjectAlternativeNames, Set(storedNames) == Set(wanted) {
            return ServerIdentity(keyPEM: keyText, chainPEM: certificateText + (try certificate.serializeAsPEM().pemString), certificate: stored,
                                  renewed: false)
        }
        let serverKey = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            OrganizationName("Waymark")
            CommonName(names.first ?? addresses.first ?? "waymark")
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectAlternativeNames(wanted)
            SubjectKeyIdentifier(hash: Certificate.PublicKey(serverKey.publicKey))
            AuthorityKeyIdentifier(keyIdentifier: try certificate.extensions.subjectKeyIdentifier?.keyIdentifier)
        }
        let made = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(serverKey.publicKey),
            notValidBefore: now.addingTimeInterval(-300), notValidAfter: now.addingTimeInterval(Self.serverLifetime - 300),
            issuer: certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(key))
        let certificateText = try made.serializeAsPEM().pemString + "\n"
        try Self.write(serverKey.pemRepresentation, to: keyFile)
        try Self.write(certificateText, to: certificateFile)
        return ServerIdentity(keyPEM: serverKey.pemRepresentation, chainPEM: certificateText + (try certificate.serializeAsPEM().pemString),
                              certificate: made, renewed: true)
    }

    /// DNS names, each once, lowercase; then the IP addresses.
    static func subjectAlternativeNames(names: [String], addresses: [String]) -> [GeneralName] {
        var seen = Set<String>(), general: [GeneralName] = []
        for name in names.map({ $0.lowercased() }) where !name.isEmpty && seen.insert(name).inserted {
            general.append(.dnsName(name))
        }
        for address in addresses where seen.insert(address).inserted {
            if let bytes = IPRange.bytes(of: address) { general.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes)))) }
        }
        return general
    }

    /// Writes `text` to `file`, 0600, through a temporary file in the same folder and a rename.
    static func write(_ text: String, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw Problem.cannotWrite(file.path) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced, rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            throw Problem.cannotWrite(file.path)
        }
    }
}

/// `write(2)`, named apart from the methods called `write` here.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
    #else
    Darwin.write(descriptor, buffer, count)
    #endif
}

/// The server's TLS key and certificate chain, as PEM.
struct ServerIdentity: Sendable {
    var keyPEM: String
    /// The server's certificate, then the CA's.
    var chainPEM: String
    var certificate: Certificate
    /// Whether it was made just now.
    var renewed: Bool
}
