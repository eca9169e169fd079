import WaymarkCore
import Yams

extension APIContract {
    /// One operation of the contract: what the server binds a handler to (by ``id``, the
    /// `operationId`) and what a client calls.
    public struct Operation: Hashable, Sendable {
        /// The `operationId`, unique in the document.
        public let id: String
        /// `GET`, `POST`, `PUT`, `PATCH` or `DELETE`.
        public let method: String
        /// The path as the contract writes it, `/api/v1/photos/{photo_id}`.
        public let path: String
        /// The operation's security requirements, each the sorted names of the schemes it needs
        /// together; `[]` inside the list is "no credentials" (OpenAPI's `{}`), and an empty list
        /// is an operation open to anyone (`security: []`). The document's own `security`
        /// applies where the operation names none.
        public let security: [[String]]

        public init(id: String, method: String, path: String, security: [[String]]) {
            self.id = id
            self.method = method
            self.path = path
            self.security = security
        }

        /// The path's segments; a `{name}` segment is a parameter.
        public var segments: [Segment] {
            path.split(separator: "/").map { part in
                part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .constant(String(part))
            }
        }

        public enum Segment: Hashable, Sendable {
            case constant(String)
            case parameter(String)
        }
    }

    /// Why the operations could not be read from the document.
    public enum OperationProblem: Error, Equatable, CustomStringConvertible {
        /// An operation has no `operationId` (method and path).
        case missingID(String)
        /// Two operations have the same `operationId`.
        case duplicateID(String)
        /// An operation's `security` is not a list of mappings (its id).
        case malformedSecurity(String)

        public var description: String {
            switch self {
            case .missingID(let where_): "the contract's operation \(where_) has no operationId"
            case .duplicateID(let id): "the contract names two operations \(id)"
            case .malformedSecurity(let id): "the contract's operation \(id) has a security that is not a list of requirements"
            }
        }
    }

    static let methods = ["get", "put", "post", "delete", "patch"]

    /// Every operation of the merged document, in the document's order.
    public static func operations() throws -> [Operation] {
        try operations(in: merged())
    }

    /// Every operation of `document`, in its order.
    public static func operations(in document: Node) throws(OperationProblem) -> [Operation] {
        let fallback = document.mapping?["security"]
        var seen = Set<String>()
        var found: [Operation] = []
        for (pathNode, item) in document.mapping?["paths"]?.mapping ?? [:] {
            guard let path = pathNode.string, let item = item.mapping else { continue }
            for (methodNode, operation) in item {
                guard let method = methodNode.string, methods.contains(method), let operation = operation.mapping else { continue }
                guard let id = operation["operationId"]?.string, !id.isEmpty else { throw .missingID("\(method.uppercased()) \(path)") }
                guard seen.insert(id).inserted else { throw .duplicateID(id) }
                let security = try requirements(operation["security"] ?? fallback, of: id)
                found.append(Operation(id: id, method: method.uppercased(), path: path, security: security))
            }
        }
        return found
    }

    /// The `operationId`s of one contract file (one of ``areas``), in its order: the operations an
    /// area of the server binds.
    public static func operationIDs(inFile name: String) throws -> [String] {
        guard let node = try Yams.compose(yaml: try file(name)) else { return [] }
        return try operations(in: node).map(\.id)
    }

    private static func requirements(_ node: Node?, of id: String) throws(OperationProblem) -> [[String]] {
        guard let node else { return [] }
        guard let list = node.sequence else { throw .malformedSecurity(id) }
        var result: [[String]] = []
        for requirement in list {
            guard let schemes = requirement.mapping else { throw .malformedSecurity(id) }
            result.append(schemes.keys.compactMap(\.string).sorted())
        }
        return result
    }
}

extension APIContract {
    /// The operation `id` of the merged contract (read from the resources once), as a client
    /// calls it.
    public static func operation(_ id: String) throws -> Operation {
        guard let operation = try table.get()[id] else { throw TargetProblem.unknownOperation(id) }
        return operation
    }

    private static let table = Result { () throws -> [String: Operation] in
        Dictionary(uniqueKeysWithValues: try operations().map { ($0.id, $0) })
    }

    /// Why a request target could not be made from the contract.
    public enum TargetProblem: Error, Equatable, CustomStringConvertible {
        /// The contract has no operation of this id.
        case unknownOperation(String)
        /// A `{name}` of the path was given no value, or an empty one (operation, name).
        case missingParameter(String, String)

        public var description: String {
            switch self {
            case .unknownOperation(let id): "the API contract has no operation \(id)"
            case .missingParameter(let id, let name): "\(id) needs a value for its path parameter \(name)"
            }
        }
    }
}

extension APIContract.Operation {
    /// The request target: the path with each `{name}` filled in from `parameters` as one
    /// percent-encoded segment (a "/" in a value cannot reach another path), then the query's
    /// items that have a value, in order.
    public func target(_ parameters: [String: String] = [:], query: [(String, String?)] = []) throws(APIContract.TargetProblem) -> String {
        var path = ""
        for segment in segments {
            switch segment {
            case .constant(let text):
                path += "/" + text
            case .parameter(let name):
                guard let value = parameters[name], !value.isEmpty else { throw .missingParameter(id, name) }
                path += "/" + PercentEncoding.unreserved(value)
            }
        }
        let items = query.compactMap { name, value in value.map { PercentEncoding.unreserved(name) + "=" + PercentEncoding.unreserved($0) } }
        return items.isEmpty ? path : path + "?" + items.joined(separator: "&")
    }
}
