import Foundation
import Vapor
import WaymarkCore

/// Field paths (DESIGN §3.10): a signed-in user stores the boundary they walked, lists, reads,
/// exports (KML 2.2) and deletes their own. Another user's path answers 404, as one that does
/// not exist. A retry of `POST` under the same `Idempotency-Key` answers the path stored the
/// first time (the offline page resends until it hears back).
struct FieldPathController: Sendable {
    let store: any FieldPathStore
    let clock: WallClock

    /// The KML export's media type.
    static let kmlType = "application/vnd.google-earth.kml+xml"

    func register(on routes: ContractRoutes) {
        routes.on("createFieldPath", body: .collect(maxSize: ByteCount(value: ServerConfiguration.maxBodySize)), use: create)
        routes.on("listFieldPaths", use: list)
        // One parameter serves both /api/v1/paths/{id} and /api/v1/paths/{id}.kml: Vapor's router
        // matches whole path segments only.
        routes.on("getFieldPath", use: find)
        routes.on("deleteFieldPath", use: delete)
    }

    /// A checked path, measured, with its points as the JSON text that is stored.
    struct Prepared: Sendable {
        var name: String?
        var points: String
        var count: Int
        var measurement: FieldPath.Measurement
        var startedAt: Date
        var endedAt: Date
    }

    @Sendable func create(_ request: Request) async throws -> Response {
        let owner = try request.auth.require(SignedInUser.self).account.id
        let key = try IdempotencyKey.of(request)
        let write = try await IdempotentWrite(key: key) { try await store.path(owner: owner, idempotencyKey: $0) }
        let body = request.body.data.map { Data($0.readableBytesView) } ?? Data()
        // A day's walk is 86,400 points: decoding and measuring them is not for the event loop.
        // A retry is checked as the first request was: a malformed one is refused here.
        let prepared = try await request.application.threadPool.runIfActive { try Self.prepare(body) }
        let outcome = try await write.answer(
            sameRequest: { $0.name == prepared.name && $0.points == prepared.points },
            reused: APIError(.conflict, .idempotencyKeyReused, "This Idempotency-Key was used for another path; send a new path under a new key.")
        ) {
            let path = StoredFieldPath(
                id: UUID(), ownerID: owner, name: prepared.name, pointCount: prepared.count,
                area: prepared.measurement.polygon?.area, perimeter: prepared.measurement.polygon?.perimeter,
                length: prepared.measurement.length, startedAt: prepared.startedAt, endedAt: prepared.endedAt,
                createdAt: clock.now(), idempotencyKey: key, points: prepared.points)
            try await store.insert(path)
            request.logger.info("field path stored", metadata: ["path": "\(path.id)", "points": "\(path.pointCount)"])
            return path
        }
        return try Self.created(outcome.made)
    }

    @Sendable func list(_ request: Request) async throws -> Response {
        let owner = try request.auth.require(SignedInUser.self).account.id
        let paths = try await store.paths(owner: owner)
        return try Response.json(FieldPathList(items: paths.map(FieldPathDTO.init)))
    }

    @Sendable func find(_ request: Request) async throws -> Response {
        let owner = try request.auth.require(SignedInUser.self).account.id
        let parameter = request.parameters.get("path_id") ?? ""
        let kml = parameter.hasSuffix(".kml")
        guard let id = UUID(uuidString: kml ? String(parameter.dropLast(4)) : parameter),
              let path = try await store.path(id: id, owner: owner)
        else { throw Self.notFound }
        if kml { return try await Self.kml(path, request) }
        var headers = HTTPHeaders()
        headers.contentType = .json
        headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
        return Response(status: .ok, headers: headers, body: .init(data: try FieldPathDTO.json(path)))
    }

    @Sendable func delete(_ request: Request) async throws -> Response {
        let owner = try request.auth.require(SignedInUser.self).account.id
        guard let id = request.uuidParameter("path_id"),
              try await store.delete(id: id, owner: owner)
        else { throw Self.notFound }
        request.logger.info("field path deleted", metadata: ["path": "\(id)"])
        return Response(status: .noContent)
    }

