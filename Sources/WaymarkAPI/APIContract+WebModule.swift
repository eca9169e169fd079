import Foundation
import Yams

extension APIContract {
    /// The web app's copy of the contract: `Web/app/contract.js`, an ES module that holds the
    /// operations' methods and paths for `api.js` to call by `operationId`, the error codes, and
    /// JSDoc types (`@typedef`) for every schema and every operation's request and answer, so that
    /// `tsc` checks each call. `make contract` writes it; a test fails when it is stale.
    ///
    /// JSON Schema maps to TypeScript as far as a type can say it: `type` (a list of them is a
    /// union), `enum` and `const` as literals, `properties` and `required`,
    /// `additionalProperties` as a `Record`, `items`, `oneOf`/`anyOf` as unions, `allOf` as an
    /// intersection, `$ref` by the component's name, `format: binary` as `Blob`. Bounds, patterns
    /// and formats stay the server's to check.
    public static func webModule(of document: Node) throws -> String {
        var writer = WebModuleWriter(document: document)
        return try writer.module()
    }

    /// Why the web module could not be written.
    public enum WebModuleProblem: Error, Equatable, CustomStringConvertible {
        /// A `$ref` that does not name a component of the document.
        case unresolvedReference(String)
        /// The Error schema has no `error` enum.
        case noErrorCodes

        public var description: String {
            switch self {
            case .unresolvedReference(let ref): "the contract refers to \(ref), which it does not define"
            case .noErrorCodes: "the contract's Error schema lists no error codes (properties.error.enum)"
            }
        }
    }
}

private struct WebModuleWriter {
    let document: Node.Mapping
    let components: Node.Mapping

    init(document: Node) {
        self.document = document.mapping ?? [:]
        self.components = self.document["components"]?.mapping ?? [:]
    }

    mutating func module() throws -> String {
        var out = """
        // Generated from the API contract (Sources/WaymarkAPI/Contract/*.yaml) by `make contract`:
        // do not edit. api.js calls operations by their operationId from this table, and tsc checks
        // every request and answer against the types below. A Swift test fails when this file is
        // not what the contract makes.

        """
        for (name, schema) in components["schemas"]?.mapping ?? [:] {
            guard let name = name.string else { continue }
            out += "\n" + (try properties(of: schema, name: name) ?? doc(description(of: schema), typedef: try type(of: schema, indent: 0), name: name))
        }
        let operations = try self.operations()
        var table = "/**\n * Every operation of the contract: what `call` sends and what it answers.\n * @typedef {{\n"
        func continued(_ type: String) -> String { type.replacingOccurrences(of: "\n", with: "\n * ") }
        for operation in operations {
            table += " *   \(operation.id): {\n"
            table += " *     method: '\(operation.method)',\n"
            table += " *     path: \(continued(operation.pathType)),\n"
            table += " *     query: \(continued(operation.queryType)),\n"
            table += " *     body: \(continued(operation.bodyType)),\n"
            table += " *     answer: \(continued(operation.answerType)),\n"
            table += " *   },\n"
        }
        table += " * }} Operations\n */\n"
        out += "\n" + table
        out += "\n/** @type {{ readonly [K in keyof Operations]: { readonly method: Operations[K]['method'], readonly path: string } }} */\n"
        out += "export const operations = Object.freeze({\n"
        for operation in operations {
            out += "  \(operation.id): { method: '\(operation.method)', path: \(literal(operation.path)) },\n"
        }
        out += "});\n"
        out += "\n/** Every code an error answer can carry (the Error schema's `error`). @type {readonly ErrorCode[]} */\n"
        out += "export const errorCodes = Object.freeze([\n"
        for line in wrapped(try errorCodes().map(literal), width: 100, indent: "  ") { out += line + "\n" }
        out += "]);\n"
        out += "\n/** @typedef {Error['error']} ErrorCode */\n"
        return out
    }

    // MARK: Operations

    struct WebOperation {
        let id: String
        let method: String
        let path: String
        let pathType: String
        let queryType: String
        let bodyType: String
        let answerType: String
    }

    func operations() throws -> [WebOperation] {
        var found: [WebOperation] = []
        for (pathNode, item) in document["paths"]?.mapping ?? [:] {
            guard let path = pathNode.string, let item = item.mapping else { continue }
            let shared = item["parameters"]?.sequence.map(Array.init) ?? []
            for (methodNode, operationNode) in item {
                guard let method = methodNode.string, APIContract.methods.contains(method),
                      let operation = operationNode.mapping, let id = operation["operationId"]?.string else { continue }
                let parameters = try (shared + (operation["parameters"]?.sequence.map(Array.init) ?? [])).map(resolved)
                found.append(WebOperation(
                    id: id, method: method.uppercased(), path: path,
                    pathType: try object(of: parameters, in: "path"),
                    queryType: try object(of: parameters, in: "query"),
                    bodyType: try body(of: operation["requestBody"]),
                    answerType: try answer(of: operation["responses"]?.mapping ?? [:])))
            }
        }
        return found
    }

