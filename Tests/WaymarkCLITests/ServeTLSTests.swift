#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import WaymarkTestSupport

/// `waymark serve` over HTTPS (#27), as a phone and an operator meet it, checked with OpenSSL and
/// curl: Waymark's own CA, the plain port's redirect and CA certificate, the operator's own
/// certificate read again on SIGHUP.
@Suite("waymark serve over HTTPS", .serialized)
struct ServeTLSTests {
    struct Running {
        let process: Process
        let output: CapturedOutput
        let https: Int, http: Int

        func stop() { process.stop(SIGTERM, grace: 15) }
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("waymark-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func start(_ data: URL, _ extra: [String]) async throws -> Running {
        let https = try await ServeEndToEndTests.freePort(), http = try await ServeEndToEndTests.freePort()
        let output = try CapturedOutput()
        let process = WaymarkBinary.start(["serve", "--data", data.path, "--web", "none", "--port", String(https), "--http-port", String(http)] + extra)
        process.standardOutput = output.stdout
        process.standardError = output.stderr
        try process.run()
        let running = Running(process: process, output: output, https: https, http: http)
        for _ in 0..<300 {
            // Both ports take connections (the plain one starts first).
            if (try? await ExternalTool.run(["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/\(https) && exec 4<>/dev/tcp/127.0.0.1/\(http)"])) != nil {
                return running
            }
            guard process.isRunning else { break }
            usleep(100_000)
        }
        running.stop()
        Issue.record("the server did not start: \((try? output.read(\.stderrURL)) ?? "")")
        throw CancellationError()
    }

    /// What `openssl s_client` says of the server's handshake for `name`, with `ca` trusted.
    static func handshake(_ port: Int, name: String, ca: String?, extra: [String] = []) async -> String {
        let trust = ca.map { "-CAfile \($0) -verify_return_error -verify_hostname \(name)" } ?? ""
        let command = "echo | openssl s_client -connect 127.0.0.1:\(port) -servername \(name) \(trust) \(extra.joined(separator: " ")) 2>&1"
        return String(decoding: (try? await ExternalTool.run(["sh", "-c", command], allowFailure: true)) ?? Data(), as: UTF8.self)
    }

    @Test("--tls auto: a chain OpenSSL verifies for every --public-name, TLS 1.1 refused; the plain port redirects and hands out the CA")
    func automatic() async throws {
        let data = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await Self.start(data, ["--tls", "auto", "--public-name", "phone.test", "--public-name", "photos.example.org"])
        defer { server.stop() }
        let ca = data.appendingPathComponent("tls/ca.crt").path
        for name in ["phone.test", "photos.example.org"] {
            let answer = await Self.handshake(server.https, name: name, ca: ca)
            #expect(answer.contains("Verify return code: 0 (ok)"), "\(name): \(answer)")
        }
        await #expect(!Self.handshake(server.https, name: "evil.example", ca: ca).contains("Verify return code: 0 (ok)"))
        let old = await Self.handshake(server.https, name: "phone.test", ca: nil, extra: ["-tls1_1"])
        #expect(old.contains("alert protocol version") || old.contains("no protocols available"), "\(old)")

        // A phone that trusts the CA reaches the API by name; HSTS for a name, a Secure cookie.
        let health = String(decoding: try await ExternalTool.run(["curl", "-fsS", "--cacert", ca, "--resolve", "phone.test:\(server.https):127.0.0.1",
                                                            "-D", "-", "https://phone.test:\(server.https)/healthz"]), as: UTF8.self)
        #expect(health.contains(#"{"status":"ok"}"#))
        #expect(health.lowercased().contains("strict-transport-security: max-age=31536000"))

        // The plain port: every other URL to the same path and query on HTTPS, under the name asked for.
        let redirect = String(decoding: try await ExternalTool.run(["curl", "-sS", "-D", "-", "-o", "/dev/null", "-H", "Host: phone.test:\(server.http)",
                                                              "http://127.0.0.1:\(server.http)/photos/abc?x=1&y=2"]), as: UTF8.self)
        #expect(redirect.hasPrefix("HTTP/1.1 308"), "\(redirect)")
        #expect(redirect.contains("Location: https://phone.test:\(server.https)/photos/abc?x=1&y=2"), "\(redirect)")
        let foreign = String(decoding: try await ExternalTool.run(["curl", "-sS", "-D", "-", "-o", "/dev/null", "-H", "Host: evil.example",
                                                             "http://127.0.0.1:\(server.http)/"]), as: UTF8.self)
        #expect(foreign.contains("Location: https://phone.test:\(server.https)/"), "no redirect to a name that is not the server's: \(foreign)")
        let der = data.appendingPathComponent("ca.der")
        let headers = String(decoding: try await ExternalTool.run(["curl", "-fsS", "-D", "-", "-o", der.path, "http://127.0.0.1:\(server.http)/ca.crt"]), as: UTF8.self)
        #expect(headers.lowercased().contains("content-type: application/x-x509-ca-cert"))
        #expect(try await ExternalTool.run(["openssl", "x509", "-inform", "DER", "-in", der.path, "-noout", "-fingerprint"])
                == (try await ExternalTool.run(["openssl", "x509", "-in", ca, "-noout", "-fingerprint"])))
        let profile = data.appendingPathComponent("ca.mobileconfig")
        try await ExternalTool.run(["curl", "-fsS", "-o", profile.path, "http://127.0.0.1:\(server.http)/ca.mobileconfig"])
        try await ExternalTool.run(["xmllint", "--noout", profile.path])
        #expect(String(decoding: try Data(contentsOf: profile), as: UTF8.self).contains("com.apple.security.root"))
        #expect(try server.output.read(\CapturedOutput.stdoutURL).contains("https://phone.test:\(server.https)/"), "serve says where a phone opens it")
    }