    static let notFound = APIError(.notFound, .notFound, "You have no field path with this id; GET /api/v1/paths lists yours.")

    // MARK: Parts

    /// Decodes, checks and measures a body of `POST /api/v1/paths`.
    static func prepare(_ body: Data) throws -> Prepared {
        let path: FieldPath
        do {
            path = try FieldPath.decode(json: body)
        } catch {
            throw Self.error(error)
        }
        let measurement: FieldPath.Measurement
        do {
            measurement = try path.measure()
        } catch {
            let index = if case let .unresolvedEdge(index) = error { index } else { 0 }
            throw APIError.badRequest(.invalidPath, "Points \(index + 1) and \(index + 2) are nearly opposite each other on the Earth; a walked path has no such step.")
        }
        return Prepared(name: path.name, points: try pointsJSON(path.points), count: path.points.count, measurement: measurement,
                        startedAt: path.points[0].time, endedAt: path.points[path.points.count - 1].time)
    }

    /// Points as `[[lat, lon, alt | null, unixTime], …]`, each number as short as reads back exactly.
    static func pointsJSON(_ points: [FieldPath.Point]) throws -> String {
        let rows: [[Double?]] = points.map { [$0.latitude, $0.longitude, $0.altitude, $0.time.timeIntervalSince1970] }
        return String(decoding: try JSONEncoder().encode(rows), as: UTF8.self)
    }

    /// The stored path's points, as ``pointsJSON(_:)`` wrote them.
    static func points(_ path: StoredFieldPath) throws -> [FieldPath.Point] {
        let rows = try JSONDecoder().decode([[Double?]].self, from: Data((path.points ?? "[]").utf8))
        return rows.map { row in
            FieldPath.Point(latitude: row[0] ?? .nan, longitude: row[1] ?? .nan, altitude: row[2],
                            time: Date(timeIntervalSince1970: row[3] ?? .nan))
        }
    }

    static func created(_ path: StoredFieldPath) throws -> Response {
        var headers = HTTPHeaders()
        headers.contentType = .json
        headers.replaceOrAdd(name: .location, value: "/api/v1/paths/\(path.id.uuidString.lowercased())")
        return Response(status: .created, headers: headers, body: .init(data: try FieldPathDTO.json(path)))
    }

    /// The path as a KML 2.2 file to download.
    static func kml(_ stored: StoredFieldPath, _ request: Request) async throws -> Response {
        let document = try await request.application.threadPool.runIfActive {
            try FieldPath(name: stored.name, points: try points(stored)).kml()
        }
        var headers = HTTPHeaders()
        headers.replaceOrAdd(name: .contentType, value: kmlType)
        headers.replaceOrAdd(name: .contentDisposition, value: contentDisposition(for: stored))
        headers.replaceOrAdd(name: .cacheControl, value: "private, no-cache")
        return Response(status: .ok, headers: headers, body: .init(data: document))
    }

    /// `attachment; filename="<name>.kml"` (``Attachment``), else `field-path-<start date>`.
    static func contentDisposition(for path: StoredFieldPath) -> String {
        Attachment.disposition(name: path.name, fallback: "field-path-" + Attachment.day(path.startedAt), extension: "kml")
    }

    /// The answer to a body that is not a path.
    static func error(_ error: FieldPathError) -> APIError {
        let what = String(error.description.prefix(1)).uppercased() + error.description.dropFirst()
        switch error {
        case .tooManyPoints:
            return APIError(.payloadTooLarge, .tooManyPoints, what + "; split the walk into several paths.")
        case .notAJSONObject, .unknownField, .missingPoints:
            return .badRequest(.invalidPath, what + ". Send {\"name\": \"…\" (optional), \"points\": [[latitude, longitude, altitude or null, unixSeconds], …]}.")
        default:
            return .badRequest(.invalidPath, what + ".")
        }
    }
}
