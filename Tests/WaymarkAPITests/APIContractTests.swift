import Foundation
import Testing
import WaymarkAPI
import Yams

/// The contract's files (Sources/WaymarkAPI/Contract/) and their merge (#28): one document, no
/// path or component defined twice, and no OpenAPI text left in Swift.
@Suite("The API contract")
struct APIContractTests {
    /// The merged document as plain values.
    static func document() throws -> [String: Any] {
        try #require(try Yams.load(yaml: APIContract.yaml()) as? [String: Any])
    }

    @Test("Every area's file is in the merged document: its paths, its schemas, and one operationId per operation, each once")
    func merged() throws {
        let document = try Self.document()
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        for name in APIContract.areas {
            let area = try #require(try Yams.load(yaml: APIContract.file(name)) as? [String: Any], "\(name)")
            for path in (area["paths"] as? [String: Any] ?? [:]).keys { #expect(paths[path] != nil, "\(name): \(path)") }
            let schemas = ((area["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]).keys
            let merged = ((document["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
            for schema in schemas { #expect(merged[schema] != nil, "\(name): \(schema)") }
        }
        let operations = paths.values.flatMap { item in
            item.compactMap { method, operation in ["get", "post", "put", "patch", "delete"].contains(method) ? (operation as? [String: Any])?["operationId"] as? String : nil }
        }
        let methods = paths.values.map { $0.keys.filter { ["get", "post", "put", "patch", "delete"].contains($0) }.count }.reduce(0, +)
        #expect(operations.count == methods, "every operation has an operationId")
        #expect(Set(operations).count == operations.count, "operationIds are unique: \(operations.sorted())")
        #expect(paths.count >= 38)
    }

    @Test("The operations the server binds: every one with its method, path and security, the document's security where it names none")
    func operations() throws {
        let operations = try APIContract.operations()
        #expect(operations.count >= 49)
        #expect(Set(operations.map(\.id)).count == operations.count)
        let task = try #require(operations.first { $0.id == "getTask" })
        #expect(task.method == "GET" && task.path == "/api/v1/tasks/{task_id}")
        #expect(task.segments == [.constant("api"), .constant("v1"), .constant("tasks"), .parameter("task_id")])
        #expect(task.security == [["bearer"], ["sessionCookie"]])
        #expect(try #require(operations.first { $0.id == "photosNearby" }).security == [[], ["bearer"], ["sessionCookie"]])
        #expect(try #require(operations.first { $0.id == "signIn" }).security == [])
        #expect(try #require(operations.first { $0.id == "createRouteBase64" }).security == [["apiKey", "apiNonce", "apiSignature", "apiSignedHeaders", "apiTimestamp"]], "the document's default")

        let base = "openapi: 3.1.0\nsecurity:\n  - {k: []}\npaths:\n"
        #expect(throws: APIContract.OperationProblem.missingID("POST /a")) {
            try APIContract.operations(in: APIContract.merge([("common", base + "  /a:\n    post: {summary: x}\n")]))
        }
        #expect(throws: APIContract.OperationProblem.duplicateID("a")) {
            try APIContract.operations(in: APIContract.merge([("common", base + "  /a:\n    get: {operationId: a}\n  /b:\n    get: {operationId: a}\n")]))
        }
        #expect(throws: APIContract.OperationProblem.malformedSecurity("a")) {
            try APIContract.operations(in: APIContract.merge([("common", base + "  /a:\n    get: {operationId: a, security: open}\n")]))
        }
    }

    @Test("Merging refuses a path or a component defined twice, and a file that is not a mapping, naming the file")
    func refusals() throws {
        let base = "openapi: 3.1.0\npaths:\n  /a:\n    get: {operationId: a}\ncomponents:\n  schemas:\n    A: {type: string}\n"
        #expect(throws: APIContract.Problem.duplicate("tasks", "paths./a")) {
            try APIContract.merge([("common", base), ("tasks", "paths:\n  /a:\n    post: {operationId: b}\n")])
        }
        #expect(throws: APIContract.Problem.duplicate("scenes", "components.schemas.A")) {
            try APIContract.merge([("common", base), ("scenes", "paths: {}\ncomponents:\n  schemas:\n    A: {type: integer}\n")])
        }
        #expect(throws: APIContract.Problem.unreadable("sky", "the top level is not a mapping")) {
            try APIContract.merge([("common", base), ("sky", "- just\n- a list\n")])
        }
        do {
            _ = try APIContract.merge([("common", base), ("qr", "paths: [unclosed\n")])
            Issue.record("broken YAML was merged")
        } catch {
            guard case .unreadable("qr", _) = error else { Issue.record("\(error)"); return }
        }
        let merged = try APIContract.merge([("common", base), ("tasks", "paths:\n  /b:\n    get: {operationId: b}\ncomponents:\n  schemas:\n    B: {type: string}\n")])
        let text = try Yams.serialize(node: merged)
        let value = try #require(try Yams.load(yaml: text) as? [String: Any])
        #expect(Set((value["paths"] as? [String: Any] ?? [:]).keys) == ["/a", "/b"])
        #expect(Set(((value["components"] as? [String: Any])?["schemas"] as? [String: Any] ?? [:]).keys) == ["A", "B"])
    }

    @Test("One list of error codes: APIErrorCode and the contract's Error schema (which the web app's contract.js is made from) are the same, and each code has words in English and German")
    func errorCodes() throws {
        let codes = Set(APIErrorCode.allCases.map(\.rawValue))
        let error = ((try Self.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])?["Error"] as? [String: Any]
        let listed = try #require((error?["properties"] as? [String: Any])?["error"] as? [String: Any])["enum"] as? [String]
        #expect(Set(try #require(listed)) == codes, "the contract's Error.error enum and APIErrorCode differ")
        let web = Self.repository.appendingPathComponent("Web")
        for language in ["en", "de"] {
            let data = try Data(contentsOf: web.appendingPathComponent("i18n/\(language).json"))
            let words = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
            let missing = codes.filter { (words["error.\($0)"] ?? "").isEmpty }.sorted()
            #expect(missing.isEmpty, "Web/i18n/\(language).json has no words for \(missing)")
        }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("No Swift file under Sources/ holds OpenAPI text: the contract is the YAML files alone")
    func noOpenAPIInSwift() throws {
        let sources = Self.repository.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)).compactMap { $0 as? URL }
            .filter { $0.pathExtension == "swift" }
        #expect(files.count > 100)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for marker in ["openapi: 3", "operationId:", "$ref: \"#/components/"] {
                #expect(!text.contains(marker), "\(file.path) holds OpenAPI text (\(marker))")
            }
        }
    }
}
