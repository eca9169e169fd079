import Vapor
import WaymarkAPI

/// The API's route table is its contract (DESIGN §3.3): a handler is bound to an `operationId`,
/// and the operation's method, path and security come from the contract's files. An area says
/// only which handler answers which operation:
///
///     routes.on("getTask", use: find)
///
/// The route goes on the group that authenticates what the operation's `security` asks for: open
/// to anyone, a session if there is one, a session required, or a signed request. When every
/// area has bound its handlers, ``verify(_:)`` refuses to start a server with an operation that has
/// no handler, a handler bound twice, or an API route that is not in the contract.
final class ContractRoutes {
    /// Who may call an operation, as its contract's `security` says; each has its group of
    /// middleware.
    enum Access: Hashable, CustomStringConvertible {
        /// `security: []`.
        case anyone
        /// `[{}, bearer, sessionCookie]`: anyone, and a session is read when one is sent.
        case optionalSession
        /// `[bearer, sessionCookie]`: 401 without a session.
        case session
        /// The document's default: a request signed with a device key (version 2).
        case signature
        /// `[owntracksBasic]`: HTTP Basic with an OwnTracks device's secret (DESIGN §3.13).
        case owntracks

        var description: String {
            switch self {
            case .anyone: "open to anyone"
            case .optionalSession: "a session if there is one"
            case .session: "a session"
            case .signature: "a signed request"
            case .owntracks: "an OwnTracks device's Basic credentials"
            }
        }

        /// The access a contract's security requirements describe, or nil when this server has no
        /// group for them.
        init?(_ security: [[String]]) {
            switch Set(security.map { Set($0) }) {
            case [], [[]]: self = .anyone
            case [[], ["bearer"], ["sessionCookie"]]: self = .optionalSession
            case [["bearer"], ["sessionCookie"]]: self = .session
            case [["apiKey", "apiNonce", "apiSignature", "apiSignedHeaders", "apiTimestamp"]]: self = .signature
            case [["owntracksBasic"]]: self = .owntracks
            default: return nil
            }
        }
    }

    /// Why the server does not start.
    enum Problem: Error, Equatable, CustomStringConvertible {
        /// A handler was bound to an operationId the contract does not have.
        case unknownOperation(String)
        /// Two handlers were bound to one operation.
        case boundTwice(String)
        /// The operation's security has no group on this server (operation, its security).
        case unsupportedSecurity(String, [[String]])
        /// The operation's access has no group among the ones given (operation, access).
        case noGroup(String, Access)
        /// Operations no handler was bound to.
        case unbound([String])
        /// API routes registered outside the contract (`GET /api/v1/…`).
        case outsideContract([String])
        /// An area bound an operation of another area's file (operation, the area's file).
        case otherArea(String, String)

        var description: String {
            switch self {
            case .unknownOperation(let id): "a handler is bound to \(id), which the contract does not have"
            case .boundTwice(let id): "two handlers are bound to the contract's operation \(id)"
            case .unsupportedSecurity(let id, let security): "the contract's operation \(id) asks for security \(security), which this server does not authenticate"
            case .noGroup(let id, let access): "the contract's operation \(id) needs \(access), and no route group for it was given"
            case .unbound(let ids): "the contract's operations \(ids.joined(separator: ", ")) have no handler"
            case .outsideContract(let routes): "the routes \(routes.joined(separator: ", ")) are served but not in the contract"
            case .otherArea(let id, let file): "the area of \(file).yaml binds \(id), an operation of another area's file"
            }
        }
    }

    /// The operations and what was bound to them, shared by every view made with ``routing(_:to:)``.
    private final class Table {
        let operations: [String: APIContract.Operation]
        var bound: [String: Route] = [:]
        /// Operations another server answers (the plain-HTTP side's `/pair`).
        var elsewhere: Set<String> = []
        var problems: [Problem] = []

