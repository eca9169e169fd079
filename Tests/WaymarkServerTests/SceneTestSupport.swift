import Foundation
import SQLKit
import Testing
import Vapor
import VaporTesting
import WaymarkAPI
import WaymarkCore
import WaymarkTestSupport
@testable import WaymarkServer

/// Real camera JPEGs of the shared fixtures, for scenes' images; each made unique by a JPEG
/// comment (a COM segment after SOI), since on PostgreSQL the tests share one database but
/// not one blob folder, and a blob is kept while any photo anywhere in the database has its bytes.
enum SceneImages {
    static func jpeg(_ name: String) throws -> Data {
        let data = try Fixtures.data("photos/\(name).jpg")
        let comment = Array("waymark test \(UUID())".utf8)
        let length = comment.count + 2
        return data.prefix(2) + Data([0xFF, 0xFE, UInt8(length >> 8), UInt8(length & 0xFF)] + comment) + data.dropFirst(2)
    }
    static var reference: Data { get throws { try jpeg("Canon") } }
    static var feetShot: Data { get throws { try jpeg("Nikon") } }
    static var rephotograph: Data { get throws { try jpeg("Pentax") } }
}

/// A scene's metadata part, as JSON text.
func sceneMetadata(latitude: Double? = 49.19522, longitude: Double? = 16.60796, capturedAt: Any = "2020-05-01T10:00:00+02:00",
                   attitude: [String: Any] = ["w": 1, "x": 0, "y": 0, "z": 0], name: Any? = nil, heading: Any? = nil,
                   extra: [String: Any] = [:]) -> String {
    var object: [String: Any] = ["capturedAt": capturedAt, "attitude": attitude]
    if let latitude { object["latitude"] = latitude }
    if let longitude { object["longitude"] = longitude }
    if let name { object["name"] = name }
    if let heading { object["heading"] = heading }
    object.merge(extra) { $1 }
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

extension TestServer {
    /// `POST /api/v1/scenes` with the given parts (a nil part is left out).
    func createScene(token: String?, metadata: String?, image: Data?, feetShot: Data?, idempotencyKey: String? = nil) async throws -> TestingHTTPResponse {
        var form = Multipart()
        if let metadata { form.field("metadata", metadata) }
        if let image { form.file("image", filename: "reference.jpg", image) }
        if let feetShot { form.file("feetShot", filename: "feet.jpg", feetShot) }
        var headers = token.map { TestServer.bearer($0) } ?? [:]
        headers.replaceOrAdd(name: .contentType, value: form.contentType)
        if let idempotencyKey { headers.replaceOrAdd(name: "Idempotency-Key", value: idempotencyKey) }
        return try await send(.POST, "/api/v1/scenes", headers: headers, body: form.finished)
    }

    /// A scene created (201 expected) with the fixtures' images.
    func scene(token: String, metadata: String = sceneMetadata()) async throws -> SceneDTO {
        let response = try await createScene(token: token, metadata: metadata, image: try SceneImages.reference, feetShot: try SceneImages.feetShot)
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(SceneDTO.self)
    }

    /// `POST /api/v1/scenes/{id}/photos`.
    func addRephotograph(_ scene: UUID, token: String?, metadata: String?, image: Data?, idempotencyKey: String? = nil) async throws -> TestingHTTPResponse {
        var form = Multipart()
        if let metadata { form.field("metadata", metadata) }
        if let image { form.file("image", filename: "again.jpg", image) }
        var headers = token.map { TestServer.bearer($0) } ?? [:]
        headers.replaceOrAdd(name: .contentType, value: form.contentType)
        if let idempotencyKey { headers.replaceOrAdd(name: "Idempotency-Key", value: idempotencyKey) }
        return try await send(.POST, "/api/v1/scenes/\(scene)/photos", headers: headers, body: form.finished)
    }

    /// How many rows of `table` belong to an account (`column` names its id).
    func rows(_ table: String, _ column: String, _ owner: UUID) async throws -> Int {
        struct Count: Decodable { var count: Int }
        let sql = try #require(app.db as? any SQLDatabase)
        return try await sql.raw("SELECT COUNT(*) AS count FROM \(ident: table) WHERE \(ident: column) = \(bind: owner)").first(decoding: Count.self)?.count ?? 0
    }
}

/// A place of a test's own, so that tests running at once on the shared PostgreSQL database
/// neither find each other's scenes nor update the same map cells.
func somewhere() -> (lat: Double, lon: Double) { (Double.random(in: -60...60), Double.random(in: -170...170)) }

/// The metadata of a scene at a place of the test's own.
func sceneMetadata(at place: (lat: Double, lon: Double), capturedAt: Any = "2020-05-01T10:00:00+02:00") -> String {
    sceneMetadata(latitude: place.lat, longitude: place.lon, capturedAt: capturedAt)
}

/// A unique username for a test.
func sceneUser(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8).lowercased())" }