    func object(of parameters: [Node], in place: String) throws -> String {
        var fields: [String] = []
        for parameter in parameters {
            guard let mapping = parameter.mapping, mapping["in"]?.string == place, let name = mapping["name"]?.string else { continue }
            let required = mapping["required"]?.bool ?? false
            let schema = try mapping["schema"].map { try type(of: $0, indent: 0) } ?? "string"
            fields.append("\(key(name))\(required ? "" : "?"): \(schema)")
        }
        return fields.isEmpty ? "{}" : "{ " + fields.joined(separator: ", ") + " }"
    }

    func body(of requestBody: Node?) throws -> String {
        guard let requestBody else { return "undefined" }
        let body = try resolved(requestBody).mapping ?? [:]
        let content = body["content"]?.mapping ?? [:]
        var types: [String] = []
        for (mediaType, media) in content {
            guard let mediaType = mediaType.string else { continue }
            if isJSON(mediaType) {
                types.append(try media.mapping?["schema"].map { try type(of: $0, indent: 3) } ?? "unknown")
            } else if mediaType == "multipart/form-data" {
                types.append("FormData")
            } else {
                types.append("Blob")
            }
        }
        let joined = types.isEmpty ? "undefined" : unique(types).joined(separator: " | ")
        return body["required"]?.bool == true ? joined : "\(joined) | undefined"
    }

    /// The parsed JSON of the 2xx answers; `null` for one without a body, `never` for one that is
    /// not JSON (an image, a page: the web app links to those rather than calling them).
    func answer(of responses: Node.Mapping) throws -> String {
        var types: [String] = []
        for (status, response) in responses {
            guard let status = status.string, status.hasPrefix("2") else { continue }
            let content = try resolved(response).mapping?["content"]?.mapping ?? [:]
            if content.isEmpty { types.append("null"); continue }
            for (mediaType, media) in content {
                guard let mediaType = mediaType.string else { continue }
                types.append(isJSON(mediaType) ? try media.mapping?["schema"].map { try type(of: $0, indent: 3) } ?? "unknown" : "never")
            }
        }
        let answers = unique(types)
        return answers.isEmpty ? "null" : answers.joined(separator: " | ")
    }

    func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    func errorCodes() throws -> [String] {
        guard let codes = components["schemas"]?.mapping?["Error"]?.mapping?["properties"]?.mapping?["error"]?.mapping?["enum"]?.sequence else {
            throw APIContract.WebModuleProblem.noErrorCodes
        }
        return codes.compactMap(\.string)
    }

    // MARK: Schemas

    /// `node` itself, or what its `$ref` names.
    func resolved(_ node: Node) throws -> Node {
        guard let ref = node.mapping?["$ref"]?.string else { return node }
        let parts = ref.split(separator: "/").map(String.init)
        guard parts.count == 4, parts[0] == "#", parts[1] == "components",
              let target = components[parts[2]]?.mapping?[parts[3]] else {
            throw APIContract.WebModuleProblem.unresolvedReference(ref)
        }
        return try resolved(target)
    }

    /// The TypeScript type of a schema. `indent` is the depth its object literals start at.
    func type(of schema: Node, indent: Int) throws -> String {
        guard let mapping = schema.mapping else { return schema.bool == false ? "never" : "unknown" }
        if let ref = mapping["$ref"]?.string {
            _ = try resolved(schema)
            return String(ref.split(separator: "/").last ?? "unknown")
        }
        if let value = mapping["const"] { return literal(value, type: mapping["type"]?.string) }
        if let values = mapping["enum"]?.sequence {
            return unique(values.map { literal($0, type: mapping["type"]?.string) }).joined(separator: " | ")
        }
        if let choices = (mapping["oneOf"] ?? mapping["anyOf"])?.sequence {
            return unique(try choices.map { try type(of: $0, indent: indent) }).map(grouped).joined(separator: " | ")
        }
        if let parts = mapping["allOf"]?.sequence {
            // Keywords beside allOf only narrow it (bounds, a description).
            let types = try parts.map { try type(of: $0, indent: indent) }
            return types.count == 1 ? types[0] : types.map(grouped).joined(separator: " & ")
        }
        let types: [String]
        if let list = mapping["type"]?.sequence {
            types = list.compactMap(\.string)
        } else if let one = mapping["type"]?.string {
            types = [one]
        } else if mapping["properties"] != nil || mapping["additionalProperties"] != nil {
            types = ["object"]
        } else {
            return "unknown"
        }
        return try unique(types.map { try type(named: $0, of: mapping, indent: indent) }).map(grouped).joined(separator: " | ")
    }

    func type(named name: String, of schema: Node.Mapping, indent: Int) throws -> String {
        switch name {
        case "string": return schema["format"]?.string == "binary" ? "Blob" : "string"
        case "integer", "number": return "number"
        case "boolean": return "boolean"
        case "null": return "null"
        case "array":
            if let prefix = schema["prefixItems"]?.sequence {
                // A tuple; `items: false` closes it, else more items may follow.
                var parts = try prefix.map { try type(of: $0, indent: indent) }
                if let items = schema["items"] {
                    if items.bool != false { parts.append("...Array<\(try type(of: items, indent: indent))>") }
                } else {
                    parts.append("...unknown[]")
                }
                return "[" + parts.joined(separator: ", ") + "]"
            }
            guard let items = schema["items"] else { return "unknown[]" }
            return "Array<\(try type(of: items, indent: indent))>"
        case "object": return try object(of: schema, indent: indent)
        default: return "unknown"
        }
    }