    @Test("serve prints a code that zbar reads as the pairing page's address; /pair shows the CA's fingerprint as OpenSSL computes it")
    func pairing() async throws {
        let data = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try await Self.start(data, ["--tls", "auto", "--public-name", "phone.test"])
        defer { server.stop() }
        let pair = "http://phone.test:\(server.http)/pair"
        let printed = try server.output.read(\CapturedOutput.stdoutURL)
        #expect(printed.contains(pair), "\(printed)")
        // The half blocks back into pixels (a PBM, two rows per line), read by a QR reader that is not zxing-cpp.
        let rows = printed.split(separator: "\n").map(String.init).filter { !$0.isEmpty && $0.allSatisfy { " ▀▄█".contains($0) } }
        #expect(rows.count > 10, "no code in: \(printed)")
        let width = rows.map(\.count).max() ?? 0, scale = 8
        var pixels: [String] = []
        for row in rows {
            let cells = Array(row) + Array(repeating: " ", count: width - row.count)
            for half in 0..<2 {
                let line = cells.map { cell -> String in
                    let dark = cell == "█" || (half == 0 ? cell == "▀" : cell == "▄")
                    return String(repeating: dark ? "1 " : "0 ", count: scale)
                }.joined()
                pixels += Array(repeating: line, count: scale)
            }
        }
        let image = data.appendingPathComponent("code.pbm")
        try "P1\n\(width * scale) \(pixels.count)\n\(pixels.joined(separator: "\n"))\n".write(to: image, atomically: true, encoding: .ascii)
        let read = String(decoding: try await ExternalTool.run(["zbarimg", "-q", "--raw", image.path]), as: UTF8.self)
        #expect(read.trimmingCharacters(in: .whitespacesAndNewlines) == pair)

        // The page a phone opens: its platform's steps, the CA's fingerprint to compare, the HTTPS address.
        let page = String(decoding: try await ExternalTool.run(["curl", "-fsS", "-H", "Host: phone.test:\(server.http)", "-A", "Mozilla/5.0 (Linux; Android 14)",
                                                          "-H", "Accept-Language: de-DE,de;q=0.9,en;q=0.8", "http://127.0.0.1:\(server.http)/pair"]), as: UTF8.self)
        #expect(page.contains(#"<html lang="de">"#))
        #expect(page.contains(#"<details open data-platform="android">"#))
        #expect(page.contains(#"href="https://phone.test:\#(server.https)/""#))
        let ca = data.appendingPathComponent("tls/ca.crt").path
        let fingerprint = String(decoding: try await ExternalTool.run(["openssl", "x509", "-in", ca, "-noout", "-fingerprint", "-sha256"]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "=").last.map(String.init) ?? "?"
        #expect(page.contains("<code>\(fingerprint)</code>"), "\(fingerprint) in \(page)")
    }

    @Test("--tls-cert and --tls-key: the operator's pair is served, and after SIGHUP its replacement")
    func operatorsCertificate() async throws {
        let data = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: data) }
        let certificate = data.appendingPathComponent("chain.pem"), key = data.appendingPathComponent("key.pem")
        func make(_ name: String) async throws {
            try await ExternalTool.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "30",
                                  "-subj", "/CN=\(name)", "-addext", "subjectAltName=DNS:\(name)", "-keyout", key.path, "-out", certificate.path])
        }
        try await make("one.test")
        let server = try await Self.start(data, ["--tls-cert", certificate.path, "--tls-key", key.path, "--public-name", "one.test", "--public-name", "two.test"])
        defer { server.stop() }
        await #expect(Self.handshake(server.https, name: "one.test", ca: certificate.path).contains("Verify return code: 0 (ok)"))
        try await make("two.test")
        kill(server.process.processIdentifier, SIGHUP)
        var served = ""
        for _ in 0..<100 {
            served = await Self.handshake(server.https, name: "two.test", ca: certificate.path)
            if served.contains("Verify return code: 0 (ok)") { break }
            usleep(100_000)
        }
        #expect(served.contains("Verify return code: 0 (ok)"), "\(served)")
        #expect(server.process.isRunning, "SIGHUP reads the files again, it does not stop the server")
    }
}
