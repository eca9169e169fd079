/// The OpenAPI text of the field paths (DESIGN §3.10), spliced into ``OpenAPIDocument/yaml``:
/// `paths` at the end of its `paths:` section (indented two spaces, each ending in a newline),
/// `schemas` at the end of `components.schemas` (indented four spaces).
///
/// `GET /api/v1/paths/{id}.kml` is the `.kml` form of `{path_id}` (one route: Vapor's router
/// matches whole segments), so the document describes it there, with both answers' types.
enum FieldPathAPIDocument {
    static let paths = #"""
  /api/v1/paths:
    post:
      operationId: createFieldPath
      summary: Store a walked field path (signed in); the same Idempotency-Key answers the same path.
      description: |
        The points are [latitude, longitude, altitude or null, Unix seconds] about a second apart,
        as recorded; their times never go backwards (400 invalid_path names the first point that
        does). The path is closed into a polygon (the first point joins the last) whose geodesic
        area and perimeter on the WGS-84 ellipsoid are answered; fewer than 3 different places
        enclose nothing (area and perimeter null). At most 86,400 points (a day at one a second).
      security:
        - bearer: []
        - sessionCookie: []
      parameters:
        - name: Idempotency-Key
          in: header
          required: false
          description: A retry with the same key answers the path stored the first time (201), and stores nothing new; the same key with another path answers 409.
          schema: {type: string, pattern: "^[!-~]{1,255}$"}
      requestBody:
        required: true
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/NewFieldPath"
      responses:
        "201":
          description: Stored (or stored before under the same Idempotency-Key), with its points.
          headers:
            Location:
              schema: {type: string}
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/FieldPath"
        "400":
          description: "The body is not a path; the reason names the point (counted from 1) and the field (invalid_path, invalid_idempotency_key)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "409":
          description: "The Idempotency-Key was used for another path (idempotency_key_reused)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "413":
          description: "The body is larger than 8 MiB (payload_too_large), or has more than 86,400 points (too_many_points)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
    get:
      operationId: listFieldPaths
      summary: The signed-in user's field paths, newest first, without their points.
      security:
        - bearer: []
        - sessionCookie: []
      responses:
        "200":
          description: The user's paths.
          content:
            application/json:
              schema:
                type: object
                additionalProperties: false
                required: [items]
                properties:
                  items:
                    type: array
                    items:
                      $ref: "#/components/schemas/FieldPathSummary"
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "500":
          $ref: "#/components/responses/InternalError"
  /api/v1/paths/{path_id}:
    parameters:
      - name: path_id
        in: path
        required: true
        description: The path's id; for GET, the id followed by .kml asks for the KML export.
        schema: {type: string}
    get:
      operationId: getFieldPath
      summary: One of the user's field paths with its points, or as KML 2.2 (/api/v1/paths/{id}.kml); another user's answers 404.
      description: |
        /api/v1/paths/{id}.kml answers a KML 2.2 document (valid against the OGC schema) to
        download: a Placemark with a MultiGeometry of the closed Polygon (its outerBoundaryIs
        ring counter-clockwise, the first point repeated last) and the walked LineString, the
        name, a TimeSpan, and area (m²), areaHectares, perimeter, length, points, start and end
        in ExtendedData. A path of 2 places is only a LineString, of 1 place a Point.
      security:
        - bearer: []
        - sessionCookie: []
      responses:
        "200":
          description: The path (JSON), or its KML file for an id ending in .kml.
          headers:
            Content-Disposition:
              description: "For the KML: attachment; filename=\"<the path's name>.kml\"; filename*=UTF-8''…"
              schema: {type: string}
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/FieldPath"
            application/vnd.google-earth.kml+xml:
              schema: {type: string}
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "404":
          description: "Not the user's path, or no such path (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"
    delete:
      operationId: deleteFieldPath
      summary: Delete one of the user's field paths.
      security:
        - bearer: []
        - sessionCookie: []
      responses:
        "204":
          description: Deleted.
        "401":
          $ref: "#/components/responses/NotSignedIn"
        "403":
          $ref: "#/components/responses/AccountForbidden"
        "404":
          description: "Not the user's path, or no such path (not_found)."
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Error"
        "500":
          $ref: "#/components/responses/InternalError"

"""#

    static let schemas = #"""
    FieldPathPoint:
      type: array
      description: "[latitude °, longitude °, altitude m (WGS-84 ellipsoid) or null, Unix seconds]"
      minItems: 4
      maxItems: 4
      prefixItems:
        - {type: number, minimum: -90, maximum: 90}
        - {type: number, minimum: -180, maximum: 180}
        - {type: ["number", "null"], minimum: -12000, maximum: 100000}
        - {type: number, minimum: 946684800, exclusiveMaximum: 4102444800}
      items: false
    NewFieldPath:
      type: object
      additionalProperties: false
      required: [points]
      properties:
        name: {type: ["string", "null"], maxLength: 200, pattern: '^[^\x00-\x1F\x7F-\x9F\uFFFE\uFFFF]*$', description: "Trimmed; empty is no name."}
        points:
          type: array
          minItems: 1
          maxItems: 86400
          description: In the order recorded; no time earlier than the one before.
          items:
            $ref: "#/components/schemas/FieldPathPoint"
    FieldPathSummary:
      type: object
      additionalProperties: false
      required: [id, name, area, perimeter, length, pointCount, startedAt, endedAt, createdAt, kml]
      properties:
        id: {type: string, format: uuid}
        name: {type: ["string", "null"]}
        area: {type: ["number", "null"], minimum: 0, description: "m² of the closed polygon on WGS-84; null with fewer than 3 different places."}
        perimeter: {type: ["number", "null"], minimum: 0, description: "m round the closed polygon; null as area."}
        length: {type: number, minimum: 0, description: "m along the walk, not closed."}
        pointCount: {type: integer, minimum: 1, maximum: 86400}
        startedAt: {type: number, description: The first point's time, Unix seconds.}
        endedAt: {type: number, description: The last point's time, Unix seconds.}
        createdAt: {type: number, description: When the server stored it, Unix seconds.}
        kml: {type: string, description: The KML export's path.}
    FieldPath:
      type: object
      additionalProperties: false
      required: [id, name, area, perimeter, length, pointCount, startedAt, endedAt, createdAt, kml, points]
      properties:
        id: {type: string, format: uuid}
        name: {type: ["string", "null"]}
        area: {type: ["number", "null"], minimum: 0}
        perimeter: {type: ["number", "null"], minimum: 0}
        length: {type: number, minimum: 0}
        pointCount: {type: integer, minimum: 1, maximum: 86400}
        startedAt: {type: number}
        endedAt: {type: number}
        createdAt: {type: number}
        kml: {type: string}
        points:
          type: array
          items:
            $ref: "#/components/schemas/FieldPathPoint"

"""#
}