    /// A schema that is an object of named properties as `@typedef {object}` with a
    /// `@property` for each, which carries its description; nil for any other schema.
    func properties(of schema: Node, name: String) throws -> String? {
        guard let mapping = schema.mapping, mapping["type"]?.string == "object" || (mapping["type"] == nil && mapping["properties"] != nil),
              let properties = mapping["properties"]?.mapping, !properties.isEmpty,
              mapping["additionalProperties"] == nil || mapping["additionalProperties"]?.bool == false,
              mapping["oneOf"] == nil, mapping["anyOf"] == nil, mapping["allOf"] == nil else { return nil }
        let required = Set(mapping["required"]?.sequence?.compactMap(\.string) ?? [])
        var text = "/**\n"
        if let description = description(of: schema) { text += " * \(oneLine(description))\n" }
        text += " * @typedef {object} \(name)\n"
        for (key, property) in properties {
            guard let key = key.string else { continue }
            let type = try type(of: property, indent: 1).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n * ")
            let field = required.contains(key) ? self.key(key) : "[\(self.key(key))]"
            text += " * @property {\(type)} \(field)" + (description(of: property).map { " " + oneLine($0) } ?? "") + "\n"
        }
        return text + " */\n"
    }

    func object(of schema: Node.Mapping, indent: Int) throws -> String {
        let required = Set(schema["required"]?.sequence?.compactMap(\.string) ?? [])
        let properties = schema["properties"]?.mapping ?? [:]
        let extra: String? = switch schema["additionalProperties"] {
        case nil: properties.isEmpty ? "unknown" : nil
        case .some(let node) where node.bool == false: nil
        case .some(let node) where node.bool == true: "unknown"
        case .some(let node): try type(of: node, indent: indent + 1)
        }
        if properties.isEmpty { return extra.map { "Record<string, \($0)>" } ?? "{}" }
        let pad = String(repeating: "  ", count: indent + 1)
        var lines: [String] = []
        for (name, property) in properties {
            guard let name = name.string else { continue }
            lines.append("\(pad)\(key(name))\(required.contains(name) ? "" : "?"): \(try type(of: property, indent: indent + 1)),")
        }
        let body = "{\n" + lines.joined(separator: "\n") + "\n" + String(repeating: "  ", count: indent) + "}"
        return extra.map { "\(body) & Record<string, \($0)>" } ?? body
    }

    func description(of schema: Node) -> String? {
        schema.mapping?["description"]?.string
    }

    // MARK: Text

    func doc(_ description: String?, typedef type: String, name: String) -> String {
        var text = "/**\n"
        if let description { text += " * \(oneLine(description))\n" }
        let lines = type.split(separator: "\n", omittingEmptySubsequences: false)
        text += " * @typedef {" + (lines.count == 1 ? type : lines.joined(separator: "\n * ")) + "} \(name)\n */\n"
        return text
    }

    /// One line, safe inside a block comment.
    func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            .replacingOccurrences(of: "*/", with: "*\\/")
    }

    func key(_ name: String) -> String {
        let identifier = name.first.map { $0.isLetter || $0 == "_" || $0 == "$" } == true
            && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
        return identifier ? name : literal(name)
    }

    func literal(_ text: String) -> String {
        var out = "'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }

    /// An `enum` or `const` value: a string unless it is a plain YAML number, boolean or null and
    /// the schema does not say `string`.
    func literal(_ value: Node, type: String?) -> String {
        guard let scalar = value.scalar else { return "unknown" }
        if scalar.style == .plain, type != "string" {
            if scalar.string == "null" || scalar.string == "~" { return "null" }
            if let bool = value.bool { return bool ? "true" : "false" }
            if value.int != nil || value.float != nil { return scalar.string }
        }
        return literal(scalar.string)
    }

    /// `type` in parentheses where it is a union or an intersection at its own top level.
    func grouped(_ type: String) -> String {
        var depth = 0
        var previous: Character = " "
        for character in type {
            switch character {
            case "{", "(", "<", "[": depth += 1
            case "}", ")", ">", "]": depth -= 1
            case "|" where depth == 0 && previous == " ", "&" where depth == 0 && previous == " ": return "(\(type))"
            default: break
            }
            previous = character
        }
        return type
    }

    func unique(_ types: [String]) -> [String] {
        var seen = Set<String>()
        return types.filter { seen.insert($0).inserted }
    }

    func wrapped(_ items: [String], width: Int, indent: String) -> [String] {
        var lines: [String] = []
        var line = ""
        for item in items {
            let piece = item + ","
            if !line.isEmpty, indent.count + line.count + 1 + piece.count > width {
                lines.append(indent + line)
                line = ""
            }
            line += line.isEmpty ? piece : " " + piece
        }
        if !line.isEmpty { lines.append(indent + line) }
        return lines
    }
}
