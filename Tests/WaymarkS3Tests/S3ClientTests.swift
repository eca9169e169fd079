import AsyncHTTPClient
import Crypto
import Foundation
import Testing
import WaymarkTestSupport
@testable import WaymarkS3

/// moto's S3 server (PyPI `moto[server]`, pinned in scripts/python-tools.txt): a faithful stand-in
/// for S3's API that runs here. It does not check signatures — AWS's suite checks the signer
/// (SigV4SuiteTests) — but it answers S3's multipart, range and error XML as S3 does.
final class MotoServer {
    let process = Process()
    let endpoint: URL

    init() async throws {
        let port = try await Self.freePort()
        process.executableURL = packageRoot.appendingPathComponent(".build-venv/tools/bin/moto_server")
        guard FileManager.default.isExecutableFile(atPath: process.executableURL!.path) else {
            throw StandinVault.Missing(description: "\(process.executableURL!.path) is missing — run scripts/bootstrap to install moto")
        }
        process.arguments = ["-H", "127.0.0.1", "-p", String(port)]
        let log = try CapturedOutput()
        process.standardOutput = log.stdout
        process.standardError = log.stderr
        try process.run()
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        // Up when it answers anything at all (it takes a few seconds to import).
        for _ in 0..<300 {
            var request = HTTPClientRequest(url: endpoint.absoluteString + "/moto-api/")
            request.method = .GET
            if let response = try? await HTTPClient.shared.execute(request, timeout: .seconds(1)) {
                _ = try? await response.body.collect(upTo: 1 << 20)
                return
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw StandinVault.Missing(description: "moto_server did not start: \(try log.read(\.stderrURL))")
    }

    static func freePort() async throws -> Int {
        let text = String(decoding: try await ExternalTool.run(["python3", "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); print(s.getsockname()[1])"]), as: UTF8.self)
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 19_000
    }

    /// A client of a new bucket on it, under `prefix`.
    func client(prefix: String = "blobs/") async throws -> S3Client {
        let bucket = "waymark-" + UUID().uuidString.lowercased().prefix(8)
        let configuration = try S3Configuration.from(location: "s3://\(bucket)/\(prefix)", environment: [
            "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_REGION": "eu-central-1",
            "AWS_ENDPOINT_URL": endpoint.absoluteString,
        ])
        let client = S3Client(configuration: configuration)
        try await client.createBucket()
        return client
    }

    deinit { process.stop(SIGTERM, grace: 2) }
}

@Suite("The S3 client against moto's S3 server", .serialized)
struct S3ClientTests {
    @Test("An object put is there byte for byte, its ETag its MD5; a range is those bytes; deleted, it is gone; a missing one is nil")
    func roundTrip() async throws {
        let moto = try await MotoServer()
        let client = try await moto.client()
        let data = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let key = "sha256/ab/cd/" + SHA256.hash(data: data).hex
        let etag = try await client.put(key: key, data: data, contentType: "image/jpeg")
        #expect(etag == Insecure.MD5.hash(data: data).hex)
        #expect(try await client.head(key: key) == S3ObjectInfo(size: data.count, etag: etag))
        let whole = try #require(try await client.get(key: key))
        #expect(whole.data == data && whole.info.size == data.count)
        let part = try #require(try await client.get(key: key, range: 10...19))
        #expect(part.data == data[10...19] && part.info.size == data.count, "the object's size, not the range's")
        try await client.delete(key: key)
        #expect(try await client.head(key: key) == nil)
        #expect(try await client.get(key: key) == nil)
        try await client.delete(key: key)  // again: no error, as S3
    }

    @Test("A file past the threshold goes in parts and comes back whole; its ETag says how many parts")
    func multipart() async throws {
        let moto = try await MotoServer()
        var client = try await moto.client()
        client.multipartThreshold = 6 << 20
        client.partSize = 5 << 20
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("original.raw")
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<(13 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try data.write(to: file)
        let etag = try await client.upload(key: "big", file: file)
        #expect(etag.hasSuffix("-3"), "three parts: \(etag)")
        let back = try #require(try await client.get(key: "big"))
        #expect(SHA256.hash(data: back.data).hex == SHA256.hash(data: data).hex)
        // A small file is one PUT.
        let small = folder.url.appendingPathComponent("small")
        try Data("small".utf8).write(to: small)
        #expect(try await client.upload(key: "small", file: small) == Insecure.MD5.hash(data: Data("small".utf8)).hex)
    }

    @Test("A presigned GET fetches the object with no credentials")
    func presigned() async throws {
        let moto = try await MotoServer()
        let client = try await moto.client()
        try await client.put(key: "photo", data: Data("a photo".utf8))
        let url = client.presignedGET(key: "photo", expires: 300)
        #expect(url.query?.contains("X-Amz-Signature=") == true && url.query?.contains("X-Amz-Expires=300") == true)
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(10))
        #expect(response.status == .ok)
        #expect(Data(try await response.body.collect(upTo: 1 << 20).readableBytesView) == Data("a photo".utf8))
    }

    @Test("A bucket that does not exist is S3's NoSuchBucket, in its words")
    func noBucket() async throws {
        let moto = try await MotoServer()
        var configuration = try await moto.client().configuration
        configuration.bucket = "no-such-bucket-here"
        let error = await #expect(throws: S3Error.self) { try await S3Client(configuration: configuration).put(key: "x", data: Data("x".utf8)) }
        guard case let .refused(status, code, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(status == 404 && code == "NoSuchBucket")
    }

    @Test("s3://BUCKET/PREFIX and the AWS variables: credentials required, a bad bucket refused, an endpoint path-style, the region's default")
    func configuration() throws {
        let keys = ["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret"]
        let aws = try S3Configuration.from(location: "s3://photos/waymark", environment: keys.merging(["AWS_REGION": "eu-west-1"]) { $1 })
        #expect(aws.bucket == "photos" && aws.prefix == "waymark/" && !aws.pathStyle)
        #expect(aws.endpoint.absoluteString == "https://s3.eu-west-1.amazonaws.com" && aws.region == "eu-west-1")
        let minio = try S3Configuration.from(location: "s3://photos", environment: keys.merging(["AWS_ENDPOINT_URL": "http://127.0.0.1:9000"]) { $1 })
        #expect(minio.pathStyle && minio.prefix == "" && minio.region == "us-east-1")
        let dotted = try S3Configuration.from(location: "s3://my.photos/", environment: keys)
        #expect(dotted.pathStyle, "a dotted bucket cannot be a host under AWS's certificate")
        #expect(throws: S3Error.self) { try S3Configuration.from(location: "s3://photos", environment: [:]) }
        for bad in ["photos", "s3://", "s3://ab", "s3://Photos", "s3://-photos", "s3://pho_tos", "s3://" + String(repeating: "a", count: 64)] {
            #expect(throws: S3Error.self, "\(bad)") { try S3Configuration.from(location: bad, environment: keys) }
        }
        #expect(throws: S3Error.self) { try S3Configuration.from(location: "s3://photos", environment: keys.merging(["AWS_ENDPOINT_URL": "ftp://x"]) { $1 }) }
    }
}
