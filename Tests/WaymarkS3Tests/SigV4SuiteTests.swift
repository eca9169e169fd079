import Crypto
import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkS3

/// AWS's own SigV4 test suite (awslabs/aws-c-auth, `tests/aws-signing-test-suite/v4`, in
/// `../shared/fixtures/sigv4/v4`): for every case, the canonical request, the string to sign and
/// the signature, signed in the header and in the query, must be the suite's byte for byte.
@Suite("AWS Signature Version 4 against AWS's test suite")
struct SigV4SuiteTests {
    static let folder = Fixtures.url("sigv4/v4")

    static var cases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    /// One case: its request (request.txt, an HTTP/1.1 request as text) and its context.json.
    struct Case {
        var signer: SigV4
        var request: SigV4.Request
        var date: Date
        var expires: Int
        var signsBody: Bool

        init(_ name: String) throws {
            let directory = SigV4SuiteTests.folder.appendingPathComponent(name)
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("context.json")))
            let context = try #require(json as? [String: Any])
            let credentials = try #require(context["credentials"] as? [String: String])
            let key = try #require(credentials["access_key_id"]), secret = try #require(credentials["secret_access_key"])
            let region = try #require(context["region"] as? String), service = try #require(context["service"] as? String)
            signer = SigV4(credentials: .init(accessKeyID: key, secretAccessKey: secret, sessionToken: credentials["token"]),
                           region: region, service: service,
                           normalizesPath: context["normalize"] as? Bool ?? true, signsSessionToken: !(context["omit_session_token"] as? Bool ?? false))
            let timestamp = try #require(context["timestamp"] as? String)
            date = try #require(ISO8601DateFormatter().date(from: timestamp))
            expires = context["expiration_in_seconds"] as? Int ?? 3600
            signsBody = context["sign_body"] as? Bool ?? false

            let text = String(decoding: try Data(contentsOf: directory.appendingPathComponent("request.txt")), as: UTF8.self)
            let (head, body) = text.range(of: "\n\n").map { (String(text[..<$0.lowerBound]), String(text[$0.upperBound...])) } ?? (text, "")
            var lines = head.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let requestLine = lines.removeFirst().split(separator: " ")
            let target = String(requestLine[1...].dropLast().joined(separator: " "))  // a path may hold a space
            let (path, query) = target.firstIndex(of: "?").map { (String(target[..<$0]), String(target[target.index(after: $0)...])) } ?? (target, "")
            var headers: [(name: String, value: String)] = []
            for line in lines where !line.isEmpty {
                if line.first == " " || line.first == "\t", !headers.isEmpty {
                    headers[headers.count - 1].value += "\n" + line  // a folded line continues the value
                } else if let colon = line.firstIndex(of: ":") {
                    headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
                }
            }
            let parameters: [(name: String, value: String)] = query.isEmpty ? [] : query.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
            request = SigV4.Request(method: String(requestLine[0]), path: path, query: parameters, headers: headers,
                                    payloadHash: SHA256.hash(data: Data(body.utf8)).hex)
        }
    }

    static func expected(_ name: String, _ file: String) throws -> String {
        String(decoding: try Data(contentsOf: folder.appendingPathComponent(name).appendingPathComponent(file)), as: UTF8.self)
    }

    @Test("The suite is here, every case of it")
    func suiteIsPresent() {
        #expect(Self.cases.count == 38, "\(Self.folder.path) holds \(Self.cases)")
    }

    @Test("Signed in the Authorization header: canonical request, string to sign, signature and header as the suite's", arguments: cases)
    func header(_ name: String) throws {
        let test = try Case(name)
        let signed = test.signer.signHeaders(test.request, date: test.date, signsPayloadHeader: test.signsBody)
        #expect(signed.canonicalRequest == (try Self.expected(name, "header-canonical-request.txt")))
        #expect(signed.stringToSign == (try Self.expected(name, "header-string-to-sign.txt")))
        #expect(signed.signature == (try Self.expected(name, "header-signature.txt")))
        let authorization = try Self.expected(name, "header-signed-request.txt").split(separator: "\n").first { $0.hasPrefix("Authorization:") }
        #expect(signed.headers.last.map { "\($0.name):\($0.value)" } == authorization.map(String.init))
    }

    @Test("Signed in the query (a presigned URL): canonical request, string to sign, signature and query as the suite's", arguments: cases)
    func query(_ name: String) throws {
        let test = try Case(name)
        let signed = test.signer.signQuery(test.request, date: test.date, expires: test.expires)
        #expect(signed.canonicalRequest == (try Self.expected(name, "query-canonical-request.txt")))
        #expect(signed.stringToSign == (try Self.expected(name, "query-string-to-sign.txt")))
        #expect(signed.signature == (try Self.expected(name, "query-signature.txt")))
        // The suite's signed request lists the same parameters in another order, and a name in
        // UTF-8 as it was given (what is sent is its percent-encoding).
        let line = try Self.expected(name, "query-signed-request.txt").split(separator: "\n")[0]
        let target = line.split(separator: " ").dropFirst().dropLast().joined(separator: " ")
        func parameters(_ query: some StringProtocol) -> Set<String> {
            Set(query.split(separator: "&").map { $0.removingPercentEncoding ?? String($0) })
        }
        let sent = target.split(separator: "?", maxSplits: 1).last.map(parameters) ?? []
        #expect(parameters(signed.query) == sent)
        #expect(signed.query.hasSuffix("&X-Amz-Signature=" + signed.signature))
    }

    @Test("A changed secret, day, region, header or payload changes the signature")
    func everyPartCounts() throws {
        let test = try Case("get-vanilla")
        let signature = test.signer.signHeaders(test.request, date: test.date).signature
        var other = test.signer
        other.credentials.secretAccessKey += "x"
        #expect(other.signHeaders(test.request, date: test.date).signature != signature)
        other = test.signer
        other.region = "eu-central-1"
        #expect(other.signHeaders(test.request, date: test.date).signature != signature)
        #expect(test.signer.signHeaders(test.request, date: test.date + 86_400).signature != signature)
        var request = test.request
        request.headers.append(("X-Amz-Meta-A", "b"))
        #expect(test.signer.signHeaders(request, date: test.date).signature != signature)
        request = test.request
        request.payloadHash = SigV4.emptyPayloadHash.replacingOccurrences(of: "e3", with: "e4")
        #expect(test.signer.signHeaders(request, date: test.date).signature != signature)
    }
}

/// S3's own worked example of a signed GET (Amazon S3 API reference, "Signature Calculations for
/// the Authorization Header: Transferring Payload in a Single Chunk", example "GET Object"): S3
/// signs the path as it is and sends the payload hash as `x-amz-content-sha256`.
@Suite("AWS Signature Version 4 as S3 uses it")
struct SigV4S3ExampleTests {
    @Test("S3's GET Object example: its signature")
    func getObject() throws {
        let signer = SigV4(credentials: .init(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
                           region: "us-east-1", service: "s3", normalizesPath: false)
        let request = SigV4.Request(method: "GET", path: "/test.txt",
                                    headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9")],
                                    payloadHash: SigV4.emptyPayloadHash)
        let date = try #require(ISO8601DateFormatter().date(from: "2013-05-24T00:00:00Z"))
        let signed = signer.signHeaders(request, date: date, signsPayloadHeader: true)
        #expect(signed.signature == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41", "\(signed.canonicalRequest)")
        #expect(signed.headers.last?.value == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
            + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }
}
