import Foundation
import Testing
import WaymarkTestSupport
import X509
@testable import WaymarkServer

/// Waymark's own CA and server certificates (#27), checked by OpenSSL, which nobody here wrote.
@Suite("HTTPS: the certificate authority")
struct CertificateAuthorityTests {
    static func mode(_ url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("A CA and a server certificate for every name: the chain verifies, P-256, at most 397 days, keys 0600 in a 0700 folder")
    func made() async throws {
        let data = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let now = Date()
        let authority = try CertificateAuthority.loadOrCreate(in: data, now: now)
        let identity = try authority.serverIdentity(in: data, names: ["phone.test", "box.local"], addresses: ["127.0.0.1", "::1"], now: now)
        #expect(identity.renewed)
        let tls = data.appendingPathComponent("tls")
        #expect(try Self.mode(tls) == 0o700)
        for file in ["ca.key", "ca.crt", "server.key", "server.crt"] {
            #expect(try Self.mode(tls.appendingPathComponent(file)) == 0o600, "\(file)")
        }
        let ca = tls.appendingPathComponent("ca.crt").path, server = tls.appendingPathComponent("server.crt").path
        let verified = String(decoding: try await ExternalTool.run(["openssl", "verify", "-CAfile", ca, "-purpose", "sslserver", server]), as: UTF8.self)
        #expect(verified.contains(": OK"))
        for (name, flag) in [("phone.test", "-verify_hostname"), ("box.local", "-verify_hostname"), ("127.0.0.1", "-verify_ip"), ("::1", "-verify_ip")] {
            #expect((try? await ExternalTool.run(["openssl", "verify", "-CAfile", ca, flag, name, server])) != nil, "\(name)")
        }
        #expect((try? await ExternalTool.run(["openssl", "verify", "-CAfile", ca, "-verify_hostname", "evil.example", server])) == nil)
        let text = String(decoding: try await ExternalTool.run(["openssl", "x509", "-in", server, "-noout", "-text"]), as: UTF8.self)
        #expect(text.contains("prime256v1"))
        #expect(text.contains("TLS Web Server Authentication"))
        let days = identity.certificate.notValidAfter.timeIntervalSince(identity.certificate.notValidBefore) / 86_400
        #expect(days <= 397 && days > 390, "\(days)")
        let caText = String(decoding: try await ExternalTool.run(["openssl", "x509", "-in", ca, "-noout", "-text"]), as: UTF8.self)
        #expect(caText.contains("CA:TRUE, pathlen:0") && caText.contains("prime256v1"))
        // The DER of /ca.crt is the same certificate.
        let derFile = data.appendingPathComponent("ca.der")
        try Data(try authority.der).write(to: derFile)
        let subject = try await ExternalTool.run(["openssl", "x509", "-inform", "DER", "-in", derFile.path, "-noout", "-subject"])
        #expect(subject == (try await ExternalTool.run(["openssl", "x509", "-in", ca, "-noout", "-subject"])))
    }

    @Test("The same certificate while it has 30 days left and names the same; a new one when 390 days old or when the names change; the CA stays")
    func renewal() throws {
        let data = makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let made = Date().addingTimeInterval(-390 * 86_400)
        let authority = try CertificateAuthority.loadOrCreate(in: data, now: made)
        let first = try authority.serverIdentity(in: data, names: ["phone.test"], addresses: ["127.0.0.1"], now: made)
        let later = try authority.serverIdentity(in: data, names: ["phone.test"], addresses: ["127.0.0.1"], now: made.addingTimeInterval(300 * 86_400))
        #expect(!later.renewed && later.certificate.serialNumber == first.certificate.serialNumber)

        let reloaded = try CertificateAuthority.loadOrCreate(in: data, now: Date())
        #expect(reloaded.certificate == authority.certificate, "the CA a phone trusts is kept")
        let renewed = try reloaded.serverIdentity(in: data, names: ["phone.test"], addresses: ["127.0.0.1"], now: Date())
        #expect(renewed.renewed && renewed.certificate.serialNumber != first.certificate.serialNumber)
        #expect(renewed.certificate.notValidAfter > Date().addingTimeInterval(390 * 86_400))
        let renamed = try reloaded.serverIdentity(in: data, names: ["phone.test", "photos.example.org"], addresses: ["127.0.0.1"], now: Date())
        #expect(renamed.renewed, "a new name needs a new certificate")
        let names = try renamed.certificate.extensions.subjectAlternativeNames.map { Array($0) } ?? []
        #expect(names.contains(.dnsName("photos.example.org")))
    }
}
