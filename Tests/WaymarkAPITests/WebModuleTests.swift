import Foundation
import Testing
import Yams
@testable import WaymarkAPI

/// `Web/app/contract.js` is the contract as the web app reads it. `make contract` writes it
/// (this suite with `WAYMARK_WRITE_CONTRACT=1`); without that, the suite fails when the file is
/// not what the contract makes.
@Suite("The web app's contract module")
struct WebModuleTests {
    static let file = APIContractTests.repository.appendingPathComponent("Web/app/contract.js")

    @Test("Web/app/contract.js is what the contract makes (run `make contract` after changing the contract)")
    func upToDate() throws {
        let made = try APIContract.webModule(of: APIContract.merged())
        if ProcessInfo.processInfo.environment["WAYMARK_WRITE_CONTRACT"] == "1" {
            try made.write(to: Self.file, atomically: true, encoding: .utf8)
        }
        let committed = try String(contentsOf: Self.file, encoding: .utf8)
        #expect(committed == made, "Web/app/contract.js is stale: run `make contract` and commit it")
    }

    @Test("Every operation is in the table with its method and path")
    func everyOperation() throws {
        let document = try APIContract.merged()
        let module = try APIContract.webModule(of: document)
        for operation in try APIContract.operations(in: document) {
            #expect(module.contains("  \(operation.id): { method: '\(operation.method)', path: '\(operation.path)' },"), "\(operation.id)")
        }
    }

    @Test("Schemas become JSDoc types: required and optional fields, nullable unions, literals, references, records, arrays")
    func schemaTypes() throws {
        let yaml = #"""
        openapi: 3.1.0
        paths:
          /things/{thing_id}:
            get:
              operationId: getThing
              parameters:
                - {name: thing_id, in: path, required: true, schema: {type: string}}
                - {name: limit, in: query, schema: {type: integer}}
                - {name: Idempotency-Key, in: header, schema: {type: string}}
              responses:
                "200": {description: x, content: {application/json: {schema: {$ref: "#/components/schemas/Thing"}}}}
                "404": {description: x}
            delete:
              operationId: deleteThing
              responses:
                "204": {description: gone}
          /things:
            post:
              operationId: makeThing
              requestBody:
                required: true
                content: {multipart/form-data: {schema: {type: object}}}
              responses:
                "201": {description: x, content: {image/jpeg: {schema: {type: string, format: binary}}}}
        components:
          schemas:
            Thing:
              type: object
              description: "A thing */ with a comment end."
              required: [id, kind, size]
              properties:
                id: {type: string}
                kind: {type: string, enum: [small, "true"]}
                size: {type: integer, enum: [1, 2]}
                note: {type: ["string", "null"]}
                tags: {type: array, items: {type: string}}
                point: {type: array, prefixItems: [{type: number}, {type: ["number", "null"]}], items: false}
                extra: {type: object, additionalProperties: {type: number}}
                "odd-name": {const: x}
                parent: {oneOf: [{$ref: "#/components/schemas/Thing"}, {type: "null"}]}
            Error:
              type: object
              properties:
                error: {type: string, enum: [not_found, busy]}
        """#
        let module = try APIContract.webModule(of: try #require(try Yams.compose(yaml: yaml)))
        #expect(module.contains(" * A thing *\\/ with a comment end.\n * @typedef {object} Thing\n"))
        #expect(module.contains(" * @property {string} id\n"))
        #expect(module.contains(" * @property {'small' | 'true'} kind\n"))
        #expect(module.contains(" * @property {1 | 2} size\n"))
        #expect(module.contains(" * @property {string | null} [note]\n"))
        #expect(module.contains(" * @property {Array<string>} [tags]\n"))
        #expect(module.contains(" * @property {Record<string, number>} [extra]\n"))
        #expect(module.contains(" * @property {[number, number | null]} [point]\n"))
        #expect(module.contains(" * @property {'x'} ['odd-name']\n"))
        #expect(module.contains(" * @property {Thing | null} [parent]\n"))
        #expect(module.contains("path: { thing_id: string },"))
        #expect(module.contains("query: { limit?: number },"))
        #expect(!module.contains("Idempotency"))
        #expect(module.contains("answer: Thing,"))
        #expect(module.contains("answer: null,"))
        #expect(module.contains("body: FormData,"))
        #expect(module.contains("answer: never,"))
        #expect(module.contains("'not_found', 'busy',"))
    }

    @Test("A reference to nothing is a contract error, not an unknown type")
    func unresolved() throws {
        let yaml = """
        paths: {}
        components:
          schemas:
            A: {$ref: "#/components/schemas/B"}
            Error: {type: object, properties: {error: {type: string, enum: [x]}}}
        """
        #expect(throws: APIContract.WebModuleProblem.unresolvedReference("#/components/schemas/B")) {
            try APIContract.webModule(of: try #require(try Yams.compose(yaml: yaml)))
        }
    }
}