        init(_ operations: [APIContract.Operation]) {
            self.operations = Dictionary(operations.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    private let table: Table
    private let groups: [Access: any RoutesBuilder]
    /// The contract file whose operations alone this view binds (``area(_:operations:)``).
    private let area: (file: String, operations: Set<String>)?

    /// The contract's `operations`, each bound on the group of its access.
    init(_ operations: [APIContract.Operation], groups: [Access: any RoutesBuilder]) {
        table = Table(operations)
        self.groups = groups
        area = nil
    }

    private init(table: Table, groups: [Access: any RoutesBuilder], area: (file: String, operations: Set<String>)?) {
        self.table = table
        self.groups = groups
        self.area = area
    }

    /// The same table with `group` for `access`: an area whose handlers need more middleware on
    /// the group (the route uploads' nonce recording) binds them through this.
    func routing(_ access: Access, to group: any RoutesBuilder) -> ContractRoutes {
        var groups = self.groups
        groups[access] = group
        return ContractRoutes(table: table, groups: groups, area: area)
    }

    /// The same table for one area (``ServerArea``): binding an operation that is not among
    /// `operations`, those of the area's `file`, is a problem.
    func area(_ file: String, operations: some Sequence<String>) -> ContractRoutes {
        ContractRoutes(table: table, groups: groups, area: (file, Set(operations)))
    }

    /// Binds `handler` to the operation `id`. A problem (an unknown id, a second binding) is kept
    /// for ``verify(_:)`` and binds nothing.
    @discardableResult
    func on<Answer: AsyncResponseEncodable>(
        _ id: String, body: HTTPBodyStreamStrategy = .collect, use handler: @Sendable @escaping (Request) async throws -> Answer
    ) -> Route? {
        guard let operation = table.operations[id] else { table.problems.append(.unknownOperation(id)); return nil }
        if let area, !area.operations.contains(id) { table.problems.append(.otherArea(id, area.file)); return nil }
        guard table.bound[id] == nil, !table.elsewhere.contains(id) else { table.problems.append(.boundTwice(id)); return nil }
        guard let access = Access(operation.security) else { table.problems.append(.unsupportedSecurity(id, operation.security)); return nil }
        guard let group = groups[access] else { table.problems.append(.noGroup(id, access)); return nil }
        let path: [PathComponent] = operation.segments.map { segment in
            switch segment {
            case .constant(let value): .constant(value)
            case .parameter(let name): .parameter(name)
            }
        }
        // Each handler is cancelled when its client leaves (GatedServer.swift).
        let route = group.on(HTTPMethod(rawValue: operation.method), path, body: body) { request async throws -> Response in
            try await request.cancelledWhenClientLeaves { try await handler(request).encodeResponse(for: request) }
        }
        table.bound[id] = route
        return route
    }

    /// Marks the operation `id` as answered by another server of this process (it then has no
    /// handler here).
    func servedElsewhere(_ id: String) {
        guard table.operations[id] != nil else { table.problems.append(.unknownOperation(id)); return }
        if let area, !area.operations.contains(id) { table.problems.append(.otherArea(id, area.file)); return }
        guard table.bound[id] == nil, table.elsewhere.insert(id).inserted else { table.problems.append(.boundTwice(id)); return }
    }

    /// Throws the first problem: a binding that failed, an operation without a handler, or a route
    /// of `routes` under the contract's prefixes (`/api/`, `/route`) that no operation bound.
    func verify(_ routes: Routes) throws(Problem) {
        if let problem = table.problems.first { throw problem }
        let unbound = table.operations.keys.filter { table.bound[$0] == nil && !table.elsewhere.contains($0) }
        guard unbound.isEmpty else { throw .unbound(unbound.sorted()) }
        let ours = Set(table.bound.values.map(ObjectIdentifier.init))
        let outside = routes.all.filter { route in
            guard !ours.contains(ObjectIdentifier(route)), case .constant(let first)? = route.path.first else { return false }
            return first == "api" || first == "route"
        }
        guard outside.isEmpty else {
            throw .outsideContract(outside.map { "\($0.method.rawValue) /\($0.path.map(\.description).joined(separator: "/"))" }.sorted())
        }
    }
}
